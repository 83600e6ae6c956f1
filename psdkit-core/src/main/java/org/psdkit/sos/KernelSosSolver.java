package org.psdkit.sos;

import java.util.Arrays;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Threads;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.sdp.BestIterate;
import org.psdkit.optim.sdp.HkmDouble;
import org.psdkit.optim.sdp.IpmCore;
import org.psdkit.optim.sdp.IpmOperations;
import org.psdkit.optim.sdp.IpmSettings;
import org.psdkit.optim.sdp.IterateMonitor;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.optim.sdp.SdpResult;
import org.psdkit.optim.sdp.SdpStatus;
import org.psdkit.optim.sdp.StartingPoint;
import org.psdkit.optim.sdp.StepLength;

/**
 * An interior-point solver specialised to the Kernel SoS SDP (2) of Bagnell &amp; Farahmand (2015): the same method
 * as the general {@code optim.sdp.SdpSolver} (HKM direction, Mehrotra predictor–corrector, the CSDP start
 * X₀ = ξI, Z₀ = ηI, separate primal and dual steps of 0.95 of the way to the boundary, iterative refinement of dy
 * (against the formed Schur complement) and the least-norm restoration of A(dX) = r_p, the same stopping rules), with every operation written for the
 * structure of this LMI instead of for general coefficient matrices. The loop and its rules are
 * {@code optim.sdp.IpmCore}'s; this class supplies the structured operations ({@code IpmOperations}).
 *
 * <p>Variables y = (t, α_1, …, α_n). The LMI is F₀ + t F_t + Σ α_l F_l ⪰ 0 with two blocks:
 * <ul>
 *   <li>block 1, order n + 1: F₀ = diag(1, …, 1, 0), F_t = e eᵀ (e the last unit vector), F_l = e w_lᵀ + w_l eᵀ with
 *   w_l = (L e_l, (K'Y)_l) (column l of the (n+1)×n matrix W);</li>
 *   <li>block 2, order n: F_l = e_l g_lᵀ + g_l e_lᵀ (g_l column l of the Gram matrix G), so Σ α_l F_l =
 *   G diag(α) + diag(α) G.</li>
 * </ul>
 * In the solver's standard form (D) max bᵀy s.t. C − Σ y_i A_i = Z ⪰ 0 this is C = F₀, A_i = −F_i, b = −e_t.
 *
 * <p>What the structure buys:
 * <ul>
 *   <li>A(X) and its adjoint cost O(n²): ⟨F_l, R⟩ = w_lᵀ(R_{e·} + R_{·e}) + Σ_k G_kl (R_lk + R_kl), and
 *   Σ v_l F_l is a border (block 1) and G_ij (v_i + v_j) (block 2).</li>
 *   <li>The Schur complement M_ij = ⟨F_i, X F_j Z⁻¹⟩ has a closed form ({@link SosSchur}, the
 *   {@code SchurAssembly} of this structure): eight GEMMs of order n in all, instead of products with the 2n-column
 *   factor matrices.</li>
 *   <li>Step lengths without eigenvalue decompositions: the largest step to the boundary of X + a dX ⪰ 0 is
 *   −1/λ_min(L⁻¹ dX L⁻ᵀ); λ_min is estimated by a Lanczos iteration with full reorthogonalisation (a few tens of
 *   matrix–vector products instead of a dense tridiagonalisation), and the step actually taken is confirmed by a
 *   Cholesky factorisation of the new iterate — which the next iteration needs anyway, so it is kept.</li>
 *   <li>dX = sym(R_c Z⁻¹ − X dZ Z⁻¹) from X R_d Z⁻¹ (once per iteration), a rank-2 term in block 1 and
 *   (GX)ᵀ(D Z⁻¹) + X(D GZ⁻¹) in block 2, with GX and GZ⁻¹ kept from the Schur complement.</li>
 *   <li>Once a full dual step has been taken, Z is formed from y (Z = C + Σ y_i F_i), so R_d = 0 exactly: the
 *   X R_d Z⁻¹ products are skipped and block 1's corrector term dXa dZa Z⁻¹ is a rank-2 product.</li>
 * </ul>
 * Unlike the general solver there is no double-double restart and no infeasibility detection ((2) is always
 * feasible and bounded for λ &gt; 0): {@link KernelSos#fit} hands a run that does not end (near-)optimal to the
 * general solver.
 */
