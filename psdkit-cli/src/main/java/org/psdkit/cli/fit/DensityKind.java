package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.psdkit.cli.Params;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.BaselineOptions;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.GlmDensityTrainer;
import org.psdkit.density.KdeTrainer;
import org.psdkit.density.NcmDensityTrainer;
import org.psdkit.density.PnmDensityTrainer;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.model.Predictor;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;

/**
 * The density types in {@code psdkit cv} ({@code psd-density}, {@code ncm-density}, {@code pnm-density},
 * {@code glm-density}, {@code kde}): every column is a feature (no target), the parameters are those of the
 * {@code fit} commands with their defaults, and a grid point is scored by the held-out log-likelihood
 * {@link DensityPipeline#heldOutScores} — (1/m) Σ log max(p(x_i), floor), the selection criterion of Marteau-Ferey,
 * Bach &amp; Rudi 2020, App. E; with {@code --weight} the weighted mean Σ w_i log p(x_i) / Σ w_i (psd-density only,
 * whose trainer fits the weighted log-likelihood). The trainers scale the features themselves ({@code --scale}), so
 * the log-likelihood is in the units of the data, as {@code eval} reports it.
 */
public final class DensityKind {
    private DensityKind() {
    }

    /** The parameters every density type shares (kde: only scale). */
    private static Map<String, String> common(boolean withSpace) {
        Map<String, String> m = new LinkedHashMap<>();
        if (withSpace) {
            m.put("kernel", "gaussian(sigma=1)");
            m.put("lambda", "0.001");
            m.put("base", "lebesgue");
            m.put("tol", "1e-6");
            m.put("maxIter", "20000");
            m.put("anchors", "0");
            m.put("anchorMethod", "uniform");
            m.put("anchorSeed", "1");
        }
        m.put("scale", "none");
        return m;
    }

    private static Nystrom nystrom(Params p) {
        int anchors = p.getInt("anchors");
        if (anchors < 0) {
            throw new IllegalArgumentException("anchors must be >= 0, got " + anchors);
        }
        Anchors.Method method = FeatureSpaceOptions.anchorMethod(p.get("anchorMethod"), Anchors.Family.PSD);
        return new Nystrom(anchors, method, Long.parseLong(p.get("anchorSeed").trim()),
                PsdOptions.DEFAULT_RANK_THRESHOLD);
    }

    private static Scaler.Kind scale(Params p) {
        return Scaler.Kind.parse(p.get("scale"));
    }

    /**
     * The λ scaling named by {@code text} ({@code trace}, {@code raw}, {@code normalized}), shared by {@code fit density
     * --lambda-scale} and {@code cv psd-density}; an unknown name is an error naming {@code option}.
     */
    static PsdDensityOptions.LambdaScale lambdaScale(String text, String option) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "raw" -> PsdDensityOptions.LambdaScale.RAW;
            case "normalized", "normalised" -> PsdDensityOptions.LambdaScale.NORMALIZED;
            case "trace" -> PsdDensityOptions.LambdaScale.TRACE;
            default -> throw new IllegalArgumentException(option + " must be trace, raw or normalized, got " + text);
        };
    }

    /** {@code psd-density}: as {@code fit density}, the weighted fit on the dual solver as there. */
    static CvSupport psd() {
        return new Support(true, true) {
            @Override
            public Map<String, String> defaults() {
                Map<String, String> m = common(true);
                m.put("froRatio", "0.01");
                m.put("lambdaScale", "trace");
                m.put("solver", "primal-lbfgs");
                return m;
            }

            @Override
            Trainer<DensityPipeline> trainer(Params p, BaseMeasure base, boolean weighted) {
                double l1 = p.getPositive("lambda");
                double l2 = p.getNonNegative("froRatio") * l1;
                PsdDensityOptions.LambdaScale sc = lambdaScale(p.get("lambdaScale"), "lambdaScale");
                // the weighted log-likelihood is solved by the dual solver, as fit density --weight does
                PsdDensityOptions.Solver sv = weighted ? PsdDensityOptions.Solver.DUAL_FISTA
                        : PsdDensityOptions.Solver.parse(p.get("solver"));
                PsdDensityOptions o = new PsdDensityOptions(l1, l2, sc, p.getDouble("tol"), p.getInt("maxIter"),
                        Double.POSITIVE_INFINITY, PsdOptions.DEFAULT_RANK_THRESHOLD, sv);
                return new PsdDensityTrainer(new PsdDensityTrainer.Options(p.kernel(), base, o, nystrom(p),
                        scale(p)));
            }
        };
    }

    /** {@code ncm-density}, {@code pnm-density}, {@code glm-density}: the baselines' options, unweighted. */
    static CvSupport baseline(String type) {
        return new Support(true, false) {
            @Override
            public Map<String, String> defaults() {
                return common(true);
            }

            @Override
            Trainer<DensityPipeline> trainer(Params p, BaseMeasure base, boolean weighted) {
                BaselineOptions o = new BaselineOptions(p.kernel(), base, p.getPositive("lambda"), p.getDouble("tol"),
                        p.getInt("maxIter"), Long.parseLong(p.get("anchorSeed").trim()), scale(p), nystrom(p));
                return switch (type) {
                    case "ncm-density" -> new NcmDensityTrainer(o);
                    case "pnm-density" -> new PnmDensityTrainer(o);
                    case "glm-density" -> new GlmDensityTrainer(o);
                    default -> throw new IllegalStateException("not a baseline density: " + type);
                };
            }
        };
    }

    /** {@code kde}: the bandwidth by the grid (its own leave-one-out choice is {@code fit kde}'s default). */
    static CvSupport kde() {
        return new Support(false, false) {
            @Override
            public Map<String, String> defaults() {
                Map<String, String> m = common(false);
                m.put("bandwidth", "1");
                return m;
            }

            @Override
            Trainer<DensityPipeline> trainer(Params p, BaseMeasure base, boolean weighted) {
                return new KdeTrainer(KdeTrainer.Options.fixed(p.getPositive("bandwidth")).withScale(scale(p)));
            }
        };
    }

    /** What the density types share: no target, the trainer's own scaling, the held-out log-likelihood. */
    private abstract static class Support implements CvSupport {
        private final boolean hasBase;
        private final boolean weights;

        Support(boolean hasBase, boolean weights) {
            this.hasBase = hasBase;
            this.weights = weights;
        }

        abstract Trainer<DensityPipeline> trainer(Params p, BaseMeasure base, boolean weighted);

        @Override
        public boolean unsupervised() {
            return true;
        }

        @Override
        public boolean takesWeights() {
            return weights;
        }

        @Override
        public void validate(Params params) {
            if (params.has("kernel")) {
                params.kernel();
            }
            scale(params);
            // the base measure is parsed once the data's dimension is known (the first fit)
            trainer(params, new BaseMeasure.Lebesgue(), false);
        }

        @Override
        public Predictor fit(Dataset train, Params params) {
            BaseMeasure base = hasBase ? BaseMeasure.parse(params.get("base"), train.d()) : null;
            return new FittedModel(trainer(params, base, train.weights() != null).fit(train));
        }

        @Override
        public Map<String, Double> score(Predictor fitted, Dataset test) {
            return DensityPipeline.heldOutScores(((FittedModel) fitted).model(), test);
        }

        @Override
        public String selectBy() {
            return DensityPipeline.HELD_OUT_LOGLIK;
        }

        @Override
        public boolean lowerIsBetter() {
            return false;
        }
    }
}
