package org.psdkit.regression;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.Smo;

/**
 * Fits ε-insensitive support vector regression ({@link Svr}) on raw data: the scaler is fitted on the training rows
 * and kept in the model.
 *
 * <pre>{@code
 * Pipeline<Svr> m = new SvrTrainer(Kernels.parse("gaussian(sigma=0.7)"), 10, 0.05, Smo.DEFAULT_TOLERANCE,
 *         Scaler.Kind.ZSCORE).fit(train);
 * }</pre>
 *
 * @param kernel    the kernel
 * @param c         penalty C &gt; 0 on the ε-insensitive loss (finite)
 * @param epsilon   half-width ε ≥ 0 of the insensitive tube, in the target's units (finite)
 * @param tolerance SMO stopping tolerance &gt; 0 on the KKT violation
 * @param scale     the feature scaling fitted on the training data
 * @param cacheMb   memory for kernel values in MB (LIBSVM's {@code -m}; see {@link Svr#fit(Kernel, Matrix,
 *                  double[], double, double, double, long)}); it changes the speed, not the model
 */
public record SvrTrainer(Kernel kernel, double c, double epsilon, double tolerance, Scaler.Kind scale, int cacheMb)
        implements Trainer<Pipeline<Svr>> {

    public SvrTrainer {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (!(c > 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("C must be > 0 and finite, got " + c);
        }
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be >= 0 and finite, got " + epsilon);
        }
        if (!(tolerance > 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("tolerance must be > 0 and finite, got " + tolerance);
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        if (cacheMb < 1) {
            throw new IllegalArgumentException("cacheMb must be >= 1, got " + cacheMb);
        }
    }

    /** With the default kernel cache of {@link Smo#DEFAULT_CACHE_MB} MB. */
    public SvrTrainer(Kernel kernel, double c, double epsilon, double tolerance, Scaler.Kind scale) {
        this(kernel, c, epsilon, tolerance, scale, Smo.DEFAULT_CACHE_MB);
    }

    /** C, ε and LIBSVM's default tolerance. */
    public static SvrTrainer of(Kernel kernel, double c, double epsilon, Scaler.Kind scale) {
        return new SvrTrainer(kernel, c, epsilon, Smo.DEFAULT_TOLERANCE, scale);
    }

    @Override
    public Pipeline<Svr> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": support vector regression needs a numeric target");
        }
        Scaler scaler = Scaler.fit(scale, train.x());
        org.psdkit.linalg.Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "svr");
        Svr m = Svr.fit(kernel, x, train.y(), c, epsilon, tolerance, (long) cacheMb << 20);
        ModelHeader h = ModelHeader.of(Svr.TYPE, train, scaler, m.kernel().spec(), hyperParameters(c, epsilon,
                tolerance));
        return new Pipeline<>(h, m, diagnostics(m.diagnostics()));
    }

    /** The options as written in model files ({@code C, epsilon, tolerance}). */
    public static Map<String, Object> hyperParameters(double c, double epsilon, double tolerance) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("C", c);
        h.put("epsilon", epsilon);
        h.put("tolerance", tolerance);
        return h;
    }

    /** What a fit reports: SMO iterations, final KKT violation, convergence, dual and primal objective, seconds. */
    public static Map<String, Object> diagnostics(Svr.Diagnostics d) {
        Map<String, Object> m = new LinkedHashMap<>();
        long it = d.iterations();
        m.put("iterations", it == (int) it ? (Object) (int) it : (Object) it); // as a model file reads it back
        m.put("violation", d.violation());
        m.put("converged", d.converged());
        m.put("dual", d.dual());
        m.put("primal", d.primal());
        m.put("seconds", d.seconds());
        return m;
    }
}
