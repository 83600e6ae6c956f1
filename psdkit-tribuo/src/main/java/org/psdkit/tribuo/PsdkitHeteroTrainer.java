package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;

/**
 * Heteroscedastic regression as a Tribuo {@code Trainer<Regressor>}: psdkit's {@link HeteroTrainer}, a Gaussian
 * with mean and variance functions of x. The predicted {@code Regressor} has the target's dimension with the mean as
 * its value and the variance as its variance ({@code Regressor.getVariances()}), so Tribuo's evaluators score the
 * mean.
 */
public final class PsdkitHeteroTrainer extends PsdkitConeTrainer {

    @Config(description = "Regularisation lambda > 0.")
    private double lambda = 1e-2;

    @Config(description = "Model of the variance: PSD, PNM, NCM or GLM.")
    private HeteroscedasticRegression.Method method = HeteroscedasticRegression.Method.PSD;

    @Config(description = "GLM restarts.")
    private int restarts = HeteroscedasticRegression.Options.DEFAULT_RESTARTS;

    @Config(description = "Seed of the GLM restarts.")
    private long seed = 0L;

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
        setSolver(options.solver());
        setNystrom(options.nystrom());
        check();
    }

    @Override
    public Trainer<? extends Model> psdkitTrainer() {
        return new HeteroTrainer(new HeteroscedasticRegression.Options(parsedKernel(), lambda, frobeniusWeight,
                method, restarts, seed, solver(), nystrom(), scale));
    }
}
