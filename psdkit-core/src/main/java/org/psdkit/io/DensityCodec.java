package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.Baselines;
import org.psdkit.density.DensityDiagnostics;
import org.psdkit.density.DensityModel;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.GlmDensity;
import org.psdkit.density.Kde;
import org.psdkit.density.LinearDensity;
import org.psdkit.density.PsdDensity;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;

/**
 * Model files of the density types {@code psd-density}, {@code ncm-density}, {@code pnm-density},
 * {@code glm-density} and {@code kde} (one codec instance per type): {@code numbers} holds the base measure and the
 * expansion points, plus the factor R of f = ‖Rᵀ v(x)‖² (PSD), the coefficients α (NCM, PNM, GLM), log Z and the
 * Monte-Carlo seed (GLM) or the bandwidth (KDE). All numbers are in the scaled space of the model's scaler.
 */
final class DensityCodec implements ModelCodec {
    private final String type;

    DensityCodec(String type) {
        if (!DensityPipeline.TYPES.contains(type)) {
            throw new IllegalArgumentException("not a density type: " + type);
        }
        this.type = type;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public String description() {
        return switch (type) {
            case PsdDensity.TYPE -> "density p = f·ν with f a PSD model (Marteau-Ferey, Bach & Rudi 2020, eq. 12)";
            case Baselines.NCM -> "density baseline: non-negative coefficients on the simplex "
                    + "(Marteau-Ferey, Bach & Rudi 2020, eq. 35)";
            case Baselines.PNM -> "density baseline: non-negative at the data only, ∫f dν = 1 "
                    + "(Marteau-Ferey, Bach & Rudi 2020, eq. 37)";
            case Baselines.GLM -> "density baseline: exp-linear with Monte-Carlo normaliser "
                    + "(Marteau-Ferey, Bach & Rudi 2020, eq. 33)";
            default -> "Gaussian kernel density estimate, bandwidth by likelihood cross-validation";
        };
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof DensityPipeline && type.equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        DensityPipeline p = (DensityPipeline) model;
        DensityModel m = p.inner();
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.put("base", m.base().spec());
        if (m instanceof PsdDensity d) {
            num.set("points", JsonArrays.rows(d.points()));
            num.set("factor", JsonArrays.rows(d.factor()));
        } else if (m instanceof LinearDensity l) {
            num.set("points", JsonArrays.rows(l.points()));
            num.set("alpha", JsonArrays.of(l.alpha()));
        } else if (m instanceof GlmDensity g) {
            num.set("points", JsonArrays.rows(g.points()));
            num.set("alpha", JsonArrays.of(g.alpha()));
            num.put("logZ", g.logZ());
            num.put("mcSeed", g.seed());
            if (Double.isFinite(g.logZStandardError())) {
                // log Z is the importance-sampling estimate; written only then (older files lack both)
                num.put("logZStandardError", g.logZStandardError());
                num.put("trainingLogZ", g.trainingLogZ());
            }
        } else if (m instanceof Kde k) {
            num.set("points", JsonArrays.rows(k.points()));
            num.put("bandwidth", k.bandwidth());
        }
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        int d = h.d();
        Matrix pts = JsonArrays.matrix(num.get("points"), d, where + ": numbers.points");
        DensityModel m;
        if (type.equals(Kde.TYPE)) {
            m = new Kde(pts, ModelDocs.number(num, "bandwidth", where + ": numbers"), Double.NaN);
        } else {
            BaseMeasure base = BaseMeasure.parse(ModelDocs.text(num, "base", where + ": numbers"), d);
            Kernel k = ModelDocs.kernel(h, where);
            switch (type) {
                case PsdDensity.TYPE -> {
                    JsonNode f = num.get("factor");
                    int q = f != null && f.isArray() && f.size() > 0 && f.get(0).isArray() ? f.get(0).size() : 0;
                    Matrix r = JsonArrays.matrix(f, q, where + ": numbers.factor");
                    m = new PsdDensity(k, pts, r, base, null);
                }
                case Baselines.GLM -> {
                    double[] a = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
                    double rse = num.has("logZStandardError")
                            ? ModelDocs.number(num, "logZStandardError", where + ": numbers") : Double.NaN;
                    double trainingLogZ = num.has("trainingLogZ")
                            ? ModelDocs.number(num, "trainingLogZ", where + ": numbers") : Double.NaN;
                    m = new GlmDensity(k, pts, a, ModelDocs.number(num, "logZ", where + ": numbers"), rse,
                            trainingLogZ, base, null, (long) ModelDocs.number(num, "mcSeed", where + ": numbers"));
                }
                default -> {
                    double[] a = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
                    m = new LinearDensity(type, k, pts, a, base, null);
                }
            }
        }
        java.util.Map<String, Object> diag = ModelDocs.diagnostics(doc);
        org.psdkit.model.Diagnostics typed = diag.containsKey("engine") ? DensityDiagnostics.OnEngine.fromMap(diag)
                : DensityDiagnostics.fromMap(diag);
        return new DensityPipeline(h, m, typed != null ? typed : org.psdkit.model.Diagnostics.recorded(diag));
    }
}
