package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.svm.Smo;
import org.psdkit.svm.Svr;

/** Model type {@code svr}: ε-insensitive support vector regression ({@link Svr}). */
public final class SvrKind implements ModelKind {

    @Override
    public String type() {
        return Svr.TYPE;
    }

    @Override
    public String description() {
        return "epsilon-insensitive support vector regression (SMO)";
    }

    /** Parameters and defaults, shared by {@code fit svr} and {@code cv svr}. */
    static Map<String, String> defaultParams() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernel", "gaussian(sigma=1)");
        m.put("C", "1");
        m.put("epsilon", "0.1");
        m.put("tolerance", Double.toString(Smo.DEFAULT_TOLERANCE));
        return m;
    }

    /** Checks every parameter; errors name it. */
    static void validate(Params p) {
        p.kernel();
        positiveFinite(p, "C");
        double e = p.getNonNegative("epsilon");
        if (Double.isInfinite(e)) {
            throw new IllegalArgumentException("parameter epsilon must be finite, got " + p.get("epsilon"));
        }
        positiveFinite(p, "tolerance");
    }

    private static double positiveFinite(Params p, String name) {
        double v = p.getPositive(name);
        if (Double.isInfinite(v)) {
            throw new IllegalArgumentException("parameter " + name + " must be finite, got " + p.get(name));
        }
        return v;
    }

    /** Fits on a scaled training set. */
    static Svr train(Dataset scaledTrain, Params p) {
        validate(p);
        return Svr.fit(p.kernel(), scaledTrain.x(), scaledTrain.y(), p.getDouble("C"), p.getDouble("epsilon"),
                p.getDouble("tolerance"));
    }

    /** The {@code options}, {@code numbers} and {@code diagnostics} of a model document. */
    static void store(ObjectNode doc, Svr m, Params p) {
        ObjectNode o = (ObjectNode) doc.get("options");
        o.put("C", m.c());
        o.put("epsilon", m.epsilon());
        o.put("tolerance", p.getDouble("tolerance"));
        ObjectNode num = doc.putObject("numbers");
        num.put("bias", m.bias());
        num.set("coef", JsonArrays.of(m.coef()));
        num.set("supportVectors", JsonArrays.rows(m.supportVectors()));
        ObjectNode d = doc.putObject("diagnostics");
        d.put("iterations", m.diagnostics().iterations());
        d.put("violation", m.diagnostics().violation());
        d.put("converged", m.diagnostics().converged());
        d.put("dual", m.diagnostics().dual());
        d.put("primal", m.diagnostics().primal());
        d.put("seconds", m.diagnostics().seconds());
    }

    @Override
    public LoadedModel load(JsonNode doc, Path file) {
        ModelDocs.Header h = ModelDocs.header(doc, file);
        String where = "model file " + file;
        Kernel k = h.kernel(where);
        JsonNode o = h.options();
        double c = ModelDocs.number(o, "C", where + ": options");
        double eps = ModelDocs.number(o, "epsilon", where + ": options");
        if (!(c > 0) || !(eps >= 0)) {
            throw new IllegalArgumentException(where + ": options: need C > 0 and epsilon >= 0, got C = " + c
                    + ", epsilon = " + eps);
        }
        JsonNode num = doc.get("numbers");
        double[] coef = JsonArrays.doubles(num == null ? null : num.get("coef"), where + ": numbers.coef");
        Matrix sv = JsonArrays.matrix(num.get("supportVectors"), h.featureNames().length,
                where + ": numbers.supportVectors");
        double bias = ModelDocs.number(num, "bias", where + ": numbers");
        if (sv.rows() != coef.length) {
            throw new IllegalArgumentException(where + ": " + sv.rows() + " support vectors but " + coef.length
                    + " coefficients");
        }
        return new StandardModel(h, new Svr(k, sv, coef, bias, c, eps,
                new Svr.Diagnostics(0, 0, true, Double.NaN, Double.NaN, 0)));
    }

    @Override
    public CvSupport cv() {
        return new CvSupport() {
            @Override
            public Map<String, String> defaults() {
                return defaultParams();
            }

            @Override
            public void validate(Params params) {
                SvrKind.validate(params);
            }

            @Override
            public Predictor fit(Dataset scaledTrain, Params params) {
                return train(scaledTrain, params);
            }
        };
    }
}
