package org.psdkit.regression;

import java.util.function.UnaryOperator;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.model.Predictor;

/**
 * Ridge regression: minimise ‖y − Φw‖² + λ‖w‖².
 *
 * <ul>
 *   <li>primal: w = (ΦᵀΦ + λI)⁻¹ Φᵀy, a d'×d' system in the feature space (Φ = φ(X), φ an explicit feature map);</li>
 *   <li>dual: α = (ΦΦᵀ + λI)⁻¹ y = (K + λI)⁻¹ y with K the kernel of φ, predictions K(x, X) α; the same function
 *       since w = Φᵀα.</li>
 * </ul>
 * With {@code intercept} the feature columns and y are centred on the training means first, so the intercept is not
 * penalised (as in scikit-learn's {@code Ridge(fit_intercept=True)}). Predictions are linear in φ(x):
 * φ(x)·w + b. Solves go through Cholesky (reported jitter) or the eigen route, never an inverse. The fits are
 * reached through {@link RidgeTrainer}.
 *
 * <p>Sample weights w_i ≥ 0 make the loss Σ w_i (y_i − φ(x_i)·w − b)²: the intercept centres on the weighted means
 * and the rows are scaled by √w_i, as scikit-learn's {@code Ridge.fit(X, y, sample_weight)} does
 * ({@code _preprocess_data} and {@code _rescale_data}).
 *
 * <p>Several targets (the columns of Y, scikit-learn's multi-output {@code Ridge}) share one factorisation of the
 * d'×d' (primal) or n×n (dual) system; the model then has one weight vector and bias per target.
 */
public final class RidgeRegression implements Predictor {
    private final UnaryOperator<Matrix> featureMap;
    private final double[] w;
    private final double bias;
    private final double lambda;
    private final SpdSolve.Diagnostics diagnostics;
    private final Matrix ws;      // d' × t for several targets, else null
    private final double[] biases; // t biases for several targets, else null

    private RidgeRegression(UnaryOperator<Matrix> featureMap, double[] w, double bias, double lambda,
                            SpdSolve.Diagnostics diagnostics) {
        this(featureMap, w, bias, lambda, diagnostics, null, null);
    }

    private RidgeRegression(UnaryOperator<Matrix> featureMap, double[] w, double bias, double lambda,
                            SpdSolve.Diagnostics diagnostics, Matrix ws, double[] biases) {
        this.ws = ws;
        this.biases = biases;
        this.featureMap = featureMap;
        this.w = w;
        this.bias = bias;
        this.lambda = lambda;
        this.diagnostics = diagnostics;
    }

    static void checkLambda(double lambda) {
        org.psdkit.model.ParameterException.nonNegative("lambda", lambda);
    }

    /** Primal ridge on the raw features (φ = identity). */
    static RidgeRegression fitPrimal(Matrix x, double[] y, double lambda, boolean intercept) {
        return fitPrimal(UnaryOperator.identity(), x, y, lambda, intercept);
    }

