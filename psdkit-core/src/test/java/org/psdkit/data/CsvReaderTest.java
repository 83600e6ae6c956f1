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
        assertTrue(error(ok, new CsvReader.Options("nope", false, false)).contains("no column named 'nope'"));
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
}
