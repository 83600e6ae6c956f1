package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.cone.ConeData;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;

/**
 * Heteroscedastic regression as a Tribuo {@code Trainer<Regressor>}: psdkit's {@link HeteroTrainer}, a Gaussian
 * with mean and variance functions of x. The predicted {@code Regressor} has the target's dimension with the mean as
 * its value and the variance as its variance ({@code Regressor.getVariances()}), so Tribuo's evaluators score the
 * mean.
 */
public final class PsdkitHeteroTrainer extends PsdkitRegressionTrainer {

    @Config(description = "Regularisation lambda > 0.")
    private double lambda = 1e-2;

    @Config(description = "gamma_F in lambda(||A||_* + gamma_F ||A||_F^2).")
    private double frobeniusWeight = ConeData.APPENDIX_E_FROBENIUS_WEIGHT;

    @Config(description = "Model of the variance: PSD, PNM, NCM or GLM.")
    private HeteroscedasticRegression.Method method = HeteroscedasticRegression.Method.PSD;

    @Config(description = "GLM restarts.")
    private int restarts = HeteroscedasticRegression.Options.DEFAULT_RESTARTS;

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

    /** For Tribuo's configuration system: the defaults, {@value PsdkitTrainer#DEFAULT_KERNEL}, PSD, exact. */
    public PsdkitHeteroTrainer() {
    }

    /** The {@code kernel} and λ, the other settings at their defaults. */
    public PsdkitHeteroTrainer(String kernel, double lambda) {
        this.kernel = kernel;
        this.lambda = lambda;
        check();
    }

    /** The fit of psdkit's options. */
    public PsdkitHeteroTrainer(HeteroscedasticRegression.Options options) {
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
        return new HeteroTrainer(new HeteroscedasticRegression.Options(parsedKernel(), lambda, frobeniusWeight,
                method, restarts, seed,
                new ConeDualSolver.Options(gapTolerance, feasibilityTolerance, maxIterations, checkEvery),
                new Nystrom(anchors, anchorMethod, anchorSeed, rankThreshold), scale));
    }
}
