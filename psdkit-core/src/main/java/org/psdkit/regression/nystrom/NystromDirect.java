package org.psdkit.regression.nystrom;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdSolve;

/**
 * Nyström kernel ridge regression solved directly on its m×m normal equations, for sample weights and several
 * targets: one pass over row blocks of K_nm accumulates
 * <pre>  G = K_nmᵀ W K_nm,   B = K_nmᵀ W (Y − 1 offsetᵀ)</pre>
 * (W = diag(w), W = I without weights; Y has one column per target), then (G + λK_mm) A = B is solved by one
 * Cholesky factorisation (the eigen route if it fails) for all targets at once. It minimises
 * Σ_i w_i ‖y_i − K_nm,i A‖² + λ tr(AᵀK_mm A), the weighted objective of {@link NystromKrr} (Rudi, Carratino &amp;
 * Rosasco 2017, Eq. 1 with a 1/n-free λ), at O(nm² + m³) cost: the cost of the Gram route of the CG solve.
 */
public final class NystromDirect {

    /** Rows of K_nm formed at a time: 2,048 rows keep a block of m = 2,000 anchors at 32 MB. */
    static final int BLOCK_ROWS = 2048;

    private NystromDirect() {
    }

    /**
     * The solution: coefficients (m × targets), the offsets subtracted per target, the solver's diagnostics and the
     * relative residual ‖B − HA‖_F / ‖B‖_F recomputed from the factors' inputs.
     */
    public record Solution(Matrix alpha, double[] offsets, SpdSolve.Diagnostics diagnostics, double residual) {
    }

    /** The accumulated normal equations: G = K_nmᵀWK_nm, B = K_nmᵀW(Y − offsets) and K_mm. */
    public record Normal(Matrix gram, Matrix rhs, Matrix kmm, double[] offsets) {
    }

    /**
     * One pass over x: G, B and K_mm.
     *
     * @param weights per-row weights ≥ 0, or null for equal weights
     * @param y       n × targets
     * @param center  subtract each target's (weighted) mean and record it as the offset
     */
    public static Normal normal(Kernel kernel, Matrix x, Matrix anchors, Matrix y, double[] weights,
                                boolean center) {
        int n = x.rows();
        int m = anchors.rows();
        int t = y.cols();
        if (y.rows() != n) {
            throw new IllegalArgumentException("nystrom krr: " + n + " points but " + y.rows() + " targets");
        }
        double[] off = new double[t];
        if (center) {
            double sw = 0;
            for (int i = 0; i < n; i++) {
                sw += weights == null ? 1 : weights[i];
            }
            for (int c = 0; c < t; c++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += (weights == null ? 1 : weights[i]) * y.get(i, c);
                }
                off[c] = s / sw;
            }
        }
        Matrix g = Matrix.zeros(m, m);
        Matrix b = Matrix.zeros(m, t);
        for (int r0 = 0; r0 < n; r0 += BLOCK_ROWS) {
            int r1 = Math.min(n, r0 + BLOCK_ROWS);
            Matrix kb = kernel.cross(x.rowRange(r0, r1), anchors);
            int rows = r1 - r0;
            Matrix yb = Matrix.zeros(rows, t);
            for (int i = 0; i < rows; i++) {
                double s = weights == null ? 1 : Math.sqrt(weights[r0 + i]);
                for (int j = 0; j < m; j++) {
                    kb.set(i, j, kb.get(i, j) * s);
                }
                for (int c = 0; c < t; c++) {
                    yb.set(i, c, (y.get(r0 + i, c) - off[c]) * s);
                }
            }
            Linalg.gemmInPlace(1.0, kb, true, kb, false, 1.0, g);
            Linalg.gemmInPlace(1.0, kb, true, yb, false, 1.0, b);
        }
        g.symmetrizeInPlace();
        return new Normal(g, b, kernel.gram(anchors), off);
    }

    /** Solves (G + λK_mm) A = B. */
    public static Solution solve(Normal s, double lambda) {
        org.psdkit.model.ParameterException.nonNegative("lambda", lambda);
        Matrix h = s.gram().plus(s.kmm().scale(lambda));
        SpdSolve.Result r = SpdSolve.solve(h, 0, s.rhs());
        Matrix a = r.x();
        for (double v : a.data()) {
            if (!Double.isFinite(v)) {
                throw new IllegalStateException("nystrom krr: non-finite coefficients (route "
                        + r.diagnostics().route() + "); try a larger lambda");
            }
        }
        Matrix res = s.rhs().minus(Linalg.gemm(1.0, h, false, a, false));
        double bn = s.rhs().normF();
        return new Solution(a, s.offsets(), r.diagnostics(), bn == 0 ? 0 : res.normF() / bn);
    }
}
