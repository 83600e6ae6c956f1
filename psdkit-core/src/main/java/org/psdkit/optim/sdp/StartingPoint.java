package org.psdkit.optim.sdp;

/**
 * The infeasible starting point X₀ = ξI, Z₀ = ηI, y₀ = 0 of CSDP (Borchers 1999) shared by every interior-point run of
 * the project: ξ = s·n·max(max_i (1+|b_i|)/(1+‖A_i‖_F), 1/n) and η = s·(1 + max(max_i ‖A_i‖_F, ‖C‖_F))/√n, with n
 * the sum of the block orders and s = {@link IpmSettings#startScale()} (10, which keeps the start well inside both
 * cones).
 */
public final class StartingPoint {
    private StartingPoint() {
    }

    /**
     * The scales {ξ, η} from the data's norms.
     *
     * @param normC     ‖C‖_F over all blocks
     * @param b         the right-hand side b
     * @param normA2    ‖A_i‖_F² per constraint (summed over the blocks)
     * @param totalSize n, the sum of the block orders
     */
    public static double[] scales(double normC, double[] b, double[] normA2, int totalSize, IpmSettings s) {
        double maxRatio = 0;
        double maxNorm = normC;
        // no store into normA2 in this loop: with `normA[i] = Math.sqrt(normA[i])` here, JDK 17.0.15's C2 compiler
        // crashed the JVM (ShouldNotReachHere in TypeVect::xmeet while vectorising the loop) once the method was hot
        // (SdpSolverTest.startingScalesCompileWithoutCrashingTheJvm)
        for (int i = 0; i < normA2.length; i++) {
            double a = Math.sqrt(normA2[i]);
            maxRatio = Math.max(maxRatio, (1 + Math.abs(b[i])) / (1 + a));
            maxNorm = Math.max(maxNorm, a);
        }
        double xi = s.startScale() * totalSize * Math.max(maxRatio, 1.0 / totalSize);
        double eta = s.startScale() * (1 + maxNorm) / Math.sqrt(totalSize);
        return new double[] {xi, eta};
    }

    /** The scales {ξ, η} of a problem. */
    public static double[] scales(SdpProblem p) {
        int m = p.constraints();
        double[] normA2 = new double[m];
        double c2 = 0;
        int total = 0;
        for (int blk = 0; blk < p.blocks(); blk++) {
            total += p.blockSize(blk);
            for (double v : p.denseC(blk)) {
                c2 += v * v;
            }
            for (SdpProblem.Term t : p.terms(blk)) {
                double f = t.coefficient().normF();
                normA2[t.constraint()] += f * f;
            }
        }
        return scales(Math.sqrt(c2), p.b(), normA2, total, IpmSettings.DEFAULT);
    }

    /**
     * Sets X = ξI and Z = ηI in block storage: an n×n column-major array per dense block, the diagonal per diagonal
     * ({@code diagonal[b]}) block; the arrays start at zero.
     */
    public static void fill(double[][] x, double[][] z, int[] n, boolean[] diagonal, double[] scales) {
        for (int b = 0; b < n.length; b++) {
            for (int k = 0; k < n[b]; k++) {
                int idx = diagonal[b] ? k : k + k * n[b];
                x[b][idx] = scales[0];
                z[b][idx] = scales[1];
            }
        }
    }
}
