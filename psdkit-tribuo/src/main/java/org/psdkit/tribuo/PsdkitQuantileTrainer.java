package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;

/**
 * Non-crossing quantile regression as a Tribuo {@code Trainer<Regressor>}: psdkit's {@link QuantileTrainer}, one
 * function per level τ whose increments between levels are non-negative, so the predicted quantiles never cross.
 * The predicted {@code Regressor} has one dimension per level, named as psdkit's output columns ({@code q0.1},
 * {@code q0.5}, …); the model's output domain is those dimensions.
 */
public final class PsdkitQuantileTrainer extends PsdkitConeTrainer {

    @Config(description = "The quantile levels tau, strictly increasing in (0, 1).")
    private double[] taus = {0.1, 0.5, 0.9};

    @Config(description = "Regularisation lambda > 0.")
    private double lambda = 1e-3;

    @Config(description = "Add a non-negative constant to every PSD increment.")
    private boolean constantBlocks = false;

    @Config(description = "Model of the increments: PSD, PNM, NCM, GLM or INDEPENDENT.")
    private QuantileRegression.Method method = QuantileRegression.Method.PSD;

    @Config(description = "GLM restarts.")
    private int restarts = QuantileRegression.Options.DEFAULT_RESTARTS;

    @Config(description = "Seed of the GLM restarts.")
    private long seed = 0L;

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
        setSolver(options.solver());
        setNystrom(options.nystrom());
        check();
    }

    @Override
    public Trainer<? extends Model> psdkitTrainer() {
        return new QuantileTrainer(new QuantileRegression.Options(taus, parsedKernel(), lambda,
                frobeniusWeight, method, constantBlocks, restarts, seed, solver(), nystrom(), scale));
    }
}
