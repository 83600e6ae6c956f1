package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.classify.BinaryLabels;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.cli.Flags;
import org.psdkit.cli.Params;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.model.Classifier;
import org.psdkit.model.Predictor;
import org.psdkit.optim.smo.Smo;

/**
 * Model type {@code svm} (the C-SVC and ν-SVC, binary or one-vs-one) in {@code psdkit cv}: its parameters and their
 * defaults (those of {@code fit svm}), the trainer, and the held-out score, the accuracy of the predicted labels
 * (weighted by the held-out rows' sample weights with {@code --weight}, as scikit-learn's
 * {@code accuracy_score(sample_weight=…)}), which selects the best grid point as scikit-learn's
 * {@code GridSearchCV(SVC())} does by default.
 */
public final class SvmKind {

    /** The value of {@code classWeight} and {@code nu} that means "none" (all classes weight 1; the C-SVC). */
    static final String NONE = "none";

    private SvmKind() {
    }

    /** Parameters and defaults, as {@code fit svm}'s. */
    static Map<String, String> defaultParams() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernel", "gaussian(sigma=1)");
        m.put("C", "1");
        m.put("nu", NONE);
        m.put("classWeight", NONE);
        m.put("tolerance", Double.toString(Smo.DEFAULT_TOLERANCE));
        return m;
    }

    /** The options of {@code p} on already scaled data; errors name the parameter. */
    static SvmTrainer.Options options(Params p) {
        String nu = p.get("nu").trim();
        String cw = p.get("classWeight").trim();
        return Flags.checked(() -> {
            SvmTrainer.Options o = SvmTrainer.Options.of(p.kernel(), p.getDouble("C"))
                    .withTolerance(p.getDouble("tolerance"))
                    .withClassWeight(cw.equals(NONE) ? null : ClassWeights.parse(cw));
            return nu.equals(NONE) ? o : o.withNu(FitSvmCommands.checkedNu(p.getDouble("nu")));
        }, SvrKind.FLAGS);
    }

    static CvSupport cv() {
        return new CvSupport() {
            @Override
            public Map<String, String> defaults() {
                return defaultParams();
            }

            @Override
            public boolean classifier() {
                return true;
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
                return new FittedModel(new SvmTrainer(options(params)).fit(scaledTrain));
            }

            @Override
            public Map<String, Double> score(Predictor fitted, Dataset scaledTest) {
                String[] predicted = ((Classifier) ((FittedModel) fitted).model()).predictLabels(scaledTest.x());
                String[] truth = SvmClassifier.labelTokens(scaledTest);
                double[] w = scaledTest.weights();
                double right = 0;
                double total = 0;
                for (int i = 0; i < truth.length; i++) {
                    double wi = w == null ? 1 : w[i];
                    total += wi;
                    if (predicted[i].equals(BinaryLabels.canonical(truth[i] == null ? "" : truth[i].trim()))) {
                        right += wi;
                    }
                }
                if (!(total > 0)) {
                    throw new IllegalStateException("every held-out row has weight 0");
                }
                Map<String, Double> s = new LinkedHashMap<>();
                s.put("accuracy", right / total);
                s.put("error", 1 - right / total);
                return s;
            }

            @Override
            public String selectBy() {
                return "accuracy";
            }

            @Override
            public boolean lowerIsBetter() {
                return false;
            }
        };
    }
}
