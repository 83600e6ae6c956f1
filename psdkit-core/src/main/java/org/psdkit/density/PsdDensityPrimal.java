package org.psdkit.density;

import java.util.ArrayDeque;
import java.util.Deque;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.PartialEigen;
import org.psdkit.optim.Lbfgs;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.WolfeLineSearch;

/**
 * The primal solver of the PSD density problem (Marteau-Ferey, Bach &amp; Rudi 2020 eq. 12, in the solver's scale of
 * {@link PsdDensityEstimator}): minimise P(A) = −(1/n) Σ log v_iᵀAv_i + λ₁ Tr A + (λ₂/2)‖A‖_F² over A ⪰ 0 with
 * Tr(AW) = 1 (with sample weights, {@link DensityRows#weightSum}: −(1/Σ w) Σ w_i log v_iᵀAv_i, and everywhere below
 * n is Σ w and 1/(n f̂_i) is w_i/(Σ w f̂_i), the weighted dual of {@link LogLikelihoodDual} with p_i = w_i / Σ w), over a factor A = S Sᵀ / Tr(SᵀWS) (S r×q; the constraint is removed by the scale, and P is a smooth,
 * scale-invariant function φ(S) wherever every f_i = ‖Sᵀv_i‖² &gt; 0; Burer &amp; Monteiro 2003 for the factor).
 * L-BFGS (Nocedal &amp; Wright 2006, Alg. 7.4) with a strong-Wolfe line search that is cheap because each f_i is a
 * quadratic along a direction D ({@link DensityRows#line}: one n·r·q product for Dᵀv_i, then O(n) per trial step).
 *
 * <p><b>Certificate.</b> From the iterate, the dual point β_i = 1/(n f̂_i) (f̂ the values of the feasible Â =
 * SSᵀ/Tr(SᵀWS)) and a μ near the maximiser of the dual give the dual value D(β, μ) = (1/n) Σ (1 +
 * log nβ_i) + μ − ‖[μW + V Diag(β) Vᵀ − λ₁I]_+‖²/(2λ₂), exactly as {@link LogLikelihoodDual} defines it. The μ
 * search decomposes the r×r dual matrix C(μ) once (its positive eigenpairs and a few more) and then searches μ on
 * the k×k bounds of {@link DualCompression}: at a μ' that was not decomposed the reported gap uses the upper
 * bound on ‖[C(μ')]_+‖², so it is an upper bound on the true gap of (β, μ'); a certificate that meets the target
 * there is decomposed once more at μ', so a converged solve reports the exact gap. With many positive eigenvalues
 * (early iterates) each μ step is one exact Newton step (Daleckii–Krein second derivative) on a new decomposition.
 * The sums of logs cancel in P − D, which is computed as λ₁ Tr Â + (λ₂/2)‖Â‖² − 1 − μ + ‖[·]_+‖²/(2λ₂) (no
 * cancellation of the data terms); the relative gap is (P − D)/max(1, |P|), the definition of
 * {@link LogLikelihoodDual}. The solver stops on it. The number p of positive eigenvalues of the dual matrix is the
 * rank of the dual's candidate [·]_+/λ₂; when p ≥ q and q &lt; r the factor gets more columns.
 */
final class PsdDensityPrimal {

    /** L-BFGS memory (pairs kept); 10: Nocedal &amp; Wright 2006 Sec. 7.2 recommend 3–20. */
    static final int MEMORY = 10;
    /**
     * The strong-Wolfe step rule: c₁ = 1e-4, c₂ = 0.9 (the usual quasi-Newton values, Nocedal &amp; Wright 2006,
     * Sec. 3.1), at most 40 trial steps per phase (each O(n) on the rows' exact per-row quadratics).
     */
    static final WolfeLineSearch LINE_SEARCH = WolfeLineSearch.defaults();
    /** A certificate (one weighted Gram pass and a few r×r eigen-decompositions) every this many iterations. */
    static final int CERTIFICATE_EVERY = 10;
    /** Fewest and most iterations between certificates when the schedule is predicted from the gap's decay. */
    static final int CERTIFICATE_MIN_EVERY = 5;
    static final int CERTIFICATE_MAX_EVERY = 40;

    /**
     * Iterations until the next certificate: where the gap's geometric decay between the last two certificates
     * predicts it reaches the target, clamped to [{@link #CERTIFICATE_MIN_EVERY}, {@link #CERTIFICATE_MAX_EVERY}];
     * {@link #CERTIFICATE_EVERY} without a decay to go by. Each certificate costs a weighted Gram pass and a few
     * r×r eigen-decompositions, more than an iteration at r ≈ n.
     */
    static int nextCertificate(Certificate prev, int prevIt, Certificate cur, int it, double target) {
        if (prev == null || !(cur.gap() > 0) || !(prev.gap() > cur.gap()) || it <= prevIt) {
            return CERTIFICATE_EVERY;
        }
        double rate = Math.log(cur.gap() / prev.gap()) / (it - prevIt); // < 0
        double k = Math.log(target / cur.gap()) / rate;
        if (!(k > 0)) {
            return CERTIFICATE_MIN_EVERY;
        }
        return (int) Math.max(CERTIFICATE_MIN_EVERY, Math.min(CERTIFICATE_MAX_EVERY, Math.ceil(SCHEDULE_MARGIN * k)));
    }

    /**
     * The predicted iterations to the target are stretched by this factor: the decay slows in the tail (d = 10,
     * n = 1,000: 6.6 % per iteration between the certificates at 60 and 100, 5.6 % up to 125, 4.5 % after), so the
     * plain prediction certified at gaps of 1.29e-6, then 1.03e-6 before 8.5e-7 (two near misses, each a certificate
     * of ~10 iterations' cost); 25 % more iterations cost less than one of them.
     */
    static final double SCHEDULE_MARGIN = 1.25;

    /**
     * Iterations of each of the two windows whose decreases of φ estimate the decay rate before two certificates
     * exist ({@link #firstInterval}): 5 smooths the step-to-step noise of L-BFGS decreases and needs 10
     * iterations of history, half the {@link #FIRST_CERTIFICATE}.
     */
    static final int DECAY_WINDOW = 5;

    /**
     * Iterations until the second certificate, when only one gap is known: the gap is assumed to decay at the rate
     * of the objective's decreases over the last 2·{@link #DECAY_WINDOW} iterations (under linear convergence
     * φ_k − φ* ∝ ρ^k, its decreases and the duality gap fall by the same ρ per iteration), ρ^w = (φ_{k−w} − φ_k)
     * / (φ_{k−2w} − φ_{k−w}); clamped to [{@link #CERTIFICATE_MIN_EVERY}, {@link #CERTIFICATE_MAX_EVERY}], and
     * {@link #CERTIFICATE_EVERY} when the history is too short or does not decay. {@code phi[j]} is φ after
     * iteration j, j = 0..it.
     */
    static int firstInterval(double[] phi, int it, double gap, double target) {
        int w = DECAY_WINDOW;
        if (it < 2 * w || phi.length <= it || !(gap > target) || !(target > 0)) {
            return CERTIFICATE_EVERY;
        }
        double recent = phi[it - w] - phi[it];
        double before = phi[it - 2 * w] - phi[it - w];
        if (!(recent > 0) || !(before > recent) || !Double.isFinite(before)) {
            return CERTIFICATE_EVERY;
        }
        double rate = Math.log(recent / before) / w; // < 0
        double k = Math.log(target / gap) / rate;
        return (int) Math.max(CERTIFICATE_MIN_EVERY, Math.min(CERTIFICATE_MAX_EVERY, Math.ceil(SCHEDULE_MARGIN * k)));
    }

