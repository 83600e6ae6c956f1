package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.ParameterException;
import org.psdkit.regression.SvrTrainer;

/** The SMO families' flags: C is -C everywhere, tolerance is --tolerance where a command says so. */
class FlagsCheckedTest {

    @Test
    void cIsDashCapitalC() {
        ParameterException e = assertThrows(ParameterException.class,
                () -> SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 0, 0.1));
        assertEquals("-C must be > 0 and finite, got 0.0", Flags.message(e));
    }

    @Test
    void aCommandRenamesOnlyItsOwnFlags() {
        Map<String, String> local = Map.of("tolerance", "--tolerance");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Flags.checked(
                () -> SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 1, 0.1).withTolerance(0), local));
        assertEquals("--tolerance must be > 0 and finite, got 0.0", e.getMessage());
        ParameterException other = assertThrows(ParameterException.class, () -> Flags.checked(
                () -> SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 1, -1), local));
        assertEquals("--epsilon must be >= 0 and finite, got -1.0", Flags.message(other));
        SvrTrainer.Options ok = SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 1, 0.1);
        assertSame(ok, Flags.checked(() -> ok, local));
    }
}
