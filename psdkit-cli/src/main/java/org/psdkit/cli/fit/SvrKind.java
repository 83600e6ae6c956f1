package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.cli.Params;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Predictor;
import org.psdkit.optim.smo.Smo;
import org.psdkit.regression.Svr;

/**
 * Model type {@code svr} (ε-insensitive support vector regression, {@link Svr}) on the command line: its parameters,
 * shared by {@code fit svr} and {@code cv svr}, and its cross-validation support; model files are written and read by
 * the library ({@link ModelIO}).
 */
public final class SvrKind {
    public static final String TYPE = Svr.TYPE;

    private SvrKind() {
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

    static CvSupport cv() {
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
                SvrKind.validate(params);
                return Svr.fit(params.kernel(), scaledTrain.x(), scaledTrain.y(), params.getDouble("C"),
                        params.getDouble("epsilon"), params.getDouble("tolerance"));
            }
        };
    }
}
