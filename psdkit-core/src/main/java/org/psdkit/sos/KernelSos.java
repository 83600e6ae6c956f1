package org.psdkit.sos;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.optim.NonNegativeQp;
import org.psdkit.optim.sdp.LinExpr;
import org.psdkit.optim.sdp.SdpModel;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.optim.sdp.SdpResult;
import org.psdkit.optim.sdp.SdpStatus;

/**
 * "Kernel SoS" of Bagnell &amp; Farahmand (OPT 2015): f(x) = Σ_l α_l κ²(x, X_l), fitted by their SDP (2) exactly as
 * written:
 *
 * <pre>
 *   min_{t, α} t   s.t.  [ I      Lα              0                 ]
 *                        [ αᵀLᵀ   t + 2αᵀK'ᵀY     0                 ]  ⪰ 0,
 *                        [ 0      0               G diag(α) + diag(α) G ]
 * </pre>
 *
 * with G the Gram matrix of κ, K' = G ⊙ G (the Gram matrix of κ²), LᵀL = M = K'ᵀK' + λK'. At the optimum
 * t = αᵀMα − 2αᵀK'ᵀY, so t + YᵀY is the paper's objective (K'α − Y)ᵀ(K'α − Y) + λαᵀK'α (reported by
 * {@link #objective()}). The paper's text writes N = −2K'ᵀY for the linear term, which would double it; the matrix in
 * (2) uses the correct −K'ᵀY, and so does this class.
 *
 * <h2>What this really computes</h2>
 * <ul>
 *   <li>The paper intends the constraint "G diag(α) ⪰ 0" in the sense of a non-negative spectrum (it is not
 *   symmetric). With distinct points and a universal kernel G is positive definite, G diag(α) is similar to
 *   G^{1/2} diag(α) G^{1/2}, which by Sylvester's law of inertia has as many negative eigenvalues as α has negative
 *   entries. So that constraint is exactly α ≥ 0: the model is a <b>non-negative-coefficients model (NCM) with
 *   kernel κ²</b> (Marteau-Ferey, Bach &amp; Rudi 2020, App. F), which cannot be universal.</li>
 *   <li>The symmetrised LMI G diag(α) + diag(α) G ⪰ 0 that (2) actually imposes is <b>not</b> equivalent to it:
 *   its diagonal 2G_ii α_i ≥ 0 forces α ≥ 0, but the converse fails — e.g. α = e_1 (f = κ²(·, X_1) ≥ 0) violates it
 *   whenever G_1j ≠ 0 for some j, because row j then has a zero diagonal and a non-zero off-diagonal entry. So (2)
 *   fits a non-negative-coefficients model with kernel κ² under an extra, stricter constraint; its objective is never
 *   below the NCM's ({@link #fitNcm}).</li>
 * </ul>
 * The tests show each statement numerically.
 *
 * <p>(2) is homogeneous in the targets: replacing Y by Y/s (s &gt; 0) replaces the solution α by α/s and the
 * objective by objective/s², and leaves the constraint, a cone, unchanged. {@link #fit} therefore solves (2) on
 * Y/s, with s the power of two at or below max|Y_i| (so the division is exact and max|Y_i/s| lies in [1, 2)), and
 * multiplies α back by s. Without it the interior-point method's absolute tolerances decided the answer for small
 * targets (targets near 1e-6 gave a model of the solver's noise, r² = −400, reported optimal) and large ones failed
 * (targets near 1e8 ended primal-infeasible, near 1e149 ill-posed).
 *
 * <p>The SDP has n + 1 scalar variables and blocks of size n + 1 and n. Every α_l enters both blocks through a
 * rank-2 coefficient (a border column, and the cross e_l g_lᵀ + g_l e_lᵀ). By default (2) is solved by
 * {@link KernelSosSolver}, an interior-point method written for exactly this structure (closed-form Schur complement,
 * O(n²) constraint operators, Lanczos step lengths); should it fail, the general solver takes over. The general
 * solver with rank-2 or dense coefficients remains selectable ({@link Route}) as the benchmark's baseline.
 */
public final class KernelSos implements Predictor {

    /** Model type name in model files. */
    public static final String TYPE = "kernel-sos";

    /** Which interior-point route solves (2). */
    public enum Route {
        /** {@link KernelSosSolver}, specialised to the structure of (2) (the default). */
        SPECIALISED,
        /** The general solver {@code optim.sdp.SdpSolver}, every α_l's coefficients passed as rank-2 factors. */
        RANK_TWO,
        /** The general solver with dense coefficient matrices. */
        DENSE
    }

