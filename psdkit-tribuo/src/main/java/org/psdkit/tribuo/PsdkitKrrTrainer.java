package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.data.Scaler;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;

/**
 * Kernel ridge regression as a Tribuo {@code Trainer<Regressor>}: psdkit's exact {@link KrrTrainer} when
 * {@code anchors} is 0, its Nyström (Falkon) {@link NystromKrrTrainer} on {@code anchors} points otherwise.
 *
 * <pre>{@code
 * var trainer = new PsdkitKrrTrainer("gaussian(sigma=1)", 1e-2);             // exact
 * var nystrom = new PsdkitKrrTrainer(NystromKrrTrainer.Options.of(kernel, 1e-3, 500, 42));
 * Model<Regressor> m = trainer.train(dataset);
 * }</pre>
 */
public final class PsdkitKrrTrainer extends PsdkitRegressionTrainer {

    @Config(description = "Ridge lambda >= 0: (K + lambda I) alpha = y.")
    private double lambda = KrrTrainer.Options.DEFAULT_LAMBDA;

    @Config(description = "Subtract the training mean of y and add it back (an unpenalised intercept).")
    private boolean center = KrrTrainer.Options.DEFAULT_CENTER;

    @Config(description = "Exact fit only: STANDARD (K + lambda I) alpha = y, or the REPRESENTER form.")
    private KernelRidge.Form form = KrrTrainer.Options.DEFAULT_FORM;

    @Config(description = "Exact fit only: the nugget sigma^2 >= 0 of the representer form.")
    private double nugget = KrrTrainer.Options.DEFAULT_NUGGET;

    @Config(description = "Number of Nystrom anchors; 0 fits the exact model.")
    private int anchors = 0;

    @Config(description = "How the Nystrom anchors are chosen.")
    private Anchors.Method anchorMethod = Anchors.Method.UNIFORM;

    @Config(description = "Seed of the Nystrom anchor choice.")
    private long anchorSeed = 0L;

    @Config(description = "Nystrom only: relative residual at which conjugate gradients stop, in (0, 1).")
    private double tolerance = NystromKrr.DEFAULT_TOLERANCE;

    @Config(description = "Nystrom only: cap on conjugate-gradient iterations.")
    private int maxIterations = NystromKrr.DEFAULT_MAX_ITERATIONS;

    @Config(description = "Nystrom only: where K_nm lives between iterations (AUTO, ...).")
    private Storage storage = Storage.AUTO;

    /** For Tribuo's configuration system: the defaults, {@value PsdkitTrainer#DEFAULT_KERNEL}, exact. */
    public PsdkitKrrTrainer() {
    }

    /** The exact fit with {@code kernel} (psdkit's kernel string) and λ, no scaling. */
    public PsdkitKrrTrainer(String kernel, double lambda) {
        this.kernel = kernel;
        this.lambda = lambda;
        check();
    }

    /** The exact fit of psdkit's options. */
    public PsdkitKrrTrainer(KrrTrainer.Options options) {
        this.kernel = options.kernel().spec();
        this.scale = options.scale();
        this.lambda = options.lambda();
        this.center = options.center();
        this.form = options.form();
        this.nugget = options.nugget();
        check();
    }

    /** The Nyström fit of psdkit's options. */
    public PsdkitKrrTrainer(NystromKrrTrainer.Options options) {
        this.kernel = options.kernel().spec();
        this.scale = options.scale();
        this.lambda = options.lambda();
        this.center = options.center();
        this.anchors = options.anchors();
        this.anchorMethod = options.method();
        this.anchorSeed = options.seed();
        this.tolerance = options.tolerance();
        this.maxIterations = options.maxIterations();
        this.storage = options.storage();
        check();
    }

    @Override
    public Trainer<? extends Model> psdkitTrainer() {
        if (anchors == 0) {
            return new KrrTrainer(new KrrTrainer.Options(parsedKernel(), lambda, form, nugget, center, scale));
        }
        return new NystromKrrTrainer(new NystromKrrTrainer.Options(parsedKernel(), scale,
                Nystrom.of(anchors, anchorMethod, anchorSeed), lambda, center, tolerance, maxIterations, storage));
    }
}
