package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.cli.Flags;
import org.psdkit.cli.Params;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Predictor;
import org.psdkit.optim.smo.Smo;
import org.psdkit.regression.Svr;
import org.psdkit.regression.SvrTrainer;

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

    /** The options of {@code p} on already scaled data; errors name the parameter. */
    static SvrTrainer.Options options(Params p) {
        return Flags.checked(() -> SvrTrainer.Options.of(p.kernel(), p.getDouble("C"), p.getDouble("epsilon"))
                .withTolerance(p.getDouble("tolerance")), FLAGS);
    }

    /** The SMO families' flags that differ from {@link Flags}' table. */
    static final Map<String, String> FLAGS = Map.of("tolerance", "--tolerance");

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
                return new SvrTrainer(options(params)).fit(scaledTrain).inner();
            }
        };
    }
}