    /**
     * Options.
     *
     * @param lambda regularisation λ ≥ 0 of the paper's objective
     * @param sdp    interior-point options
     * @param route  the solver route ({@link Route#SPECIALISED} by default; the general routes are the baselines of
     *               {@code psdkit bench kernel-sos})
     */
    public record Options(double lambda, SdpOptions sdp, Route route) {
        public Options {
            if (!(lambda >= 0) || Double.isInfinite(lambda)) {
                throw new IllegalArgumentException("lambda must be a finite number >= 0, got " + lambda);
            }
            if (sdp == null) {
                throw new IllegalArgumentException("sdp options must not be null");
            }
            if (route == null) {
                throw new IllegalArgumentException("route must not be null");
            }
        }

        public static Options of(double lambda) {
            return new Options(lambda, SdpOptions.defaults(), Route.SPECIALISED);
        }

        public Options(double lambda, SdpOptions sdp) {
            this(lambda, sdp, Route.SPECIALISED);
        }

        /** The general solver with rank-2 (true) or dense (false) coefficients. */
        public Options(double lambda, SdpOptions sdp, boolean structured) {
            this(lambda, sdp, structured ? Route.RANK_TWO : Route.DENSE);
        }
    }

    private final Kernel kernel;
    private final Matrix points;
    private final double[] alpha;
    private final double objective;
    private final double lmiMinEigenvalue;
    private final SdpResult result;
    private final double targetScale;

    private KernelSos(Kernel kernel, Matrix points, double[] alpha, double objective, double lmiMinEigenvalue,
                      SdpResult result, double targetScale) {
        this.kernel = kernel;
        this.points = points;
        this.alpha = alpha;
        this.objective = objective;
        this.lmiMinEigenvalue = lmiMinEigenvalue;
        this.result = result;
        this.targetScale = targetScale;
    }

    /** A model from stored numbers (for model files); diagnostics are not kept. */
    public static KernelSos of(Kernel kernel, Matrix points, double[] alpha) {
        if (points.rows() != alpha.length) {
            throw new IllegalArgumentException(points.rows() + " points but " + alpha.length + " coefficients");
        }
        return new KernelSos(kernel, points.copy(), alpha.clone(), Double.NaN, Double.NaN, null, Double.NaN);
    }

    /**
     * Fits by the SDP (2). Throws {@link IllegalStateException} with the solver's diagnostics when the SDP is not
     * solved (status other than optimal or near-optimal).
     */
    public static KernelSos fit(Kernel kernel, Matrix x, double[] targets, Options options) {
        checkData(x, targets);
        double scale = targetScale(targets);
        double[] y = divide(targets, scale);
        int n = x.rows();
        Matrix g = kernel.gram(x);
        g.symmetrizeInPlace();
        Matrix kp = hadamardSquare(g);
        double[] ky = kp.times(y);
        Matrix mm = Linalg.gemm(1.0, kp, false, kp, false).plus(kp.scale(options.lambda()));
        mm.symmetrizeInPlace();
        Cholesky ch = Linalg.cholesky(mm); // M = R Rᵀ, so L = Rᵀ and column l of L is row l of R
        Matrix r = ch.lower();

        if (options.route() == Route.SPECIALISED) {
            Matrix w = Matrix.zeros(n + 1, n); // column l: w_l = (L e_l, (K'Y)_l)
            for (int l = 0; l < n; l++) {
                for (int i = 0; i < n; i++) {
                    w.set(i, l, r.get(l, i));
                }
                w.set(n, l, ky[l]);
            }
            KernelSosSolver.Solution sol = KernelSosSolver.solve(w, g, options.sdp());
            SdpStatus st = sol.result().status();
            if (st == SdpStatus.OPTIMAL || st == SdpStatus.NEAR_OPTIMAL) {
                return solved(kernel, x, y, scale, options, g, kp, sol.result(), sol.alpha());
            }
            // not solved by the specialised method: the general solver (with its double-double rescue) decides
        }
        boolean structured = options.route() != Route.DENSE;
        SdpModel model = new SdpModel().options(options.sdp());
        SdpModel.Var t = model.scalar("t");
        SdpModel.Var[] a = model.scalars("alpha", n);
        SdpModel.Lmi schur = model.lmi(n + 1);
        for (int i = 0; i < n; i++) {
            schur.constant(i, i, 1.0);
        }
        schur.add(t, n, n, 1.0);
        SdpModel.Lmi cross = model.lmi(n);
        Matrix swap = Matrix.of(new double[][] {{0, 1}, {1, 0}});
        for (int l = 0; l < n; l++) {
            // border: e_n w_lᵀ + w_l e_nᵀ with w_l = (L e_l, (K'Y)_l): (i,n) = L_il, (n,n) = 2 (K'Y)_l
            Matrix u = Matrix.zeros(n + 1, 2);
            u.set(n, 0, 1.0);
            for (int i = 0; i < n; i++) {
                u.set(i, 1, r.get(l, i));
            }
            u.set(n, 1, ky[l]);
            if (structured) {
                schur.addLowRank(a[l], u, swap);
            } else {
                schur.addMatrix(a[l], u.times(swap).times(u.transpose()));
            }
            // G diag(e_l) + diag(e_l) G = g_l e_lᵀ + e_l g_lᵀ
            Matrix v = Matrix.zeros(n, 2);
            v.set(l, 0, 1.0);
            for (int i = 0; i < n; i++) {
                v.set(i, 1, g.get(i, l));
            }
            if (structured) {
                cross.addLowRank(a[l], v, swap);
            } else {
                cross.addMatrix(a[l], v.times(swap).times(v.transpose()));
            }
        }
        SdpModel.Solution s = model.minimize(LinExpr.of(t));
        double[] alpha = new double[n];
        for (int l = 0; l < n; l++) {
            alpha[l] = s.value(a[l]);
        }
        return solved(kernel, x, y, scale, options, g, kp, s.result(), alpha);
    }

