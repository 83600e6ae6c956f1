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
 * Fits the PNM density baseline ({@link Baselines#pnm}): f = Σ α_i k(·, x_i) non-negative at the data only,
 * ∫ f dν = 1 (Marteau-Ferey, Bach &amp; Rudi 2020, App. D, eq. 37); it may be negative elsewhere. The scaler is
 * fitted on the raw training rows and kept in the model; the training target, if any, is ignored.
 *
 * @param kernel        the kernel (scaled coordinates)
 * @param base          the base measure ν (scaled coordinates)
 * @param lambda        regularisation λ &gt; 0 of (λ/2) αᵀKα
 * @param tolerance     stopping tolerance (relative gap)
 * @param maxIterations iteration budget
 * @param scale         the feature scaling fitted on the training data
 * @param nystrom       Nyström anchors ({@link Nystrom#exact()}: every training point); the model file stores the
 *                      anchors as its points
 */
public record PnmDensityTrainer(Kernel kernel, BaseMeasure base, double lambda, double tolerance, int maxIterations,
                              Scaler.Kind scale, Nystrom nystrom) implements Trainer<DensityPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = Baselines.PNM;

    public PnmDensityTrainer {
        BaselineOptions.check(kernel, base, lambda, tolerance, maxIterations);
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        if (nystrom == null) {
            nystrom = Nystrom.exact();
        }
    }

    /** The exact model (every training point an expansion point). */
    public PnmDensityTrainer(Kernel kernel, BaseMeasure base, double lambda, double tolerance, int maxIterations,
                          Scaler.Kind scale) {
        this(kernel, base, lambda, tolerance, maxIterations, scale, Nystrom.exact());
    }

    /** Default tolerance and iteration budget. */
    public PnmDensityTrainer(Kernel kernel, BaseMeasure base, double lambda, Scaler.Kind scale) {
        this(kernel, base, lambda, Baselines.DEFAULT_TOLERANCE, Baselines.DEFAULT_MAX_ITERATIONS, scale);
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        Scaler scaler = Scaler.fit(scale, train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "pnm density");
        Matrix anch = nystrom.select(kernel, x);
        LinearDensity m = Baselines.pnm(x, anch, kernel, base, lambda, tolerance, maxIterations,
                nystrom.rankThreshold());
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
