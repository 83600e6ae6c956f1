package org.psdkit.cone;

import java.util.List;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.PsdOptions;

/**
 * Feature-space settings of the PSD cone families (hetero, quantile): the Nyström anchors (Marteau-Ferey, Bach &amp;
 * Rudi 2020 App. B.5) on which every kernel function of the model expands, and the relative eigenvalue threshold of
 * the expansion points' kernel matrix. With anchors the loss still uses every data point, while the linear block
 * (kernel k + 1) and the PSD blocks live on the anchors' features; the model file then stores the anchors as its
 * {@code points}, so files of exact and Nyström models are read by the same code.
 *
 * @param anchors       number m of anchors; 0 = every training point, the exact model; m ≥ n uses every point
 *                      through the Nyström path (equal to the exact model up to the eigenvalue cut)
 * @param method        how anchors are chosen
 * @param seed          seed of the anchor choice (the same seed gives the same anchors)
 * @param rankThreshold relative eigenvalue threshold of the feature maps, in (0, 1)
 */
public record ConeNystrom(int anchors, Anchors.Method method, long seed, double rankThreshold) {

    public ConeNystrom {
        if (anchors < 0) {
            throw new IllegalArgumentException("anchors must be >= 0, got " + anchors);
        }
        java.util.Objects.requireNonNull(method, "anchor method");
        if (!(rankThreshold > 0 && rankThreshold < 1)) {
            throw new IllegalArgumentException("rank threshold must be in (0, 1), got " + rankThreshold);
        }
    }

    /** The exact model with the default threshold {@link PsdOptions#DEFAULT_RANK_THRESHOLD}. */
    public static ConeNystrom exact() {
        return new ConeNystrom(0, Anchors.Method.UNIFORM, 0L, PsdOptions.DEFAULT_RANK_THRESHOLD);
    }

    /** Whether the Nyström path is taken. */
    public boolean enabled() {
        return anchors > 0;
    }

    /** The anchors' rows of x (every row, in order, when m ≥ n). */
    public Matrix select(org.psdkit.kernel.Kernel kernel, Matrix x) {
        return Anchors.rows(x, Anchors.select(kernel, x, anchors, method, seed));
    }

    /**
     * The expansion points of fitted functions: those of the first kernel function among them, else
     * {@code fallback} (the training points of an exact model).
     */
    public static Matrix expansionPoints(List<ScalarFunction> functions, Matrix fallback) {
        for (ScalarFunction f : functions) {
            if (f instanceof KernelExpansion e) {
                return e.points();
            }
            if (f instanceof KernelSumOfSquares s) {
                return s.points();
            }
        }
        return fallback;
    }
}
