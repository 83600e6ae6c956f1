package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A model document with a non-finite number (a fit that diverged) is refused, and no file is written or replaced. */
class ModelFileWriteTest {

    @TempDir
    Path dir;

    @Test
    void aNonFiniteNumberIsNamedAndNothingIsWritten() throws IOException {
        ObjectNode doc = ModelFile.newDocument("krr");
        ObjectNode scaler = doc.putObject("scaler");
        scaler.putArray("scale").add(1.0).add(Double.NaN);
        Path fresh = dir.resolve("fresh.json");
        ArithmeticException e = assertThrows(ArithmeticException.class, () -> ModelFile.write(fresh, doc));
        assertTrue(e.getMessage().contains("non-finite number at scaler.scale[1]"), e.getMessage());
        assertFalse(Files.exists(fresh));

        Path existing = Files.writeString(dir.resolve("old.json"), "previous model");
        doc.putObject("scaler").put("offset", Double.NEGATIVE_INFINITY);
        e = assertThrows(ArithmeticException.class, () -> ModelFile.write(existing, doc));
        assertTrue(e.getMessage().contains("scaler.offset") && e.getMessage().contains("was not written"),
                e.getMessage());
        assertEquals("previous model", Files.readString(existing));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
    }

    /** Diagnostics may hold NaN (a baseline has no dual value): they are written as before, as the string "NaN". */
    @Test
    void finiteDocumentsAndNaNDiagnosticsAreWrittenAsBefore() throws IOException {
        ObjectNode doc = ModelFile.newDocument("krr");
        doc.putArray("alpha").add(1.5).add(-2e-300);
        doc.putObject("diagnostics").put("dual", Double.NaN);
        Path out = dir.resolve("m.json");
        ModelFile.write(out, doc);
        assertEquals(-2e-300, ModelFile.JSON.readTree(out.toFile()).get("alpha").get(1).asDouble());
        assertEquals("NaN", ModelFile.JSON.readTree(out.toFile()).get("diagnostics").get("dual").asText());
    }
}
