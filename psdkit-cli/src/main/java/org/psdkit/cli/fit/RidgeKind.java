package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.cli.Params;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Predictor;
import org.psdkit.regression.RidgeTrainer;

/**
 * Model type {@code ridge} on the command line: its parameters, shared by {@code fit ridge} and {@code cv ridge}, and
 * its cross-validation support; model files are written and read by the library ({@link ModelIO}).
 */
public final class RidgeKind {
    public static final String TYPE = RidgeTrainer.TYPE;

    private RidgeKind() {
    }

    static Map<String, String> defaultParams() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("lambda", "1");
        m.put("intercept", "true");
        return m;
    }

    /** The options of {@code params} on already scaled data (the caller scales); errors name the parameter. */
    static RidgeTrainer.Options options(Params p) {
        return RidgeTrainer.Options.of(p.getDouble("lambda")).withIntercept(intercept(p));
    }

    static boolean intercept(Params p) {
        String s = p.get("intercept").trim();
        if (!s.equals("true") && !s.equals("false")) {
            throw new IllegalArgumentException("intercept: '" + s + "' is not true or false");
        }
        return s.equals("true");
    }

    static CvSupport cv() {
        return new CvSupport() {
            @Override
            public Map<String, String> defaults() {
                return defaultParams();
            }

            @Override
            public void validate(Params params) {
                options(params);
            }

            @Override
            public boolean takesWeights() {
                return true;
            }

            @Override
            public Predictor fit(Dataset scaledTrain, Params params) {
                return new RidgeTrainer(options(params)).fit(scaledTrain).inner();
            }
        };
    }
}
