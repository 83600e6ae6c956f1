package org.psdkit.cli.use;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.io.ModelIO;
import org.psdkit.onnx.OnnxExport;
import org.psdkit.onnx.Precision;

/** {@code psdkit export}: writes the library's ONNX bytes; refuses what has no ONNX form with exit 2, no file. */
class ExportCliTest {
    @TempDir
    Path dir;

    private Path circle(String name, long seed) throws IOException {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder("u,v,label\n");
        for (int i = 0; i < 40; i++) {
            double u = 4 * r.nextDouble() - 2;
            double v = 4 * r.nextDouble() - 2;
            sb.append(String.format(Locale.ROOT, "%.5f,%.5f,%s%n", u, v, u * u + v * v < 1.5 ? "g" : "b"));
        }
        return Files.writeString(dir.resolve(name), sb.toString());
    }

    @Test
    void exportWritesTheLibrarysGraph() throws IOException {
        Path train = circle("train.csv", 1);
        Path model = dir.resolve("svm.json");
        CliRun fit = CliRun.run("fit", "svm", "--train", train.toString(), "--out", model.toString(), "-C", "5");
        assertEquals(0, fit.status(), fit.err());
        Path onnx = dir.resolve("svm.onnx");
        CliRun ex = CliRun.run("export", "--model", model.toString(), "--format", "onnx", "--out", onnx.toString(),
                "--json");
        assertEquals(0, ex.status(), ex.err());
        assertEquals("svm", ex.json().get("model").asText());
        assertArrayEquals(OnnxExport.toBytes(ModelIO.load(model)), Files.readAllBytes(onnx));
        Path f32 = dir.resolve("svm-f32.onnx");
        CliRun fl = CliRun.run("export", "--model", model.toString(), "--format", "onnx", "--out", f32.toString(),
                "--precision", "float");
        assertEquals(0, fl.status(), fl.err());
        assertArrayEquals(OnnxExport.toBytes(ModelIO.load(model), Precision.FLOAT), Files.readAllBytes(f32));
    }

    @Test
    void aThreeClassModelWithProbabilitiesAndAOneClassModelExport() throws IOException {
        StringBuilder sb = new StringBuilder("u,v,label\n");
        Random r = new Random(4);
        for (int i = 0; i < 45; i++) {
            double u = 4 * r.nextDouble() - 2;
            double v = 4 * r.nextDouble() - 2;
            sb.append(String.format(Locale.ROOT, "%.5f,%.5f,%s%n", u, v, u < -0.6 ? "left" : u < 0.6 ? "mid" : "right"));
        }
        Path train = Files.writeString(dir.resolve("three.csv"), sb.toString());
        Path model = dir.resolve("svm3.json");
        CliRun fit = CliRun.run("fit", "svm", "--train", train.toString(), "--out", model.toString(),
                "--probability");
        assertEquals(0, fit.status(), fit.err());
        Path onnx = dir.resolve("svm3.onnx");
        CliRun ex = CliRun.run("export", "--model", model.toString(), "--format", "onnx", "--out", onnx.toString());
        assertEquals(0, ex.status(), ex.err());
        assertArrayEquals(OnnxExport.toBytes(ModelIO.load(model)), Files.readAllBytes(onnx));
        assertEquals("svm/one-vs-one-probability", OnnxExport.form(ModelIO.load(model)));
    }

    @Test
    void aRidgeModelInAKernelsFeatureSpaceIsRefusedWithExitTwoNamingTheKernel() throws IOException {
        Path train = Files.writeString(dir.resolve("reg.csv"), "a,b,y\n0,1,1\n1,0,2\n1,1,2.5\n2,1,4\n0,2,1.5\n");
        Path model = dir.resolve("ridge.json");
        CliRun fit = CliRun.run("fit", "ridge", "--train", train.toString(), "--out", model.toString(),
                "--features", "polynomial(degree=2)");
        assertEquals(0, fit.status(), fit.err());
        Path onnx = dir.resolve("ridge.onnx");
        CliRun ex = CliRun.run("export", "--model", model.toString(), "--format", "onnx", "--out", onnx.toString());
        assertEquals(2, ex.status(), ex.err());
        assertTrue(ex.err().contains("polynomial(degree=2"), ex.err());
        assertFalse(ex.err().contains("\tat "), "no stack trace: " + ex.err());
        assertFalse(Files.exists(onnx));
    }

    @Test
    void aTessellatedKernelModelIsRefusedWithExitTwoAndNoFile() throws IOException {
        Path train = circle("train.csv", 2);
        Path model = dir.resolve("tk.json");
        CliRun fit = CliRun.run("fit", "tk-svm", "--train", train.toString(), "--out", model.toString(), "-C", "10",
                "--epsilon", "0.1", "--degree", "1");
        assertEquals(0, fit.status(), fit.err());
        Path onnx = dir.resolve("tk.onnx");
        CliRun ex = CliRun.run("export", "--model", model.toString(), "--format", "onnx", "--out", onnx.toString());
        assertEquals(2, ex.status(), ex.err());
        assertTrue(ex.err().contains("tessellated kernel"), ex.err());
        assertFalse(ex.err().contains("\tat "), "no stack trace: " + ex.err());
        assertFalse(Files.exists(onnx));
    }

    @Test
    void anUnknownFormatOrPrecisionIsExitTwo() throws IOException {
        Path train = circle("train.csv", 3);
        Path model = dir.resolve("svm.json");
        assertEquals(0, CliRun.run("fit", "svm", "--train", train.toString(), "--out", model.toString()).status());
        Path out = dir.resolve("m.pmml");
        CliRun f = CliRun.run("export", "--model", model.toString(), "--format", "pmml", "--out", out.toString());
        assertEquals(2, f.status());
        assertTrue(f.err().contains("--format"), f.err());
        CliRun p = CliRun.run("export", "--model", model.toString(), "--format", "onnx", "--out", out.toString(),
                "--precision", "half");
        assertEquals(2, p.status());
        assertTrue(p.err().contains("--precision"), p.err());
        assertFalse(Files.exists(out));
    }
}
