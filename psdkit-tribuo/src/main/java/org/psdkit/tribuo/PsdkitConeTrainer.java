package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.cone.ConeData;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;

/**
 * The common settings of psdkit's cone-constrained regressions in Tribuo (heteroscedastic and quantile regression,
 * Marteau-Ferey, Bach &amp; Rudi 2020, Appendix E): the Frobenius weight of the regulariser, the dual solver's stopping
 * rule ({@link ConeDualSolver.Options}) and the Nyström anchors ({@link Nystrom}), as {@code @Config} fields so that
 * Tribuo's configuration and provenance record them for both families alike.
 */
public abstract class PsdkitConeTrainer extends PsdkitRegressionTrainer {

    @Config(description = "gamma_F in lambda(||A||_* + gamma_F ||A||_F^2).")
    protected double frobeniusWeight = ConeData.APPENDIX_E_FROBENIUS_WEIGHT;

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

    /** The defaults of {@link ConeDualSolver.Options} and an exact (anchor-free) fit. */
    protected PsdkitConeTrainer() {
    }

    /** Takes the dual solver's settings from psdkit's options record. */
    protected final void setSolver(ConeDualSolver.Options s) {
        this.gapTolerance = s.gapTolerance();
        this.feasibilityTolerance = s.feasibilityTolerance();
        this.maxIterations = s.maxIterations();
        this.checkEvery = s.checkEvery();
    }

    /** Takes the Nyström settings from psdkit's options record. */
    protected final void setNystrom(Nystrom n) {
        this.anchors = n.anchors();
        this.anchorMethod = n.method();
        this.anchorSeed = n.seed();
        this.rankThreshold = n.rankThreshold();
    }

    /** The dual solver's settings as psdkit's options record. */
    protected final ConeDualSolver.Options solver() {
        return new ConeDualSolver.Options(gapTolerance, feasibilityTolerance, maxIterations, checkEvery);
    }

    /** The Nyström settings as psdkit's options record. */
    protected final Nystrom nystrom() {
        return new Nystrom(anchors, anchorMethod, anchorSeed, rankThreshold);
    }
}
