package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.JsonArrays;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.Baselines;
import org.psdkit.density.DensityDiagnostics;
import org.psdkit.density.DensityModel;
import org.psdkit.density.GlmDensity;
import org.psdkit.density.Kde;
import org.psdkit.density.LinearDensity;
import org.psdkit.density.PsdDensity;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/**
 * Model types {@code psd-density}, {@code ncm-density}, {@code pnm-density}, {@code glm-density} and {@code kde}:
 * densities p = f·ν. The model works in the scaled feature space; {@code predict} returns the density of the RAW
 * inputs, i.e. the scaled-space density times the Jacobian 1/Π scale_t. {@code eval} reports {@code loglik} (mean
 * log p over the rows), {@code integral} (∫ f dν), {@code min_density} and {@code negative_fraction} over the rows.
 */
public final class DensityKind implements ModelKind {
    private final String type;

    public DensityKind(String type) {
        this.type = type;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public String description() {
        return switch (type) {
            case PsdDensity.TYPE -> "density p = f·ν with f a PSD model (seed 002 eq. 12)";
            case Baselines.NCM -> "density baseline: non-negative coefficients on the simplex (seed 002 eq. 35)";
            case Baselines.PNM -> "density baseline: non-negative at the data only, ∫f dν = 1 (seed 002 eq. 37)";
            case Baselines.GLM -> "density baseline: exp-linear with Monte-Carlo normaliser (seed 002 eq. 33)";
            default -> "Gaussian kernel density estimate, bandwidth by likelihood cross-validation";
        };
    }

    /** Writes the model's numbers, diagnostics and base measure into a model document. */
    static void store(ObjectNode doc, DensityModel m) {
        ObjectNode num = doc.putObject("numbers");
        num.put("base", m.base().spec());
        DensityDiagnostics dg = null;
        if (m instanceof PsdDensity p) {
            num.set("points", JsonArrays.rows(p.points()));
            num.set("factor", JsonArrays.rows(p.factor()));
            dg = p.diagnostics();
        } else if (m instanceof LinearDensity l) {
            num.set("points", JsonArrays.rows(l.points()));
            num.set("alpha", JsonArrays.of(l.alpha()));
            dg = l.diagnostics();
        } else if (m instanceof GlmDensity g) {
            num.set("points", JsonArrays.rows(g.points()));
            num.set("alpha", JsonArrays.of(g.alpha()));
            num.put("logZ", g.logZ());
            num.put("mcSeed", g.seed());
            dg = g.diagnostics();
        } else if (m instanceof Kde k) {
            num.set("points", JsonArrays.rows(k.points()));
            num.put("bandwidth", k.bandwidth());
        }
        ObjectNode d = doc.putObject("diagnostics");
        if (dg != null) {
            d.put("objective", dg.objective());
            d.put("dual", dg.dual());
            d.put("relativeGap", dg.relativeGap());
            d.put("iterations", dg.iterations());
            d.put("seconds", dg.seconds());
            d.put("converged", dg.converged());
            d.put("integralBeforeRescale", dg.integralBeforeRescale());
            d.put("rank", dg.rank());
        }
    }

    /** Rebuilds the density (scaled space) from a document. */
    static DensityModel restore(JsonNode doc, Path file, ModelDocs.Header h) {
        String where = "model file " + file;
        JsonNode num = doc.get("numbers");
        if (num == null || !num.isObject()) {
            throw new IllegalArgumentException(where + ": missing \"numbers\" object");
        }
        int d = h.featureNames().length;
        Matrix pts = JsonArrays.matrix(num.get("points"), d, where + ": numbers.points");
        if (h.type().equals(Kde.TYPE)) {
            return new Kde(pts, ModelDocs.number(num, "bandwidth", where + ": numbers"), Double.NaN);
        }
        BaseMeasure base = BaseMeasure.parse(ModelDocs.text(num, "base", where + ": numbers"), d);
        Kernel k = h.kernel(where);
        switch (h.type()) {
            case PsdDensity.TYPE -> {
                JsonNode f = num.get("factor");
                int q = f != null && f.isArray() && f.size() > 0 && f.get(0).isArray() ? f.get(0).size() : 0;
                Matrix r = JsonArrays.matrix(f, q, where + ": numbers.factor");
                return new PsdDensity(k, pts, r, base, null);
            }
            case Baselines.GLM -> {
                double[] a = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
                return new GlmDensity(k, pts, a, ModelDocs.number(num, "logZ", where + ": numbers"), base, null,
                        (long) ModelDocs.number(num, "mcSeed", where + ": numbers"));
            }
            default -> {
                double[] a = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
                return new LinearDensity(h.type(), k, pts, a, base, null);
            }
        }
    }

    @Override
    public LoadedModel load(JsonNode doc, Path file) {
        ModelDocs.Header h = ModelDocs.header(doc, file);
        return new Loaded(h, restore(doc, file, h));
    }

    /** log |det| of the raw→scaled map: −Σ log scale_t (0 without scaling). */
    static double logJacobian(Scaler s) {
        if (s.kind() == Scaler.Kind.NONE) {
            return 0;
        }
        double l = 0;
        for (double v : s.scale()) {
            l -= Math.log(v);
        }
        return l;
    }

    /** Maps scaled-space points back to raw coordinates. */
    static Matrix unscale(Scaler s, Matrix z) {
        if (s.kind() == Scaler.Kind.NONE) {
            return z.copy();
        }
        Matrix out = z.copy();
        for (int i = 0; i < z.rows(); i++) {
            for (int t = 0; t < z.cols(); t++) {
                out.set(i, t, z.get(i, t) * s.scale()[t] + s.offset()[t]);
            }
        }
        return out;
    }

    /** A density model file as predict/eval/sample see it. */
    static final class Loaded implements LoadedModel {
        final ModelDocs.Header header;
        final DensityModel model;

        Loaded(ModelDocs.Header header, DensityModel model) {
            this.header = header;
            this.model = model;
        }

        @Override
        public String type() {
            return header.type();
        }

        @Override
        public String[] featureNames() {
            return header.featureNames().clone();
        }

        @Override
        public String targetName() {
            return null;
        }

        @Override
        public boolean unsupervised() {
            return true;
        }

        @Override
        public String[] outputColumns() {
            return new String[] {"density"};
        }

        @Override
        public Matrix predict(Matrix rawX) {
            double[] p = density(rawX);
            return Matrix.wrap(p.length, 1, p);
        }

        double[] density(Matrix rawX) {
            if (rawX.cols() != header.featureNames().length) {
                throw new IllegalArgumentException("the model takes " + header.featureNames().length
                        + " features, got " + rawX.cols());
            }
            double[] p = model.density(header.scaler().apply(rawX));
            double jac = Math.exp(logJacobian(header.scaler()));
            for (int i = 0; i < p.length; i++) {
                p[i] *= jac;
            }
            return p;
        }

        @Override
        public Map<String, Object> evaluate(Dataset raw) {
            double[] p = density(raw.x());
            double ll = 0;
            double min = Double.POSITIVE_INFINITY;
            int neg = 0;
            for (double v : p) {
                ll += v > 0 ? Math.log(v) : Double.NEGATIVE_INFINITY;
                min = Math.min(min, v);
                if (v < 0) {
                    neg++;
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("loglik", ll / p.length);
            m.put("integral", model.integral());
            m.put("min_density", min);
            m.put("negative_fraction", (double) neg / p.length);
            return m;
        }
    }

    static Map<String, Object> diagnosticsReport(DensityModel m) {
        Map<String, Object> r = new LinkedHashMap<>();
        DensityDiagnostics dg = m instanceof PsdDensity p ? p.diagnostics()
                : m instanceof LinearDensity l ? l.diagnostics() : m instanceof GlmDensity g ? g.diagnostics() : null;
        if (dg != null) {
            r.put("objective", dg.objective());
            r.put("duality_gap", dg.relativeGap());
            r.put("iterations", dg.iterations());
            r.put("converged", dg.converged());
        }
        if (m instanceof Kde k) {
            r.put("bandwidth", k.bandwidth());
            r.put("loo_loglik", k.looLogLikelihood());
        }
        r.put("integral", m.integral());
        return r;
    }
}