    /**
     * Iterations before the first certificate of a solve from the cold start ({@link #initial}): its gap is far
     * from any target (3e-2 at iteration 10, 6e-3 at 20 on the d = 10, n = 1,000 case; 1.3e-1 and 1.4e-2 at
     * n = 2,000), while its μ is far from the last one (there is none) and each μ step there is a full r×r
     * decomposition (the certificate at iteration 10 at n = 2,000 cost ~70 iterations' worth;
     * docs/benchmarks/psd-scale.md §11).
     */
    static final int FIRST_CERTIFICATE = 20;

    /**
     * W D is split over the workers only from this rank on: below it the product (r²q multiply-adds, 0.8 M at
     * r = 226, q = 16) costs less than handing it to the pool; at r = 1,000, q = 64 it is 64 M.
     */
    static final int SPLIT_MIN_RANK = 256;

    /** r×r eigen-decompositions (μ points) of one certificate at most. */
    static final int MU_STEPS = 30;
    /**
     * Columns of the cold start's factor: at most this many and at most r/{@link #START_RANK_DIVISOR}, at least
     * {@link #START_MIN_COLUMNS}. A factor wider than the optimum's rank p converges in far fewer L-BFGS
     * iterations (measured, docs/benchmarks/psd-scale.md §11: d = 10, n = 1,000, p = 41: q = 48 took 209
     * iterations, q = 64 136, q = 96 132; 2-D, n = 300, p = 12: q = 16 took 220, q = 32 122), and the certificate
     * at S = I that picked q = 1.25p + 4 before saw p = 2–3 there (its μ is far from the optimum's), so the factor was
     * widened later with its curvature pairs lost. 64 = 1.5 p + 2 at d = 10, n = 1,000.
     */
    static final int START_COLUMNS = 64;
    /** The start's columns are at most r over this (an iteration costs O(n·r·q); 2-D, r = 226: q = 28). */
    static final int START_RANK_DIVISOR = 8;
    /** The start's columns are at least this many. */
    static final int START_MIN_COLUMNS = 8;

    /** The columns of the cold start's factor for feature dimension r. */
    static int startColumns(int r) {
        return Math.min(r, Math.max(START_MIN_COLUMNS, Math.min(START_COLUMNS, r / START_RANK_DIVISOR)));
    }
    /**
     * The μ search stops when what another decomposition could still gain (the upper bound at the best μ minus the
     * lower model's minimum) is below this fraction of the gap (it then moves the schedule's decay estimate by
     * at most this much), unless the gain could reach the target ...
     */
    static final double MU_GAIN_FRACTION = 0.1;
    /**
     * The exact Newton steps (many positive eigenvalues, {@link #COMPRESSION_MAX_FRACTION}) stop when the predicted
     * gain is below this fraction of max(tol·max(1, |P|), gap): the positive count at a coarse μ would be far
     * too large, and it decides the factor's widening.
     */
    static final double MU_NEWTON_GAIN_FRACTION = 1e-2;
    /** ... or below this fraction of the target tol·max(1, |P|). */
    static final double MU_TARGET_FRACTION = 1e-2;
    /** Columns added to a too-narrow factor start at this fraction of the mean column norm (a small escape step). */
    static final double NEW_COLUMN_SCALE = 1e-2;
    /**
     * Partial decompositions (dsyevr, the positive eigenpairs only) when the last certificate had at most this
     * fraction of r positive eigenvalues; above it the full dsyevd is as cheap (the tridiagonal reduction dominates
     * both: docs/benchmarks/psd-scale.md, r = 1,000 with 40 positive, PartialEigenTest's matrix).
     */
    static final double PARTIAL_MAX_FRACTION = 0.25;
    /**
     * Eigenpairs kept beyond the positive ones for {@link DualCompression} (at least this many, at least half the
     * positive count): the next eigenvalue below them is the bound on the rest, and the more negative it is, the
     * tighter the upper bound away from the decomposed μ.
     */
    static final int SUBSPACE_EXTRA = 8;
    /**
     * The k×k μ search runs when k is at most this fraction of r (then its ~20 k×k decompositions cost less than
     * one r×r one); above it each certificate step is one exact Newton step on a new r×r decomposition.
     */
    static final double COMPRESSION_MAX_FRACTION = 0.25;
    /** Newton steps on the lower model at most (each one k×k eigen-decomposition). */
    static final int MODEL_STEPS = 60;
    /** The model's Newton stops when its predicted decrease is below this fraction of the μ search's own stop. */
    static final double MODEL_RESOLUTION = 1e-2;
    /**
     * Golden-section steps on the upper bound (0.618^16 ≈ 5e-4 of the interval between μ and the model's
     * minimiser; the bound is flat to second order there, and each step is a k×k eigen-decomposition).
     */
    static final int UPPER_SEARCH_STEPS = 16;
    /** The upper bound is searched from μ to this fraction past the lower model's minimiser. */
    static final double UPPER_SEARCH_OVERSHOOT = 0.25;

    private PsdDensityPrimal() {
    }

    record Result(Matrix s, double traceSW, double primal, double dual, double relativeGap, int iterations,
                  int passes, double seconds, boolean converged, double eigenSeconds, int rankPositive, double mu,
                  int eigenCalls, int partialEigenCalls, int certificates, double certificateSeconds,
                  double gramSeconds) {
    }

    /** The certificate of a point. */
    record Certificate(double dual, double gap, double relativeGap, double mu, int positive, Eigen eigen,
                       Matrix matrix) {

        /** The k top eigenvectors of the dual matrix (r×k, ascending), from a new partial decomposition if needed. */
        Matrix top(int k) {
            int have = eigen.size();
            int r = matrix.rows();
            Matrix v = have >= k ? eigen.vectors() : PartialEigen.top(matrix, k).vectors();
            int cols = v.cols();
            Matrix out = Matrix.zeros(r, k);
            System.arraycopy(v.data(), (cols - k) * r, out.data(), 0, r * k);
            return out;
        }

        /** The k top eigenvalues, ascending (as {@link #top}). */
        double[] topValues(int k) {
            double[] lam = eigen.size() >= k ? eigen.values() : PartialEigen.top(matrix, k).values();
            return java.util.Arrays.copyOfRange(lam, lam.length - k, lam.length);
        }
    }