final class KernelSosSolver {

    /** The method's constants (one record for the double, double-double and Kernel SoS iterations). */
    private static final IpmSettings S = IpmSettings.DEFAULT;


    private final int n;
    private final int n1;
    private final int m;
    /** W, (n+1)×n column-major: column l is w_l. */
    private final double[] w;
    /** G, n×n column-major (symmetric). */
    private final double[] g;
    private final SdpOptions opt;
    private Cholesky gram;
    /** The least-norm restoration of A(dX) = r_p ({@link HkmDouble.LeastNormCorrection}). */
    private final HkmDouble.LeastNormCorrection restoration =
            new HkmDouble.LeastNormCorrection(this::gram, S.refineThreshold());
    /** The Schur complement's closed form ({@link SosSchur}). */
    private final SosSchur schurAssembly;
    /** G X₂ and G Z₂⁻¹ of the current iteration (from the Schur complement; reused by dX). */
    private double[] gxCur;
    private double[] gzCur;
    /**
     * Once a full dual step has been taken, Z is formed from y (Z = C + Σ y_i F_i), so R_d = 0 by construction (the
     * X R_d Z⁻¹ products are skipped and block 1's corrector term is a rank-2 product).
     */
    private boolean dualFeasible;
    /** The Schur complement of the current iteration (for the refinement of dy). */
    private double[] mmCur;

    /**
     * Below this n every dense block (order n + 1) runs on one BLAS thread ({@link Threads#blasCapped}): on a busy
     * machine two threads' barriers spin in every factorisation of order n + 1, which cost several times the CPU and
     * wall time of one thread at n = 200 (docs/benchmarks/kernel-sos.md); on an idle machine a second thread can
     * save at most the parallel part of such a small factorisation.
     */
    static final int ONE_BLAS_THREAD_BELOW = 500;

    /** Solution: status, y = (t, α), and the iterates. */
    record Solution(SdpResult result, double t, double[] alpha) {
    }

    private KernelSosSolver(Matrix w, Matrix g, SdpOptions opt) {
        this.n = g.rows();
        this.n1 = n + 1;
        this.m = n + 1;
        this.w = w.data();
        this.g = g.data();
        this.opt = opt;
        this.schurAssembly = new SosSchur(this.w, this.g, n);
    }

    /**
     * Solves (2) for W (column l = (L e_l, (K'Y)_l)) and G.
     */
    static Solution solve(Matrix w, Matrix g, SdpOptions opt) {
        if (w.rows() != g.rows() + 1 || w.cols() != g.rows()) {
            throw new IllegalArgumentException("W must be (n+1) x n for an n x n G, got " + w.rows() + "x"
                    + w.cols() + " and " + g.rows() + "x" + g.cols());
        }
        if (g.rows() < ONE_BLAS_THREAD_BELOW) {
            return Threads.blasCapped(1, () -> new KernelSosSolver(w, g, opt).run());
        }
        return new KernelSosSolver(w, g, opt).run();
    }

    // ------------------------------------------------------------------ structured operators

    /** ⟨F_i, R⟩ for i = t, α_1..α_n (R need not be symmetric). */
    private double[] fdot(double[] r1, double[] r2) {
        double[] out = new double[m];
        out[0] = r1[n + n * n1];
        double[] s = new double[n1];
        for (int k = 0; k < n1; k++) {
            s[k] = r1[n + k * n1] + r1[k + n * n1];
        }
        for (int l = 0; l < n; l++) {
            double acc = 0;
            int off = l * n1;
            for (int k = 0; k < n1; k++) {
                acc += w[off + k] * s[k];
            }
            int go = l * n;
            for (int k = 0; k < n; k++) {
                acc += g[go + k] * (r2[l + k * n] + r2[go + k]);
            }
            out[1 + l] = acc;
        }
        return out;
    }