    /** The solution of (2) on the targets y = Y/scale, mapped back to Y (α·scale, objective·scale²). */
    private static KernelSos solved(Kernel kernel, Matrix x, double[] y, double scale, Options options, Matrix g,
                                    Matrix kp, SdpResult res, double[] alpha) {
        if (res.status() != SdpStatus.OPTIMAL && res.status() != SdpStatus.NEAR_OPTIMAL) {
            throw new IllegalStateException("Kernel SoS SDP not solved: " + res.status().label() + " after "
                    + res.iterations() + " iterations (relative gap " + res.relativeGap() + ", infeasibilities "
                    + res.primalInfeasibility() + " / " + res.dualInfeasibility() + ", targets divided by "
                    + scale + "): " + res.message());
        }
        double objective = objective(kp, y, alpha, options.lambda()) * scale * scale;
        double lmiMin = symmetrizedMinEigenvalue(g, alpha) * scale;
        double[] a = new double[alpha.length];
        for (int l = 0; l < a.length; l++) {
            a[l] = alpha[l] * scale;
            if (!Double.isFinite(a[l])) {
                throw new IllegalStateException("Kernel SoS: coefficient " + l + " is " + alpha[l] + " x " + scale
                        + " (targets divided by " + scale + "), beyond double precision; SDP " + res.status().label()
                        + " after " + res.iterations() + " iterations: " + res.message());
            }
        }
        if (!Double.isFinite(objective) || !Double.isFinite(lmiMin)) {
            throw new IllegalStateException("Kernel SoS: objective " + objective + " or LMI eigenvalue " + lmiMin
                    + " is not finite at the solution (targets divided by " + scale + "); SDP "
                    + res.status().label() + " after " + res.iterations() + " iterations: " + res.message());
        }
        return new KernelSos(kernel, x.copy(), a, objective, lmiMin, res, scale);
    }

    /**
     * The power of two at or below max|y_i| (1 when every target is 0): dividing by it is exact and brings the
     * largest target into [1, 2). (2) and the NCM problem are homogeneous in the targets, so {@link #fit} and
     * {@link #fitNcm} solve them on y/s and multiply α by s.
     */
    public static double targetScale(double[] y) {
        double m = 0;
        for (double v : y) {
            m = Math.max(m, Math.abs(v));
        }
        return m == 0 ? 1.0 : Math.scalb(1.0, Math.getExponent(m) < Double.MIN_EXPONENT
                ? Math.getExponent(m * 0x1p60) - 60 : Math.getExponent(m));
    }

