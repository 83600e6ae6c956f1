package org.psdkit.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvReaderTest {
    @TempDir
    Path dir;

    Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    String error(Path p, CsvReader.Options o) {
        return assertThrows(IllegalArgumentException.class, () -> CsvReader.read(p, o)).getMessage();
    }

    @Test
    void readsFeaturesAndLastColumnTarget() throws IOException {
        Path p = file("a.csv", "a,b,y\n1,2,3\n4,5.5,-6e-1\n\n");
        Dataset d = CsvReader.read(p, CsvReader.Options.regression());
        assertEquals(2, d.n());
        assertArrayEquals(new String[] {"a", "b"}, d.featureNames());
        assertEquals("y", d.targetName());
        assertArrayEquals(new double[] {3, -0.6}, d.y());
        assertArrayEquals(new double[] {4, 5.5}, d.x().row(1));
    }

    @Test
    void namedTargetAndNoTarget() throws IOException {
        Path p = file("a.csv", "a,t,b\n1,2,3\n4,5,6\n");
        Dataset d = CsvReader.read(p, new CsvReader.Options("t", false, false));
        assertArrayEquals(new String[] {"a", "b"}, d.featureNames());
        assertArrayEquals(new double[] {2, 5}, d.y());
        assertArrayEquals(new double[] {4, 6}, d.x().row(1));
        Dataset u = CsvReader.read(p, CsvReader.Options.unsupervised());
        assertEquals(3, u.d());
        assertNull(u.y());
        assertNull(u.targetName());
    }

    @Test
    void weightColumnIsReadApartFromTheFeatures() throws IOException {
        Path p = file("w.csv", "a,w,b,y\n1,0.5,2,3\n4,0,5,6\n7,2,8,9\n");
        Dataset d = CsvReader.read(p, CsvReader.Options.regression().withWeightName("w"));
        assertArrayEquals(new String[] {"a", "b"}, d.featureNames());
        assertArrayEquals(new double[] {0.5, 0, 2}, d.weights());
        assertArrayEquals(new double[] {3, 6, 9}, d.y());
        assertArrayEquals(new double[] {4, 5}, d.x().row(1));
        Dataset u = CsvReader.read(p, CsvReader.Options.unsupervised().withWeightName("w"));
        assertArrayEquals(new String[] {"a", "b", "y"}, u.featureNames());
        assertArrayEquals(new double[] {0.5, 0, 2}, u.weights());
        assertNull(CsvReader.read(p, CsvReader.Options.regression()).weights());
    }

    @Test
    void badWeightsNameTheLineAndColumn() throws IOException {
        CsvReader.Options o = CsvReader.Options.regression().withWeightName("w");
        String neg = error(file("n.csv", "a,w,y\n1,1,3\n4,-2,6\n"), o);
        assertTrue(neg.contains("line 3, column 2 (w): weight -2 is negative"), neg);
        String nan = error(file("nan.csv", "a,w,y\n1,NaN,3\n4,1,6\n"), o);
        assertTrue(nan.contains("line 2, column 2 (w): 'NaN' is not a finite number"), nan);
        String empty = error(file("e.csv", "a,w,y\n1,1,3\n4,,6\n"), o);
        assertTrue(empty.contains("line 3, column 2 (w): empty field"), empty);
        String zero = error(file("z.csv", "a,w,y\n1,0,3\n4,0,6\n"), o);
        assertTrue(zero.contains("every weight is 0"), zero);
        String missing = error(file("m.csv", "a,b,y\n1,1,3\n4,1,6\n"), o);
        assertTrue(missing.contains("no column named 'w' (weightName)"), missing);
        String last = error(file("l.csv", "a,y,w\n1,1,3\n4,1,6\n"), o);
        assertTrue(last.contains("is the last column"), last);
    }

    @Test
    void labelTargetKeepsTokens() throws IOException {
        Path p = file("c.csv", "a,label\n1,g\n2,b\n");
        assertTrue(error(p, CsvReader.Options.regression()).contains("line 2, column 2 (label): 'g' is not a number"));
        Dataset d = CsvReader.read(p, new CsvReader.Options(null, false, true));
        assertArrayEquals(new String[] {"g", "b"}, d.labels());
        assertNull(d.y());
        Path q = file("n.csv", "a,label\n1,2\n2,4\n");
        Dataset e = CsvReader.read(q, new CsvReader.Options(null, false, true));
        assertArrayEquals(new double[] {2, 4}, e.y());
    }

    @Test
    void errorsNameFileLineAndColumn() throws IOException {
        Path nan = file("nan.csv", "a,b,y\n1,2,3\n1,NaN,3\n");
        String m = error(nan, CsvReader.Options.regression());
        assertTrue(m.contains("nan.csv, line 3, column 2 (b)") && m.contains("not a finite number"), m);
        Path big = file("big.csv", "a,b,y\n1,2,3\n1,2,-1e151\n1e150,-1e150,0\n");
        m = error(big, CsvReader.Options.regression());
        assertTrue(m.contains("big.csv, line 3, column 3 (y): -1e151 is beyond +-1e150"), m);
        Path edge = file("edge.csv", "a,b,y\n1e150,-1e150,1e-300\n1,2,3\n");
        assertEquals(1e150, CsvReader.read(edge, CsvReader.Options.regression()).x().get(0, 0));
        Path empty = file("e.csv", "a,b,y\n1,,3\n");
        assertTrue(error(empty, CsvReader.Options.regression()).contains("line 2, column 2 (b): empty field"));
        Path text = file("t.csv", "a,b,y\n1,x1,3\n");
        assertTrue(error(text, CsvReader.Options.regression()).contains("'x1' is not a number"));
        Path suffix = file("s.csv", "a,b,y\n1,2d,3\n");
        assertTrue(error(suffix, CsvReader.Options.regression()).contains("'2d' is not a number"));
        Path ragged = file("r.csv", "a,b,y\n1,2\n");
        assertTrue(error(ragged, CsvReader.Options.regression()).contains("line 2: 2 fields, but the header has 3"));
        assertTrue(error(file("z.csv", ""), CsvReader.Options.regression()).contains("empty file"));
        assertTrue(error(file("h.csv", "a,y\n"), CsvReader.Options.regression()).contains("no data rows"));
        assertTrue(error(dir.resolve("missing.csv"), CsvReader.Options.regression()).contains("no such file"));
        assertTrue(error(file("d.csv", "a,a,y\n1,2,3\n"), CsvReader.Options.regression()).contains("appears twice"));
        assertTrue(error(file("nh.csv", "1,2,3\n1,2,3\n"), CsvReader.Options.regression()).contains("is a number"));
        Path ok = file("ok.csv", "a,y\n1,2\n");
        assertTrue(error(ok, new CsvReader.Options("nope", false, false)).contains("targetName 'nope' names no column"));
    }

    @Test
    void readColumnsMatchesByName() throws IOException {
        Path p = file("p.csv", "extra,b,a\nzz,2,1\nqq,4,3\n");
        Dataset d = CsvReader.readColumns(p, new String[] {"a", "b"}, "y", false, false);
        assertArrayEquals(new double[] {1, 2}, d.x().row(0));
        assertNull(d.y());
        String m = assertThrows(IllegalArgumentException.class,
                () -> CsvReader.readColumns(p, new String[] {"a", "c"}, null, false, false)).getMessage();
        assertTrue(m.contains("missing feature column 'c'"), m);
        m = assertThrows(IllegalArgumentException.class,
                () -> CsvReader.readColumns(p, new String[] {"a"}, "y", true, false)).getMessage();
        assertTrue(m.contains("missing target column 'y'"), m);
    }

    @Test
    void libsvmSparseFormat() throws IOException {
        Path p = file("s.svm", "+1 1:0.5 3:2 # comment\n-1 2:1\n\n");
        Dataset d = LibsvmReader.read(p, 0);
        assertEquals(3, d.d());
        assertArrayEquals(new double[] {0.5, 0, 2}, d.x().row(0));
        assertArrayEquals(new double[] {0, 1, 0}, d.x().row(1));
        assertArrayEquals(new double[] {1, -1}, d.y());
        assertEquals(5, LibsvmReader.read(p, 5).d());
        Path bad = file("b.svm", "1 3:1 2:1\n");
        assertThrows(IllegalArgumentException.class, () -> LibsvmReader.read(bad, 0));
        Path bad2 = file("b2.svm", "1 1:x\n");
        String m = assertThrows(IllegalArgumentException.class, () -> LibsvmReader.read(bad2, 0)).getMessage();
        assertTrue(m.contains("line 1"), m);
    }

    @Test
    void quotedFieldsMayHoldCommasAndDoubledQuotes() throws IOException {
        assertArrayEquals(new String[] {"a", "b, c", "say \"hi\"", "", "d"},
                CsvReader.split("a, \"b, c\" ,\"say \"\"hi\"\"\",,d"));
        assertArrayEquals(new String[] {"5'3\"", "x"}, CsvReader.split("5'3\",x"));
        assertArrayEquals(new String[] {"", ""}, CsvReader.split(","));
        Path p = file("q.csv", "\"name, full\",x,label\n\"1.5\",2,\"yes, sure\"\n3,4,no\n");
        Dataset d = CsvReader.read(p, new CsvReader.Options("label", false, true));
        assertArrayEquals(new String[] {"name, full", "x"}, d.featureNames());
        assertArrayEquals(new String[] {"yes, sure", "no"}, d.labels());
        assertArrayEquals(new double[] {1.5, 2}, d.x().row(0));
    }

    @Test
    void brokenQuotesNameTheLineAndColumn() throws IOException {
        Path p = file("u.csv", "a,b\n1,\"2\n");
        assertTrue(error(p, CsvReader.Options.regression()).contains("u.csv, line 2, column 2: quoted field opened at "
                + "character 3 is not closed"), error(p, CsvReader.Options.regression()));
        Path q = file("v.csv", "a,b\n\"1\"x,2\n");
        assertTrue(error(q, CsvReader.Options.regression()).contains("v.csv, line 2, column 1: text after the closing "
                + "quote"), error(q, CsvReader.Options.regression()));
    }

    /** n rows of "i,2i,3i" (a, b, y) with line {@code badLine} (1-based, header = 1) replaced by {@code bad}. */
    private String rows(int n, int badLine, String bad) {
        StringBuilder sb = new StringBuilder("a,b,y\n");
        for (int i = 0; i < n; i++) {
            sb.append(i + 2 == badLine ? bad : i + "," + 2 * i + "," + 3 * i).append('\n');
        }
        return sb.toString();
    }

    @Test
    void manyRowsAcrossBatchesAndChunksReadInOrder() throws IOException {
        // more rows than one parse batch and one storage chunk: the column-major matrix holds every row in order
        int n = CsvReader.CHUNK_ROWS + CsvReader.BATCH_LINES + 17;
        Dataset d = CsvReader.read(file("big.csv", rows(n, -1, null)), CsvReader.Options.regression());
        assertEquals(n, d.n());
        for (int i = 0; i < n; i += 997) {
            assertArrayEquals(new double[] {i, 2.0 * i}, d.x().row(i));
            assertEquals(3.0 * i, d.y()[i]);
        }
        assertArrayEquals(new double[] {n - 1, 2.0 * (n - 1)}, d.x().row(n - 1));
    }

    @Test
    void errorsKeepTheirOrderAcrossBatches() throws IOException {
        int n = 3 * CsvReader.BATCH_LINES;
        int late = 2 * CsvReader.BATCH_LINES + 5;
        // a malformed line anywhere wins over a bad number on an earlier line
        String text = rows(n, late, "1,2").replace("\n3,6,9\n", "\n3,x,9\n");
        assertTrue(error(file("e1.csv", text), CsvReader.Options.regression())
                .endsWith("line " + late + ": 2 fields, but the header has 3"), text.substring(0, 40));
        // a bad feature anywhere wins over a bad target on an earlier line
        String t2 = rows(n, late, "1,oops,3").replace("\n3,6,9\n", "\n3,6,nine\n");
        assertTrue(error(file("e2.csv", t2), CsvReader.Options.regression())
                .contains("line " + late + ", column 2 (b): 'oops' is not a number"));
        // the target's error when the features are fine: the first in file order
        String t3 = rows(n, late, "1,2,bad").replace("\n3,6,9\n", "\n3,6,nine\n");
        assertTrue(error(file("e3.csv", t3), CsvReader.Options.regression())
                .contains("line 5, column 3 (y): 'nine' is not a number"));
        // a blank line inside the data, past the first batch
        String t4 = rows(n, late, "");
        assertTrue(error(file("e4.csv", t4), CsvReader.Options.regression())
                .endsWith("line " + late + ": blank line inside the data"));
        // a header without the named target: after the lines' own errors, before the numbers' errors
        Path p5 = file("e5.csv", rows(n, late, "1,x,3"));
        assertTrue(error(p5, new CsvReader.Options("t", false, false)).contains("targetName 't' names no column"));
    }

    @Test
    void droppingIncompleteCountsAcrossBatches() throws IOException {
        int n = 2 * CsvReader.BATCH_LINES + 3;
        String text = rows(n, 7, "1,,3").replace("\n40,80,120\n", "\n40,?,120\n");
        CsvReader.Filtered f = CsvReader.readDroppingIncomplete(file("m.csv", text), CsvReader.Options.regression());
        assertEquals(2, f.dropped());
        assertEquals(n - 2, f.data().n());
        assertArrayEquals(new double[] {6, 12}, f.data().x().row(5)); // lines 2-6 are rows 0-4; line 7 is left out
    }
}
