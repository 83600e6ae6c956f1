package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;

/** The library's messages name parameters; the CLI shows them with the option that sets the parameter. */
class FlagMessagesTest {

    private static String cli(Runnable r) {
        return Main.asFlags(assertThrows(IllegalArgumentException.class, r::run).getMessage());
    }

    @Test
    void libraryMessagesGetTheirFlags(@TempDir Path dir) throws IOException {
        assertEquals("--folds must be at least 2, got 1", cli(() -> Splits.kFold(5, 1, 0)));
        assertEquals("5 rows are too few for 6-fold CV (need at least 6; --folds 6)", cli(() -> Splits.kFold(5, 6, 0)));
        assertEquals("--scale: 'max' is not one of none, minmax, zscore", cli(() -> Scaler.Kind.parse("max")));
        assertEquals("--target y and --no-target exclude each other",
                cli(() -> new CsvReader.Options("y", true, false)));
        Path f = Files.writeString(dir.resolve("a.csv"), "x\n1\n2\n");
        assertEquals(f + ": no column named 'z' (--target); the header has x",
                cli(() -> CsvReader.read(f, new CsvReader.Options("z", false, false))));
        assertEquals(f + ": the target is the last column, so at least two columns are needed; the header has 1 "
                + "(use --no-target for unsupervised data)", cli(() -> CsvReader.read(f, CsvReader.Options.regression())));
    }

    @Test
    void otherMessagesPassUnchanged() {
        assertEquals("lambda must be >= 0", Main.asFlags("lambda must be >= 0"));
    }
}
