package org.psdkit.classify;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.Smo;

/**
 * Fits a one-class SVM (Schölkopf, Platt, Shawe-Taylor, Smola &amp; Williamson 2001) on raw data: every column is a
 * feature; a target, if the data set has one, is ignored. The dual (their eq. 3.4-3.5 scaled by νm, as LIBSVM's
 * {@code -s 2})
 * <pre>  min ½ αᵀKα   s.t.  Σ α_i = νm,  0 ≤ α_i ≤ 1</pre>
 * is solved by {@link Smo#solveFrom} (second-order working sets, shrinking, the kernel cache) from α = (1, …, 1,
 * νm − ⌊νm⌋, 0, …, 0); ρ is the multiplier of the equality (the mean of (Kα)_i over the free α_i). ν is an upper
 * bound on the fraction of training outliers and a lower bound on the fraction of support vectors (Proposition 4).
 *
 * <pre>{@code
 * OneClassSvm m = new OneClassSvmTrainer(OneClassSvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.5)"), 0.1)
 *         .withScale(Scaler.Kind.ZSCORE)).fit(train);
 * }</pre>
 *
 * @param options the kernel, ν, SMO tolerance, kernel cache and scaling (validated by their record)
 */
public record OneClassSvmTrainer(Options options) implements Trainer<OneClassSvm> {

    /** The model type written in model files. */
    public static final String TYPE = "one-class-svm";

    /**
     * Everything a one-class SVM fit takes; the constructor checks every field.
     *
     * @param kernel    the kernel (required)
     * @param nu        ν in (0, 1]: the bound on the outlier fraction (LIBSVM's {@code -n}, scikit-learn's {@code nu})
     * @param tolerance SMO stopping tolerance on the KKT violation, &gt; 0 (LIBSVM's {@code -e})
     * @param cacheMb   memory for kernel values in MB, ≥ 1 (LIBSVM's {@code -m}); it changes the speed, not the model
     * @param scale     the feature scaling fitted on the training data ({@code null}: {@link #DEFAULT_SCALE})
     */
    public record Options(Kernel kernel, double nu, double tolerance, int cacheMb, Scaler.Kind scale) {
        /** ν when none is given: LIBSVM's and scikit-learn's 0.5. */
        public static final double DEFAULT_NU = 0.5;
        /** LIBSVM's stopping tolerance, {@link Smo#DEFAULT_TOLERANCE}. */
        public static final double DEFAULT_TOLERANCE = Smo.DEFAULT_TOLERANCE;
        /** The default kernel cache, {@link Smo#DEFAULT_CACHE_MB} MB. */
        public static final int DEFAULT_CACHE_MB = Smo.DEFAULT_CACHE_MB;
        /** No feature scaling by default. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("kernel", kernel);
            ParameterException.unitHalfOpen("nu", nu);
            ParameterException.positive("tolerance", tolerance);
            ParameterException.atLeast("cacheMb", cacheMb, 1);
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** ν with LIBSVM's tolerance and the default cache, unscaled. */
        public static Options of(Kernel kernel, double nu) {
            return new Options(kernel, nu, DEFAULT_TOLERANCE, DEFAULT_CACHE_MB, DEFAULT_SCALE);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, nu, tolerance, cacheMb, scale);
        }

        public Options withNu(double value) {
            return new Options(kernel, value, tolerance, cacheMb, scale);
        }

        public Options withTolerance(double t) {
            return new Options(kernel, nu, t, cacheMb, scale);
        }

        public Options withCacheMb(int mb) {
            return new Options(kernel, nu, tolerance, mb, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, nu, tolerance, cacheMb, s);
        }
    }

    public OneClassSvmTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public OneClassSvm fit(Dataset train, ProgressListener listener) {
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        Kernel kernel = options.kernel();
        Kernels.requireFinite(kernel, x, TYPE);
        int m = x.rows();
        double[] y = new double[m];
        Arrays.fill(y, 1);
        double total = options.nu() * m;
        int full = (int) Math.min(m, Math.floor(total));
        double[] start = new double[m];
        Arrays.fill(start, 0, full, 1.0);
        if (full < m) {
            start[full] = total - full;
        }
        long t0 = System.nanoTime();
        Smo.Result r = Smo.solveFrom(kernel, x, y, null, 1, new Smo.Options(options.tolerance(), true),
                (long) options.cacheMb() << 20, start, listener);
        double secs = (System.nanoTime() - t0) * 1e-9;
        SvmTrainer.Fit d = new SvmTrainer.Fit(r.iterations(), r.violation(), r.dual(), r.converged(), secs);
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("nu", options.nu());
        h.put("tolerance", options.tolerance());
        ModelHeader header = ModelHeader.of(TYPE, train, scaler, kernel.spec(), h);
        return new OneClassSvm(header, SvmDecision.of(kernel, x, y, r.alpha(), r.bias()), d);
    }
}
