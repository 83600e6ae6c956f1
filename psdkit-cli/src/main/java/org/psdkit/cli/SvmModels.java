package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.mkl.GaussPolyLibrary;
import org.psdkit.mkl.WeightedSumKernel;
import org.psdkit.model.Predictor;
import org.psdkit.svm.BinaryLabels;

/**
 * Model files of the SVM family ({@code svm}, {@code tk-svm}, {@code simplemkl}): support vectors (scaled space),
 * coefficients α_i y_i, bias, the two class labels and the kernel. {@code svm} stores a kernel string; the learned
 * kernels store their numbers: {@code tk-svm} the matrix P and the box, {@code simplemkl} the weighted components.
 */
final class SvmModels {

    private SvmModels() {
    }

    /** Labels of a classification training set (text tokens, or the numeric target). */
    static String[] labelTokens(Dataset raw) {
        if (raw.labels() != null) {
            return raw.labels();
        }
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no target column");
        }
        String[] t = new String[raw.n()];
        for (int i = 0; i < t.length; i++) {
            t[i] = Double.toString(raw.y()[i]);
        }
        return t;
    }

    /** The decision function Σ c_i k(s_i, x) + b on scaled inputs. */
    record Decision(Kernel kernel, Matrix sv, double[] coef, double bias, BinaryLabels labels) implements Predictor {
        @Override
        public String type() {
            return "svm";
        }

        @Override
        public String[] outputColumns() {
            return new String[] {"decision"};
        }

        @Override
        public Matrix predict(Matrix x) {
            double[] f = new double[x.rows()];
            if (sv.rows() > 0) {
                f = kernel.cross(x, sv).times(coef);
            }
            for (int i = 0; i < f.length; i++) {
                f[i] += bias;
            }
            return Matrix.column(f);
        }
    }

    /** Writes numbers shared by the three types. */
    static void storeSvm(ObjectNode doc, Matrix xScaled, double[] y, double[] alpha, double bias, BinaryLabels labels,
                         double c) {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < alpha.length; i++) {
            if (alpha[i] > 0) {
                idx.add(i);
            }
        }
        int[] ix = idx.stream().mapToInt(Integer::intValue).toArray();
        double[] coef = new double[ix.length];
        for (int t = 0; t < ix.length; t++) {
            coef[t] = alpha[ix[t]] * y[ix[t]];
        }
        ((ObjectNode) doc.get("options")).put("C", c);
        ObjectNode num = doc.putObject("numbers");
        num.set("labels", JsonArrays.of(new String[] {labels.negative(), labels.positive()}));
        num.put("bias", bias);
        num.set("coef", JsonArrays.of(coef));
        num.set("supportVectors", JsonArrays.rows(xScaled.selectRows(ix)));
    }

    /** JSON description of a learned kernel (tessellated or weighted sum of library members). */
    static JsonNode kernelJson(Kernel k) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (k instanceof TessellatedKernel t) {
            ObjectNode o = f.objectNode();
            o.put("type", "tessellated");
            o.put("features", t.features());
            o.put("degree", t.degree());
            o.put("a", t.lower());
            o.put("b", t.upper());
            o.put("orthant", t.orthant().name().toLowerCase(Locale.ROOT));
            o.set("P", JsonArrays.rows(t.p()));
            return o;
        }
        if (k instanceof GaussPolyLibrary.Member mem) {
            ObjectNode o = f.objectNode();
            o.put("type", mem.sigma() > 0 ? "gaussian" : "polynomial");
            if (mem.sigma() > 0) {
                o.put("sigma", mem.sigma());
            } else {
                o.put("degree", mem.degree());
            }
            o.put("feature", mem.feature());
            o.put("traceScale", mem.traceScale());
            if (mem.std() != null) {
                o.set("center", JsonArrays.of(mem.std().center()));
                o.set("scale", JsonArrays.of(mem.std().scale()));
            }
            return o;
        }
        if (k instanceof WeightedSumKernel w) {
            ObjectNode o = f.objectNode();
            o.put("type", "sum");
            ArrayNode parts = o.putArray("parts");
            double[] ws = w.weights();
            for (int i = 0; i < ws.length; i++) {
                ObjectNode p = f.objectNode();
                p.put("weight", ws[i]);
                p.set("kernel", kernelJson(w.parts().get(i)));
                parts.add(p);
            }
            return o;
        }
        ObjectNode o = f.objectNode();
        o.put("type", "spec");
        o.put("spec", k.spec());
        return o;
    }

    static Kernel kernelFromJson(JsonNode o, int features, String where) {
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException(where + ": missing kernel object");
        }
        String type = ModelDocs.text(o, "type", where);
        switch (type) {
            case "tessellated" -> {
                int n = (int) ModelDocs.number(o, "features", where);
                if (n != features) {
                    throw new IllegalArgumentException(where + ": kernel on " + n + " features, model has "
                            + features);
                }
                int d = (int) ModelDocs.number(o, "degree", where);
                int q = TessellatedKernel.monomialCount(n, d);
                Matrix p = JsonArrays.matrix(o.get("P"), 2 * q, where + ".P");
                String orth = ModelDocs.text(o, "orthant", where).toUpperCase(Locale.ROOT);
                TessellatedKernel.Orthant ot;
                try {
                    ot = TessellatedKernel.Orthant.valueOf(orth);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(where + ": unknown orthant '" + orth + "'");
                }
                return new TessellatedKernel(n, d, ModelDocs.number(o, "a", where), ModelDocs.number(o, "b", where),
                        p, ot);
            }
            case "gaussian", "polynomial" -> {
                int feat = (int) ModelDocs.number(o, "feature", where);
                if (feat < -1 || feat >= features) {
                    throw new IllegalArgumentException(where + ": feature index " + feat + " out of range");
                }
                double ts = ModelDocs.number(o, "traceScale", where);
                GaussPolyLibrary.Standardization std = null;
                if (o.has("center") || o.has("scale")) {
                    double[] c = JsonArrays.doubles(o.get("center"), where + ".center");
                    double[] sc = JsonArrays.doubles(o.get("scale"), where + ".scale");
                    if (c.length != features || sc.length != features) {
                        throw new IllegalArgumentException(where + ": center and scale need " + features
                                + " values each, got " + c.length + " and " + sc.length);
                    }
                    try {
                        std = new GaussPolyLibrary.Standardization(c, sc);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(where + ": " + e.getMessage());
                    }
                }
                if (type.equals("gaussian")) {
                    double s = ModelDocs.number(o, "sigma", where);
                    if (!(s > 0)) {
                        throw new IllegalArgumentException(where + ": sigma must be > 0, got " + s);
                    }
                    return new GaussPolyLibrary.Member(s, 0, feat, ts, std);
                }
                int deg = (int) ModelDocs.number(o, "degree", where);
                if (deg < 1) {
                    throw new IllegalArgumentException(where + ": degree must be >= 1, got " + deg);
                }
                return new GaussPolyLibrary.Member(0, deg, feat, ts, std);
            }
            case "sum" -> {
                JsonNode parts = o.get("parts");
                if (parts == null || !parts.isArray()) {
                    throw new IllegalArgumentException(where + ": sum kernel without parts");
                }
                List<Kernel> ks = new ArrayList<>();
                double[] ws = new double[parts.size()];
                for (int i = 0; i < parts.size(); i++) {
                    ws[i] = ModelDocs.number(parts.get(i), "weight", where + ".parts[" + i + "]");
                    ks.add(kernelFromJson(parts.get(i).get("kernel"), features, where + ".parts[" + i + "]"));
                }
                return new WeightedSumKernel(ks, ws);
            }
            case "spec" -> {
                return KernelSpecs.parse(ModelDocs.text(o, "spec", where));
            }
            default -> throw new IllegalArgumentException(where + ": unknown kernel type '" + type + "'");
        }
    }

    /** A loaded SVM-family model: labels on predict, accuracy on eval. */
    static final class Loaded extends StandardModel {
        private final BinaryLabels labels;

        Loaded(ModelDocs.Header h, Decision d) {
            super(h, d);
            this.labels = d.labels();
        }

        @Override
        public boolean classifier() {
            return true;
        }

        @Override
        public String[] outputColumns() {
            return new String[] {"label", "decision"};
        }

        @Override
        public String[][] predictText(Matrix rawX) {
            Matrix p = predict(rawX);
            String[][] out = new String[p.rows()][2];
            for (int i = 0; i < p.rows(); i++) {
                out[i][0] = labels.decode(p.get(i, 0));
                out[i][1] = Double.toString(p.get(i, 0));
            }
            return out;
        }

        @Override
        public Map<String, Object> evaluate(Dataset raw) {
            String[] tokens = labelTokens(raw);
            double[] y = labels.encode(tokens, raw.source());
            double[] f = predict(raw.x()).col(0);
            int ok = 0;
            int tp = 0;
            int fp = 0;
            int fn = 0;
            for (int i = 0; i < f.length; i++) {
                double s = f[i] >= 0 ? 1 : -1;
                if (s == y[i]) {
                    ok++;
                }
                if (s > 0 && y[i] > 0) {
                    tp++;
                } else if (s > 0) {
                    fp++;
                } else if (y[i] > 0) {
                    fn++;
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("accuracy", f.length == 0 ? Double.NaN : (double) ok / f.length);
            m.put("n", f.length);
            m.put("positive", labels.positive());
            m.put("precision", tp + fp == 0 ? 0.0 : (double) tp / (tp + fp));
            m.put("recall", tp + fn == 0 ? 0.0 : (double) tp / (tp + fn));
            return m;
        }
    }

    /** The registry entry for one of the three types. */
    static final class Kind implements ModelKind {
        private final String type;
        private final String description;

        Kind(String type, String description) {
            this.type = type;
            this.description = description;
        }

        @Override
        public String type() {
            return type;
        }

        @Override
        public String description() {
            return description;
        }

        @Override
        public LoadedModel load(JsonNode doc, Path file) {
            ModelDocs.Header h = ModelDocs.header(doc, file);
            String where = "model file " + file;
            JsonNode num = doc.get("numbers");
            if (num == null) {
                throw new IllegalArgumentException(where + ": missing \"numbers\"");
            }
            int d = h.featureNames().length;
            Kernel k;
            if (num.has("learnedKernel")) {
                k = kernelFromJson(num.get("learnedKernel"), d, where + ": numbers.learnedKernel");
            } else {
                k = h.kernel(where);
            }
            String[] labs = JsonArrays.strings(num.get("labels"), where + ": numbers.labels");
            if (labs.length != 2) {
                throw new IllegalArgumentException(where + ": numbers.labels must hold two labels");
            }
            double[] coef = JsonArrays.doubles(num.get("coef"), where + ": numbers.coef");
            Matrix sv = JsonArrays.matrix(num.get("supportVectors"), d, where + ": numbers.supportVectors");
            if (sv.rows() != coef.length) {
                throw new IllegalArgumentException(where + ": " + sv.rows() + " support vectors but " + coef.length
                        + " coefficients");
            }
            double bias = ModelDocs.number(num, "bias", where + ": numbers");
            return new Loaded(h, new Decision(k, sv, coef, bias, new BinaryLabels(labs[0], labs[1])));
        }
    }
}
