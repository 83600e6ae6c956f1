package org.psdkit.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvWriterTest {
    @TempDir
    Path dir;

    @Test
    void quotesExactlyTheFieldsRfc4180Requires() {
        assertEquals("plain", CsvWriter.field("plain"));
        assertEquals("-1.5e-3", CsvWriter.field("-1.5e-3"));
        assertEquals("", CsvWriter.field(""));
        assertEquals("\"yes, sick\"", CsvWriter.field("yes, sick"));
        assertEquals("\"say \"\"hi\"\"\"", CsvWriter.field("say \"hi\""));
        assertEquals("\"\"\"\"", CsvWriter.field("\""));
        assertEquals("\"a\nb\"", CsvWriter.field("a\nb"));
        assertEquals("\"a\rb\"", CsvWriter.field("a\rb"));
        assertEquals("\" padded \"", CsvWriter.field(" padded ")); // CsvReader trims unquoted fields
        assertEquals("in side", CsvWriter.field("in side"));
        assertThrows(IllegalArgumentException.class, () -> CsvWriter.field(null));
    }

    @Test
    void recordsAndFilesEndWithLineFeed() {
        assertEquals("a,\"b,c\",d", CsvWriter.record("a", "b,c", "d"));
        StringWriter w = new StringWriter();
        CsvWriter.write(w, new String[] {"x", "label"}, List.of(new String[] {"1", "yes, sick"},
                new String[] {"2", "no"}));
        assertEquals("x,label\n1,\"yes, sick\"\n2,no\n", w.toString());
    }

    @Test
    void everySingleLineFieldReadsBackThroughTheSplitter() {
        Random r = new Random(7);
        String alphabet = "ab ,\"x1.-";
        for (int trial = 0; trial < 500; trial++) {
            String[] fields = new String[1 + r.nextInt(4)];
            for (int j = 0; j < fields.length; j++) {
                StringBuilder b = new StringBuilder();
                for (int k = r.nextInt(6); k > 0; k--) {
                    b.append(alphabet.charAt(r.nextInt(alphabet.length())));
                }
                fields[j] = b.toString();
            }
            String line = CsvWriter.record(fields);
            assertArrayEquals(fields, CsvReader.split(line), line);
        }
    }

    @Test
    void fileWithCommaLabelsReadsBackWithTheSameLabels() throws IOException {
        Path f = dir.resolve("labels.csv");
        CsvWriter.write(f, new String[] {"u", "class, as given"}, List.of(new String[] {"0.5", "yes, sick"},
                new String[] {"-1", "no"}, new String[] {"2", "\"quoted\""}));
        Dataset d = CsvReader.read(f, new CsvReader.Options(null, false, true));
        assertArrayEquals(new String[] {"u"}, d.featureNames());
        assertEquals("class, as given", d.targetName());
        assertArrayEquals(new String[] {"yes, sick", "no", "\"quoted\""}, d.labels());
        assertArrayEquals(new double[] {0.5, -1, 2}, d.x().data());
        assertEquals(List.of("u,\"class, as given\"", "0.5,\"yes, sick\"", "-1,no", "2,\"\"\"quoted\"\"\""),
                Files.readAllLines(f));
    }
}
