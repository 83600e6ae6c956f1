package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.JsonArrays;
import java.util.function.UnaryOperator;
import org.psdkit.kernel.FeatureMap;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.model.RidgeRegression;

/** Model type {@code ridge}: linear ridge regression ({@link RidgeRegression}), stored as weights and bias. */
public final class RidgeKind implements ModelKind {
    public static final String TYPE = "ridge";

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "linear ridge regression, w = (X^T X + lambda I)^-1 X^T y (primal) or its dual";
    }

    static Map<String, String> defaultParams() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("lambda", "1");
        m.put("intercept", "true");
        return m;
    }

    static double lambda(Params p) {
        double v = p.getDouble("lambda");
        if (!(v >= 0)) {
            throw new IllegalArgumentException("--lambda must be >= 0, got " + p.get("lambda"));
        }
        return v;
    }

    static boolean intercept(Params p) {
        String s = p.get("intercept").trim();
        if (!s.equals("true") && !s.equals("false")) {
            throw new IllegalArgumentException("intercept: '" + s + "' is not true or false");
        }
        return s.equals("true");
    }

    /** The explicit feature map of a kernel as a matrix function; an error if the kernel has none. */
    static UnaryOperator<Matrix> featureMap(Kernel k, int d) {
        FeatureMap fm = k.featureMap(d).orElseThrow(() -> new IllegalArgumentException("--features: kernel "
                + k.spec() + " has no explicit finite feature map (use fit krr for it)"));
        return fm::map;
    }

    static RidgeRegression train(Dataset scaledTrain, Params p) {
        return RidgeRegression.fitPrimal(scaledTrain.x(), scaledTrain.y(), lambda(p), intercept(p));
    }

    static void store(ObjectNode doc, double[] w, double bias, double lambda, boolean intercept, String form) {
        ObjectNode o = (ObjectNode) doc.get("options");
        o.put("lambda", lambda);
        o.put("intercept", intercept);
        o.put("form", form);
        ObjectNode num = doc.putObject("numbers");
        num.set("weights", JsonArrays.of(w));
        num.put("bias", bias);
    }

    @Override
    public LoadedModel load(JsonNode doc, Path file) {
        ModelDocs.Header h = ModelDocs.header(doc, file);
        String where = "model file " + file;
        JsonNode num = doc.get("numbers");
        double[] w = JsonArrays.doubles(num == null ? null : num.get("weights"), where + ": numbers.weights");
        double b = ModelDocs.number(num, "bias", where + ": numbers");
        double lambda = ModelDocs.number(h.options(), "lambda", where + ": options");
        int d = h.featureNames().length;
        if (h.kernelSpec() == null) {
            if (w.length != d) {
                throw new IllegalArgumentException(where + ": " + w.length + " weights but " + d + " features");
            }
            return new StandardModel(h, RidgeRegression.ofLinear(w, b, lambda));
        }
        UnaryOperator<Matrix> phi = featureMap(KernelSpecs.parse(h.kernelSpec()), d);
        int dim = phi.apply(Matrix.zeros(1, d)).cols();
        if (w.length != dim) {
            throw new IllegalArgumentException(where + ": " + w.length + " weights but the feature map of "
                    + h.kernelSpec() + " has " + dim + " features");
        }
        return new StandardModel(h, RidgeRegression.of(phi, w, b, lambda));
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
                lambda(params);
                intercept(params);
            }

            @Override
            public Predictor fit(Dataset scaledTrain, Params params) {
                return train(scaledTrain, params);
            }
        };
    }
}
