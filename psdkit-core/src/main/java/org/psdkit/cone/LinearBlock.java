package org.psdkit.cone;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * An unconstrained linear kernel model f(x) = Σ_i c_i g(x, x_i), g = k + offset, with penalty (λ/2)‖w‖² =
 * (λ/2) cᵀGc. Its dual contribution is g_b(β) = βᵀGβ/(2λ) and the primal point is c = −β/λ, so f(x_i) = −(Gβ)_i/λ.
 */
public final class LinearBlock implements Block {

    private final Kernel kernel;
    private final double offset;
    private final Matrix points;
    private final Matrix gram;
    private final double lambda;
    private final double gramNorm;
    private double lastReg;

    /**
     * @param gram     g(x_i, x_j) on the training points (with the offset added)
     * @param gramNorm largest eigenvalue of {@code gram}
     */
    public LinearBlock(Kernel kernel, double offset, Matrix points, Matrix gram, double gramNorm, double lambda) {
        if (!(lambda > 0)) {
            throw new IllegalArgumentException("lambda must be > 0 for a linear block, got " + lambda);
        }
        this.kernel = kernel;
        this.offset = offset;
        this.points = points;
        this.gram = gram;
        this.gramNorm = gramNorm;
        this.lambda = lambda;
    }

    /** The Gram matrix of k + offset on {@code x} and its largest eigenvalue. */
    public static Matrix gram(Kernel kernel, double offset, Matrix x) {
        Matrix g = kernel.gram(x);
        double[] d = g.data();
        for (int i = 0; i < d.length; i++) {
            d[i] += offset;
        }
        return g;
    }

    /** Largest eigenvalue of a symmetric PSD matrix. */
    public static double largestEigenvalue(Matrix g) {
        double[] ev = Linalg.eigvalsh(g);
        return Math.max(ev[ev.length - 1], 0.0);
    }

    @Override
    public double evaluate(double[] beta, double[] values) {
        double[] gb = Linalg.gemv(gram, false, beta);
        double quad = 0;
        for (int i = 0; i < beta.length; i++) {
            quad += beta[i] * gb[i];
            values[i] = -gb[i] / lambda;
        }
        double g = quad / (2 * lambda);
        lastReg = g; // (λ/2) cᵀGc with c = −β/λ equals βᵀGβ/(2λ)
        return g;
    }

    @Override
    public double lastRegulariser() {
        return lastReg;
    }

    @Override
    public double lipschitz() {
        return gramNorm / lambda;
    }

    @Override
    public ScalarFunction function(double[] beta) {
        double[] c = new double[beta.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = -beta[i] / lambda;
        }
        return new KernelExpansion(kernel, offset, points, c, 0.0, KernelExpansion.Link.IDENTITY);
    }
}