    /** out += s Σ v_i F_i. */
    private void fadj(double[] v, double s, double[] o1, double[] o2) {
        double[] u = new double[n1];
        for (int l = 0; l < n; l++) {
            double c = s * v[1 + l];
            if (c == 0) {
                continue;
            }
            int off = l * n1;
            for (int k = 0; k < n1; k++) {
                u[k] += c * w[off + k];
            }
        }
        for (int k = 0; k < n1; k++) {
            o1[k + n * n1] += u[k];
            o1[n + k * n1] += u[k];
        }
        o1[n + n * n1] += s * v[0];
        for (int j = 0; j < n; j++) {
            double vj = v[1 + j];
            int off = j * n;
            for (int i = 0; i < n; i++) {
                o2[off + i] += s * g[off + i] * (v[1 + i] + vj);
            }
        }
    }

    /** A(R) = −F(R) in the standard form. */
    private double[] opA(double[][] r) {
        double[] f = fdot(r[0], r[1]);
        for (int i = 0; i < m; i++) {
            f[i] = -f[i];
        }
        return f;
    }

    /** out += scale Σ y_i A_i = −scale Σ y_i F_i. */
    private void addAdjoint(double[] y, double scale, double[][] out) {
        fadj(y, -scale, out[0], out[1]);
    }

    private static double[] mul(int rows, int inner, int cols, double[] a, boolean ta, double[] b, boolean tb) {
        return SosSchur.mul(rows, inner, cols, a, ta, b, tb);
    }

    private static void symmetrize(int s, double[] a) {
        SosSchur.symmetrize(s, a);
    }

    // ------------------------------------------------------------------ main loop

    private int size(int b) {
        return b == 0 ? n1 : n;
    }

    private double[][] zeros() {
        return new double[][] {new double[n1 * n1], new double[n * n]};
    }

    private static double[][] copy(double[][] a) {
        return new double[][] {a[0].clone(), a[1].clone()};
    }

    private static double inner(double[][] a, double[][] c) {
        return HkmDouble.inner(a, c);
    }

    private static double norm(double[][] a) {
        return Math.sqrt(inner(a, a));
    }

    private static double norm(double[] a) {
        return Math.sqrt(Linalg.dot(a, a));
    }

    private double[][] cDense() {
        double[][] c = zeros();
        for (int i = 0; i < n; i++) {
            c[0][i + i * n1] = 1.0;
        }
        return c;
    }

    /** ⟨F_i, F_j⟩: the Schur formula at X = Z⁻¹ = I. */
    private Cholesky gram() {
        if (gram == null) {
            double[][] id = zeros();
            for (int b = 0; b < 2; b++) {
                int s = size(b);
                for (int k = 0; k < s; k++) {
                    id[b][k + k * s] = 1.0;
                }
            }
            gram = Linalg.choleskyStrict(Matrix.wrap(m, m, schurAssembly.assemble(id, id)));
        }
        return gram;
    }

    private Solution run() {
        IpmCore.Setup setup = IpmCore.Setup.of(opt, S, true);
        SosIteration it = new SosIteration();
        IpmCore.Outcome<BestIterate> out = IpmCore.run(it, setup);
        return finish(out.status(), out.message(), it.x, it.z, it.y, out.last().stats(), out.iterations(),
                out.monitor(), setup.startNanos());
    }

    /**
     * The structured operations of this LMI for {@link IpmCore}: the iterate with the Cholesky factors of its X and
     * Z (from the step that confirmed it), the residuals and factors of the current iteration.
     */
    private final class SosIteration implements IpmOperations<BestIterate, double[][][]> {
        private final int total = n1 + n;
        private final double[][] c = cDense();
        private final double[] bv = new double[m];
        private final double normB = 1.0;
        private final double normC;
        double[][] x = zeros();
        double[][] z = zeros();
        final double[] y = new double[m];
        private Cholesky[] lx;
        private Cholesky[] lz;
        // the current iteration: residuals, Z⁻¹, the Schur factor, X R_d Z⁻¹ and h0
        private double[][] rd;
        private double[] rp;
        private double[][] zi;
        private Cholesky mChol;
        private double[][] xrdzi;
        private double[] h0;

        SosIteration() {
            bv[0] = -1.0;
            normC = norm(c);
            StartingPoint.fill(x, z, new int[] {n1, n}, new boolean[2],
                    StartingPoint.scales(normC, bv, normA2(), total, S));
        }