    /**
     * ⟨a, b⟩ with four partial sums: the JIT does not vectorise a floating-point reduction, so one sum waits for the
     * previous addition each step; the two-loop recursion's 3·{@link #MEMORY} inner products of r×q matrices per
     * iteration took ~10 % of an iteration at d = 10, n = 1,000 with a single sum.
     */
    private static double dot(Matrix a, Matrix b) {
        double[] x = a.data();
        double[] y = b.data();
        int n = x.length;
        int m = n & ~3;
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        for (int k = 0; k < m; k += 4) {
            s0 += x[k] * y[k];
            s1 += x[k + 1] * y[k + 1];
            s2 += x[k + 2] * y[k + 2];
            s3 += x[k + 3] * y[k + 3];
        }
        for (int k = m; k < n; k++) {
            s0 += x[k] * y[k];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** The scalars of φ at S that do not depend on the data. */
    private static final class Shape {
        final Matrix ws;   // W S
        final Matrix m;    // SᵀS
        final double t;    // Tr(SᵀWS)
        final double a;    // ‖S‖²
        final double b;    // ‖SᵀS‖²

        Shape(Matrix w, Matrix s) {
            this(Linalg.gemm(1.0, w, false, s, false), s, true);
        }

        /** All given: W S, SᵀS, Tr(SᵀWS), ‖S‖², ‖SᵀS‖². */
        Shape(Matrix ws, Matrix m, double t, double a, double b) {
            this.ws = ws;
            this.m = m;
            this.t = t;
            this.a = a;
            this.b = b;
        }

        /** With W S given (after a step S + tD: W S + t W D, no r×r·r×q product). */
        Shape(Matrix ws, Matrix s, boolean given) {
            this.ws = ws;
            m = Linalg.gemm(1.0, s, true, s, false);
            t = dot(s, ws);
            a = dot(s, s);
            b = dot(m, m);
        }
    }

    private final static class Problem {
        final DensityRows rows;
        final Matrix w;
        final double l1;
        final double l2;
        final double n;
        int passes;
        double eigenSeconds;
        int eigenCalls;
        int partialEigenCalls;
        /** Certificates computed, and the seconds they took (of which in the weighted Gram pass). */
        int certificates;
        double certificateSeconds;
        double gramSeconds;
        /** Positive eigenvalues at the last certificate (−1: none yet; the first one is a full decomposition). */
        int lastPositive = -1;
        /** An upper bound on ‖W‖₂: ‖W‖_F. */
        final double wNorm;

        Problem(DensityRows rows, Matrix w, double l1, double l2) {
            this.rows = rows;
            this.w = w;
            this.l1 = l1;
            this.l2 = l2;
            // the weighted likelihood −(1/Σw) Σ w_i log f_i: the rows' sums are weighted, the mean is over Σ w
            // (n without weights, so the unweighted solve is unchanged)
            this.n = rows.weightSum();
            this.wNorm = w.normF();
        }

        double value(DensityRows.Sums sums, Shape sh) {
            if (!Double.isFinite(sums.sumLog())) {
                return Double.POSITIVE_INFINITY;
            }
            return -sums.sumLog() / n + Math.log(sh.t) + l1 * sh.a / sh.t + 0.5 * l2 * sh.b / (sh.t * sh.t);
        }

        Matrix gradient(Matrix s, DensityRows.Sums sums, Shape sh) {
            double t = sh.t;
            Matrix g = sums.gradient().scale(-2.0 / n);
            double cw = 2 / t - 2 * l1 * sh.a / (t * t) - 2 * l2 * sh.b / (t * t * t);
            double[] gd = g.data();
            double[] wd = sh.ws.data();
            double[] sd = s.data();
            for (int k = 0; k < gd.length; k++) {
                gd[k] += cw * wd[k] + 2 * l1 / t * sd[k];
            }
            Linalg.gemmInPlace(2 * l2 / (t * t), s, false, sh.m, false, 1.0, g);
            return g;
        }

        /** Whether {@link #timesW} splits the product over the rows' workers (the overlapped solve's setting). */
        boolean splitW;
        /** W's columns in {@link #wSplit} contiguous blocks (null: not split yet). */
        private Matrix[] wCols;
        private int wSplit;

        /**
         * W D (r×q), the r²q product of every iteration's line model: in an overlapped solve on several threads (the
         * exact fit, one BLAS thread) split in row blocks, one
         * per worker of the rows' pool with one BLAS thread each (W is symmetric, so its row block j is the
         * transpose of its column block j, a contiguous slice); one dgemm otherwise. Each entry is the same
         * inner product either way (up to the BLAS kernel's summation order).
         */
        Matrix timesW(Matrix d) {
            int r = w.rows();
            int parts = Math.min(LocalDensityRows.workers(), org.psdkit.linalg.Threads.get());
            if (!splitW || parts <= 1 || r < SPLIT_MIN_RANK) {
                return Linalg.gemm(1.0, w, false, d, false);
            }
            if (wCols == null || wSplit != parts) {
                wCols = new Matrix[parts];
                for (int j = 0; j < parts; j++) {
                    int a = (int) ((long) r * j / parts);
                    int b = (int) ((long) r * (j + 1) / parts);
                    wCols[j] = Matrix.wrap(r, b - a, java.util.Arrays.copyOfRange(w.data(), a * r, b * r));
                }
                wSplit = parts;
            }
            Matrix[] blocks = wCols;
            java.util.List<Matrix> prods = LocalDensityRows.onWorkers(parts,
                    j -> Linalg.gemm(1.0, blocks[j], true, d, false));
            int q = d.cols();
            Matrix out = Matrix.zeros(r, q);
            double[] od = out.data();
            int a = 0;
            for (Matrix pj : prods) {
                int h = pj.rows();
                double[] pd = pj.data();
                for (int k = 0; k < q; k++) {
                    System.arraycopy(pd, k * h, od, k * r + a, h);
                }
                a += h;
            }
            return out;
        }

        /** Â = SSᵀ/T: λ₁ Tr Â + (λ₂/2)‖Â‖². */
        double regulariser(Shape sh) {
            return l1 * sh.a / sh.t + 0.5 * l2 * sh.b / (sh.t * sh.t);
        }

        /** C₀ = V Diag(β) Vᵀ − λ₁I with β_i = 1/(n f̂_i) at the current point of the rows (one weighted Gram pass). */
        Matrix dataMatrix(Shape sh) {
            long tc = System.nanoTime();
            Matrix gw = rows.weightedGram();
            gramSeconds += (System.nanoTime() - tc) * 1e-9;
            passes++;
            return dataMatrix(sh, gw);
        }

        /** C₀ from the weighted Gram matrix V Diag(1/f̂) Vᵀ already computed. */
        Matrix dataMatrix(Shape sh, Matrix gw) {
            Matrix c0 = gw.scale(sh.t / n);
            c0.addToDiagonal(-l1);
            c0.symmetrizeInPlace();
            return c0;
        }

        /** The KKT value of μ at Â = SSᵀ/T: λ₂‖Â‖² + λ₁ Tr Â − 1 (exact at the optimum). */
        double kktMu(Shape sh) {
            return l2 * sh.b / (sh.t * sh.t) + l1 * sh.a / sh.t - 1;
        }

        /** C(μ) = C₀ + μW. */
        private Matrix dualMatrix(Matrix c0, double mu) {
            Matrix cm = c0.copy();
            double[] cd = cm.data();
            double[] wd = w.data();
            for (int k = 0; k < cd.length; k++) {
                cd[k] += mu * wd[k];
            }
            return cm;
        }

        /** A decomposition of C(μ): its top eigenpairs, a bound on the others, and what was computed. */
        private record Decomposed(Eigen top, double out, Eigen computed) {
        }

        private Eigen timed(Matrix cm, boolean partial, int k, double above) {
            long t0 = System.nanoTime();
            Eigen e = !partial ? Linalg.eigh(cm) : k < 0 ? PartialEigen.above(cm, above) : PartialEigen.top(cm, k);
            eigenSeconds += (System.nanoTime() - t0) * 1e-9;
            eigenCalls++;
            partialEigenCalls += partial ? 1 : 0;
            return e;
        }

        /** The top vectors of e (ascending) from index {@code from}. */
        private static Eigen tail(Eigen e, int from) {
            int m = e.size();
            int r = e.vectors().rows();
            double[] v = java.util.Arrays.copyOfRange(e.values(), from, m);
            Matrix q = Matrix.zeros(r, m - from);
            System.arraycopy(e.vectors().data(), from * r, q.data(), 0, r * (m - from));
            return new Eigen(v, q);
        }

        /**
         * The positive eigenpairs of C(μ) and {@link #SUBSPACE_EXTRA} more (at least), with the next eigenvalue
         * as the bound on the rest: dsyevr's top k once the last certificate had few positive ones (k doubled
         * until the lowest computed is ≤ 0), else the full dsyevd.
         */
        private Decomposed decompose(Matrix cm) {
            int r = cm.rows();
            boolean partial = lastPositive >= 0 && lastPositive <= PARTIAL_MAX_FRACTION * r;
            if (partial) {
                int k = Math.min(r, lastPositive + Math.max(SUBSPACE_EXTRA, lastPositive / 2) + 1);
                Eigen e = timed(cm, true, k, 0);
                if (k < r && e.values()[0] <= 0) {
                    return new Decomposed(tail(e, 1), e.values()[0], e);
                }
            }
            return fromFull(timed(cm, false, r, 0));
        }

        /** The top eigenpairs of a full decomposition: the positive ones and SUBSPACE_EXTRA (or p/2) more. */
        private static Decomposed fromFull(Eigen e) {
            double[] lam = e.values();
            int r = lam.length;
            int p = 0;
            for (double x : lam) {
                p += x > 0 ? 1 : 0;
            }
            int k = Math.min(r, p + Math.max(SUBSPACE_EXTRA, p / 2));
            if (k == r) {
                return new Decomposed(e, Double.NEGATIVE_INFINITY, e);
            }
            return new Decomposed(tail(e, r - k), lam[r - k - 1], e);
        }

        /** The gap's Newton minimiser over μ' of the lower model (convex) of {@code comp}, started at μ. */
        private double modelMinimiser(DualCompression comp, double mu, double resolution) {
            double m = mu;
            double lo = Double.NEGATIVE_INFINITY;
            double hi = Double.POSITIVE_INFINITY;
            for (int i = 0; i < MODEL_STEPS; i++) {
                double[] d = comp.lowerDerivatives(m);
                double g1 = -1 + d[0] / (2 * l2);
                double g2 = d[1] / (2 * l2);
                if (g1 > 0) {
                    hi = Math.min(hi, m);
                } else {
                    lo = Math.max(lo, m);
                }
                if (g1 == 0 || (g2 > 0 && g1 * g1 / (2 * g2) <= resolution)) {
                    break;
                }
                double next = g2 > 0 ? m - g1 / g2 : g1 > 0 ? m - Math.max(1.0, Math.abs(m))
                        : m + Math.max(1.0, Math.abs(m));
                next = keepInBracket(next, lo, hi);
                if (next == m) {
                    break;
                }
                m = next;
            }
            return m;
        }

        /**
         * Golden-section search of the gap's upper bound base − μ' + upper(μ')/(2λ₂) between μ and a little past
         * the model's minimiser; {μ', bound} of the best point evaluated.
         */
        private double[] searchUpper(DualCompression comp, double base, double mu, double muM) {
            double a = Math.min(mu, muM + UPPER_SEARCH_OVERSHOOT * (muM - mu));
            double b = Math.max(mu, muM + UPPER_SEARCH_OVERSHOOT * (muM - mu));
            double bestX = muM;
            double bestF = base - muM + comp.upper(muM) / (2 * l2);
            final double g = (Math.sqrt(5) - 1) / 2;
            double x1 = b - g * (b - a);
            double x2 = a + g * (b - a);
            double f1 = base - x1 + comp.upper(x1) / (2 * l2);
            double f2 = base - x2 + comp.upper(x2) / (2 * l2);
            for (int i = 0; i < UPPER_SEARCH_STEPS; i++) {
                if (f1 < bestF) {
                    bestF = f1;
                    bestX = x1;
                }
                if (f2 < bestF) {
                    bestF = f2;
                    bestX = x2;
                }
                if (f1 <= f2) {
                    b = x2;
                    x2 = x1;
                    f2 = f1;
                    x1 = b - g * (b - a);
                    f1 = base - x1 + comp.upper(x1) / (2 * l2);
                } else {
                    a = x1;
                    x1 = x2;
                    f1 = f2;
                    x2 = a + g * (b - a);
                    f2 = base - x2 + comp.upper(x2) / (2 * l2);
                }
            }
            return new double[] {bestX, bestF};
        }

        /**
         * The dual point of the current point of rows and its best μ: one r×r decomposition at μ, then the μ
         * search on {@link DualCompression}'s k×k bounds (the upper one certifies any μ' near μ; the lower one
         * tells how much a further decomposition could still gain); another decomposition only at the lower
         * model's minimiser when that gain is not small against the gap and the target. A certificate that meets
         * the target at a μ' that was not decomposed is decomposed there once more, so the reported gap of a
         * converged solve is the exact gap of its dual point (the bound is an upper bound on it).
         */
        Certificate certificate(Shape sh, double primal, double tol, double muStart, int decompositions) {
            long tc = System.nanoTime();
            Matrix c0 = dataMatrix(sh);
            certificateSeconds += (System.nanoTime() - tc) * 1e-9;
            return certificate(sh, c0, primal, tol, muStart, decompositions);
        }

        /**
         * As the other certificate, from the data matrix C₀ of the current point already computed (the weighted
         * Gram pass needs the rows' state of that point; the rest, run on another thread while the solve goes on,
         * touches only C₀, W and this problem's certificate counters).
         */
        Certificate certificate(Shape sh, Matrix c0, double primal, double tol, double muStart, int decompositions) {
            long tc = System.nanoTime();
            certificates++;
            double base = regulariser(sh) - 1; // P − D = base − μ + ‖[C]_+‖²/(2λ₂)
            double scaleP = Math.max(1.0, Math.abs(primal));
            double mu = Double.isFinite(muStart) ? muStart : kktMu(sh);
            double bestGap = Double.POSITIVE_INFINITY;
            double bestMu = mu;
            int bestPos = 0;
            boolean exact = false;
            double lo = Double.NEGATIVE_INFINITY; // the gap decreases below lo, increases above hi
            double hi = Double.POSITIVE_INFINITY;
            Eigen lastEig = null;
            Matrix lastC = null;
            int prevPos = lastPositive;
            for (int step = 0; step < decompositions; step++) {
                Matrix cm = dualMatrix(c0, mu);
                Decomposed dec = decompose(cm);
                lastEig = dec.computed();
                lastC = cm;
                double sq = 0;
                int pos = 0;
                for (double x : dec.top().values()) {
                    if (x > 0) {
                        sq += x * x;
                        pos++;
                    }
                }
                // the next μ step's decomposition is sized by the larger positive count of the last two μ points
                // (a partial one that misses a positive eigenvalue is wasted: it is redone in full; a wider dsyevr
                // costs little more, the tridiagonal reduction dominates it; a μ step that found few positive
                // eigenvalues is often followed by one back towards the last count)
                lastPositive = Math.max(prevPos, pos);
                prevPos = pos;
                double gap = base - mu + sq / (2 * l2);
                if (gap < bestGap) {
                    bestGap = gap;
                    bestMu = mu;
                    bestPos = pos;
                    exact = true;
                }
                DualCompression comp = new DualCompression(mu, dec.top(), dec.out(), w, wNorm);
                double[] d = comp.lowerDerivatives(mu); // exact at μ: D'(μ) = −gap'(μ), D''
                double g1 = -1 + d[0] / (2 * l2);
                if (g1 > 0) {
                    hi = Math.min(hi, mu);
                } else {
                    lo = Math.max(lo, mu);
                }
                double next;
                if (comp.size() <= COMPRESSION_MAX_FRACTION * cm.rows()) {
                    double muM = modelMinimiser(comp, mu, MODEL_RESOLUTION * MU_TARGET_FRACTION * tol * scaleP);
                    // no μ' gives this β a gap below the lower model's minimum (interlacing)
                    double low = base - muM + comp.lower(muM) / (2 * l2);
                    if (muM != mu) {
                        double[] ub = searchUpper(comp, base, mu, muM);
                        if (ub[1] < bestGap) {
                            bestGap = ub[1];
                            bestMu = ub[0];
                            bestPos = comp.upperPositive(ub[0]);
                            exact = false;
                        }
                    }
                    // μ need only be as exact as the gap is small: far from the target a coarse μ certifies as
                    // well; near it, decompose again only if that could still certify the target
                    double rest = bestGap - low;
                    boolean couldConverge = low <= tol * scaleP && bestGap > tol * scaleP;
                    if (muM == mu || rest <= MU_TARGET_FRACTION * tol * scaleP
                            || (!couldConverge && rest <= MU_GAIN_FRACTION * bestGap)) {
                        break;
                    }
                    next = muM;
                } else {
                    // many positive eigenvalues (early iterates): the k×k search would cost as much as another
                    // decomposition; one exact Newton step on the gap (Daleckii–Krein D'' at μ) instead
                    double g2 = d[1] / (2 * l2);
                    double gain = g2 > 0 ? g1 * g1 / (2 * g2) : Double.POSITIVE_INFINITY;
                    if (g1 == 0 || gain <= MU_NEWTON_GAIN_FRACTION * Math.max(tol * scaleP, bestGap)) {
                        break;
                    }
                    next = g2 > 0 ? mu - g1 / g2 : g1 > 0 ? mu - Math.max(1.0, Math.abs(mu))
                            : mu + Math.max(1.0, Math.abs(mu));
                }
                next = keepInBracket(next, lo, hi);
                if (next == mu) {
                    break;
                }
                mu = next;
            }
            if (!exact && bestGap <= tol * scaleP) {
                Matrix cm = dualMatrix(c0, bestMu);
                boolean partial = lastPositive >= 0 && lastPositive <= PARTIAL_MAX_FRACTION * cm.rows();
                Eigen e = timed(cm, partial, -1, 0.0);
                double sq = 0;
                int pos = 0;
                for (double x : e.values()) {
                    if (x > 0) {
                        sq += x * x;
                        pos++;
                    }
                }
                bestGap = base - bestMu + sq / (2 * l2);
                bestPos = pos;
                lastEig = e;
                lastC = cm;
            }
            double dual = primal - bestGap;
            lastPositive = bestPos;
            certificateSeconds += (System.nanoTime() - tc) * 1e-9;
            return new Certificate(dual, bestGap, bestGap / scaleP, bestMu, bestPos, lastEig, lastC);
        }
    }

    /**
     * Solves from the start factor {@code s0} (r×q; null: the old dual solver's first candidate, see
     * {@link #initial}).
     */
    static Result solve(DensityRows rows, Matrix w, double l1, double l2, Matrix s0, double tol, int maxIter,
                        double timeLimitSeconds, ProgressListener listener) {
        return solve(rows, w, l1, l2, s0, null, tol, maxIter, timeLimitSeconds, listener);
    }

    /**
     * What one solve hands to the next on more rows (the warm-start rungs of {@link PsdDensityEstimator}): the
     * L-BFGS curvature pairs (s_k, y_k) — a subsample's objective has the full one's Hessian up to sampling error, so
     * its last pairs start the next solve with a curvature model instead of a gradient step — and the last
     * certificate's μ (the start of the next μ search). Filled at the end of a solve; used, when not empty and of the
     * start factor's shape, at the start of the next, whose first certificate then waits
     * {@link #CERTIFICATE_MIN_EVERY} iterations: on more rows the start's dual point β_i = 1/(n f_i) is spoiled by
     * the rows the subsample did not see (relative gap 130 at iteration 0 of n = 200,000 from a 20,000-row
     * optimum at gap 4e-5, docs/benchmarks/psd-scale.md §8), and that certificate costs a weighted Gram pass.
     */
    static final class Curvature {
        final Deque<Matrix[]> pairs = new ArrayDeque<>();
        double mu = Double.NaN;
    }

    /** As the other solve, with curvature pairs in and out ({@code curvature} null: none). */
    static Result solve(DensityRows rows, Matrix w, double l1, double l2, Matrix s0, Curvature curvature, double tol,
                        int maxIter, double timeLimitSeconds, ProgressListener listener) {
        return solve(rows, w, l1, l2, s0, curvature, tol, maxIter, timeLimitSeconds, listener, false);
    }

    /**
     * As the other solve; with {@code narrowStart} a cold start ({@code s0} null) takes {@link #initialNarrow}'s
     * q = 1.25p + 4 columns and certifies first after {@link #CERTIFICATE_EVERY} iterations instead of the wide
     * {@link #initial} start: for the warm-start rungs of a large fit, whose factor width the full-data solve
     * inherits. An iteration costs O(n·r·q): at n = 200,000 and 10⁶ with 1,000 anchors the wide start's 64 columns
     * made the fit slower despite fewer iterations (33 against 43 at 200,000; docs/benchmarks/psd-scale.md §12).
     */
    static Result solve(DensityRows rows, Matrix w, double l1, double l2, Matrix s0, Curvature curvature, double tol,
                        int maxIter, double timeLimitSeconds, ProgressListener listener, boolean narrowStart) {
        return solve(rows, w, l1, l2, s0, curvature, tol, maxIter, timeLimitSeconds, listener, narrowStart, false);
    }

    /**
     * Iterations a solve with {@code overlap} goes on past a certificate that is still being computed before it
     * waits for it: the longest interval the schedule sets ({@link #CERTIFICATE_MAX_EVERY}), so that a waiting
     * solve has no more iterations to roll back than a certificate's interval.
     */
    static final int OVERLAP_MAX_AHEAD = CERTIFICATE_MAX_EVERY;

    /**
     * Tests only: an overlapped solve waits for a certificate only {@link #OVERLAP_MAX_AHEAD} iterations past it
     * (or at a restart, or at the end), so that the rollbacks happen whatever the timing.
     */
    static volatile boolean aheadToTheLimit;

    /** The solver's state after an iteration: what a rollback to that iteration restores. */
    private record Snapshot(int it, Matrix s, Shape sh, double phi, Matrix grad, Deque<Matrix[]> hist) {
    }

    /**
     * Daemon thread that computes a certificate's r×r decompositions while the solve iterates on
     * ({@code overlap}); one certificate at a time.
     */
    private static final java.util.concurrent.ExecutorService CERTIFIER =
            java.util.concurrent.Executors.newSingleThreadExecutor(task -> {
                Thread t = new Thread(task, "psdkit-density-certificate");
                t.setDaemon(true);
                return t;
            });

    /**
     * As the other solve; with {@code overlap} a certificate's μ search (its r×r eigen-decompositions, a third of an
     * exact d = 10, n = 1,000 solve on one core, docs/benchmarks/psd-scale.md §13) runs on another thread while the
     * L-BFGS iterations go on from the certified point. The iterations are speculative: when the certificate is in,
     * the solve continues as if it had waited — it returns the certified point when the gap meets the target, goes
     * back to it to widen the factor, and goes back to the iteration the schedule names when it has gone past it —
     * so the iterates, the certificates and the result are those of the solve without {@code overlap}, up to the
     * rounding of the rows' state recomputed after a rollback. The weighted Gram pass stays on the calling thread
     * (it needs the rows' state of the certified point). For several cores: the other thread takes one of them.
     */
    static Result solve(DensityRows rows, Matrix w, double l1, double l2, Matrix s0, Curvature curvature, double tol,
                        int maxIter, double timeLimitSeconds, ProgressListener listener, boolean narrowStart,
                        boolean overlap) {
        long start = System.nanoTime();
        Problem pb = new Problem(rows, w, l1, l2);
        pb.splitW = overlap;
        int r = rows.rank();
        if (w.rows() != r || w.cols() != r) {
            throw new IllegalArgumentException("density solver: W is " + w.rows() + "x" + w.cols() + ", rank " + r);
        }
        boolean narrow = s0 == null && narrowStart;
        Matrix s = s0 != null ? s0.copy() : narrow ? initialNarrow(pb, tol) : initial(pb);
        Matrix unscaled = s;
        s = normalise(w, s);
        Deque<Matrix[]> hist = new ArrayDeque<>();
        if (curvature != null && s0 != null) {
            // φ is scale-invariant: at c·S the pairs are (c·s_k, y_k/c)
            double c = Math.sqrt(dot(s, s) / dot(unscaled, unscaled));
            for (Matrix[] p : curvature.pairs) {
                if (p[0].rows() == s.rows() && p[0].cols() == s.cols()) {
                    hist.addLast(new Matrix[] {p[0].scale(c), p[1].scale(1.0 / c)});
                }
            }
        }
        DensityRows.Sums sums = rows.at(s);
        pb.passes++;
        if (!Double.isFinite(sums.sumLog())) {
            // a start that vanishes at some data point: fall back to the identity (f_i = ‖v_i‖² > 0)
            s = normalise(w, Matrix.identity(r));
            sums = rows.at(s);
            pb.passes++;
            hist.clear();
        }
        Shape sh = new Shape(w, s);
        double phi = pb.value(sums, sh);
        Matrix grad = pb.gradient(s, sums, sh);
        Certificate cert = null;
        double muStart = curvature != null ? curvature.mu : Double.NaN;
        int it = 0;
        // the cold start from initial() certifies first after FIRST_CERTIFICATE iterations; a warm start with
        // carried curvature pairs after CERTIFICATE_MIN_EVERY iterations (its first certificate on more rows is
        // spoiled by the rows the subsample never saw), another warm start at once
        int sinceCert = s0 == null ? 0
                : hist.isEmpty() ? CERTIFICATE_EVERY : CERTIFICATE_EVERY - CERTIFICATE_MIN_EVERY;
        int certEvery = s0 == null && !narrow ? FIRST_CERTIFICATE : CERTIFICATE_EVERY;
        int certIt = 0;
        // φ after each iteration (the decay estimate of the second certificate's schedule)
        double[] phiHist = new double[64];
        boolean converged = false;
        // overlap: the certificate being computed, the state at its iteration and after each one since, and whether
        // an iteration asked for a certificate at once (a restart) while it was being computed
        java.util.concurrent.Future<Certificate> pending = null;
        java.util.List<Snapshot> snaps = new java.util.ArrayList<>();
        boolean forced = false;
        try {
            while (true) {
                if (it >= phiHist.length) {
                    phiHist = java.util.Arrays.copyOf(phiHist, 2 * it);
                }
                phiHist[it] = phi;
                double elapsed = (System.nanoTime() - start) * 1e-9;
                boolean last = it >= maxIter || elapsed > timeLimitSeconds;
                if (pending != null) {
                    Snapshot at = snaps.get(0);
                    if (it > at.it()) {
                        snaps.add(new Snapshot(it, s, sh, phi, grad, new ArrayDeque<>(hist)));
                    }
                    if (!(forced || last || it - at.it() >= OVERLAP_MAX_AHEAD
                            || (!aheadToTheLimit && pending.isDone()))) {
                        // go on iterating while the certificate is computed
                    } else {
                        Certificate prev = cert;
                        int prevIt = certIt;
                        cert = join(pending);
                        pending = null;
                        certIt = at.it();
                        double target = tol * Math.max(1, Math.abs(at.phi()));
                        certEvery = prev == null ? firstInterval(phiHist, certIt, cert.gap(), target)
                                : nextCertificate(prev, prevIt, cert, certIt, target);
                        muStart = cert.mu();
                        if (listener != null) {
                            listener.onProgress(new ProgressListener.Event(LogLikelihoodDual.TASK, certIt, 0, "gap",
                                    cert.relativeGap(), (System.nanoTime() - start) * 1e-9));
                        }
                        boolean done = cert.relativeGap() <= tol;
                        boolean widen = !done && cert.positive() >= at.s().cols() && at.s().cols() < r;
                        // where the solve without overlap would be now: at the certificate (stop, widen) or at
                        // the next one the schedule sets, if the iterations went past it
                        int back = done || widen ? certIt : it > certIt + certEvery ? certIt + certEvery : -1;
                        if (back >= 0) {
                            Snapshot b = snaps.get(back - certIt);
                            it = b.it();
                            s = b.s();
                            sh = b.sh();
                            phi = b.phi();
                            grad = b.grad();
                            hist = new ArrayDeque<>(b.hist());
                            forced = false;
                            if (!done) {
                                sums = rows.at(s);
                                pb.passes++;
                            }
                        }
                        snaps.clear();
                        sinceCert = it - certIt;
                        if (done) {
                            converged = true;
                            break;
                        }
                        if (widen) {
                            s = widen(s, cert, r);
                            sums = rows.at(s);
                            pb.passes++;
                            sh = new Shape(w, s);
                            phi = pb.value(sums, sh);
                            grad = pb.gradient(s, sums, sh);
                            hist.clear();
                        }
                        continue;
                    }
                } else if (sinceCert >= certEvery || forced || last) {
                    Certificate prev = cert;
                    int prevIt = certIt;
                    // W S exactly (the steps update it by t·W D)
                    sh = new Shape(w, s);
                    phi = pb.value(sums, sh);
                    forced = false;
                    if (overlap && !last) {
                        long tc = System.nanoTime();
                        Matrix c0 = pb.dataMatrix(sh);
                        pb.certificateSeconds += (System.nanoTime() - tc) * 1e-9;
                        Shape shc = sh;
                        double phic = phi;
                        double mu0 = muStart;
                        pending = CERTIFIER.submit(() -> pb.certificate(shc, c0, phic, tol, mu0, MU_STEPS));
                        snaps.add(new Snapshot(it, s, sh, phi, grad, new ArrayDeque<>(hist)));
                        sinceCert = 0;
                        continue;
                    }
                    cert = pb.certificate(sh, phi, tol, muStart, MU_STEPS);
                    certIt = it;
                    double target = tol * Math.max(1, Math.abs(phi));
                    certEvery = prev == null ? firstInterval(phiHist, it, cert.gap(), target)
                            : nextCertificate(prev, prevIt, cert, it, target);
                    muStart = cert.mu();
                    sinceCert = 0;
                    if (listener != null) {
                        listener.onProgress(new ProgressListener.Event(LogLikelihoodDual.TASK, it, 0, "gap",
                                cert.relativeGap(), (System.nanoTime() - start) * 1e-9));
                    }
                    if (cert.relativeGap() <= tol) {
                        converged = true;
                        break;
                    }
                    if (last) {
                        break;
                    }
                    if (cert.positive() >= s.cols() && s.cols() < r) {
                        s = widen(s, cert, r);
                        sums = rows.at(s);
                        pb.passes++;
                        sh = new Shape(w, s);
                        phi = pb.value(sums, sh);
                        grad = pb.gradient(s, sums, sh);
                        hist.clear();
                    }
                }
                it++;
                sinceCert++;
                Matrix dir = searchDirection(grad, hist);
                double slope0 = dot(dir, grad);
                if (!(slope0 < 0)) {
                    hist.clear();
                    dir = grad.scale(-1);
                    slope0 = -dot(grad, grad);
                }
                if (slope0 == 0) {
                    forced = true;
                    continue;
                }
                rows.direction(dir);
                pb.passes++;
                double first = hist.isEmpty() ? Math.min(1.0, 1.0 / Math.sqrt(dot(grad, grad))) * Math.sqrt(
                        dot(s, s)) : 1.0;
                LineModel lm = new LineModel(pb, s, dir, sh);
                double step = LINE_SEARCH.search(lm::at, phi, slope0, first);
                if (!(step > 0)) {
                    // no decrease along this direction: restart from the gradient, and certify
                    hist.clear();
                    forced = true;
                    continue;
                }
                sums = rows.step(step);
                pb.passes++;
                Matrix sNew = s.plus(dir.scale(step));
                Matrix wsNew = sh.ws.copy();
                axpy(step, lm.wd, wsNew);
                Shape shNew = new Shape(wsNew, sNew, true);
                double phiNew = pb.value(sums, shNew);
                if (!(phiNew <= phi + 1e-12 * Math.abs(phi)) || sums.gradient() == null) {
                    // rounding in the quadratic model: recompute at s and restart
                    sums = rows.at(s);
                    pb.passes++;
                    hist.clear();
                    forced = true;
                    continue;
                }
                Matrix gNew = pb.gradient(sNew, sums, shNew);
                Matrix sk = dir.scale(step);
                Matrix yk = gNew.minus(grad);
                if (dot(sk, yk) > 0) {
                    hist.addLast(new Matrix[] {sk, yk});
                    if (hist.size() > MEMORY) {
                        hist.removeFirst();
                    }
                }
                s = sNew;
                sh = shNew;
                phi = phiNew;
                grad = gNew;
            }
        } finally {
            if (pending != null) {
                // an exception in the iterations: the certificate must not outlive the solve (BLAS cap, counters)
                pending.cancel(false);
                try {
                    pending.get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.CancellationException e) {
                    // the solve's own exception is the one to report
                }
            }
        }
        if (curvature != null) {
            curvature.pairs.clear();
            curvature.pairs.addAll(hist);
            curvature.mu = cert.mu();
        }
        double secs = (System.nanoTime() - start) * 1e-9;
        return new Result(s, sh.t, phi, phi - cert.gap(), cert.relativeGap(), it, pb.passes, secs, converged,
                pb.eigenSeconds, cert.positive(), cert.mu(), pb.eigenCalls, pb.partialEigenCalls, pb.certificates, pb.certificateSeconds, pb.gramSeconds);
    }

    /** The certificate computed on {@link #CERTIFIER}; its exceptions rethrown as they were. */
    private static Certificate join(java.util.concurrent.Future<Certificate> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("density solver: interrupted while waiting for a certificate", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error er) {
                throw er;
            }
            throw new IllegalStateException("density solver: certificate failed", c);
        }
    }

    /** S scaled so that Tr(SᵀWS) = 1. */
    static Matrix normalise(Matrix w, Matrix s) {
        double t = dot(s, Linalg.gemm(1.0, w, false, s, false));
        if (!(t > 0) || !Double.isFinite(t)) {
            throw new IllegalStateException("density solver: the factor has Tr(SᵀWS) = " + t);
        }
        return s.scale(1.0 / Math.sqrt(t));
    }

    /**
     * The start when none is given: at S = I, the dual matrix C(μ) at the KKT μ of that point (the old dual
     * solver's first candidate is [C]_+/λ₂ at β = 1/n); S = its top {@link #startColumns} eigenvectors (one
     * partial decomposition) scaled by √[λ]_+ (the others get a small scale so that every f_i &gt; 0).
     */
    static Matrix initial(Problem pb) {
        int r = pb.rows.rank();
        // S = cI with c = 1/√Tr W (Tr(SᵀWS) = 1), its shape in closed form: W S and SᵀS as products would be two
        // r³ dgemms of the identity
        double tw = pb.w.trace();
        if (!(tw > 0) || !Double.isFinite(tw)) {
            throw new IllegalStateException("density solver: Tr W = " + tw);
        }
        double c = 1 / Math.sqrt(tw);
        Matrix s = Matrix.identity(r).scale(c);
        DensityRows.Sums sums = pb.rows.at(s);
        pb.passes++;
        Matrix m = Matrix.identity(r).scale(c * c);
        Shape sh = new Shape(pb.w.scale(c), m, c * c * tw, c * c * r, c * c * c * c * r);
        // at S = c·I the sums' gradient Σ v_i (v_iᵀS)/f_i is c·Σ v_i v_iᵀ/f_i, the weighted Gram matrix: no
        // second n·r² pass
        Matrix gw = sums.gradient() != null ? sums.gradient().scale(1.0 / s.get(0, 0)) : pb.rows.weightedGram();
        Matrix cm = pb.dualMatrix(pb.dataMatrix(sh, gw), pb.kktMu(sh));
        int q = startColumns(r);
        Eigen e = pb.timed(cm, q < r, q, 0);
        return columns(e.values(), e.vectors(), q, r);
    }

    /**
     * μ steps of the certificate at the identity that only picks {@link #initialNarrow}'s start (its dual
     * candidate's eigenvectors); the gap there is far from the target and need not be tight.
     */
    static final int INITIAL_MU_STEPS = 4;

    /**
     * The narrow start of the warm-start rungs: at S = I, the certificate's dual matrix C (the old dual solver's
     * first candidate is [C]_+/λ₂ at β = 1/n); S = its eigenvectors scaled by √[λ]_+, with q = 1.25p + 4 columns
     * (p positive eigenvalues, at least 8; the others get a small scale so that every f_i &gt; 0).
     */
    static Matrix initialNarrow(Problem pb, double tol) {
        int r = pb.rows.rank();
        Matrix s = normalise(pb.w, Matrix.identity(r));
        DensityRows.Sums sums = pb.rows.at(s);
        pb.passes++;
        Shape sh = new Shape(pb.w, s);
        double phi = pb.value(sums, sh);
        Certificate c = pb.certificate(sh, phi, tol, Double.NaN, INITIAL_MU_STEPS);
        int p = c.positive();
        int q = Math.min(r, Math.max(p + p / 4 + 4, START_MIN_COLUMNS));
        return columns(c.topValues(q), c.top(q), q, r); // both ascending
    }

    /**
     * The last q of the ascending eigenpairs (values {@code lamAll}, vectors r×m) scaled by √λ (positive ones) or
     * a small fraction of the largest.
     */
    private static Matrix columns(double[] lamAll, Matrix evAll, int q, int r) {
        int m = lamAll.length;
        double[] lam = java.util.Arrays.copyOfRange(lamAll, m - q, m);
        Matrix ev = Matrix.zeros(r, q);
        System.arraycopy(evAll.data(), (m - q) * r, ev.data(), 0, r * q);
        double top = Math.sqrt(Math.max(lam[q - 1], 0));
        if (!(top > 0)) {
            top = 1;
        }
        Matrix s = Matrix.zeros(r, q);
        for (int k = 0; k < q; k++) {
            int src = q - 1 - k;
            double sc = lam[src] > 0 ? Math.sqrt(lam[src]) : 0;
            sc = Math.max(sc, NEW_COLUMN_SCALE * top);
            for (int i = 0; i < r; i++) {
                s.set(i, k, ev.get(i, src) * sc);
            }
        }
        return s;
    }

    /** More columns: the certificate's top eigenvectors not yet matched, at a small scale. */
    private static Matrix widen(Matrix s, Certificate c, int r) {
        int q = s.cols();
        int qNew = Math.min(r, Math.max(2 * q, c.positive() + c.positive() / 4 + 4));
        Matrix out = Matrix.zeros(r, qNew);
        System.arraycopy(s.data(), 0, out.data(), 0, r * q);
        double norm = Math.sqrt(dot(s, s) / q) * NEW_COLUMN_SCALE;
        int add = qNew - q;
        Matrix ev = c.top(add);
        for (int k = q; k < qNew; k++) {
            int src = add - 1 - (k - q);
            for (int i = 0; i < r; i++) {
                out.set(i, k, ev.get(i, src) * norm);
            }
        }
        return out;
    }

    /** −H∇ of L-BFGS from the curvature pairs (s_k, y_k), oldest first ({@link Lbfgs#direction}). */
    static Matrix searchDirection(Matrix grad, Deque<Matrix[]> hist) {
        double[][] ss = new double[hist.size()][];
        double[][] ys = new double[hist.size()][];
        int k = 0;
        for (Matrix[] p : hist) {
            ss[k] = p[0].data();
            ys[k++] = p[1].data();
        }
        return Matrix.wrap(grad.rows(), grad.cols(), Lbfgs.direction(grad.data(), ss, ys));
    }

    private static void axpy(double a, Matrix x, Matrix y) {
        double[] xd = x.data();
        double[] yd = y.data();
        for (int k = 0; k < xd.length; k++) {
            yd[k] += a * xd[k];
        }
    }

    /** φ and φ' along S + tD for the current direction of the rows. */
    private static final class LineModel {
        final Problem pb;
        final double t0, t1, t2;     // Tr((S+tD)ᵀW(S+tD))
        final double a0, a1, a2;     // ‖S+tD‖²
        final double[] bc = new double[5];
        final Matrix wd;             // W D

        LineModel(Problem pb, Matrix s, Matrix d, Shape sh) {
            this.pb = pb;
            wd = pb.timesW(d);
            t0 = sh.t;
            t1 = 2 * dot(s, wd);
            t2 = dot(d, wd);
            a0 = sh.a;
            a1 = 2 * dot(s, d);
            a2 = dot(d, d);
            Matrix m0 = sh.m;
            Matrix sd = Linalg.gemm(1.0, s, true, d, false);
            Matrix m1 = sd.plus(sd.transpose());
            Matrix m2 = Linalg.gemm(1.0, d, true, d, false);
            bc[0] = dot(m0, m0);
            bc[1] = 2 * dot(m0, m1);
            bc[2] = dot(m1, m1) + 2 * dot(m0, m2);
            bc[3] = 2 * dot(m1, m2);
            bc[4] = dot(m2, m2);
        }

        /** {φ(t), φ'(t)} from the rows' line values. */
        double[] eval(double t, double sumLog, double slope) {
            if (!Double.isFinite(sumLog)) {
                return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
            }
            double tt = t0 + t * (t1 + t * t2);
            double dt = t1 + 2 * t * t2;
            double a = a0 + t * (a1 + t * a2);
            double da = a1 + 2 * t * a2;
            double b = bc[0] + t * (bc[1] + t * (bc[2] + t * (bc[3] + t * bc[4])));
            double db = bc[1] + t * (2 * bc[2] + t * (3 * bc[3] + t * 4 * bc[4]));
            if (!(tt > 0)) {
                return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
            }
            double n = pb.n;
            double v = -sumLog / n + Math.log(tt) + pb.l1 * a / tt + 0.5 * pb.l2 * b / (tt * tt);
            double dv = -slope / n + dt / tt + pb.l1 * (da / tt - a * dt / (tt * tt))
                    + 0.5 * pb.l2 * (db / (tt * tt) - 2 * b * dt / (tt * tt * tt));
            return new double[] {v, dv};
        }

        double[] at(double t) {
            DensityRows.Line l = pb.rows.line(new double[] {t});
            return eval(t, l.sumLog()[0], l.slope()[0]);
        }
    }

    /**
     * A μ step kept inside the bracket (lo, hi) of the 1-D concave maximisation: the midpoint when both ends are
     * finite, else a step of at least 1 away from the finite end.
     */
    static double keepInBracket(double next, double lo, double hi) {
        if (next > lo && next < hi) {
            return next;
        }
        if (Double.isFinite(lo) && Double.isFinite(hi)) {
            return 0.5 * (lo + hi);
        }
        if (Double.isFinite(lo)) {
            return lo + 2 * Math.max(1.0, Math.abs(next - lo));
        }
        return hi - 2 * Math.max(1.0, Math.abs(hi - next));
    }
}
