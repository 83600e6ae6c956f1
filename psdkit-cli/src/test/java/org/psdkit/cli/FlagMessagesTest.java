package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.CsvReader;
import org.psdkit.data.InputException;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.model.ParameterException;

/**
 * The library's messages name parameters by typed exceptions ({@link InputException}, {@link ParameterException}); the CLI shows them with
 * the option that sets the parameter ({@link Flags#message}), without rewording messages.
 */
class FlagMessagesTest {

    private static String cli(Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        return Flags.message(assertInstanceOf(InputException.class, e, e.getMessage()));
    }

    @Test
    void libraryMessagesGetTheirFlags(@TempDir Path dir) throws IOException {
        assertEquals("--folds must be at least 2, got 1", cli(() -> Splits.kFold(5, 1, 0)));
        assertEquals("--folds 6: 5 rows are too few for 6-fold CV (need at least 6)", cli(() -> Splits.kFold(5, 6, 0)));
        assertEquals("--scale must be none, minmax or zscore, got 'max'", cli(() -> Scaler.Kind.parse("max")));
        assertEquals("--target y and --no-target exclude each other",
                cli(() -> new CsvReader.Options("y", true, false)));
        Path f = Files.writeString(dir.resolve("a.csv"), "x\n1\n2\n");
        assertEquals(f + ": --target 'z' names no column; the header has x",
                cli(() -> CsvReader.read(f, new CsvReader.Options("z", false, false))));
        assertEquals(f + ": the target is the last column, so at least two columns are needed; the header has 1 "
                + "(set --no-target for unsupervised data)", cli(() -> CsvReader.read(f, CsvReader.Options.regression())));
    }

    @Test
    void theLibraryMessageNamesTheParameterNotTheFlag() {
        InputException e = InputException.exclusive("targetName", "y", "noTarget");
        assertEquals("targetName y and noTarget exclude each other", e.getMessage());
        assertEquals("--target y and --no-target exclude each other", Flags.message(e));
        ParameterException read = new ParameterException("a.csv: ", "targetName", "'z' names no column");
        assertEquals("a.csv: targetName 'z' names no column", read.getMessage());
        assertEquals("a.csv: --target 'z' names no column", Flags.message(read));
        assertEquals("lambda must be >= 0", new ParameterException("lambda", "must be >= 0").getMessage());
    }
}
