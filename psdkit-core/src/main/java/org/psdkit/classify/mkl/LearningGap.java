package org.psdkit.classify.mkl;

import org.psdkit.linalg.Matrix;

/**
 * The duality gap of a learned-kernel SVM at the SVM solution (α, b) on the current kernel K (Rakotomamonjy, Bach,
 * Canu &amp; Grandvalet 2008, the DualGap of SimpleMKL's stopping criterion; Colbert &amp; Peet's problem (3) for the
 * tessellated kernels): with β = α∘y,
 * <pre>  gap = J − (Σα − ½ max_{K' ∈ 𝒦} βᵀK'β),   J = ½ βᵀKβ + C Σ max(0, 1 − y_i((Kβ)_i + b)),</pre>
 * the SVM primal objective at the current kernel minus the learning problem's dual value at α. J bounds the optimum
 * from above and the dual value from below, so the gap bounds the distance to the optimum. SimpleMKL writes J(d) for
 * the SVM objective and, solving the SVM exactly, takes the SVM dual value for it; with an SVM solved to a KKT
 * tolerance the two differ, and the gap is the sum of the SVM's own gap (J − (Σα − ½βᵀKβ)) and the kernel part
 * ½(max_{K'} βᵀK'β − βᵀKβ), the Frank–Wolfe gap for the tessellated kernels. The relative gap, compared with the
 * tolerance, is gap / |J| (SimpleMKL's DualGap / J(d)).
 *
 * @param primal    J, the SVM primal objective at the current kernel
 * @param svmGap    J − (Σα − ½βᵀKβ), the SVM's own duality gap
 * @param kernelGap ½(max_{K'} βᵀK'β − βᵀKβ), the kernel part
 */
record LearningGap(double primal, double svmGap, double kernelGap) {

    /** The whole gap. */
    double total() {
        return svmGap + kernelGap;
    }

    /** gap / |J|. */
    double relative() {
        return total() / Math.abs(primal);
    }

    /**
     * The gap at α (labels ±1 in y, bias b) on the dense kernel k, given βᵀKβ and max_{K'} βᵀK'β (for the
     * tessellated kernels τ λ_max(H(β)); for a library max_k βᵀK_kβ).
     */
    static LearningGap of(Matrix k, double[] y, double c, double[] alpha, double bias, double bkb, double maxQuad) {
        int m = y.length;
        double[] d = k.data();
        double[] f = new double[m];
        double sumAlpha = 0;
        for (int j = 0; j < m; j++) {
            sumAlpha += alpha[j];
            double bj = alpha[j] * y[j];
            if (bj == 0) {
                continue;
            }
            int base = j * m;
            for (int i = 0; i < m; i++) {
                f[i] += d[base + i] * bj;
            }
        }
        double hinge = 0;
        for (int i = 0; i < m; i++) {
            hinge += Math.max(0, 1 - y[i] * (f[i] + bias));
        }
        double primal = 0.5 * bkb + c * hinge;
        double svmGap = primal - (sumAlpha - 0.5 * bkb);
        return new LearningGap(primal, svmGap, 0.5 * (maxQuad - bkb));
    }
}
