package org.psdkit.density;

import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Nystrom;

/**
 * Fits the GLM density baseline ({@link Baselines#glm}): p = exp(g)/Z·ν, trained with Z estimated by Monte Carlo
 * from {@link Baselines#GLM_MC_SAMPLES} seeded draws of ν (Marteau-Ferey, Bach &amp; Rudi 2020, App. D, eq. 33) and
 * normalised by the importance-sampling estimate of Z. ν must be a probability measure. The scaler is fitted on the
 * raw training rows and kept in the model; the training target, if any, is ignored. A fit whose importance estimate
 * is unusable fails with {@link IllegalStateException} ({@link Baselines#requireUsableNormaliser}).
 *
 * @param kernel        the kernel (scaled coordinates)
 * @param base          the base measure ν, a probability measure ({@code gaussian(...)} or {@code box(...)})
 * @param lambda        regularisation λ &gt; 0 of (λ/2)‖w‖²
 * @param tolerance     stop when the gradient norm is at most this
 * @param maxIterations iteration budget
 * @param seed          seed of the Monte-Carlo draws of the normaliser
 * @param scale         the feature scaling fitted on the training data
 * @param nystrom       Nyström anchors ({@link Nystrom#exact()}: every training point) and the rank threshold of
 *                      the feature map; the model file stores the anchors as its points
 */
public record GlmDensityTrainer(Kernel kernel, BaseMeasure base, double lambda, double tolerance, int maxIterations,
                                long seed, Scaler.Kind scale, Nystrom nystrom) implements Trainer<DensityPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = Baselines.GLM;

    public GlmDensityTrainer {
        BaselineOptions.check(kernel, base, lambda, tolerance, maxIterations);
        if (!base.isProbability()) {
            throw new IllegalArgumentException("base measure: glm-density needs a probability base measure "
                    + "(gaussian(...) or box(...)), got " + base.spec());
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        if (nystrom == null) {
            nystrom = Nystrom.exact();
        }
    }

    /** The exact model (every training point an expansion point). */
    public GlmDensityTrainer(Kernel kernel, BaseMeasure base, double lambda, double tolerance, int maxIterations,
                             long seed, Scaler.Kind scale) {
        this(kernel, base, lambda, tolerance, maxIterations, seed, scale, Nystrom.exact());
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        Scaler scaler = Scaler.fit(scale, train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "glm density");
        GlmDensity m = Baselines.glm(x, nystrom.select(kernel, x), kernel, base, lambda, tolerance, maxIterations,
                seed, nystrom.rankThreshold());
        return DensityPipeline.of(train, scaler, m.kernel().spec(), hyperParameters(), m);
    }

    /**
     * The options as model files hold them: {@code {"lambda": "0.001"}}, plus {@code anchors}, {@code anchor_method}
     * and {@code anchor_seed} for a Nyström model.
     */
    public Map<String, Object> hyperParameters() {
        return BaselineOptions.hyperParameters(lambda, nystrom);
    }
}
