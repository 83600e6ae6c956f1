package org.psdkit.model.cone;

import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * A PSD model f(x) = Φ(x)ᵀAΦ(x), A ⪰ 0, with the spectral elastic net Ω(A) = λ₁‖A‖_* + (λ₂/2)‖A‖_F² (seed 002,
 * Lemma 5). With V the training features, R(A) = diag(VᵀAV), R^*β = V Diag(β) Vᵀ and, by Lemma 5,
 * g_b(β) = Ω₊^*(−V Diag(β)Vᵀ) = ‖[−V Diag(β)Vᵀ − λ₁I]₊‖_F²/(2λ₂), primal point A = [−V Diag(β)Vᵀ − λ₁I]₊/λ₂.
 * (This is Thm. 2's ‖[V Diag(β)Vᵀ + λ₁I]₋‖² with β = the dual variable: the squared norm of the negative part does not
 * depend on the sign convention of [·]₋; the tests check it against a brute-force primal.)
 */
public final class PsdBlock implements Block {

    private final Features features;
    private final Matrix v;
    private final double lambda1;
    private final double lambda2;
    private final double lipschitz;
    private double lastReg;

    /**
     * @param hadamardNorm largest eigenvalue of (VᵀV)∘(VᵀV), the squared operator norm of β ↦ V Diag(β)Vᵀ
     */
    public PsdBlock(Features features, double lambda1, double lambda2, double hadamardNorm) {
        if (!(lambda1 >= 0) || !(lambda2 > 0)) {
            throw new IllegalArgumentException("PSD block needs lambda1 >= 0 and lambda2 > 0, got " + lambda1
                    + ", " + lambda2);
        }
        this.features = features;
        this.v = features.trainingFeatures();
        this.lambda1 = lambda1;
        this.lambda2 = lambda2;
        this.lipschitz = hadamardNorm / lambda2;
    }

    /** Largest eigenvalue of (VᵀV)∘(VᵀV). */
    public static double hadamardNorm(Features features) {
        Matrix v = features.trainingFeatures();
        Matrix k = Linalg.gemm(1.0, v, true, v, false);
        double[] d = k.data();
        for (int i = 0; i < d.length; i++) {
            d[i] *= d[i];
        }
        return LinearBlock.largestEigenvalue(k);
    }

    private Eigen decompose(double[] beta) {
        int r = v.rows();
        int n = v.cols();
        Matrix vb = Matrix.zeros(r, n);
        double[] src = v.data();
        double[] dst = vb.data();
        for (int j = 0; j < n; j++) {
            double b = -beta[j];
            int off = j * r;
            for (int i = 0; i < r; i++) {
                dst[off + i] = src[off + i] * b;
            }
        }
        Matrix m = Linalg.gemm(1.0, vb, false, v, true);
        m.symmetrizeInPlace();
        m.addToDiagonal(-lambda1);
        return Linalg.eigh(m);
    }

    @Override
    public double evaluate(double[] beta, double[] values) {
        Eigen e = decompose(beta);
        int r = v.rows();
        int n = v.cols();
        double[] ev = e.values();
        int first = 0;
        while (first < r && !(ev[first] > 0)) {
            first++;
        }
        int k = r - first;
        java.util.Arrays.fill(values, 0.0);
        double g = 0;
        double trace = 0;
        double frob = 0;
        if (k > 0) {
            Matrix u = Matrix.zeros(r, k);
            System.arraycopy(e.vectors().data(), first * r, u.data(), 0, k * r);
            Matrix p = Linalg.gemm(1.0, u, true, v, false); // k×n
            double[] pd = p.data();
            for (int a = 0; k > a; a++) {
                double lam = ev[first + a];
                double w = lam / lambda2;
                g += lam * lam;
                trace += w;
                frob += w * w;
                for (int j = 0; j < n; j++) {
                    double q = pd[a + j * k];
                    values[j] += w * q * q;
                }
            }
        }
        lastReg = lambda1 * trace + 0.5 * lambda2 * frob;
        return g / (2 * lambda2);
    }

    @Override
    public double lastRegulariser() {
        return lastReg;
    }

    @Override
    public double lipschitz() {
        return lipschitz;
    }

    @Override
    public ScalarFunction function(double[] beta) {
        Eigen e = decompose(beta);
        int r = v.rows();
        double[] ev = e.values();
        int first = 0;
        while (first < r && !(ev[first] > 0)) {
            first++;
        }
        int k = r - first;
        Matrix factor = Matrix.zeros(r, k);
        for (int a = 0; a < k; a++) {
            double s = Math.sqrt(ev[first + a] / lambda2);
            for (int i = 0; i < r; i++) {
                factor.set(i, a, e.vectors().get(i, first + a) * s);
            }
        }
        return new SumOfSquares(features, factor);
    }
}
