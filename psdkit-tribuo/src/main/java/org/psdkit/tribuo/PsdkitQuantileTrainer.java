package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.cone.ConeData;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;

/**
 * Non-crossing quantile regression as a Tribuo {@code Trainer<Regressor>}: psdkit's {@link QuantileTrainer}, one
 * function per level τ whose increments between levels are non-negative, so the predicted quantiles never cross.
 * The predicted {@code Regressor} has one dimension per level, named as psdkit's output columns ({@code q0.1},
 * {@code q0.5}, …); the model's output domain is those dimensions.
 */
public final class PsdkitQuantileTrainer extends PsdkitRegressionTrainer {

    @Config(description = "The quantile levels tau, strictly increasing in (0, 1).")
    private double[] taus = {0.1, 0.5, 0.9};

    @Config(description = "Regularisation lambda > 0.")
    private double lambda = 1e-3;

    @Config(description = "gamma_F in lambda(||A||_* + gamma_F ||A||_F^2).")
    private double frobeniusWeight = ConeData.APPENDIX_E_FROBENIUS_WEIGHT;

    @Config(description = "Add a non-negative constant to every PSD increment.")
    private boolean constantBlocks = false;

    @Config(description = "Model of the increments: PSD, PNM, NCM, GLM or INDEPENDENT.")
    private QuantileRegression.Method method = QuantileRegression.Method.PSD;

    @Config(description = "GLM restarts.")
    private int restarts = QuantileRegression.Options.DEFAULT_RESTARTS;

    @Config(description = "Seed of the GLM restarts.")
    private long seed = 0L;

    @Config(description = "Relative duality gap at which the dual solver stops.")
    private double gapTolerance = ConeDualSolver.Options.DEFAULT_GAP_TOLERANCE;

    @Config(description = "Largest violation of hard output constraints accepted at stop.")
    private double feasibilityTolerance = ConeDualSolver.Options.DEFAULT_FEASIBILITY_TOLERANCE;

    @Config(description = "Iteration cap of the dual solver.")
    private int maxIterations = ConeDualSolver.Options.DEFAULT_MAX_ITERATIONS;

    @Config(description = "Iterations between duality-gap checks.")
    private int checkEvery = ConeDualSolver.Options.DEFAULT_CHECK_EVERY;

    @Config(description = "PSD method only: number of Nystrom anchors; 0 fits the exact model.")
    private int anchors = 0;

    @Config(description = "How the Nystrom anchors are chosen.")
    private Anchors.Method anchorMethod = Anchors.Method.UNIFORM;

    @Config(description = "Seed of the Nystrom anchor choice.")
    private long anchorSeed = 0L;

    @Config(description = "Relative eigenvalue threshold of the feature map, in (0, 1).")
    private double rankThreshold = PsdOptions.DEFAULT_RANK_THRESHOLD;

    /**
     * For Tribuo's configuration system: the defaults, {@value PsdkitTrainer#DEFAULT_KERNEL}, τ = 0.1, 0.5, 0.9, PSD,
     * exact.
     */
    public PsdkitQuantileTrainer() {
    }

    /** The levels {@code taus} with {@code kernel} and λ, the other settings at their defaults. */
    public PsdkitQuantileTrainer(double[] taus, String kernel, double lambda) {
        this.taus = taus.clone();
        this.kernel = kernel;
        this.lambda = lambda;
        check();
    }

    /** The fit of psdkit's options. */
    public PsdkitQuantileTrainer(QuantileRegression.Options options) {
        this.taus = options.taus();
        this.constantBlocks = options.constantBlocks();
        this.kernel = options.kernel().spec();
        this.scale = options.scale();
        this.lambda = options.lambda();
        this.frobeniusWeight = options.frobeniusWeight();
        this.method = options.method();
        this.restarts = options.restarts();
        this.seed = options.seed();
        ConeDualSolver.Options s = options.solver();
        this.gapTolerance = s.gapTolerance();
        this.feasibilityTolerance = s.feasibilityTolerance();
        this.maxIterations = s.maxIterations();
        this.checkEvery = s.checkEvery();
        Nystrom n = options.nystrom();
        this.anchors = n.anchors();
        this.anchorMethod = n.method();
        this.anchorSeed = n.seed();
        this.rankThreshold = n.rankThreshold();
        check();
    }

    @Override
    public Trainer<? extends Model> psdkitTrainer() {
        return new QuantileTrainer(new QuantileRegression.Options(taus, parsedKernel(), lambda,
                frobeniusWeight, method, constantBlocks, restarts, seed,
                new ConeDualSolver.Options(gapTolerance, feasibilityTolerance, maxIterations, checkEvery),
                new Nystrom(anchors, anchorMethod, anchorSeed, rankThreshold), scale));
    }
}