    /** Primal ridge with an explicit feature map φ (applied to each n×d point matrix, giving n×d'). */
    static RidgeRegression fitPrimal(UnaryOperator<Matrix> phi, Matrix x, double[] y, double lambda,
                                            boolean intercept) {
        checkLambda(lambda);
        Matrix f = phi.apply(x);
        check(f, y);
        double[] mu = intercept ? colMeans(f) : new double[f.cols()];
        double ybar = intercept ? mean(y) : 0;
        Matrix fc = center(f, mu);
        double[] yc = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            yc[i] = y[i] - ybar;
        }
        Matrix g = Linalg.syrk(fc, true); // ΦᵀΦ
        double[] rhs = Linalg.gemv(fc, true, yc);
        SpdSolve.Result r = SpdSolve.solve(g, lambda, Matrix.column(rhs));
        double[] w = r.x().col(0);
        double b = ybar - Linalg.dot(mu, w);
        return new RidgeRegression(phi, w, b, lambda, r.diagnostics());
    }

    /**
     * Dual ridge: α = (K + λI)⁻¹ y with K the Gram matrix of {@code kernel}; returns the kernel-expansion model. With
     * {@code intercept} y is centred and K is the centred Gram matrix HKH (H = I − 11ᵀ/n), which is the kernel of the
     * centred feature map, so that it matches {@link #fitPrimal} with intercept.
     */
    static Dual fitDual(Kernel kernel, Matrix x, double[] y, double lambda, boolean intercept) {
        checkLambda(lambda);
        check(x, y);
        int n = y.length;
        Matrix k = kernel.gram(x);
        double ybar = intercept ? mean(y) : 0;
        double[] rowMean = new double[n];
        double all = 0;
        if (intercept) {
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += k.get(i, j);
                }
                rowMean[j] = s / n;
                all += s;
            }
            all /= (double) n * n;
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < n; i++) {
                    k.set(i, j, k.get(i, j) - rowMean[i] - rowMean[j] + all);
                }
            }
        }
        double[] yc = new double[n];
        for (int i = 0; i < n; i++) {
            yc[i] = y[i] - ybar;
        }
        SpdSolve.Result r = SpdSolve.solve(k, lambda, Matrix.column(yc));
        return new Dual(kernel, x.copy(), r.x().col(0), ybar, intercept ? rowMean : null, all, lambda,
                r.diagnostics());
    }

    /**
     * Solves the dual with {@code kernel} (the kernel of φ) and returns the primal model: w = Φ_cᵀ α, where Φ_c is
     * Φ = φ(X) with its columns centred when fitting an intercept, and b = ȳ − μᵀw (μ the column means of Φ). This is
     * the identity w = Φᵀα between the primal and the dual solutions of ridge regression (Herbster, Kernels and
     * Regularization (lecture slides); Representer theorems in RKHSs (lecture notes)).
     */
    static RidgeRegression fitViaDual(Kernel kernel, UnaryOperator<Matrix> phi, Matrix x, double[] y,
                                             double lambda, boolean intercept) {
        Dual d = fitDual(kernel, x, y, lambda, intercept);
        Matrix f = phi.apply(x);
        int n = f.rows();
        double[] mu = intercept ? colMeans(f) : new double[f.cols()];
        double[] a = d.alpha;
        double[] w = new double[f.cols()];
        for (int j = 0; j < f.cols(); j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += (f.get(i, j) - mu[j]) * a[i];
            }
            w[j] = s;
        }
        double ybar = intercept ? mean(y) : 0;
        return new RidgeRegression(phi, w, ybar - Linalg.dot(mu, w), lambda, d.diagnostics);
    }

    /**
     * Weighted primal ridge: w = (Φ_cᵀWΦ_c + λI)⁻¹ Φ_cᵀW y_c with Φ_c, y_c centred on the weighted means when fitting
     * an intercept.
     */
    static RidgeRegression fitPrimal(UnaryOperator<Matrix> phi, Matrix x, double[] y, double[] weights,
                                     double lambda, boolean intercept) {
        if (weights == null) {
            return fitPrimal(phi, x, y, lambda, intercept);
        }
        checkLambda(lambda);
        Matrix f = phi.apply(x);
        check(f, y);
        org.psdkit.data.Dataset.checkWeights(weights, y.length, "ridge");
        double[] mu = intercept ? colMeans(f, weights) : new double[f.cols()];
        double ybar = intercept ? mean(y, weights) : 0;
        Matrix fs = center(f, mu);
        double[] ys = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            double s = Math.sqrt(weights[i]);
            ys[i] = (y[i] - ybar) * s;
            for (int j = 0; j < fs.cols(); j++) {
                fs.set(i, j, fs.get(i, j) * s);
            }
        }
        Matrix g = Linalg.syrk(fs, true);
        double[] rhs = Linalg.gemv(fs, true, ys);
        SpdSolve.Result r = SpdSolve.solve(g, lambda, Matrix.column(rhs));
        double[] w = r.x().col(0);
        return new RidgeRegression(phi, w, ybar - Linalg.dot(mu, w), lambda, r.diagnostics());
    }

    /**
     * Weighted ridge through the dual: α̃ = (S K_c S + λI)⁻¹ S y_c with S = diag(√w) and K_c the kernel of the
     * feature map centred on the weighted means, K_c = (I − 1pᵀ) K (I − p1ᵀ), p = w / Σw; then w = Φ_cᵀ S α̃, the
     * same solution as {@link #fitPrimal(UnaryOperator, Matrix, double[], double[], double, boolean)}.
     */
    static RidgeRegression fitViaDual(Kernel kernel, UnaryOperator<Matrix> phi, Matrix x, double[] y,
                                      double[] weights, double lambda, boolean intercept) {
        if (weights == null) {
            return fitViaDual(kernel, phi, x, y, lambda, intercept);
        }
        checkLambda(lambda);
        check(x, y);
        org.psdkit.data.Dataset.checkWeights(weights, y.length, "ridge");
        int n = y.length;
        Matrix k = kernel.gram(x);
        double sum = 0;
        for (double v : weights) {
            sum += v;
        }
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = intercept ? weights[i] / sum : 0;
        }
        double[] kp = Linalg.gemv(k, false, p);
        double pkp = Linalg.dot(p, kp);
        double[] sw = new double[n];
        for (int i = 0; i < n; i++) {
            sw[i] = Math.sqrt(weights[i]);
        }
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                k.set(i, j, (k.get(i, j) - kp[i] - kp[j] + pkp) * sw[i] * sw[j]);
            }
        }
        double ybar = intercept ? mean(y, weights) : 0;
        double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            ys[i] = (y[i] - ybar) * sw[i];
        }
        SpdSolve.Result r = SpdSolve.solve(k, lambda, Matrix.column(ys));
        double[] a = r.x().col(0);
        Matrix f = phi.apply(x);
        double[] mu = intercept ? colMeans(f, weights) : new double[f.cols()];
        double[] w = new double[f.cols()];
        for (int j = 0; j < f.cols(); j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += (f.get(i, j) - mu[j]) * sw[i] * a[i];
            }
            w[j] = s;
        }
        return new RidgeRegression(phi, w, ybar - Linalg.dot(mu, w), lambda, r.diagnostics());
    }

    /**
     * Several targets (the t ≥ 2 columns of {@code y}) with optional sample weights: one factorisation of the primal
     * system Φ̃ᵀΦ̃ + λI ({@code dual} false) or of the dual one Φ̃Φ̃ᵀ + λI, Φ̃ = S Φ_c (S = diag(√w)), solved for all
     * targets; the dual's coefficients map back by w = Φ̃ᵀ A.
     */
    static RidgeRegression fitSeveral(Kernel kernel, UnaryOperator<Matrix> phi, Matrix x, Matrix y,
                                      double[] weights, double lambda, boolean intercept, boolean dual) {
        checkLambda(lambda);
        Matrix f = phi.apply(x);
        check(f, y.col(0));
        int n = f.rows();
        int t = y.cols();
        if (y.rows() != n || t < 2) {
            throw new IllegalArgumentException("ridge: several targets need n x t with t >= 2, got " + y.rows() + "x"
                    + t);
        }
        double[] wt = weights;
        if (wt == null) {
            wt = new double[n];
            java.util.Arrays.fill(wt, 1.0);
        } else {
            org.psdkit.data.Dataset.checkWeights(wt, n, "ridge");
        }
        double[] mu = intercept ? colMeans(f, wt) : new double[f.cols()];
        double[] ybar = new double[t];
        Matrix fs = center(f, mu);
        Matrix ys = Matrix.zeros(n, t);
        for (int c = 0; c < t; c++) {
            ybar[c] = intercept ? mean(y.col(c), wt) : 0;
        }
        for (int i = 0; i < n; i++) {
            double s = Math.sqrt(wt[i]);
            for (int j = 0; j < fs.cols(); j++) {
                fs.set(i, j, fs.get(i, j) * s);
            }
            for (int c = 0; c < t; c++) {
                ys.set(i, c, (y.get(i, c) - ybar[c]) * s);
            }
        }
        Matrix w;
        SpdSolve.Result r;
        if (!dual) {
            r = SpdSolve.solve(Linalg.syrk(fs, true), lambda, Linalg.gemm(1.0, fs, true, ys, false));
            w = r.x();
        } else {
            Matrix k = dualGram(kernel, x, wt, intercept);
            r = SpdSolve.solve(k, lambda, ys);
            w = Linalg.gemm(1.0, fs, true, r.x(), false);
        }
        double[] b = new double[t];
        for (int c = 0; c < t; c++) {
            b[c] = ybar[c] - Linalg.dot(mu, w.col(c));
        }
        return new RidgeRegression(phi, w.col(0), b[0], lambda, r.diagnostics(), w, b);
    }

    /** S K_c S of {@link #fitViaDual(Kernel, UnaryOperator, Matrix, double[], double[], double, boolean)}. */
    private static Matrix dualGram(Kernel kernel, Matrix x, double[] weights, boolean intercept) {
        int n = x.rows();
        Matrix k = kernel.gram(x);
        double sum = 0;
        for (double v : weights) {
            sum += v;
        }
        double[] p = new double[n];
        for (int i = 0; i < n; i++) {
            p[i] = intercept ? weights[i] / sum : 0;
        }
        double[] kp = Linalg.gemv(k, false, p);
        double pkp = Linalg.dot(p, kp);
        for (int j = 0; j < n; j++) {
            double sj = Math.sqrt(weights[j]);
            for (int i = 0; i < n; i++) {
                k.set(i, j, (k.get(i, j) - kp[i] - kp[j] + pkp) * Math.sqrt(weights[i]) * sj);
            }
        }
        return k;
    }

    /** Rebuilds a model of several targets: weights d' × t (t ≥ 2) and t biases. */
    public static RidgeRegression of(UnaryOperator<Matrix> phi, Matrix w, double[] bias, double lambda) {
        if (w.cols() != bias.length || w.cols() < 2) {
            throw new IllegalArgumentException("ridge: " + w.cols() + " weight columns and " + bias.length
                    + " biases");
        }
        return new RidgeRegression(phi, w.col(0), bias[0], lambda, null, w.copy(), bias.clone());
    }

    /** The number of targets (columns of {@link #predict(Matrix)}). */
    public int targets() {
        return ws == null ? 1 : ws.cols();
    }

    /** The weights, d' × {@link #targets()}. */
    public Matrix weightMatrix() {
        return ws == null ? Matrix.column(w.clone()) : ws.copy();
    }

    /** The biases, one per target. */
    public double[] biases() {
        return biases == null ? new double[] {bias} : biases.clone();
    }

    /** Σ w_i v_i / Σ w_i. */
    static double mean(double[] v, double[] w) {
        double s = 0;
        double sw = 0;
        for (int i = 0; i < v.length; i++) {
            s += w[i] * v[i];
            sw += w[i];
        }
        return s / sw;
    }

    static double[] colMeans(Matrix f, double[] w) {
        double[] m = new double[f.cols()];
        for (int j = 0; j < f.cols(); j++) {
            m[j] = mean(f.col(j), w);
        }
        return m;
    }

    /** Rebuilds a primal model with feature map φ from stored numbers (w has φ's output dimension). */
    public static RidgeRegression of(UnaryOperator<Matrix> phi, double[] w, double bias, double lambda) {
        return new RidgeRegression(phi, w.clone(), bias, lambda, null);
    }

    /** Rebuilds a linear primal model (φ = identity) from stored numbers. */
    public static RidgeRegression ofLinear(double[] w, double bias, double lambda) {
        return new RidgeRegression(UnaryOperator.identity(), w.clone(), bias, lambda, null);
    }

    private static void check(Matrix f, double[] y) {
        if (f.rows() != y.length) {
            throw new IllegalArgumentException("ridge: " + f.rows() + " points but " + y.length + " targets");
        }
        if (y.length == 0) {
            throw new IllegalArgumentException("ridge: no training points");
        }
    }

    static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    static double[] colMeans(Matrix f) {
        double[] m = new double[f.cols()];
        for (int j = 0; j < f.cols(); j++) {
            m[j] = mean(f.col(j));
        }
        return m;
    }

    static Matrix center(Matrix f, double[] mu) {
        Matrix c = f.copy();
        for (int j = 0; j < f.cols(); j++) {
            for (int i = 0; i < f.rows(); i++) {
                c.set(i, j, c.get(i, j) - mu[j]);
            }
        }
        return c;
    }

    @Override
    public String type() {
        return "ridge";
    }

    @Override
    public String[] outputColumns() {
        if (ws == null) {
            return new String[] {"prediction"};
        }
        String[] c = new String[ws.cols()];
        for (int k = 0; k < c.length; k++) {
            c[k] = "prediction" + (k + 1);
        }
        return c;
    }

    @Override
    public Matrix predict(Matrix x) {
        if (ws == null) {
            return Matrix.column(predictVector(x));
        }
        Matrix f = featureMap.apply(x);
        if (f.cols() != ws.rows()) {
            throw new IllegalArgumentException("ridge was fitted on " + ws.rows() + " features, got " + f.cols());
        }
        Matrix p = Linalg.gemm(1.0, f, false, ws, false);
        for (int c = 0; c < ws.cols(); c++) {
            for (int i = 0; i < p.rows(); i++) {
                p.set(i, c, p.get(i, c) + biases[c]);
            }
        }
        return p;
    }

    public double[] predictVector(Matrix x) {
        Matrix f = featureMap.apply(x);
        if (f.cols() != w.length) {
            throw new IllegalArgumentException("ridge was fitted on " + w.length + " features, got " + f.cols());
        }
        double[] p = Linalg.gemv(f, false, w);
        for (int i = 0; i < p.length; i++) {
            p[i] += bias;
        }
        return p;
    }

    public double[] weights() {
        return w.clone();
    }

    public double bias() {
        return bias;
    }

    public double lambda() {
        return lambda;
    }

    /** Solver diagnostics of the fit, or null for a model read from a file. */
    public SpdSolve.Diagnostics diagnostics() {
        return diagnostics;
    }

    /** The dual (kernel-expansion) form of ridge regression. */
    public static final class Dual implements Predictor {
        private final Kernel kernel;
        private final Matrix points;
        private final double[] alpha;
        private final double ybar;
        private final double[] kMeans;
        private final double kAll;
        private final double lambda;
        private final SpdSolve.Diagnostics diagnostics;

        Dual(Kernel kernel, Matrix points, double[] alpha, double ybar, double[] kMeans, double kAll, double lambda,
             SpdSolve.Diagnostics diagnostics) {
            this.kernel = kernel;
            this.points = points;
            this.alpha = alpha;
            this.ybar = ybar;
            this.kMeans = kMeans;
            this.kAll = kAll;
            this.lambda = lambda;
            this.diagnostics = diagnostics;
        }

        @Override
        public String type() {
            return "ridge";
        }

        @Override
        public String[] outputColumns() {
            return new String[] {"prediction"};
        }

        @Override
        public Matrix predict(Matrix x) {
            return Matrix.column(predictVector(x));
        }

        /** Σ α_i k̃(x, x_i) + ȳ with k̃ the centred kernel when fitted with an intercept. */
        public double[] predictVector(Matrix x) {
            Matrix kx = kernel.cross(x, points);
            int m = x.rows();
            int n = points.rows();
            if (kMeans != null) {
                for (int i = 0; i < m; i++) {
                    double s = 0;
                    for (int j = 0; j < n; j++) {
                        s += kx.get(i, j);
                    }
                    double ri = s / n;
                    for (int j = 0; j < n; j++) {
                        kx.set(i, j, kx.get(i, j) - ri - kMeans[j] + kAll);
                    }
                }
            }
            double[] p = Linalg.gemv(kx, false, alpha);
            for (int i = 0; i < m; i++) {
                p[i] += ybar;
            }
            return p;
        }

        public double[] alpha() {
            return alpha.clone();
        }

        public double lambda() {
            return lambda;
        }

        public SpdSolve.Diagnostics diagnostics() {
            return diagnostics;
        }
    }
}
