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
 * <p><b>Scaling.</b> (2) is homogeneous in the targets, in the kernel and in α: with Y = s_y Y', G = s_G G̃ (so
 * K' = s_G² K̃') and α = (s_y / s_G²) γ, the objective is s_y² [γᵀ(K̃'K̃' + λ̃K̃')γ − 2γᵀK̃'Y' + Y'ᵀY'] with
 * λ̃ = λ / s_G², and G diag(α) + diag(α) G = (s_y / s_G)(G̃ diag(γ) + diag(γ) G̃); the constraint is a cone, so
 * positive factors leave it unchanged. {@link #fit} solves the SDP with every block of order one: s_y and s_G the
 * powers of two at or below max|Y_i| and max G_ii, and the quadratic and linear terms divided by the powers of two at
 * or below their largest entries ({@link #sdpData}); all the factors are powers of two, so the scaling is exact, and
 * α is multiplied back. Without it the interior-point method's absolute tolerances decided the answer: targets near
 * 1e-6 gave a model of the solver's noise (r² = −400, reported optimal), targets near 1e8 and 1e149 and kernels of
 * values near 1e6 ended with the SDP not solved, λ = 1e300 at its iteration limit, and kernels beyond 1e154 overflowed
 * K' = G ⊙ G.
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
    private final double alphaScale;

    private KernelSos(Kernel kernel, Matrix points, double[] alpha, double objective, double lmiMinEigenvalue,
                      SdpResult result, double alphaScale) {
        this.kernel = kernel;
        this.points = points;
        this.alpha = alpha;
        this.objective = objective;
        this.lmiMinEigenvalue = lmiMinEigenvalue;
        this.result = result;
        this.alphaScale = alphaScale;
    }

    /**
     * The data of the SDP that {@link #fit} solves (see the class comment, "Scaling"): (2) with G̃ in its LMI, M̂ as
     * the quadratic and ĝ as the linear term; its α, times 2^{@code alphaExponent}, is the α of the model.
     *
     * @param gram          G̃ = G / s_G, symmetric, largest diagonal entry in [1, 2)
     * @param kPrime        K̃' = G̃ ⊙ G̃
     * @param targets       Y' = Y / s_y
     * @param lambda        λ̃ = λ / s_G²
     * @param quadratic     M̂ = (K̃'K̃' + λ̃K̃') / s_M
     * @param linear        ĝ = K̃'Y' / s_g
     * @param targetExponent log₂ s_y
     * @param gramExponent  log₂ s_G
     * @param alphaExponent log₂(s_g s_y / (s_M s_G²)): α = 2^alphaExponent β for the SDP's β
     */
    record SdpData(Matrix gram, Matrix kPrime, double[] targets, double lambda, Matrix quadratic, double[] linear,
                   int targetExponent, int gramExponent, int alphaExponent) {
    }

    /**
     * The balanced data of (2) for the kernel's Gram matrix on x, the targets y and λ. Throws
     * {@link IllegalArgumentException} when k² overflows on the training points (the model could not be evaluated)
     * or λ / s_G² does (λ too large for a kernel of such small values: the fit would be 0).
     */
    static SdpData sdpData(Kernel kernel, Matrix x, double[] y, double lambda) {
        Matrix g = kernel.gram(x);
        g.symmetrizeInPlace();
        double gmax = 0;
        for (int i = 0; i < g.rows(); i++) {
            gmax = Math.max(gmax, Math.abs(g.get(i, i)));
        }
        if (Double.isInfinite(gmax * gmax)) {
            throw new IllegalArgumentException("Kernel SoS: the kernel " + kernel.spec() + " reaches " + gmax
                    + " on the training points, where its square k^2, the kernel of the model, overflows double "
                    + "precision; choose parameters nearer the data's scale");
        }
        int eg = exponent(gmax);
        scalbInPlace(g.data(), -eg);
        double lam = Math.scalb(lambda, -2 * eg);
        if (Double.isInfinite(lam)) {
            throw new IllegalArgumentException("Kernel SoS: lambda = " + lambda + " is too large for the kernel "
                    + kernel.spec() + ", whose values on the training points are at most " + gmax + ": lambda / k^2 "
                    + "overflows double precision; the fit would be the zero function");
        }
        int ey = exponent(maxAbs(y));
        double[] ys = y.clone();
        scalbInPlace(ys, -ey);
        Matrix kp = hadamardSquare(g);
        Matrix mm = Linalg.gemm(1.0, kp, false, kp, false).plus(kp.scale(lam));
        mm.symmetrizeInPlace();
        double mmax = 0;
        for (int i = 0; i < mm.rows(); i++) {
            mmax = Math.max(mmax, mm.get(i, i));
        }
        int em = exponent(mmax);
        scalbInPlace(mm.data(), -em);
        double[] ky = kp.times(ys);
        int ek = exponent(maxAbs(ky));
        scalbInPlace(ky, -ek);
        return new SdpData(g, kp, ys, lam, mm, ky, ey, eg, ek + ey - em - 2 * eg);
    }

    /** ⌊log₂ m⌋ for m &gt; 0 (exact, also for subnormal m), 0 for m = 0. */
    private static int exponent(double m) {
        if (!(m > 0)) {
            return 0;
        }
        int e = Math.getExponent(m);
        return e < Double.MIN_EXPONENT ? Math.getExponent(m * 0x1p60) - 60 : e;
    }

    private static double maxAbs(double[] v) {
        double m = 0;
        for (double a : v) {
            m = Math.max(m, Math.abs(a));
        }
        return m;
    }

    private static void scalbInPlace(double[] v, int e) {
        for (int i = 0; i < v.length; i++) {
            v[i] = Math.scalb(v[i], e);
        }
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
        SdpData d = sdpData(kernel, x, targets, options.lambda());
        int n = x.rows();
        if (maxAbs(targets) == 0) {
            // Y = 0: the objective (K'α − Y)ᵀ(K'α − Y) + λαᵀK'α is ≥ 0 (K' ⪰ 0, λ ≥ 0) and α = 0 attains 0 with the
            // LMI at 0 ⪰ 0; an interior-point method only approaches it (α ≈ 1e-5 from the interior)
            SdpResult zero = new SdpResult(SdpStatus.OPTIMAL, new Matrix[0], new double[n + 1], new Matrix[0], 0, 0,
                    0, 0, 0, 0, 0, "every target is 0: alpha = 0 is optimal (objective 0), no SDP solved");
            return new KernelSos(kernel, x.copy(), new double[n], 0.0, 0.0, zero, 1.0);
        }
        Matrix g = d.gram();
        double[] ky = d.linear();
        Cholesky ch = Linalg.cholesky(d.quadratic()); // M̂ = R Rᵀ, so L = Rᵀ and column l of L is row l of R
        Matrix r = ch.lower();

        if (options.route() == Route.SPECIALISED) {
            Matrix w = Matrix.zeros(n + 1, n); // column l: w_l = (L e_l, ĝ_l), L Lᵀ = M̂
            for (int l = 0; l < n; l++) {
                for (int i = 0; i < n; i++) {
                    w.set(i, l, r.get(l, i));
                }
                w.set(n, l, ky[l]);
            }
            KernelSosSolver.Solution sol = KernelSosSolver.solve(w, g, options.sdp());
            SdpStatus st = sol.result().status();
            if (st == SdpStatus.OPTIMAL || st == SdpStatus.NEAR_OPTIMAL) {
                return solved(kernel, x, d, sol.result(), sol.alpha());
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
            // border: e_n w_lᵀ + w_l e_nᵀ with w_l = (L e_l, ĝ_l): (i,n) = L_il, (n,n) = 2 ĝ_l
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
            // G̃ diag(e_l) + diag(e_l) G̃ = g_l e_lᵀ + e_l g_lᵀ
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
        return solved(kernel, x, d, s.result(), alpha);
    }

    /** The solution β of the balanced SDP ({@link #sdpData}) as the model: α = 2^alphaExponent β. */
    private static KernelSos solved(Kernel kernel, Matrix x, SdpData d, SdpResult res, double[] beta) {
        if (res.status() != SdpStatus.OPTIMAL && res.status() != SdpStatus.NEAR_OPTIMAL) {
            throw new IllegalStateException("Kernel SoS SDP not solved: " + res.status().label() + " after "
                    + res.iterations() + " iterations (relative gap " + res.relativeGap() + ", infeasibilities "
                    + res.primalInfeasibility() + " / " + res.dualInfeasibility() + "; SDP balanced by 2^"
                    + d.alphaExponent() + " on alpha): " + res.message());
        }
        // γ' = α s_G² / s_y solves the problem in (G̃, Y', λ̃); objective and LMI eigenvalue from it, scaled back
        double[] gamma = beta.clone();
        scalbInPlace(gamma, d.alphaExponent() + 2 * d.gramExponent() - d.targetExponent());
        double objective = Math.scalb(objective(d.kPrime(), d.targets(), gamma, d.lambda()), 2 * d.targetExponent());
        double lmiMin = Math.scalb(symmetrizedMinEigenvalue(d.gram(), gamma), d.targetExponent() - d.gramExponent());
        double[] a = beta.clone();
        scalbInPlace(a, d.alphaExponent());
        for (int l = 0; l < a.length; l++) {
            if (!Double.isFinite(a[l])) {
                throw new IllegalStateException("Kernel SoS: coefficient " + (l + 1) + " is " + beta[l] + " x 2^"
                        + d.alphaExponent() + ", beyond double precision; SDP " + res.status().label() + " after "
                        + res.iterations() + " iterations: " + res.message());
            }
        }
        if (!Double.isFinite(objective) || !Double.isFinite(lmiMin)) {
            throw new IllegalStateException("Kernel SoS: objective " + objective + " or LMI eigenvalue " + lmiMin
                    + " is beyond double precision at the solution; SDP " + res.status().label() + " after "
                    + res.iterations() + " iterations: " + res.message());
        }
        return new KernelSos(kernel, x.copy(), a, objective, lmiMin, res, Math.scalb(1.0, d.alphaExponent()));
    }

    /** The power of two at or below max|y_i| (1 when every target is 0), s_y of the class comment. */
    static double targetScale(double[] y) {
        return Math.scalb(1.0, exponent(maxAbs(y)));
    }

    /**
     * The non-negative-coefficients model with kernel κ² on the same objective:
     * min_{α ≥ 0} (K'α − Y)ᵀ(K'α − Y) + λαᵀK'α, solved exactly by an active-set method (Lawson–Hanson form).
     * Returns α.
     */
    public static double[] fitNcm(Kernel kernel, Matrix x, double[] y, double lambda) {
        checkData(x, y);
        SdpData d = sdpData(kernel, x, y, lambda);
        double[] alpha = NonNegativeQp.solve(d.quadratic(), d.linear());
        scalbInPlace(alpha, d.alphaExponent());
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
     * The interior-point result (null for a model read from a file). It is that of the balanced SDP (class comment,
     * "Scaling"): its y holds (t, β), and α = {@link #alphaScale()} β.
     */
    public SdpResult sdpResult() {
        return result;
    }

    /** The power of two α = alphaScale() β relating the model to the SDP solved (NaN for a model read from a file). */
    public double alphaScale() {
        return alphaScale;
    }
}
