package org.psdkit.density;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Nystrom;

/**
 * Options of the baseline density trainers ({@link NcmDensityTrainer}, {@link PnmDensityTrainer},
 * {@link GlmDensityTrainer}; Marteau-Ferey, Bach &amp; Rudi 2020, App. D).
 *
 * <pre>{@code
 * BaselineOptions o = BaselineOptions.of(Kernels.parse("gaussian(sigma=0.3)"), new BaseMeasure.Lebesgue(), 1e-3)
 *         .withScale(Scaler.Kind.ZSCORE);
 * DensityPipeline m = new NcmDensityTrainer(o).fit(data);
 * }</pre>
 *
 * @param kernel        the kernel (scaled coordinates)
 * @param base          the base measure ν (scaled coordinates; GLM needs a probability measure)
 * @param lambda        regularisation λ &gt; 0 ((λ/2) αᵀKα for NCM and PNM, (λ/2)‖w‖² for GLM)
 * @param tolerance     stopping tolerance (relative gap; GLM: gradient norm), &gt; 0
 * @param maxIterations iteration budget, ≥ 1
 * @param seed          seed of GLM's Monte-Carlo draws of the normaliser (NCM and PNM do not draw)
 * @param scale         the feature scaling fitted on the training data
 * @param nystrom       Nyström anchors ({@link Nystrom#exact()}: every training point) and the rank threshold of the
 *                      feature map (PNM, GLM); the model file stores the anchors as its points
 */
public record BaselineOptions(Kernel kernel, BaseMeasure base, double lambda, double tolerance, int maxIterations,
                              long seed, Scaler.Kind scale, Nystrom nystrom) {

    /** Default tolerance: {@link Baselines#DEFAULT_TOLERANCE}. */
    public static final double DEFAULT_TOLERANCE = Baselines.DEFAULT_TOLERANCE;
    /** Default iteration budget: {@link Baselines#DEFAULT_MAX_ITERATIONS}. */
    public static final int DEFAULT_MAX_ITERATIONS = Baselines.DEFAULT_MAX_ITERATIONS;
    /** Default seed of GLM's normaliser draws. */
    public static final long DEFAULT_SEED = 1L;
    /** Default scaling: none. */
    public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

    public BaselineOptions {
        ParameterException.required("kernel", kernel);
        ParameterException.required("base", base);
        ParameterException.positive("lambda", lambda);
        if (!(tolerance > 0)) {
            throw new ParameterException("tolerance", "must be > 0, got " + tolerance);
        }
        ParameterException.atLeast("maxIterations", maxIterations, 1);
        if (scale == null) {
            scale = DEFAULT_SCALE;
        }
        if (nystrom == null) {
            nystrom = Nystrom.exact();
        }
    }

    /** λ with the default tolerance, budget and seed, the exact model, no scaling. */
    public static BaselineOptions of(Kernel kernel, BaseMeasure base, double lambda) {
        return new BaselineOptions(kernel, base, lambda, DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS, DEFAULT_SEED,
                DEFAULT_SCALE, Nystrom.exact());
    }

    public BaselineOptions withKernel(Kernel k) {
        return new BaselineOptions(k, base, lambda, tolerance, maxIterations, seed, scale, nystrom);
    }

    public BaselineOptions withBase(BaseMeasure b) {
        return new BaselineOptions(kernel, b, lambda, tolerance, maxIterations, seed, scale, nystrom);
    }

    public BaselineOptions withLambda(double l) {
        return new BaselineOptions(kernel, base, l, tolerance, maxIterations, seed, scale, nystrom);
    }

    public BaselineOptions withTolerance(double t) {
        return new BaselineOptions(kernel, base, lambda, t, maxIterations, seed, scale, nystrom);
    }

    public BaselineOptions withMaxIterations(int it) {
        return new BaselineOptions(kernel, base, lambda, tolerance, it, seed, scale, nystrom);
    }

    public BaselineOptions withSeed(long s) {
        return new BaselineOptions(kernel, base, lambda, tolerance, maxIterations, s, scale, nystrom);
    }

    public BaselineOptions withScale(Scaler.Kind s) {
        return new BaselineOptions(kernel, base, lambda, tolerance, maxIterations, seed, s, nystrom);
    }

    public BaselineOptions withNystrom(Nystrom n) {
        return new BaselineOptions(kernel, base, lambda, tolerance, maxIterations, seed, scale, n);
    }

    /**
     * The options as model files hold them: {@code {"lambda": "0.001"}}; a Nyström model adds {@code anchors} (the
     * number requested), {@code anchor_method} and {@code anchor_seed} (the anchors themselves are the model's points).
     */
    public Map<String, Object> hyperParameters() {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda", String.valueOf(lambda));
        return nystrom.putStringOptions(h);
    }
}
