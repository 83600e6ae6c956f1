package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.PsdRegressionTrainer;

/**
 * PSD regression for non-negative targets as a Tribuo {@code Trainer<Regressor>}: psdkit's
 * {@link PsdRegressionTrainer}, f(x) = φ(x)ᵀ A φ(x) with A ⪰ 0 (Marteau-Ferey, Bach &amp; Rudi 2020), so every
 * prediction is ≥ 0. Exact, or Nyström on {@code anchors} points.
 */
public final class PsdkitPsdRegressionTrainer extends PsdkitRegressionTrainer {

    @Config(description = "Trace (nuclear-norm) weight lambda1 >= 0.")
    private double lambda1 = 1e-3;

    @Config(description = "Frobenius weight lambda2 > 0.")
    private double lambda2 = 1e-3;

    @Config(description = "Relative duality gap at which the solver stops.")
    private double tolerance = PsdOptions.DEFAULT_TOLERANCE;

    @Config(description = "FISTA iteration budget.")
    private int maxIterations = PsdOptions.DEFAULT_MAX_ITERATIONS;

    @Config(description = "Wall-clock budget of the solver, seconds (Infinity: none).")
    private double timeLimitSeconds = Double.POSITIVE_INFINITY;

    @Config(description = "Relative eigenvalue threshold of the empirical feature map, in (0, 1).")
    private double rankThreshold = PsdOptions.DEFAULT_RANK_THRESHOLD;

    @Config(description = "Number of Nystrom anchors; 0 fits the exact model.")
    private int anchors = 0;

    @Config(description = "How the Nystrom anchors are chosen.")
    private Anchors.Method anchorMethod = Anchors.Method.UNIFORM;

    @Config(description = "Seed of the Nystrom anchor choice.")
    private long anchorSeed = 0L;

    /** For Tribuo's configuration system: the defaults, {@value PsdkitTrainer#DEFAULT_KERNEL}, exact. */
    public PsdkitPsdRegressionTrainer() {
    }

    /**
     * The fit of psdkit's options. PSD regression's feature map uses {@code psd.relativeThreshold()}; the Nyström
     * record's own threshold is not used, so it is not kept.
     */
    public PsdkitPsdRegressionTrainer(PsdRegressionTrainer.Options options) {
        this.kernel = options.kernel().spec();
        this.scale = options.scale();
        PsdOptions p = options.psd();
        this.lambda1 = p.lambda1();
        this.lambda2 = p.lambda2();
        this.tolerance = p.tolerance();
        this.maxIterations = p.maxIterations();
        this.timeLimitSeconds = p.timeLimitSeconds();
        this.rankThreshold = p.relativeThreshold();
        this.anchors = options.nystrom().anchors();
        this.anchorMethod = options.nystrom().method();
        this.anchorSeed = options.nystrom().seed();
        check();
    }

    @Override
    public Trainer<? extends Model> psdkitTrainer() {
        PsdOptions psd = new PsdOptions(lambda1, lambda2, tolerance, maxIterations, timeLimitSeconds,
                rankThreshold);
        return new PsdRegressionTrainer(new PsdRegressionTrainer.Options(parsedKernel(), psd,
                Nystrom.of(anchors, anchorMethod, anchorSeed), scale));
    }
}
