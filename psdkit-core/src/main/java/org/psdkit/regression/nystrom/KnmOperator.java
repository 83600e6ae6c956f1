package org.psdkit.regression.nystrom;

/**
 * The data-sized product of one CG iteration, u ↦ K_nmᵀK_nm u, wherever the n rows live ({@link KnmBlocks} on
 * this machine in row blocks; an engine such as psdkit-spark over partitions). {@link NystromKrr#solve} runs the Falkon
 * CG on the driver with it; everything else in the solve is m×m.
 */
public interface KnmOperator {
    /** The number n of data rows. */
    long rows();

    /** K_nmᵀK_nm u (length m). */
    double[] applyKtK(double[] u);

    /** Where K_nm lives, for the diagnostics ({@code float}, {@code recompute}, ...). */
    String storage();
}