        @Override
        public IpmCore.Measures measure() {
            rd = zeros();
            if (!dualFeasible) {
                for (int b = 0; b < 2; b++) {
                    for (int k = 0; k < rd[b].length; k++) {
                        rd[b][k] = c[b][k] - z[b][k];
                    }
                }
                addAdjoint(y, -1.0, rd);
            }
            double[] ax = opA(x);
            rp = new double[m];
            for (int i = 0; i < m; i++) {
                rp[i] = bv[i] - ax[i];
            }
            return IpmCore.Measures.of(inner(c, x), Linalg.dot(bv, y), inner(x, z), norm(rp), norm(rd), normB, normC,
                    total);
        }

        @Override
        public BestIterate snapshot(int iteration, IpmCore.Measures measures) {
            return BestIterate.copyOf(x, z, y, measures.stats(), iteration);
        }

        @Override
        public String factor(int iteration) {
            zi = new double[2][];
            try {
                if (lx == null) {
                    lx = new Cholesky[2];
                    lz = new Cholesky[2];
                    for (int b = 0; b < 2; b++) {
                        lx[b] = Linalg.cholesky(Matrix.wrap(size(b), size(b), x[b]));
                        lz[b] = Linalg.cholesky(Matrix.wrap(size(b), size(b), z[b]));
                    }
                }
                mChol = schurFactor(x, lz, zi);
            } catch (LinalgException e) {
                return "factorisation failed at iteration " + iteration + ": " + e.getMessage();
            }
            return null;
        }

        @Override
        public void prepareDirections() {
            // h0 = r_p + A(X R_d Z⁻¹)
            xrdzi = zeros();
            for (int b = 0; b < 2 && !dualFeasible; b++) {
                int s = size(b);
                xrdzi[b] = mul(s, s, s, mul(s, s, s, x[b], false, rd[b], false), false, zi[b], false);
            }
            h0 = HkmDouble.rhsBase(rp, opA(xrdzi));
        }

        @Override
        public double[][][] predictor() {
            return direction(h0, rp, HkmDouble.predictorRhs(x), rd, xrdzi, x, zi, mChol);
        }

        @Override
        public double[][][] centred(double sigmaMu, double[][][] affine) {
            double[][] rczi = new double[2][];
            for (int b = 0; b < 2; b++) {
                int s = size(b);
                double[] t;
                if (affine == null) {
                    t = null;
                } else if (b == 0 && dualFeasible) {
                    // block 1 with R_d = 0: dZa is the border e uᵀ + u eᵀ, so dXa dZa Z⁻¹ is a rank-2 product
                    t = borderProduct(affine[0][0], affine[2][0], zi[0]);
                } else {
                    t = mul(s, s, s, mul(s, s, s, affine[0][b], false, affine[1][b], false), false, zi[b], false);
                }
                rczi[b] = HkmDouble.centredRhs(sigmaMu, zi[b], x[b], t);
            }
            return direction(h0, rp, rczi, rd, xrdzi, x, zi, mChol);
        }

        @Override
        public double maxPrimalStep(double[][][] d) {
            return maxStep(lx, d[0]);
        }

        @Override
        public double maxDualStep(double[][][] d) {
            return maxStep(lz, d[1]);
        }

        @Override
        public double affineMu(double[][][] a, double ap, double ad) {
            return HkmDouble.affineMu(x, z, a[0], a[1], ap, ad, total);
        }

        /**
         * Takes the steps, confirmed (and shortened if need be) by the Cholesky factors of the new iterates, which
         * the next iteration uses.
         */
        @Override
        public String step(int iteration, double[][][] d, double ap, double ad) {
            double[][] xNew = new double[2][];
            double[][] zNew = new double[2][];
            Cholesky[] lxNew = new Cholesky[2];
            Cholesky[] lzNew = new Cholesky[2];
            ap = confirmedStep(x, d[0], ap, xNew, lxNew);
            ad = confirmedDualStep(z, y, d[1], d[2][0], ad, zNew, lzNew);
            if (ap < 0 || ad < 0) {
                return "no positive definite iterate along the " + (ap < 0 ? "primal" : "dual")
                        + " direction at iteration " + iteration;
            }
            x = xNew;
            z = zNew;
            lx = lxNew;
            lz = lzNew;
            for (int i = 0; i < m; i++) {
                y[i] += ad * d[2][0][i];
            }
            return null;
        }
    }

