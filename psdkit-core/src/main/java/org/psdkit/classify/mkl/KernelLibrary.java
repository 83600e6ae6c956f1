package org.psdkit.classify.mkl;

import org.psdkit.kernel.Kernel;

/**
 * A finite library of kernels k_1..k_M on a fixed training set, for multiple kernel learning. Each library kernel
 * is normalised to unit trace on the training set (as SimpleMKL does).
 */
public interface KernelLibrary {

    /** Number of kernels M. */
    int size();

    /** Number of training points m. */
    int points();

    /** A short description of kernel k. */
    String describe(int k);

    /** βᵀ K_k β for every k. */
    double[] quadForms(double[] beta);

    /** out += Σ_k w_k K_k (m×m column-major). */
    void addCombination(double[] w, double[] out);

    /** The kernel function Σ_k w_k k_k (normalisation included), for prediction on new points. */
    Kernel combined(double[] w);
}
