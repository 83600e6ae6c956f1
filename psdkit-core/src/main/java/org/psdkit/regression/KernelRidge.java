package org.psdkit.regression;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdBuffer;
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
 *
 * <p>Sample weights w_i ≥ 0 (standard form) make the loss Σ w_i (y_i − f(x_i))²: with S = diag(√w) the
 * coefficients are α = S (S K S + λI)⁻¹ S y, the system scikit-learn's {@code KernelRidge.fit(X, y, sample_weight)}
 * solves ({@code _solve_cholesky_kernel}); with centring the offset is the weighted mean of y.
 *
 * <p>Several targets (the columns of Y, scikit-learn's multi-output {@code KernelRidge}) share the one factorisation:
 * A = (K + λI)⁻¹ Y column by column from the same Cholesky factor; {@link #predict(Matrix)} then has one column per
 * target.
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
                default -> throw new org.psdkit.model.ParameterException("form",
                        "must be standard or representer, got '" + s + "'");
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
            org.psdkit.model.ParameterException.nonNegative("lambda", lambda);
            org.psdkit.model.ParameterException.nonNegative("nugget", nugget);
            if (form == null) {
                throw new org.psdkit.model.ParameterException("form", "must be standard or representer");
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
    private final Matrix alphas;    // n × t for several targets, else null
    private final double[] offsets; // t offsets for several targets, else null
    private final Options options;
    private final SpdSolve.Diagnostics diagnostics;
    private final double seconds;

    private KernelRidge(Kernel kernel, Matrix points, double[] alpha, double offset, Options options,
                        SpdSolve.Diagnostics diagnostics, double seconds) {
        this(kernel, points, alpha, offset, null, null, options, diagnostics, seconds);
    }

    private KernelRidge(Kernel kernel, Matrix points, double[] alpha, double offset, Matrix alphas, double[] offsets,
                        Options options, SpdSolve.Diagnostics diagnostics, double seconds) {
        this.kernel = kernel;
        this.points = points;
        this.alpha = alpha;
        this.offset = offset;
        this.alphas = alphas;
        this.offsets = offsets;
        this.options = options;
        this.diagnostics = diagnostics;
        this.seconds = seconds;
    }

    /**
     * Fits on points x (n×d) and targets y. The standard form keeps one n×n buffer in native memory: the kernel
     * writes its Gram matrix into it and LAPACK factors it in place ({@link SpdSolve#choleskyInPlace}); nothing n×n
     * lives on the Java heap. The representer form works on a Java Gram matrix ({@link #fitGram}).
     */
    public static KernelRidge fit(Kernel kernel, Matrix x, double[] y, Options opts) {
        return fit(kernel, x, y, null, opts);
    }

    /**
     * {@link #fit(Kernel, Matrix, double[], Options)} with sample weights (null: equal weights, the same numbers as
     * without); weights need the standard form.
     */
    public static KernelRidge fit(Kernel kernel, Matrix x, double[] y, double[] weights, Options opts) {
        check(x, y);
        checkMemory(x.rows(), x.cols());
        if (weights != null) {
            checkWeighted(x, weights, opts);
            long t0 = System.nanoTime();
            org.psdkit.kernel.Kernels.requireFinite(kernel, x, "kernel ridge");
            double[] sw = sqrt(weights);
            double off = offset(y, weights, opts);
            double[] rhs = centred(y, off);
            for (int i = 0; i < rhs.length; i++) {
                rhs[i] *= sw[i];
            }
            SpdSolve.Result r;
            try (SpdBuffer g = SpdBuffer.allocate(x.rows())) {
                kernel.gramInto(x, g);
                g.scaleSymmetric(sw);
                r = SpdSolve.choleskyInPlace(g, opts.lambda(), rhs, buf -> {
                    kernel.gramInto(x, buf);
                    buf.scaleSymmetric(sw);
                });
            } catch (LinalgException e) {
                r = SpdSolve.eigenSolve(scaled(kernel.gram(x), sw), opts.lambda(), Matrix.column(rhs));
            }
            return finish(kernel, x, times(sw, r.x().col(0)), off, opts, r.diagnostics(), t0);
        }
        long t0 = System.nanoTime();
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "kernel ridge");
        if (opts.form() == Form.STANDARD) {
            double off = offset(y, opts);
            double[] yc = centred(y, off);
            SpdSolve.Result r;
            try (SpdBuffer g = SpdBuffer.allocate(x.rows())) {
                kernel.gramInto(x, g);
                r = SpdSolve.choleskyInPlace(g, opts.lambda(), yc, buf -> kernel.gramInto(x, buf));
            } catch (LinalgException e) {
                r = SpdSolve.eigenSolve(kernel.gram(x), opts.lambda(), Matrix.column(yc));
            }
            return finish(kernel, x, r.x().col(0), off, opts, r.diagnostics(), t0);
        }
        Matrix k = kernel.gram(x);
        return fitGram(kernel, x, k, y, opts, t0);
    }

    /**
     * Fits several targets (the t ≥ 2 columns of {@code y}) in one solve: one Cholesky factorisation of
     * S K S + λI (S = diag(√w), S = I without weights) in the one native n×n buffer, then t triangular solves; the
     * standard form only. Each target gets its own offset when centring.
     */
    public static KernelRidge fit(Kernel kernel, Matrix x, Matrix y, double[] weights, Options opts) {
        if (y.cols() < 2) {
            throw new IllegalArgumentException("kernel ridge: several targets need at least two columns, got "
                    + y.cols());
        }
        check(x, y.col(0));
        checkMemory(x.rows(), x.cols());
        if (opts.form() != Form.STANDARD) {
            throw new org.psdkit.model.ParameterException("form", "must be standard with several targets, got "
                    + opts.form().label());
        }
        if (weights != null) {
            checkWeighted(x, weights, opts);
        }
        long t0 = System.nanoTime();
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "kernel ridge");
        int n = x.rows();
        int t = y.cols();
        double[] w = weights;
        double[] sw = w == null ? null : sqrt(w);
        double[] offs = new double[t];
        Matrix rhs = Matrix.zeros(n, t);
        for (int c = 0; c < t; c++) {
            double[] yc = y.col(c);
            offs[c] = w == null ? offset(yc, opts) : offset(yc, w, opts);
            for (int i = 0; i < n; i++) {
                rhs.set(i, c, (yc[i] - offs[c]) * (sw == null ? 1 : sw[i]));
            }
        }
        java.util.function.Consumer<SpdBuffer> fill = buf -> {
            kernel.gramInto(x, buf);
            if (sw != null) {
                buf.scaleSymmetric(sw);
            }
        };
        Matrix a = Matrix.zeros(n, t);
        SpdSolve.Diagnostics diag;
        try (SpdBuffer g = SpdBuffer.allocate(n)) {
            fill.accept(g);
            SpdSolve.Result r = SpdSolve.choleskyInPlace(g, opts.lambda(), rhs.col(0), fill);
            diag = r.diagnostics();
            setCol(a, 0, r.x().col(0));
            for (int c = 1; c < t; c++) {
                setCol(a, c, g.solve(rhs.col(c)));
            }
        } catch (LinalgException e) {
            Matrix k = kernel.gram(x);
            SpdSolve.Result r = SpdSolve.eigenSolve(sw == null ? k : scaled(k, sw), opts.lambda(), rhs);
            diag = r.diagnostics();
            a = r.x();
        }
        if (sw != null) {
            for (int c = 0; c < t; c++) {
                for (int i = 0; i < n; i++) {
                    a.set(i, c, a.get(i, c) * sw[i]);
                }
            }
        }
        for (double v : a.data()) {
            if (!Double.isFinite(v)) {
                throw new IllegalStateException("kernel ridge: non-finite coefficients (route " + diag.route()
                        + ", condition estimate " + diag.conditionEstimate() + ")");
            }
        }
        return new KernelRidge(kernel, x.copy(), a.col(0), offs[0], a, offs, opts, diag,
                (System.nanoTime() - t0) * 1e-9);
    }

    private static void setCol(Matrix a, int c, double[] v) {
        System.arraycopy(v, 0, a.data(), c * a.rows(), v.length);
    }

    /**
     * Fits with a precomputed Gram matrix K = kernel.gram(x) (not modified); callers outside this package use
     * {@link KrrTrainer#fitWithGram}.
     */
    static KernelRidge fitGram(Kernel kernel, Matrix x, Matrix k, double[] y, Options opts) {
        check(x, y);
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "kernel ridge");
        return fitGram(kernel, x, k, y, opts, System.nanoTime());
    }

    /** {@link #fitGram(Kernel, Matrix, Matrix, double[], Options)} with sample weights (null: equal weights). */
    static KernelRidge fitGram(Kernel kernel, Matrix x, Matrix k, double[] y, double[] weights,
                                      Options opts) {
        if (weights == null) {
            return fitGram(kernel, x, k, y, opts);
        }
        check(x, y);
        checkWeighted(x, weights, opts);
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "kernel ridge");
        long t0 = System.nanoTime();
        double[] sw = sqrt(weights);
        double off = offset(y, weights, opts);
        double[] rhs = centred(y, off);
        for (int i = 0; i < rhs.length; i++) {
            rhs[i] *= sw[i];
        }
        Matrix ks = scaled(k, sw);
        SpdSolve.Result r;
        try (SpdBuffer g = SpdBuffer.copyOf(ks)) {
            r = SpdSolve.choleskyInPlace(g, opts.lambda(), rhs, buf -> buf.setLower(ks));
        } catch (LinalgException e) {
            r = SpdSolve.eigenSolve(ks, opts.lambda(), Matrix.column(rhs));
        }
        return finish(kernel, x, times(sw, r.x().col(0)), off, opts, r.diagnostics(), t0);
    }

    private static void checkWeighted(Matrix x, double[] weights, Options opts) {
        org.psdkit.data.Dataset.checkWeights(weights, x.rows(), "kernel ridge");
        if (opts.form() != Form.STANDARD) {
            throw new org.psdkit.model.ParameterException("form", "must be standard with sample weights, got "
                    + opts.form().label());
        }
    }

    private static double[] sqrt(double[] w) {
        double[] s = new double[w.length];
        for (int i = 0; i < w.length; i++) {
            s[i] = Math.sqrt(w[i]);
        }
        return s;
    }

    private static double[] times(double[] s, double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = s[i] * v[i];
        }
        return out;
    }

    /** S K S for S = diag(s), a new matrix. */
    private static Matrix scaled(Matrix k, double[] s) {
        Matrix out = k.copy();
        int n = k.rows();
        double[] a = out.data();
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                a[i + j * n] *= s[i] * s[j];
            }
        }
        return out;
    }

    /** The weighted mean of y when centring (Σ w_i y_i / Σ w_i), else 0. */
    private static double offset(double[] y, double[] w, Options opts) {
        if (!opts.center()) {
            return 0;
        }
        double sy = 0;
        double sw = 0;
        for (int i = 0; i < y.length; i++) {
            sy += w[i] * y[i];
            sw += w[i];
        }
        return sy / sw;
    }

    /**
     * Fails with {@link org.psdkit.linalg.MemoryBudget.InsufficientMemoryException} before the kernel matrix is
     * formed when the heap cannot hold its lower bound: the n×n kernel matrix (in native memory for the standard
     * form, which JavaCPP bounds by the maximum heap; on the heap for the representer form) and the n×d data.
     */
    static void checkMemory(long n, long d) {
        org.psdkit.linalg.MemoryBudget.check("exact kernel ridge on " + n + " rows x " + d + " columns (a " + n
                + " x " + n + " kernel matrix)", org.psdkit.linalg.MemoryBudget.matrixBytes(n, n + d));
    }

    private static void check(Matrix x, double[] y) {
        if (y.length != x.rows()) {
            throw new IllegalArgumentException("kernel ridge: " + x.rows() + " points but " + y.length + " targets");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("kernel ridge: no training points");
        }
    }

    private static double offset(double[] y, Options opts) {
        double off = 0;
        if (opts.center()) {
            for (double v : y) {
                off += v;
            }
            off /= y.length;
        }
        return off;
    }

    private static double[] centred(double[] y, double off) {
        double[] yc = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            yc[i] = y[i] - off;
        }
        return yc;
    }

    private static KernelRidge fitGram(Kernel kernel, Matrix x, Matrix k, double[] y, Options opts, long t0) {
        int n = y.length;
        double off = offset(y, opts);
        double[] yc = centred(y, off);
        double[] alpha;
        SpdSolve.Diagnostics diag;
        if (opts.form() == Form.STANDARD) {
            SpdSolve.Result r;
            try (SpdBuffer g = SpdBuffer.copyOf(k)) {
                r = SpdSolve.choleskyInPlace(g, opts.lambda(), yc, buf -> buf.setLower(k));
            } catch (LinalgException e) {
                r = SpdSolve.eigenSolve(k, opts.lambda(), Matrix.column(yc));
            }
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
        return finish(kernel, x, alpha, off, opts, diag, t0);
    }

    private static KernelRidge finish(Kernel kernel, Matrix x, double[] alpha, double off, Options opts,
                                      SpdSolve.Diagnostics diag, long t0) {
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

    /**
     * Rebuilds a fitted model of several targets from stored numbers: coefficients n × t (t ≥ 2) and t offsets.
     */
    public static KernelRidge of(Kernel kernel, Matrix points, Matrix alphas, double[] offsets, Options opts,
                                 SpdSolve.Diagnostics diagnostics) {
        if (alphas.rows() != points.rows() || alphas.cols() != offsets.length || alphas.cols() < 2) {
            throw new IllegalArgumentException("kernel ridge: " + points.rows() + " points, " + alphas.rows() + "x"
                    + alphas.cols() + " coefficients and " + offsets.length + " offsets");
        }
        return new KernelRidge(kernel, points.copy(), alphas.col(0), offsets[0], alphas.copy(), offsets.clone(),
                opts, diagnostics, 0);
    }

    /** The number of targets (columns of {@link #predict(Matrix)}). */
    public int targets() {
        return alphas == null ? 1 : alphas.cols();
    }

    /** The coefficients, n × {@link #targets()}. */
    public Matrix alphas() {
        return alphas == null ? Matrix.column(alpha.clone()) : alphas.copy();
    }

    /** The offsets added to the predictions, one per target. */
    public double[] offsets() {
        return offsets == null ? new double[] {offset} : offsets.clone();
    }

    @Override
    public String type() {
        return "krr";
    }

    @Override
    public String[] outputColumns() {
        if (alphas == null) {
            return new String[] {"prediction"};
        }
        String[] c = new String[alphas.cols()];
        for (int k = 0; k < c.length; k++) {
            c[k] = "prediction" + (k + 1);
        }
        return c;
    }

    @Override
    public Matrix predict(Matrix x) {
        if (alphas == null) {
            return Matrix.column(predictVector(x));
        }
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException("kernel ridge was fitted on " + points.cols() + " features, got "
                    + x.cols());
        }
        // K(x, X) A in row blocks, each block's cross matrix by dgemm (KernelProducts)
        Matrix p = KernelProducts.times(kernel, x, points, alphas);
        int m = x.rows();
        double[] pa = p.data();
        for (int c = 0; c < alphas.cols(); c++) {
            for (int i = 0; i < m; i++) {
                pa[c * m + i] += offsets[c];
            }
        }
        return p;
    }

    /** K(x, X) α + offset. */
    public double[] predictVector(Matrix x) {
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException("kernel ridge was fitted on " + points.cols() + " features, got "
                    + x.cols());
        }
        // rows in blocks so that no m×n cross matrix is formed (m = n = 20,000 would be 3.2 GB)
        double[] p = KernelProducts.times(kernel, x, points, alpha);
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
