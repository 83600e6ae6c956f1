package org.psdkit.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PlainCsv}, the byte-level read of plain numeric files: where it reads a file, the data set is the general
 * path's (the same doubles bit for bit, labels, names, source); where it does not, it says so (null) and the general
 * path reads the file, errors included. The general path is {@link CsvReader#read(java.io.Reader, String,
 * CsvReader.Options)}, which never takes the byte path.
 */
class PlainCsvTest {
    @TempDir
    Path dir;

    private int files;

    private Path file(String text) throws IOException {
        Path p = dir.resolve("f" + (files++) + ".csv");
        Files.write(p, text.getBytes(StandardCharsets.UTF_8));
        return p;
    }

    private static Dataset general(Path p, String text, CsvReader.Options o) {
        return CsvReader.read(new StringReader(text), p.toString(), o);
    }

    private static void assertSame(Dataset want, Dataset got) {
        assertEquals(want.n(), got.n());
        assertArrayEquals(want.x().data(), got.x().data(), "features (bit for bit)");
        assertArrayEquals(want.y(), got.y(), "target");
        assertArrayEquals(want.labels(), got.labels(), "labels");
        assertArrayEquals(want.featureNames(), got.featureNames());
        assertEquals(want.targetName(), got.targetName());
        assertEquals(want.source(), got.source());
        assertNull(got.weights());
        assertNull(got.targets());
    }

    /** Texts the byte path reads, each as the general path does. */
    @Test
    void plainFilesAreReadAsTheGeneralPathReadsThem() throws IOException {
        String[] texts = {
            "a,b,y\n1,2,3\n4,5.5,-6e-1\n",
            "a,b,y\n1,2,3\n4,5.5,-6e-1",
            "a,b,y\n0.1,+.5,5.\n-0,1E+05,2e-308\n",
            "a,b,y\n0.8134355543028936,-0.7921068009884694,145000.0\n1e150,-1e150,4.9e-324\n",
            "x,y\n1,1\n2,2\n3,3\n",
            "a,y\n12345678901234567890123,0.30000000000000004\n",
        };
        for (String t : texts) {
            Path p = file(t);
            Dataset plain = CsvReader.readPlain(p, CsvReader.Options.regression());
            assertNotNull(plain, t);
            assertSame(general(p, t, CsvReader.Options.regression()), plain);
            assertSame(plain, CsvReader.read(p, CsvReader.Options.regression()));
        }
        Path p = file(texts[0]);
        assertSame(general(p, texts[0], CsvReader.Options.unsupervised()),
                CsvReader.readPlain(p, CsvReader.Options.unsupervised()));
        assertSame(general(p, texts[0], new CsvReader.Options("a", false, false)),
                CsvReader.readPlain(p, new CsvReader.Options("a", false, false)));
    }

    /** Class labels: kept verbatim, numeric targets only when every label is a number. */
    @Test
    void labelTargetsKeepTheirTokens() throws IOException {
        for (String t : new String[] {"a,y\n1,cat\n2,dog\n", "a,y\n1,1\n2,-1\n3,2.50\n", "a,y\n1,1\n2,x1\n",
                                      "a,y\n1,nan\n2,1e400\n"}) {
            Path p = file(t);
            CsvReader.Options o = new CsvReader.Options(null, false, true);
            Dataset plain = CsvReader.readPlain(p, o);
            assertNotNull(plain, t);
            assertSame(general(p, t, o), plain);
        }
    }

    /** A model's columns by name: extra columns are not parsed, whatever they hold. */
    @Test
    void columnsOfAModelSkipTheOthers() throws IOException {
        String t = "id,x2,note,x1,y\n7,1.5,hello world,2,3\nz,2.5,??,-4,5\n";
        Path p = file(t);
        Dataset plain = CsvReader.readColumnsPlain(p, new String[] {"x1", "x2"}, "y", false);
        assertNotNull(plain);
        Dataset d = CsvReader.readColumns(p, new String[] {"x1", "x2"}, "y", false, false);
        assertSame(d, plain);
        assertArrayEquals(new double[] {2, -4}, d.x().col(0));
        assertArrayEquals(new double[] {1.5, 2.5}, d.x().col(1));
        Dataset noTarget = CsvReader.readColumnsPlain(p, new String[] {"x1"}, "target", false);
        assertNotNull(noTarget);
        assertNull(noTarget.y());
    }