    private static double[] divide(double[] y, double s) {
        double[] out = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            out[i] = y[i] / s;
        }
        return out;
    }

    /**
     * The non-negative-coefficients model with kernel κ² on the same objective:
     * min_{α ≥ 0} (K'α − Y)ᵀ(K'α − Y) + λαᵀK'α, solved exactly by an active-set method (Lawson–Hanson form).
     * Returns α.
     */
    public static double[] fitNcm(Kernel kernel, Matrix x, double[] y, double lambda) {
        checkData(x, y);
        double scale = targetScale(y);
        Matrix g = kernel.gram(x);
        g.symmetrizeInPlace();
        Matrix kp = hadamardSquare(g);
        Matrix h = Linalg.gemm(1.0, kp, false, kp, false).plus(kp.scale(lambda));
        h.symmetrizeInPlace();
        double[] alpha = NonNegativeQp.solve(h, kp.times(divide(y, scale)));
        for (int l = 0; l < alpha.length; l++) {
            alpha[l] *= scale;
        }
        return alpha;
    }

    /** The paper's objective (K'α − Y)ᵀ(K'α − Y) + λαᵀK'α. */
    public static double objective(Matrix kPrime, double[] y, double[] alpha, double lambda) {
        double[] ka = kPrime.times(alpha);
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += (ka[i] - y[i]) * (ka[i] - y[i]);
        }
        return s + lambda * Linalg.dot(alpha, ka);
    }

    /** G ⊙ G, the Gram matrix of κ² when G is that of κ. */
    public static Matrix hadamardSquare(Matrix g) {
        Matrix k = g.copy();
        double[] d = k.data();
        for (int i = 0; i < d.length; i++) {
            d[i] *= d[i];
        }
        return k;
    }

    /** λ_min(G diag(α) + diag(α) G), the symmetrised LMI of (2). */
    public static double symmetrizedMinEigenvalue(Matrix g, double[] alpha) {
        int n = alpha.length;
        Matrix s = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                s.set(i, j, g.get(i, j) * (alpha[i] + alpha[j]));
            }
        }
        return Linalg.eigvalsh(s)[0];
    }

    /**
     * The smallest eigenvalue of the (non-symmetric) G diag(α) for a positive definite G: its spectrum is that of the
     * symmetric G^{1/2} diag(α) G^{1/2}, to which it is similar.
     */
    public static double spectrumMinEigenvalue(Matrix g, double[] alpha) {
        Eigen e = Linalg.eigh(g);
        if (e.min() <= 0) {
            throw new IllegalArgumentException("G must be positive definite (smallest eigenvalue " + e.min() + ")");
        }
        Matrix root = e.reconstruct(v -> true, Math::sqrt);
        Matrix s = root.times(Matrix.diag(alpha)).times(root);
        s.symmetrizeInPlace();
        return Linalg.eigvalsh(s)[0];
    }

    private static void checkData(Matrix x, double[] y) {
        if (x.rows() < 2) {
            throw new IllegalArgumentException("Kernel SoS needs at least 2 training points, got " + x.rows());
        }
        if (y.length != x.rows()) {
            throw new IllegalArgumentException(x.rows() + " points but " + y.length + " targets");
        }
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("target " + i + " is not finite: " + y[i]);
            }
        }
        for (double v : x.data()) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("training points contain a non-finite value");
            }
        }
    }

    /** f at each row of {@code pts}. */
    public double[] values(Matrix pts) {
        Matrix k = kernel.cross(pts, points);
        double[] d = k.data();
        for (int i = 0; i < d.length; i++) {
            d[i] *= d[i];
        }
        return k.times(alpha);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String[] outputColumns() {
        return new String[] {"prediction"};
    }

    @Override
    public Matrix predict(Matrix x) {
        return Matrix.column(values(x));
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

    /** min_l α_l. */
    public double alphaMin() {
        double m = Double.POSITIVE_INFINITY;
        for (double a : alpha) {
            m = Math.min(m, a);
        }
        return m;
    }

    /** (K'α − Y)ᵀ(K'α − Y) + λαᵀK'α at the solution (NaN for a model read from a file). */
    public double objective() {
        return objective;
    }

    /** λ_min(G diag(α) + diag(α) G) at the solution (NaN for a model read from a file). */
    public double lmiMinEigenvalue() {
        return lmiMinEigenvalue;
    }

    /**
     * The interior-point result (null for a model read from a file). It is that of (2) on the targets divided by
     * {@link #targetScale()}: its y holds (t, α) of that problem, α/targetScale() in the units of the targets.
     */
    public SdpResult sdpResult() {
        return result;
    }

    /** The power of two the targets were divided by for the SDP ({@link #targetScale(double[])}; NaN if read). */
    public double targetScale() {
        return targetScale;
    }
}
