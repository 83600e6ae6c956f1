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

    private static ParameterException assertThrowsParameter(Runnable r) {
        return org.junit.jupiter.api.Assertions.assertThrows(ParameterException.class, r::run);
    }
}