    /** Texts the byte path leaves to the general path, each one of its rules. */
    @Test
    void everythingElseGoesToTheGeneralPath() throws IOException {
        String[] texts = {
            "\uFEFFa,y\n1,2\n",            // a BOM
            "a,y\n1,2\n\u00e9,3\n",        // UTF-8 text
            "a,y\r\n1,2\r\n",               // CRLF
            "a,y\n\"1\",2\n",               // a quote
            "a,y\n1, 2\n",                  // a blank in a field read
            "a,y\n1,2\n\n",                 // a blank line at the end
            "a,y\n\n1,2\n",                 // a blank line inside
            "a,y\n1,2,3\n",                 // a field too many
            "a,y\n1\n",                     // a field short
            "a,y\n1,NaN\n",                 // not finite
            "a,y\n1,1e151\n",               // beyond 1e150
            "a,y\n1,\n",                    // empty
            "a,y\n1,1e\n",                  // refused by the parser
            "a,y\n1,0x10\n",                // hex
            "a,y\n",                        // no data rows
            "a,y",                          // header only
            "a,a\n1,2\n",                   // a name twice
            "1,2\n3,4\n",                   // a numeric header
            "a,,y\n1,2,3\n",                // an empty name
        };
        for (String t : texts) {
            Path p = file(t);
            assertNull(CsvReader.readPlain(p, CsvReader.Options.regression()), t);
        }
        Path w = file("a,w,y\n1,2,3\n");
        assertNull(CsvReader.readPlain(w, CsvReader.Options.regression().withWeightName("w")), "weights");
        Path m = file("a,y1,y2\n1,2,3\n");
        assertNull(CsvReader.readPlain(m, new CsvReader.Options("y1,y2", false, false)), "several targets");
        Path l = file("a,y\n1, cat\n");
        assertNull(CsvReader.readPlain(l, new CsvReader.Options(null, false, true)), "a label with a blank");
    }

    /**
     * Mutations of a plain file (a byte replaced, inserted or removed, lines cut across the parts of a parallel
     * read): the byte path either gives the general path's data set or none, and never reads a text the general
     * path refuses.
     */
    @Test
    void mutationsAreReadAsTheGeneralPathReadsThemOrLeftToIt() throws IOException {
        Random rnd = new Random(11);
        StringBuilder b = new StringBuilder("x1,x2,x3,y\n");
        for (int i = 0; i < 3000; i++) {
            b.append(rnd.nextGaussian()).append(',').append(rnd.nextInt(100) - 50).append(',')
                    .append(String.format(java.util.Locale.ROOT, "%.3e", rnd.nextDouble() * 1e5)).append(',')
                    .append(rnd.nextGaussian() * 1e3).append('\n');
        }
        String base = b.toString();
        byte[] alphabet = ",\n.-+eE0159 \"x\r".getBytes(StandardCharsets.US_ASCII);
        int read = 0;
        int refused = 0;
        List<String> cases = new ArrayList<>();
        cases.add(base);
        for (int k = 0; k < 60; k++) {
            StringBuilder m = new StringBuilder(base);
            int at = 11 + rnd.nextInt(m.length() - 11);
            char c = (char) alphabet[rnd.nextInt(alphabet.length)];
            switch (k % 3) {
                case 0 -> m.setCharAt(at, c);
                case 1 -> m.insert(at, c);
                default -> m.deleteCharAt(at);
            }
            cases.add(m.toString());
        }
        for (String t : cases) {
            Path p = file(t);
            Dataset plain = CsvReader.readPlain(p, CsvReader.Options.regression());
            Dataset want;
            try {
                want = general(p, t, CsvReader.Options.regression());
            } catch (IllegalArgumentException e) {
                assertNull(plain, "the byte path read a text the general path refuses: " + e.getMessage());
                refused++;
                continue;
            }
            if (plain != null) {
                assertSame(want, plain);
                read++;
            }
        }
        assertTrue(read > 10 && refused > 10, "read " + read + ", refused " + refused);
    }
}
