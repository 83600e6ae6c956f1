package org.psdkit.regression.nystrom;

import java.util.Locale;
import org.psdkit.regression.nystrom.internal.RoutePlanner;

/** Where the blocks of K_nm live between the CG iterations of {@link NystromKrr}, and which route the solve takes. */
public enum Storage {
    /**
     * Single precision as far as it fits ({@link RoutePlanner#FLOAT_CACHE_HEAP_FRACTION}, the rest recomputed), with the
     * plain Falkon CG, the Gram preconditioner ({@link #GRAM}) or the sampled one ({@link #SKETCH}), whichever
     * {@link RoutePlanner#autoRoute} prices lowest.
     */
    AUTO,
    /** Recomputed in double precision every pass (O(m) extra memory per block). */
    RECOMPUTE,
    /** Kept in single precision (n·m·4 bytes). */
    FLOAT,
    /**
     * K_nmᵀK_nm of the single-precision blocks accumulated once (dsyrk per row block) and its Cholesky
     * factor used as CG's preconditioner, so CG needs one to three passes; the blocks of K_nm in single
     * precision, kept as far as {@link RoutePlanner#FLOAT_CACHE_HEAP_FRACTION} allows and recomputed otherwise. The Gram
     * matrix is that of the single-precision blocks to double rounding, so it is also CG's operator: after the
     * Gram pass (which computes the right-hand side too) the solve reads no data.
     */
    GRAM,
    /**
     * Experimental, not chosen by {@link #AUTO}: {@link #GRAM} with K_nmᵀK_nm summed in single precision per
     * chunk of {@link RoutePlanner#GRAM_CHUNK_ROWS} rows ({@code cblas_ssyrk}, half the flop cost) and in double across
     * chunks. Its rounding (≈ R·u/√(n/R) relative per entry) is far above λK_mm's smallest eigenvalues, so it
     * serves only as a preconditioner, CG's operator stays the data passes, and CG needed more iterations than
     * plain Falkon CG in the measurements (docs/benchmarks/krr-scale.md).
     */
    GRAM_SINGLE,
    /**
     * The blocks as {@link #AUTO} keeps them (single precision as far as they fit, the rest recomputed each
     * pass), with CG preconditioned by the Gram matrix of a uniform sample of s = {@link RoutePlanner#SKETCH_ROWS_PER_ANCHOR}·m
     * rows (at most n), scaled by n/s: H̃ = (n/s)·K_smᵀK_sm + λK_mm in place of {@link #GRAM}'s full
     * K_nmᵀK_nm + λK_mm. It costs s·m² instead of n·m² flops, and since a uniform row sample approximates the
     * (λ-regularised) Gram matrix up to a relative error that falls like 1/√s (the sketching argument of Rudi,
     * Carratino &amp; Rosasco 2017, Lemma 5, with s sampled rows in place of their m anchors), CG needs a few
     * passes more than with the full Gram matrix and far fewer than Falkon's H̃ = (n/m)K_mm² + λK_mm.
     */
    SKETCH;

    public static Storage parse(String s) {
        String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "auto" -> AUTO;
            case "recompute" -> RECOMPUTE;
            case "float" -> FLOAT;
            case "gram" -> GRAM;
            case "gram-single" -> GRAM_SINGLE;
            case "sketch" -> SKETCH;
            default -> throw new IllegalArgumentException("storage: '" + s
                    + "' is not auto, recompute, float, gram, gram-single or sketch");
        };
    }

    public String label() {
        return this == GRAM_SINGLE ? "gram-single" : name().toLowerCase(Locale.ROOT);
    }
}
