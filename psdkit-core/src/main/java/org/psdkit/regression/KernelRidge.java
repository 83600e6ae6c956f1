package org.psdkit.regression;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.model.Predictor;

/**
 * Kernel ridge regression f(x) = K(x, X) α (+ the training mean of y when centring).
 *
 * <ul>
 *   <li>{@link Form#STANDARD}: (K + λI) α = y, the convention of scikit-learn's {@code KernelRidge(alpha=λ)}. It
 *       minimises ‖y − Kα‖² + λ αᵀKα.</li>
 *   <li>{@link Form#REPRESENTER} (the lecture notes "Representer theorems in RKHSs"): z* = (K + NλI)⁻¹ K y are the fitted values of the problem
 *       min (1/N)Σ(y_i − h(x_i))² + λ‖h‖², and h*(x) = K(x, X)(K + σ²I)⁻¹ z* interpolates them through the
 *       representer formula, with a nugget σ² ≥ 0 that regularises an ill-conditioned K. With σ² = 0 and K
 *       invertible this equals the standard form with λ_standard = Nλ.</li>
 * </ul>
 * No inverse is formed: one Cholesky factorisation (jitter reported) or, if that fails, the eigen route
 * ({@link SpdSolve}). The fitted model is immutable.
 */
public final class KernelRidge implements Predictor {

    /** Which formula produced α. */
    public enum Form {
        STANDARD, REPRESENTER;

        /** Parses {@code standard|representer} (case-insensitive); errors name the option {@code form}. */
        public static Form parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(java.util.Locale.ROOT);
            return switch (t) {
                case "standard" -> STANDARD;
                case "representer" -> REPRESENTER;
                default -> throw new IllegalArgumentException("form: '" + s + "' is not standard or representer");
            };
        }

        /** The lower-case name used in model files and on the command line. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Options; the constructor checks every field.
     *
     * @param lambda regularisation λ ≥ 0
     * @param form   standard or representer form
     * @param nugget σ² ≥ 0 of the representer form (ignored by the standard form)
     * @param center subtract the training mean of y before fitting and add it back (an unpenalised intercept)
     */
    public record Options(double lambda, Form form, double nugget, boolean center) {
        public Options {
            if (!(lambda >= 0) || Double.isInfinite(lambda)) {
                throw new IllegalArgumentException("lambda must be >= 0 and finite, got " + lambda);
            }
            if (!(nugget >= 0) || Double.isInfinite(nugget)) {
                throw new IllegalArgumentException("nugget must be >= 0 and finite, got " + nugget);
            }
            if (form == null) {
                throw new IllegalArgumentException("form must be standard or representer");
            }
        }

        /** The scikit-learn convention (K + λI)α = y without centring. */
        public static Options standard(double lambda) {
            return new Options(lambda, Form.STANDARD, 0, false);
        }
    }

    private final Kernel kernel;
    private final Matrix points;
    private final double[] alpha;
    private final double offset;
    private final Options options;
    private final SpdSolve.Diagnostics diagnostics;
    private final double seconds;

    private KernelRidge(Kernel kernel, Matrix points, double[] alpha, double offset, Options options,
                        SpdSolve.Diagnostics diagnostics, double seconds) {
        this.kernel = kernel;
        this.points = points;
        this.alpha = alpha;
        this.offset = offset;
        this.options = options;
        this.diagnostics = diagnostics;
        this.seconds = seconds;
    }

    /** Fits on points x (n×d) and targets y. */
    public static KernelRidge fit(Kernel kernel, Matrix x, double[] y, Options opts) {
        if (y.length != x.rows()) {
            throw new IllegalArgumentException("kernel ridge: " + x.rows() + " points but " + y.length + " targets");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("kernel ridge: no training points");
        }
        long t0 = System.nanoTime();
        Matrix k = kernel.gram(x);
        return fitGram(kernel, x, k, y, opts, t0);
    }

    /** Fits with a precomputed Gram matrix K = kernel.gram(x) (not modified). */
    public static KernelRidge fitGram(Kernel kernel, Matrix x, Matrix k, double[] y, Options opts) {
        return fitGram(kernel, x, k, y, opts, System.nanoTime());
    }

    private static KernelRidge fitGram(Kernel kernel, Matrix x, Matrix k, double[] y, Options opts, long t0) {
        int n = y.length;
        double off = 0;
        if (opts.center()) {
            for (double v : y) {
                off += v;
            }
            off /= n;
        }
        double[] yc = new double[n];
        for (int i = 0; i < n; i++) {
            yc[i] = y[i] - off;
        }
        double[] alpha;
        SpdSolve.Diagnostics diag;
        if (opts.form() == Form.STANDARD) {
            SpdSolve.Result r = SpdSolve.solve(k, opts.lambda(), Matrix.column(yc));
            alpha = r.x().col(0);
            diag = r.diagnostics();
        } else {
            double[] ky = Linalg.gemv(k, false, yc);
            SpdSolve.Result z = SpdSolve.solve(k, n * opts.lambda(), Matrix.column(ky));
            SpdSolve.Result r = SpdSolve.solve(k, opts.nugget(), z.x());
            alpha = r.x().col(0);
            SpdSolve.Diagnostics a = z.diagnostics();
            SpdSolve.Diagnostics b = r.diagnostics();
            diag = new SpdSolve.Diagnostics(a.route() + "+" + b.route(), Math.max(a.jitter(), b.jitter()),
                    Math.min(a.rank(), b.rank()), Math.max(a.conditionEstimate(), b.conditionEstimate()));
        }
        for (double v : alpha) {
            if (!Double.isFinite(v)) {
                throw new IllegalStateException("kernel ridge: non-finite coefficients (route " + diag.route()
                        + ", condition estimate " + diag.conditionEstimate() + ")");
            }
        }
        return new KernelRidge(kernel, x.copy(), alpha, off, opts, diag, (System.nanoTime() - t0) * 1e-9);
    }

    /** Rebuilds a fitted model from stored numbers (model files). */
    public static KernelRidge of(Kernel kernel, Matrix points, double[] alpha, double offset, Options opts,
                                 SpdSolve.Diagnostics diagnostics) {
        if (alpha.length != points.rows()) {
            throw new IllegalArgumentException("kernel ridge: " + points.rows() + " points but " + alpha.length
                    + " coefficients");
        }
        return new KernelRidge(kernel, points.copy(), alpha.clone(), offset, opts, diagnostics, 0);
    }

    @Override
    public String type() {
        return "krr";
    }

    @Override
    public String[] outputColumns() {
        return new String[] {"prediction"};
    }

    @Override
    public Matrix predict(Matrix x) {
        return Matrix.column(predictVector(x));
    }

    /** K(x, X) α + offset. */
    public double[] predictVector(Matrix x) {
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException("kernel ridge was fitted on " + points.cols() + " features, got "
                    + x.cols());
        }
        double[] p = Linalg.gemv(kernel.cross(x, points), false, alpha);
        for (int i = 0; i < p.length; i++) {
            p[i] += offset;
        }
        return p;
    }

    public Kernel kernel() {
        return kernel;
    }

    public Matrix points() {
        return points.copy();
    }

    public double[] alpha() {
        return alpha.clone();
    }

    public double offset() {
        return offset;
    }

    public Options options() {
        return options;
    }

    public SpdSolve.Diagnostics diagnostics() {
        return diagnostics;
    }

    /** Fit time in seconds (Gram matrix + solve). */
    public double seconds() {
        return seconds;
    }
}
