package org.psdkit.regression;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.Smo;

/**
 * Fits ε-insensitive support vector regression ({@link Svr}) on raw data: the scaler is fitted on the training rows
 * and kept in the model.
 *
 * <pre>{@code
 * Pipeline<Svr> m = new SvrTrainer(SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10, 0.05)
 *         .withScale(Scaler.Kind.ZSCORE)).fit(train);
 * }</pre>
 *
 * @param options the kernel, C, ε, SMO tolerance, kernel cache and scaling (validated by their record)
 */
public record SvrTrainer(Options options) implements Trainer<Pipeline<Svr>> {

    /**
     * Everything an SVR fit takes; the constructor checks every field.
     *
     * @param kernel    the kernel (required)
     * @param c         penalty C &gt; 0 on the ε-insensitive loss (finite)
     * @param epsilon   half-width ε ≥ 0 of the insensitive tube, in the target's units (finite)
     * @param tolerance SMO stopping tolerance &gt; 0 on the KKT violation (finite)
     * @param cacheMb   memory for kernel values in MB, ≥ 1 (LIBSVM's {@code -m}): the m×m Gram matrix when its 8m²
     *                  bytes fit, the rest for the rows of the doubled problem; it changes the speed, not the model
     * @param scale     the feature scaling fitted on the training data ({@code null}: {@link #DEFAULT_SCALE})
     */
    public record Options(Kernel kernel, double c, double epsilon, double tolerance, int cacheMb, Scaler.Kind scale) {
        /** C when none is given (the command line's {@code -C} default). */
        public static final double DEFAULT_C = 1;
        /** ε when none is given (the command line's {@code --epsilon} default). */
        public static final double DEFAULT_EPSILON = 0.1;
        /** LIBSVM's default stopping tolerance, {@link Smo#DEFAULT_TOLERANCE}. */
        public static final double DEFAULT_TOLERANCE = Smo.DEFAULT_TOLERANCE;
        /** LIBSVM's default kernel cache, {@link Smo#DEFAULT_CACHE_MB} MB. */
        public static final int DEFAULT_CACHE_MB = Smo.DEFAULT_CACHE_MB;
        /** No feature scaling by default. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("kernel", kernel);
            ParameterException.positive("c", c);
            ParameterException.nonNegative("epsilon", epsilon);
            ParameterException.positive("tolerance", tolerance);
            ParameterException.atLeast("cacheMb", cacheMb, 1);
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** C and ε with LIBSVM's tolerance and cache, unscaled. */
        public static Options of(Kernel kernel, double c, double epsilon) {
            return new Options(kernel, c, epsilon, DEFAULT_TOLERANCE, DEFAULT_CACHE_MB, DEFAULT_SCALE);
        }

        /** The defaults with {@code kernel}: C = {@value #DEFAULT_C}, ε = {@value #DEFAULT_EPSILON}. */
        public static Options defaults(Kernel kernel) {
            return of(kernel, DEFAULT_C, DEFAULT_EPSILON);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, c, epsilon, tolerance, cacheMb, scale);
        }

        public Options withC(double value) {
            return new Options(kernel, value, epsilon, tolerance, cacheMb, scale);
        }

        public Options withEpsilon(double e) {
            return new Options(kernel, c, e, tolerance, cacheMb, scale);
        }

        public Options withTolerance(double t) {
            return new Options(kernel, c, epsilon, t, cacheMb, scale);
        }

        public Options withCacheMb(int mb) {
            return new Options(kernel, c, epsilon, tolerance, mb, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, c, epsilon, tolerance, cacheMb, s);
        }
    }

    public SvrTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public Pipeline<Svr> fit(Dataset train, ProgressListener listener) {
        return fit(train, null, listener);
    }

    /**
     * As {@link #fit(Dataset, ProgressListener)} with a weight per training row: row i's dual variables are bounded
     * by C·w_i (LIBSVM's instance-weight extension, scikit-learn's {@code SVR.fit(sample_weight=…)}); rows of weight
     * 0 are left out. The model file's options then also hold {@code "sampleWeights": true}.
     *
     * @param sampleWeights one weight ≥ 0 (finite) per row, not all 0, or {@code null} for none
     * @throws ParameterException ({@code sampleWeights}) naming the first bad row
     */
    public Pipeline<Svr> fit(Dataset train, double[] sampleWeights, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": support vector regression needs a numeric target");
        }
        org.psdkit.model.SampleWeights.check(sampleWeights, train.n());
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        Kernels.requireFinite(options.kernel(), x, "svr");
        double[] y = train.y();
        double[] w = sampleWeights;
        if (w != null) {
            int kept = 0;
            for (double v : w) {
                kept += v > 0 ? 1 : 0;
            }
            int[] rows = new int[kept];
            double[] wk = new double[kept];
            int t = 0;
            for (int i = 0; i < w.length; i++) {
                if (w[i] > 0) {
                    rows[t] = i;
                    wk[t++] = w[i];
                }
            }
            x = x.selectRows(rows);
            double[] yk = new double[kept];
            for (int i = 0; i < kept; i++) {
                yk[i] = y[rows[i]];
            }
            y = yk;
            w = wk;
        }
        Svr m = Svr.fit(options.kernel(), x, y, options.c(), options.epsilon(), options.tolerance(),
                (long) options.cacheMb() << 20, w);
        Map<String, Object> hp = hyperParameters(options.c(), options.epsilon(), options.tolerance());
        if (sampleWeights != null) {
            hp.put("sampleWeights", true);
        }
        ModelHeader h = ModelHeader.of(Svr.TYPE, train, scaler, m.kernel().spec(), hp);
        return new Pipeline<>(h, m, m.diagnostics());
    }

    /** The options as written in model files ({@code C, epsilon, tolerance}). */
    public static Map<String, Object> hyperParameters(double c, double epsilon, double tolerance) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("C", c);
        h.put("epsilon", epsilon);
        h.put("tolerance", tolerance);
        return h;
    }
}