    /**
     * The Cholesky factor of the Schur complement of this iteration (kept in {@code mmCur} for the refinement of
     * dy), with Z⁻¹ into {@code zi}.
     */
    private Cholesky schurFactor(double[][] x, Cholesky[] lz, double[][] zi) {
        for (int b = 0; b < 2; b++) {
            zi[b] = lz[b].solve(Matrix.identity(size(b))).data();
            symmetrize(size(b), zi[b]);
        }
        mmCur = schurAssembly.assemble(x, zi);
        gxCur = schurAssembly.gx();
        gzCur = schurAssembly.gz();
        return Linalg.cholesky(Matrix.wrap(m, m, mmCur));
    }

    /**
     * The dual step actually taken (−1 if none): a full dual step (or any step once there) is taken by forming Z from
     * y + a dy ({@link #formedDualStep}); before the first full step only a = 1 is tried this way, otherwise Z + a dZ
     * is confirmed as the primal step is ({@link #confirmedStep}).
     */
    private double confirmedDualStep(double[][] z, double[] y, double[][] dz, double[] dy, double ad,
                                     double[][] zNew, Cholesky[] lzNew) {
        if (dualFeasible || ad == 1.0) {
            double a = formedDualStep(y, dy, ad, zNew, lzNew, dualFeasible ? S.maxShrinks() : 0);
            if (a >= 0 || dualFeasible) {
                dualFeasible = a >= 0;
                return a;
            }
        }
        return confirmedStep(z, dz, ad, zNew, lzNew);
    }

    /**
     * The answer of a run that ended at (x, z, y) with {pobj, dobj, gap, pinf, dinf} = {@code stats}: the best
     * iterate instead of the last one when the run did not converge (near-optimal within the factor of
     * {@link IpmSettings#nearOptimalFactor()}).
     */
    private Solution finish(SdpStatus status, String message, double[][] x, double[][] z, double[] y,
                            double[] stats, int iter, IterateMonitor<BestIterate> monitor, long start) {
        double pobj = stats[0];
        double dobj = stats[1];
        double gap = stats[2];
        double pinf = stats[3];
        double dinf = stats[4];
        if (status != SdpStatus.OPTIMAL && monitor.best() != null) {
            BestIterate best = monitor.best();
            x = best.x();
            z = best.z();
            y = best.y();
            pobj = best.stats()[0];
            dobj = best.stats()[1];
            gap = best.stats()[2];
            pinf = best.stats()[3];
            dinf = best.stats()[4];
            message += best.note();
            if (monitor.nearOptimal() && status != SdpStatus.TIME_LIMIT) {
                status = SdpStatus.NEAR_OPTIMAL;
            }
        }
        double seconds = (System.nanoTime() - start) * 1e-9;
        Matrix[] xm = {Matrix.wrap(n1, n1, x[0]), Matrix.wrap(n, n, x[1])};
        Matrix[] zm = {Matrix.wrap(n1, n1, z[0]), Matrix.wrap(n, n, z[1])};
        SdpResult r = new SdpResult(status, xm, y, zm, pobj, dobj, gap, pinf, dinf, iter, seconds,
                "Kernel SoS solver: " + message);
        return new Solution(r, y[0], Arrays.copyOfRange(y, 1, m));
    }

    /** ‖A_i‖_F² = ⟨F_i, F_i⟩ in closed form, for the CSDP start of every interior-point run ({@link StartingPoint}). */
    private double[] normA2() {
        double[] normA2 = new double[m];
        normA2[0] = 1.0; // F_t = e eᵀ
        for (int l = 0; l < n; l++) {
            double s1 = 0;
            for (int k = 0; k < n1; k++) {
                s1 += w[l * n1 + k] * w[l * n1 + k];
            }
            double wn = w[l * n1 + n];
            double s2 = 0;
            for (int k = 0; k < n; k++) {
                s2 += g[l * n + k] * g[l * n + k];
            }
            double gll = g[l + l * n];
            normA2[l + 1] = 2 * (s1 + wn * wn) + 2 * gll * gll + 2 * s2;
        }
        return normA2;
    }

