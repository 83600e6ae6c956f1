package org.psdkit.linalg;


/**
 * Solves (A + shift·I) X = B for a symmetric positive semidefinite A without forming an inverse: Cholesky first
 * (with the facade's reported jitter), and if that fails, the eigen route A = V Λ Vᵀ with eigenvalues clipped at 0
 * and directions whose shifted eigenvalue is below {@link #RANK_TOL} · max eigenvalue dropped (the rank-r
 * treatment of Marteau-Ferey, Bach and Rudi 2020, App. B.4, Remark 5).
 */
public final class SpdSolve {
    private SpdSolve() {
    }

    /**
     * Relative eigenvalue cut-off of the eigen route: n·ε with ε = 2.2e−16 would be LAPACK's own rank tolerance;
     * 1e−12 keeps a margin of ~100–1000× for the n ≤ 10⁴ problems we solve, so that noise directions are dropped.
     */
    public static final double RANK_TOL = 1e-12;

    /** How a system was solved. */
    public record Diagnostics(String route, double jitter, int rank, double conditionEstimate) {
    }

    /** A solution with its diagnostics. */
    public record Result(Matrix x, Diagnostics diagnostics) {
    }

    /** Solves (A + shift·I) X = B; A is not modified. */
    public static Result solve(Matrix a, double shift, Matrix b) {
        int n = a.rows();
        Matrix m = a.copy();
        if (shift != 0) {
            m.addToDiagonal(shift);
        }
        try {
            Cholesky c = Linalg.cholesky(m);
            double lo = Double.POSITIVE_INFINITY;
            double hi = 0;
            for (int i = 0; i < n; i++) {
                double l = c.lower().get(i, i);
                lo = Math.min(lo, l);
                hi = Math.max(hi, l);
            }
            double cond = n == 0 ? 1 : (hi / lo) * (hi / lo);
            int rank = c.jitter() > 0 ? pivotRank(c, hi * hi) : n;
            return new Result(c.solve(b), new Diagnostics("cholesky", c.jitter(), rank, cond));
        } catch (LinalgException e) {
            return eigenSolve(a, shift, b);
        }
    }

    /**
     * A dependent column's Cholesky pivot under a jitter j is j·(1 + |c|²), c its coefficients on the earlier
     * columns (for k identical rows |c|² = 1/(k−1), so at most 2j); pivots above this many jitters count as rank.
     */
    static final double DEPENDENT_PIVOT_JITTERS = 10;

    /**
     * The numerical rank (an estimate) of A + shift·I from a Cholesky factor that needed a jitter: the pivots L_ii²
     * of a positive semidefinite matrix are the residuals of its columns after the earlier ones (Higham 2002,
     * Sec. 10.3), zero exactly for a dependent column and about the jitter here. A pivot counts when it exceeds both
     * {@link #DEPENDENT_PIVOT_JITTERS} jitters and {@link #RANK_TOL} · the largest pivot, the eigen route's cut-off.
     */
    private static int pivotRank(Cholesky c, double maxPivot) {
        double cut = Math.max(RANK_TOL * maxPivot, DEPENDENT_PIVOT_JITTERS * c.jitter());
        int rank = 0;
        for (int i = 0; i < c.lower().rows(); i++) {
            double l = c.lower().get(i, i);
            if (l * l > cut) {
                rank++;
            }
        }
        return rank;
    }

    /**
     * Solves (A + shift·I) x = b by Cholesky in place in the one buffer {@code a}: dpotrf overwrites A with its
     * factor, so A is gone afterwards. If dpotrf fails, {@code refill} writes A into the buffer again and the
     * jitter of {@link Linalg#cholesky(Matrix)} is added (starting at {@link Linalg#CHOLESKY_FIRST_JITTER} × the mean
     * diagonal of A + shift·I, tenfold per retry); past {@link Linalg#CHOLESKY_MAX_JITTER}, or when {@code refill}
     * is null, a {@link LinalgException} is thrown (the caller may then take the eigen route).
     */
    public static Result choleskyInPlace(SpdBuffer a, double shift, double[] b,
                                         java.util.function.Consumer<SpdBuffer> refill) {
        int n = a.size();
        double trace = 0;
        for (double v : a.diagonal()) {
            trace += v;
        }
        double scale = n == 0 ? 1.0 : Math.abs(trace + n * shift) / n;
        if (scale == 0 || !Double.isFinite(scale)) {
            scale = 1.0;
        }
        for (double rel = 0; ; rel = rel == 0 ? Linalg.CHOLESKY_FIRST_JITTER : rel * 10) {
            if (rel > Linalg.CHOLESKY_MAX_JITTER || (rel > 0 && refill == null)) {
                throw new LinalgException("matrix is not positive definite: Cholesky failed"
                        + (rel > 0 && refill == null ? "" : " even with a diagonal jitter of "
                        + (Linalg.CHOLESKY_MAX_JITTER * scale)) + " (n=" + n + ")");
            }
            if (rel > 0) {
                refill.accept(a);
            }
            double jitter = rel * scale;
            a.addToDiagonal(shift + jitter);
            if (a.factorInPlace() == 0) {
                double lo = Double.POSITIVE_INFINITY;
                double hi = 0;
                for (double l : a.diagonal()) {
                    lo = Math.min(lo, l);
                    hi = Math.max(hi, l);
                }
                double cond = n == 0 ? 1 : (hi / lo) * (hi / lo);
                int rank = n;
                if (jitter > 0) { // the pivots L_ii² tell the numerical rank, as in pivotRank
                    double cut = Math.max(RANK_TOL * hi * hi, DEPENDENT_PIVOT_JITTERS * jitter);
                    rank = 0;
                    for (double l : a.diagonal()) {
                        rank += l * l > cut ? 1 : 0;
                    }
                }
                return new Result(Matrix.column(a.solve(b)), new Diagnostics("cholesky", jitter, rank, cond));
            }
        }
    }

    /** The eigen route (used directly by tests and as the fallback of {@link #solve}). */
    public static Result eigenSolve(Matrix a, double shift, Matrix b) {
        Eigen e = Linalg.eigh(a);
        double[] lam = e.values();
        int n = lam.length;
        double max = 0;
        for (double v : lam) {
            max = Math.max(max, Math.max(v, 0) + shift);
        }
        double cut = RANK_TOL * max;
        Matrix v = e.vectors();
        Matrix vtb = Linalg.gemm(1.0, v, true, b, false);
        int rank = 0;
        double minKept = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double li = Math.max(lam[i], 0) + shift;
            double inv;
            if (li > cut && li > 0) {
                inv = 1.0 / li;
                rank++;
                minKept = Math.min(minKept, li);
            } else {
                inv = 0;
            }
            for (int j = 0; j < b.cols(); j++) {
                vtb.set(i, j, vtb.get(i, j) * inv);
            }
        }
        Matrix x = Linalg.gemm(1.0, v, false, vtb, false);
        return new Result(x, new Diagnostics("eigen", 0, rank, rank == 0 ? Double.POSITIVE_INFINITY : max / minKept));
    }
}
