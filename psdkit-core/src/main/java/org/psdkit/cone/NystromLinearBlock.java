package org.psdkit.cone;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.FeatureColumns;
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
    private final FeatureColumns v; // r×n (double: the Linalg products of the exact path), or null when shared
    private final FeatureColumns phi; // shared PSD features Φ_k (m×n) when V = P Φ_k + q 1ᵀ, else null
    private final Matrix p;      // r×m
    private final double[] q;    // r
    private final double lambda;
    private final double lip;
    private double lastReg;

    public NystromLinearBlock(Kernel kernel, double offset, Matrix anchors, Matrix data, double lambda,
                              double relativeThreshold) {
        this(kernel, offset, anchors, data, lambda, relativeThreshold, null, false);
    }

    /**
     * The block with its features in single precision ({@link FeatureColumns#single}), for fits whose double
     * features do not fit in the heap ({@link ConeData#checkMemory}); when {@code shared} holds the PSD blocks'
     * single-precision features ({@link Features#kernel} of {@link EmpiricalFeatureMap#nystromSingle}) and its map keeps every anchor
     * direction (rank m), the block keeps no features of its own: with K(anchors, x) = U_k Σ_k^{1/2} Φ_k(x) exactly
     * when U_k is m×m, Φ(x) = Σ^{-1/2}Uᵀ(K(anchors, x) + offset) = P Φ_k(x) + q with P = Σ^{-1/2}UᵀU_kΣ_k^{1/2} and
     * q = offset·Σ^{-1/2}Uᵀ1, and every product goes through the shared columns.
     */
    public static NystromLinearBlock large(Kernel kernel, double offset, Matrix anchors, Matrix data, double lambda,
                                           double relativeThreshold, Features shared) {
        return new NystromLinearBlock(kernel, offset, anchors, data, lambda, relativeThreshold,
                shared instanceof SharedFeatures s ? s : null, true);
    }

    private NystromLinearBlock(Kernel kernel, double offset, Matrix anchors, Matrix data, double lambda,
                               double relativeThreshold, SharedFeatures shared, boolean single) {
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
        if (shared != null && shared.map().rank() == m && shared.map().expansionPoints() == m) {
            double[] sk = shared.map().eigenvalues();
            Matrix pm = Linalg.gemm(1.0, u, true, shared.map().eigenvectors(), false); // r×m
            q = new double[r];
            for (int a = 0; a < r; a++) {
                double inv = 1.0 / Math.sqrt(sigma[a]);
                double s = 0;
                for (int j = 0; j < m; j++) {
                    s += u.get(j, a);
                    pm.set(a, j, pm.get(a, j) * inv * Math.sqrt(sk[j]));
                }
                q[a] = offset * s * inv;
            }
            p = pm;
            phi = shared.columns();
            v = null;
            // V Vᵀ = P G Pᵀ + P s qᵀ + q sᵀ Pᵀ + n q qᵀ with G = Φ_k Φ_kᵀ and s = Φ_k 1
            Matrix pg = Linalg.gemm(1.0, pm, false, shared.gram(), false);
            Matrix vvt = Linalg.gemm(1.0, pg, false, pm, true);
            double[] ps = Linalg.gemv(pm, false, shared.rowSums());
            long n = phi.cols();
            for (int a = 0; a < r; a++) {
                for (int b = 0; b < r; b++) {
                    vvt.add(a, b, ps[a] * q[b] + q[a] * ps[b] + n * q[a] * q[b]);
                }
            }
            lip = LinearBlock.largestEigenvalue(vvt) / lambda;
            return;
        }
        p = null;
        q = null;
        phi = null;
        if (single) {
            org.psdkit.linalg.MemoryBudget.check("the Nystrom features of rank " + r + " (" + m + " anchors) on "
                    + data.rows() + " rows in single precision", org.psdkit.linalg.MemoryBudget.plus(
                    org.psdkit.linalg.MemoryBudget.times(org.psdkit.linalg.MemoryBudget.times(r, data.rows()),
                            Float.BYTES), Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()));
            v = FeatureColumns.single(r, data.rows(), (from, to) -> EmpiricalFeatureMap.streamedFeatures(kernel,
                    anchors, u, sigma, offset, data.rowRange(from, to)));
        } else {
            // the features' rank is known only now: check their r×n matrix (and its r×r product) against the heap
            org.psdkit.linalg.MemoryBudget.check("the Nystrom features of rank " + r + " (" + m + " anchors) on "
                    + data.rows() + " rows", org.psdkit.linalg.MemoryBudget.matrixBytes(r, data.rows() + (long) r));
            // Σ^{-1/2}Uᵀ(K(anchors, data) + offset), r×n, streamed in row blocks of the data (O(nr), never m×n)
            v = FeatureColumns.dense(EmpiricalFeatureMap.streamedFeatures(kernel, anchors, u, sigma, offset, data));
        }
        lip = LinearBlock.largestEigenvalue(v.gram()) / lambda;
    }

    /** Dimension r of the features. */
    public int rank() {
        return sigma.length;
    }

    /** V β. */
    private double[] times(double[] beta) {
        if (phi == null) {
            return v.times(beta);
        }
        double[] t = Linalg.gemv(p, false, phi.times(beta));
        double sum = 0;
        for (double b : beta) {
            sum += b;
        }
        for (int a = 0; a < t.length; a++) {
            t[a] += q[a] * sum;
        }
        return t;
    }

    /** Vᵀ y. */
    private double[] transposeTimes(double[] y) {
        if (phi == null) {
            return v.transposeTimes(y);
        }
        double[] out = phi.transposeTimes(Linalg.gemv(p, true, y));
        double c = 0;
        for (int a = 0; a < y.length; a++) {
            c += q[a] * y[a];
        }
        for (int i = 0; i < out.length; i++) {
            out[i] += c;
        }
        return out;
    }

    @Override
    public double evaluate(double[] beta, double[] values) {
        double[] vb = times(beta);
        double[] vtvb = transposeTimes(vb);
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
        double[] w = times(beta);
        for (int k = 0; k < w.length; k++) {
            w[k] = -w[k] / (lambda * Math.sqrt(sigma[k]));
        }
        double[] c = Linalg.gemv(u, false, w);
        return new KernelExpansion(kernel, offset, anchors, c, 0.0, KernelExpansion.Link.IDENTITY);
    }
}
