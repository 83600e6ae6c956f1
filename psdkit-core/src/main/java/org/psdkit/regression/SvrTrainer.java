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
 * and kept in the model. With {@link Options#nu()} set, the ν-SVR: ε is found by the fit (options {@code C, nu,
 * tolerance}; the model's {@link Svr#epsilon()} is the ε found).
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
     * @param nu        {@link #EPSILON_SVR} (0) for the ε-SVR; ν in (0, 1] for the ν-SVR ({@link Svr}; LIBSVM's
     *                  {@code -s 4 -n}, scikit-learn's {@code NuSVR(nu)}), which finds ε and then ignores
     *                  {@code epsilon}
     */
    public record Options(Kernel kernel, double c, double epsilon, double tolerance, int cacheMb, Scaler.Kind scale,
                          double nu) {
        /** The value of {@code nu} that selects the ε-SVR. */
        public static final double EPSILON_SVR = 0;
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
            if (nu != EPSILON_SVR) {
                ParameterException.unitHalfOpen("nu", nu);
            }
        }

        /** The ε-SVR with these fields. */
        public Options(Kernel kernel, double c, double epsilon, double tolerance, int cacheMb, Scaler.Kind scale) {
            this(kernel, c, epsilon, tolerance, cacheMb, scale, EPSILON_SVR);
        }

        /** The ν-SVR with C and ν, LIBSVM's tolerance and cache, unscaled. */
        public static Options nu(Kernel kernel, double c, double nu) {
            return new Options(kernel, c, DEFAULT_EPSILON, DEFAULT_TOLERANCE, DEFAULT_CACHE_MB, DEFAULT_SCALE, nu);
        }

        /** Whether this is the ν-SVR. */
        public boolean isNu() {
            return nu != EPSILON_SVR;
        }

        /** The same options with ν ({@link #EPSILON_SVR}: the ε-SVR). */
        public Options withNu(double value) {
            return new Options(kernel, c, epsilon, tolerance, cacheMb, scale, value);
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
            return new Options(k, c, epsilon, tolerance, cacheMb, scale, nu);
        }

        public Options withC(double value) {
            return new Options(kernel, value, epsilon, tolerance, cacheMb, scale, nu);
        }

        public Options withEpsilon(double e) {
            return new Options(kernel, c, e, tolerance, cacheMb, scale, nu);
        }

        public Options withTolerance(double t) {
            return new Options(kernel, c, epsilon, t, cacheMb, scale, nu);
        }

        public Options withCacheMb(int mb) {
            return new Options(kernel, c, epsilon, tolerance, mb, scale, nu);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, c, epsilon, tolerance, cacheMb, s, nu);
        }
    }

    public SvrTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public Pipeline<Svr> fit(Dataset train, ProgressListener listener) {
        return fit(train, train.weights(), listener);
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
        if (options.isNu() && sampleWeights != null) {
            throw new ParameterException("nu", "selects the nu-SVR, which takes no sampleWeights; use epsilon");
        }
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
        Svr.Fitted fit = options.isNu()
                ? Svr.fittedNu(options.kernel(), x, y, options.c(), options.nu(), options.tolerance(),
                (long) options.cacheMb() << 20)
                : Svr.fitted(options.kernel(), x, y, options.c(), options.epsilon(), options.tolerance(),
                (long) options.cacheMb() << 20, w);
        Svr m = fit.model();
        Map<String, Object> hp = hyperParameters(options.c(), options.epsilon(), options.tolerance());
        if (options.isNu()) {
            hp = new LinkedHashMap<>();
            hp.put("C", options.c());
            hp.put("nu", options.nu());
            hp.put("tolerance", options.tolerance());
        }
        if (sampleWeights != null) {
            hp.put("sampleWeights", true);
        }
        ModelHeader h = ModelHeader.of(Svr.TYPE, train, scaler, m.kernel().spec(), hp);
        // rows of weight 0 were left out of the solve: their predictions are not at hand
        double[] fitted = fit.fitted().length == train.n() ? fit.fitted() : null;
        return new Fit(h, m, m.diagnostics(), fitted);
    }

    /**
     * A model fitted in this JVM, with its predictions at the training rows (null when some rows were left out)
     * as the fit had them: {@link #trainingPredictions} spares a report a second pass over the kernel. Saved and
     * loaded as any SVR model (the predictions are not written).
     */
    public static final class Fit extends Pipeline<Svr> {
        private final double[] fitted;

        Fit(ModelHeader header, Svr inner, org.psdkit.model.Diagnostics diagnostics, double[] fitted) {
            super(header, inner, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                    SvrHyperParameters::of), diagnostics);
            this.fitted = fitted;
        }

        /**
         * The predictions at the training rows, in row order: f(x_i) = Σ_s β_s k(x_s, x_i) + b from the kernel
         * rows the fit used, equal to a predict of those rows up to rounding (the sums run in another order); or
         * a predict of {@code train} when the fit did not keep them.
         *
         * @param train the training set of the fit, rows in the same order
         */
        public double[] trainingPredictions(Dataset train) {
            if (fitted == null || fitted.length != train.n()) {
                return predict(train.x()).col(0);
            }
            return fitted.clone();
        }
    }

    /** The options as written in model files ({@code C, epsilon, tolerance}). */
    public static Map<String, Object> hyperParameters(double c, double epsilon, double tolerance) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("C", c);
        h.put("epsilon", epsilon);
        h.put("tolerance", tolerance);
        return h;
    }

    /** The model of an SVR fit: its header's options as {@link SvrHyperParameters} (as recorded when they lack its keys). */
    public static Pipeline<Svr> of(ModelHeader header, Svr inner, org.psdkit.model.Diagnostics diagnostics) {
        return new Pipeline<>(header, inner, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                SvrHyperParameters::of), diagnostics);
    }
}
