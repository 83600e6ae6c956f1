package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.psdkit.model.ParameterException;

class FlagsTest {

    @Test
    void libraryParameterNamesBecomeTheirFlags() {
        assertEquals("--lambda", Flags.of("lambda"));
        assertEquals("--rank-threshold", Flags.of("rankThreshold"));
        assertEquals("--target", Flags.of("targetName"));
        assertEquals("--tol", Flags.of("tolerance"));
        assertEquals("--lambda must be >= 0 and finite, got -1.0",
                Flags.message(assertThrowsParameter(() -> ParameterException.nonNegative("lambda", -1))));
    }

    /** The anchor-method deprecation note names the flag on the command line, word for word as before. */
    @Test
    void theDeprecationNoteNamesTheFlag() {
        assertEquals("anchor method 'leverage' is deprecated: for krr it runs 'rls' (pilot ridge-leverage-score "
                + "sampling), as before; say --anchor-method rls",
                org.psdkit.psd.Anchors.Method.deprecation("leverage", org.psdkit.psd.Anchors.Family.KRR, Flags::of));
        assertEquals("anchor method 'kmeans++' for krr is deprecated: it runs 'kmeans++-input' (k-means++ seeding in "
                + "input space), as before; say --anchor-method kmeans++-input (a later release makes kmeans++ the "
                + "feature-space seeding of the other families)",
                org.psdkit.psd.Anchors.Method.deprecation("kmeans++", org.psdkit.psd.Anchors.Family.KRR, Flags::of));
    }

    private static ParameterException assertThrowsParameter(Runnable r) {
        return org.junit.jupiter.api.Assertions.assertThrows(ParameterException.class, r::run);
    }
}