    /**
     * The step a ≤ {@code step} actually taken: the largest of step, step·0.8, … at which the symmetrised
     * X + a dX has a Cholesky factor (stored in {@code out}/{@code chol}); −1 if none within
     * {@code IpmSettings.maxShrinks} tries.
     */
    private double confirmedStep(double[][] x, double[][] dx, double step, double[][] out, Cholesky[] chol) {
        double a = step;
        for (int tries = 0; tries <= S.maxShrinks(); tries++, a *= S.backtrack()) {
            boolean ok = true;
            for (int b = 0; b < 2 && ok; b++) {
                int s = size(b);
                double[] v = new double[x[b].length];
                for (int k = 0; k < v.length; k++) {
                    v[k] = x[b][k] + a * dx[b][k];
                }
                symmetrize(s, v);
                try {
                    chol[b] = Linalg.choleskyStrict(Matrix.wrap(s, s, v));
                    out[b] = v;
                } catch (LinalgException e) {
                    ok = false;
                }
            }
            if (ok) {
                return a;
            }
        }
        return -1;
    }

    /**
     * Like {@link #confirmedStep} for the dual, with Z formed from y + a dy as C + Σ (y + a dy)_i F_i (exactly
     * symmetric, R_d = 0); at most {@code retries} shortenings.
     */
    private double formedDualStep(double[] y, double[] dy, double step, double[][] out, Cholesky[] chol,
                                  int retries) {
        double a = step;
        double[] yv = new double[m];
        for (int tries = 0; tries <= retries; tries++, a *= S.backtrack()) {
            for (int i = 0; i < m; i++) {
                yv[i] = y[i] + a * dy[i];
            }
            double[][] zc = cDense();
            fadj(yv, 1.0, zc[0], zc[1]);
            try {
                Cholesky c0 = Linalg.choleskyStrict(Matrix.wrap(n1, n1, zc[0]));
                Cholesky c1 = Linalg.choleskyStrict(Matrix.wrap(n, n, zc[1]));
                chol[0] = c0;
                chol[1] = c1;
                out[0] = zc[0];
                out[1] = zc[1];
                return a;
            } catch (LinalgException e) {
                // shorten
            }
        }
        return -1;
    }

    /**
     * a (e uᵀ + u eᵀ) Z⁻¹ for block 1 (order n + 1), with e uᵀ + u eᵀ = Σ dy_i F_i (u = W dy_α + dy_t e / 2):
     * (ae)(Z⁻¹u)ᵀ + (au)(Z⁻¹e)ᵀ, in O(n²).
     */
    private double[] borderProduct(double[] a, double[] dy, double[] z1) {
        double[] u = new double[n1];
        for (int l = 0; l < n; l++) {
            double c = dy[1 + l];
            int off = l * n1;
            for (int k = 0; k < n1; k++) {
                u[k] += c * w[off + k];
            }
        }
        u[n] += 0.5 * dy[0];
        double[] au = new double[n1];
        double[] zu = new double[n1];
        for (int j = 0; j < n1; j++) {
            double c = u[j];
            int off = j * n1;
            for (int i = 0; i < n1; i++) {
                au[i] += a[off + i] * c;
                zu[i] += z1[off + i] * c;
            }
        }
        int eo = n * n1;
        double[] t = new double[n1 * n1];
        for (int j = 0; j < n1; j++) {
            int off = j * n1;
            double zuj = zu[j];
            double zej = z1[eo + j];
            for (int i = 0; i < n1; i++) {
                t[off + i] = a[eo + i] * zuj + au[i] * zej;
            }
        }
        return t;
    }

    /**
     * Solves M dy = h0 − A(R_c Z⁻¹), dZ = R_d − Σ dy_i A_i, dX = sym(R_c Z⁻¹ − X dZ Z⁻¹), refined as in
     * {@code SdpSolver}. Returns {dX, dZ, {dy}}.
     */
    private double[][][] direction(double[] h0, double[] rp, double[][] rczi, double[][] rd, double[][] xrdzi,
                                   double[][] x, double[][] zi, Cholesky mChol) {
        double[] rhs = HkmDouble.schurRhs(h0, opA(rczi));
        double[] dy = mChol.solve(rhs);
        // iterative refinement of dy against the formed Schur complement (an m×m product per step, where the
        // general solver re-forms dX): it removes the error of a jittered or ill-conditioned factor
        double[] res = schurResidual(rhs, dy);
        double rn = norm(res);
        for (int step = 0; step < S.refineSteps() && rn > S.refineThreshold() * (1 + norm(rhs)); step++) {
            double[] d = mChol.solve(res);
            double[] dyNew = dy.clone();
            for (int i = 0; i < m; i++) {
                dyNew[i] += d[i];
            }
            double[] resNew = schurResidual(rhs, dyNew);
            double rnNew = norm(resNew);
            if (!(rnNew < rn)) {
                break;
            }
            dy = dyNew;
            res = resNew;
            rn = rnNew;
        }
        double[][] dx = dxOf(dy, rczi, xrdzi, x, zi);
        // restore A(dX) = r_p (the general solver's least-norm correction)
        res = HkmDouble.primalMiss(rp, opA(dx));
        double[] wv = restoration.weights(res, norm(res), norm(rp));
        if (wv != null) {
            addAdjoint(wv, 1.0, dx);
        }
        double[][] dz = copy(rd);
        addAdjoint(dy, -1.0, dz);
        return new double[][][] {dx, dz, {dy}};
    }

