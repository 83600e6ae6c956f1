package org.psdkit.optim.sdp;

/**
 * The Schur complement M_ij = ⟨A_i, X A_j Z⁻¹⟩ of the HKM direction (Helmberg, Rendl, Vanderbei &amp; Wolkowicz 1996;
 * Kojima, Shindoh &amp; Hara 1997), assembled from X and Z⁻¹ block by block. One implementation per arithmetic:
 * {@link DoubleSchur} (double, the formulas F1–F3 of Fujisawa, Kojima &amp; Nakata 1997 chosen by operation count,
 * low-rank and rank-one terms), {@link DdSchur} (double-double, every entry a compensated sum) and, in
 * {@code org.psdkit.sos}, {@code SosSchur} (the closed form of the Kernel SoS LMI of Bagnell &amp; Farahmand 2015).
 * Public so that a structured problem outside this package can supply its own; the implementations themselves are
 * package-private.
 *
 * @param <V> one block of a block-diagonal matrix in the arithmetic
 * @param <M> the m×m Schur complement in the arithmetic
 */
public interface SchurAssembly<V, M> {

    /** M at the given X and Z⁻¹ (per block: dense n×n column-major, or the diagonal of a diagonal block). */
    M assemble(V[] x, V[] zInverse);
}
