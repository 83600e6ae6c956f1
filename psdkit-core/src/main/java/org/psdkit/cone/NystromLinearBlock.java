package org.psdkit.cone;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * The Nyström form of {@link LinearBlock}: f(x) = Φ(x)ᵀw with Φ the empirical feature map of g = k + offset on m
 * anchors (Φ(x) = Σ^{-1/2}Uᵀ g(anchors, x), G_a = UΣUᵀ cut at a relative threshold; Marteau-Ferey, Bach &amp; Rudi
 * 2020 App. B.5) and penalty (λ/2)‖w‖². With V (r×n) the data features, g_b(β) = ‖Vβ‖²/(2λ), the primal point is
 * w = −Vβ/λ, f(x_i) = −(VᵀVβ)_i/λ, and f(x) = Σ_j c_j g(x, a_j) with c = UΣ^{-1/2}w on the anchors. Memory O(nr).
 */
public final class NystromLinearBlock implements Block {

    private final Kernel kernel;
    private final double offset;
    private final Matrix anchors;
    private final Matrix u;      // m×r
    private final double[] sigma;
    private final Matrix v;      // r×n
    private final double lambda;
    private final double lip;
    private double lastReg;

    public NystromLinearBlock(Kernel kernel, double offset, Matrix anchors, Matrix data, double lambda,
                              double relativeThreshold) {
        if (!(lambda > 0)) {
            throw new IllegalArgumentException("lambda must be > 0 for a linear block, got " + lambda);
        }
        this.kernel = kernel;
        this.offset = offset;
        this.anchors = anchors;
        this.lambda = lambda;
        Matrix ga = LinearBlock.gram(kernel, offset, anchors);
        Eigen e = Linalg.eigh(ga);
        int m = ga.rows();
        double cut = relativeThreshold * e.max();
        int first = 0;
        while (first < m && !(e.values()[first] > cut)) {
            first++;
        }
        int r = m - first;
        sigma = new double[r];
        System.arraycopy(e.values(), first, sigma, 0, r);
        u = Matrix.zeros(m, r);
        System.arraycopy(e.vectors().data(), first * m, u.data(), 0, m * r);
        // the features' rank is known only now: check their r×n matrix (and its r×r product) against the heap
        org.psdkit.linalg.MemoryBudget.check("the Nystrom features of rank " + r + " (" + m + " anchors) on "
                + data.rows() + " rows", org.psdkit.linalg.MemoryBudget.matrixBytes(r, data.rows() + (long) r));
        // Σ^{-1/2}Uᵀ(K(anchors, data) + offset), r×n, streamed in row blocks of the data (O(nr), never m×n at once)
        v = EmpiricalFeatureMap.streamedFeatures(kernel, anchors, u, sigma, offset, data);
        Matrix vvt = Linalg.gemm(1.0, v, false, v, true);
        lip = LinearBlock.largestEigenvalue(vvt) / lambda;
    }

    /** Dimension r of the features. */
    public int rank() {
        return sigma.length;
    }

    @Override
    public double evaluate(double[] beta, double[] values) {
        double[] vb = Linalg.gemv(v, false, beta);
        double[] vtvb = Linalg.gemv(v, true, vb);
        double quad = 0;
        for (double t : vb) {
            quad += t * t;
        }
        for (int i = 0; i < beta.length; i++) {
            values[i] = -vtvb[i] / lambda;
        }
        lastReg = quad / (2 * lambda); // (λ/2)‖w‖² with w = −Vβ/λ
        return lastReg;
    }

    @Override
    public double lastRegulariser() {
        return lastReg;
    }

    @Override
    public double lipschitz() {
        return lip;
    }

    @Override
    public ScalarFunction function(double[] beta) {
        double[] w = Linalg.gemv(v, false, beta);
        for (int k = 0; k < w.length; k++) {
            w[k] = -w[k] / (lambda * Math.sqrt(sigma[k]));
        }
        double[] c = Linalg.gemv(u, false, w);
        return new KernelExpansion(kernel, offset, anchors, c, 0.0, KernelExpansion.Link.IDENTITY);
    }
}