    /** rhs − M v with the Schur complement of the current iteration. */
    private double[] schurResidual(double[] rhs, double[] v) {
        double[] r = rhs.clone();
        for (int j = 0; j < m; j++) {
            double c = v[j];
            int off = j * m;
            for (int i = 0; i < m; i++) {
                r[i] -= mmCur[off + i] * c;
            }
        }
        return r;
    }

    /**
     * dX = sym(R_c Z⁻¹ − X dZ Z⁻¹) with dZ = R_d + Σ dy_i F_i, using the structure of Σ dy_i F_i: X R_d Z⁻¹
     * ({@code xrdzi}) does not depend on dy; in block 1 Σ dy_i F_i = e uᵀ + u eᵀ (u = W dy_α + dy_t e / 2), so
     * X (e uᵀ + u eᵀ) Z⁻¹ = (Xe)(Z⁻¹u)ᵀ + (Xu)(Z⁻¹e)ᵀ; in block 2 it is G D + D G (D = diag(dy_α)), so
     * X (G D + D G) Z⁻¹ = (G X)ᵀ (D Z⁻¹) + X (D G Z⁻¹), with G X and G Z⁻¹ from the Schur complement.
     */
    private double[][] dxOf(double[] dy, double[][] rczi, double[][] xrdzi, double[][] x, double[][] zi) {
        double[][] dx = new double[2][];
        // block 1
        double[] t1 = borderProduct(x[0], dy, zi[0]);
        double[] r1 = rczi[0];
        double[] h1 = xrdzi[0];
        for (int k = 0; k < t1.length; k++) {
            t1[k] = r1[k] - (h1[k] + t1[k]);
        }
        symmetrize(n1, t1);
        dx[0] = t1;
        // block 2
        double[] dzi = new double[n * n];
        double[] dgz = new double[n * n];
        double[] z2 = zi[1];
        for (int j = 0; j < n; j++) {
            int off = j * n;
            for (int i = 0; i < n; i++) {
                double c = dy[1 + i];
                dzi[off + i] = c * z2[off + i];
                dgz[off + i] = c * gzCur[off + i];
            }
        }
        Matrix t2 = Matrix.wrap(n, n, xrdzi[1].clone());
        Linalg.gemmInPlace(1.0, Matrix.wrap(n, n, gxCur), true, Matrix.wrap(n, n, dzi), false, 1.0, t2);
        Linalg.gemmInPlace(1.0, Matrix.wrap(n, n, x[1]), false, Matrix.wrap(n, n, dgz), false, 1.0, t2);
        double[] t = t2.data();
        double[] r2 = rczi[1];
        for (int k = 0; k < t.length; k++) {
            t[k] = r2[k] - t[k];
        }
        symmetrize(n, t);
        dx[1] = t;
        return dx;
    }

    /** Largest a with X + a dX ⪰ 0 (+∞ when every a ≥ 0 works), from λ_min(L⁻¹ dX L⁻ᵀ) by Lanczos. */
    private double maxStep(Cholesky[] chol, double[][] dx) {
        double best = Double.POSITIVE_INFINITY;
        for (int b = 0; b < 2; b++) {
            double lmin = StepLength.ritzMinimum(size(b), chol[b].lower().data(), dx[b]);
            if (lmin < 0) {
                best = Math.min(best, -1.0 / lmin);
            }
        }
        return best;
    }
}
