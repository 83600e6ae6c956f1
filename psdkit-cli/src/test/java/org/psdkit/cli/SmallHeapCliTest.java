package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30, "every command keeps within the memory it announces", at a scale a test can run: {@code fit density
 * --anchors} in a separate JVM ({@link Main} on the test class path) with a 64 MB heap, on a CSV sized so that the
 * old paths cannot fit — a table of the file's field strings (10⁶ fields, ~56 MB) beside the matrix, or the
 * anchors × rows cross matrix of the training log-likelihood (250 × 40,000 doubles, 80 MB) — exits 0 with the model
 * written; and a fit whose estimate exceeds the heap exits 2 naming the size and the options, leaving no file.
 */
class SmallHeapCliTest {

    private static final int ROWS = 40_000;
    private static final int COLUMNS = 25;
    private static final String HEAP = "-Xmx64m";
    private static final long HEAP_BYTES = 64L << 20;

    @TempDir
    Path dir;

    private Path data(int rows) throws IOException {
        SplittableRandom rnd = new SplittableRandom(30);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < COLUMNS; j++) {
            sb.append(j == 0 ? "" : ",").append("x").append(j + 1);
        }
        sb.append('\n');
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < COLUMNS; j++) {
                sb.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.6g", rnd.nextGaussian()));
            }
            sb.append('\n');
        }
        return Files.writeString(dir.resolve("d.csv"), sb.toString());
    }

    /** Runs the CLI in a JVM with {@link #HEAP} and one processor (one worker); returns exit status and stderr. */
    private Object[] run(String... args) throws Exception {
        return runIn(HEAP, args);
    }

    /** Runs the CLI in a JVM with the given -Xmx and one processor; returns exit status and stderr. */
    private Object[] runIn(String heap, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, heap, "-XX:ActiveProcessorCount=1",
                "-Djava.awt.headless=true", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(dir.resolve("stdout.txt").toFile())
                .redirectError(err.toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the fit did not end");
        return new Object[] {p.exitValue(), Files.readString(err, StandardCharsets.UTF_8)};
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString()).filter(f -> !f.startsWith("std")).sorted().toList();
        }
    }

    @Test
    void nystromDensityFitsInASmallHeap() throws Exception {
        data(ROWS);
        int anchors = 250;
        // the sizes the old paths needed, beyond this heap
        assertTrue((long) ROWS * COLUMNS * 56 > 0.8 * HEAP_BYTES, "field strings");
        assertTrue((long) ROWS * anchors * Double.BYTES > HEAP_BYTES, "cross matrix");
        Object[] r = run("fit", "density", "--train", "d.csv", "--no-target", "--kernel", "gaussian(sigma=3)",
                "--lambda", "1e-3", "--anchors", String.valueOf(anchors), "--base", "lebesgue", "--tol", "1e-2",
                "--max-iter", "1", "--out", "m.json", "--json");
        assertEquals(0, (int) r[0], (String) r[1]);
        String out = Files.readString(dir.resolve("stdout.txt"));
        assertTrue(out.contains("\"n\":" + ROWS) && out.contains("\"anchors\":" + anchors), out);
        assertTrue(out.matches("(?s).*\"train_loglik\":-?[0-9].*"), out);
        var m = org.psdkit.io.ModelIO.load(dir.resolve("m.json"));
        assertEquals("psd-density", m.type());
    }

    @Test
    void aFitBeyondTheHeapExitsTwoBeforeWriting() throws Exception {
        int rows = 3000;
        data(rows);
        // four 2,000 × 2,000 matrices of the feature basis: 128 MB
        Object[] r = run("fit", "density", "--train", "d.csv", "--no-target", "--kernel", "gaussian(sigma=3)",
                "--lambda", "1e-3", "--anchors", "2000", "--base", "lebesgue", "--out", "m.json");
        String err = (String) r[1];
        assertEquals(2, (int) r[0], err);
        assertTrue(err.contains("density fit with 2000 anchors on " + rows + " rows x " + COLUMNS + " columns needs ~"),
                err);
        assertTrue(err.contains("set PSDKIT_JAVA_OPTS=-Xmx1g, or fewer --anchors"), err);
        assertFalse(err.contains("Exception"), err);
        assertFalse(err.contains("done in"), err); // nothing claims success before the check (issue 30)
        assertEquals(List.of("d.csv"), files());
    }

    /** Exit 2, the estimate's message and the options that reduce it, nothing claimed done, no file written. */
    private void refused(Object[] r, String estimate, String reduce) throws IOException {
        String err = (String) r[1];
        assertEquals(2, (int) r[0], err);
        assertTrue(err.contains(estimate + " needs ~"), err);
        assertTrue(err.contains("(set PSDKIT_JAVA_OPTS=-Xmx1g" + reduce + ")"), err);
        assertFalse(err.contains("Exception"), err);
        assertFalse(err.contains("done in"), err);
        assertEquals(List.of("d.csv"), files());
    }

    @Test
    void krrBeyondTheHeapExitsTwoNamingTheSizeAndTheOptions() throws Exception {
        int rows = 3000;
        data(rows);
        // exact: the 3,000 x 3,000 kernel matrix is 72 MB
        refused(run("fit", "krr", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3", "--out",
                "m.json"), "exact kernel ridge on " + rows + " rows x " + (COLUMNS - 1) + " columns (a " + rows + " x "
                + rows + " kernel matrix)", ", or --anchors M for a Nystrom fit");
        // Nystrom: three 2,000 x 2,000 matrices of Falkon's preconditioner, 96 MB
        refused(run("fit", "krr", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3",
                "--anchors", "2000", "--out", "m.json"), "nystrom kernel ridge with 2000 anchors on " + rows
                + " rows x " + (COLUMNS - 1) + " columns", ", or fewer --anchors");
    }

    @Test
    void nystromKrrFitsInASmallHeap() throws Exception {
        data(ROWS);
        Object[] r = run("fit", "krr", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3",
                "--anchors", "250", "--out", "m.json", "--json");
        assertEquals(0, (int) r[0], (String) r[1]);
        assertEquals("krr", org.psdkit.io.ModelIO.load(dir.resolve("m.json")).type());
    }

    @Test
    void coneFitsBeyondTheHeapExitTwoNamingTheSizeAndTheOptions() throws Exception {
        int rows = 3000;
        data(rows);
        // exact psd method: the linear block's and the feature map's 3,000 x 3,000 kernel matrices, 144 MB
        refused(run("fit", "quantile", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3",
                "--out", "m.json"), "quantile fit on " + rows + " rows x " + (COLUMNS - 1) + " columns (two " + rows
                + " x " + rows + " kernel matrices)", ", or --anchors M for a Nystrom fit");
        // 2,500 anchors: their kernel matrix and its eigenvectors, 100 MB; beyond the heap in double (6 matrices of
        // 2,500 x 3,000 features), and with the features in single precision the m x m matrices alone exceed it
        refused(run("fit", "hetero", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3",
                "--anchors", "2500", "--out", "m.json"), "heteroscedastic fit with 2500 anchors on " + rows
                + " rows x " + (COLUMNS - 1) + " columns (one shared 2500 x " + rows
                + " feature matrix in single precision)", ", or fewer --anchors");
        // 250 anchors on 40,000 rows: in double the linear block's features, the PSD feature map's two and its dual
        // term's three 250 x 40,000 matrices (6 x 80 MB); in single precision one shared 40 MB matrix, the solver's
        // and the blocks' per-row vectors and work arrays, still beyond 64 MB; counted before the anchors are chosen
        data(ROWS);
        refused(run("fit", "hetero", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3",
                "--anchors", "250", "--out", "m.json"), "heteroscedastic fit with 250 anchors on " + ROWS + " rows x "
                + (COLUMNS - 1) + " columns (one shared 250 x " + ROWS + " feature matrix in single precision)",
                ", or fewer --anchors");
        // quantile with the default three levels: two PSD blocks
        refused(run("fit", "quantile", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3",
                "--anchors", "250", "--out", "m.json"), "quantile fit with 250 anchors on " + ROWS + " rows x "
                + (COLUMNS - 1) + " columns (one shared 250 x " + ROWS + " feature matrix in single precision)",
                ", or fewer --anchors");
    }

    /** Heap of the cone families' runs with anchors: their double features (6 and 9 x 80 MB) exceed it. */
    private static final String CONE_HEAP = "-Xmx128m";

    /**
     * hetero and quantile with 250 anchors on 40,000 rows in a 128 MB heap (issue 30): in double they would hold 6
     * and 9 matrices of 250 x 40,000 features (480 and 720 MB); with the features held once in single precision
     * (40 MB), shared by the linear block and every PSD block's blocked dual term, each fit exits 0 with its model
     * written, as the 10⁶-row fits do in the launcher's 8 GB.
     */
    @Test
    void coneFamiliesWithAnchorsFitInASmallHeap() throws Exception {
        data(ROWS);
        assertTrue(6L * ROWS * 250 * Double.BYTES > 128L << 20, "the double features");
        for (String type : List.of("hetero", "quantile")) {
            Object[] r = runIn(CONE_HEAP, "fit", type, "--train", "d.csv", "--kernel", "gaussian(sigma=3)",
                    "--lambda", "1e-3", "--anchors", "250", "--max-iterations", "3", "--out", type + ".json",
                    "--json");
            assertEquals(0, (int) r[0], type + ": " + r[1]);
            String out = Files.readString(dir.resolve("stdout.txt"));
            assertTrue(out.contains("\"n\":" + ROWS) && out.contains("\"anchors\":250"), out);
            assertEquals(type, org.psdkit.io.ModelIO.load(dir.resolve(type + ".json")).type());
        }
    }

    /**
     * The single-precision path of the small heap and the double path of the test's heap give the same hetero
     * model after the same 20 iterations up to the storage rounding: predictions (mean and variance) of the two model
     * files agree to 1e-4 relative.
     */
    @Test
    void singlePrecisionHeteroAgreesWithTheDoubleOne() throws Exception {
        data(ROWS);
        String[] args = {"fit", "hetero", "--train", "d.csv", "--kernel", "gaussian(sigma=3)", "--lambda", "1e-3",
                "--anchors", "250", "--max-iterations", "20"};
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--out", "single.json"));
        Object[] r = runIn(CONE_HEAP, a.toArray(String[]::new));
        assertEquals(0, (int) r[0], (String) r[1]);
        List<String> b = new ArrayList<>(List.of(args));
        b.set(3, dir.resolve("d.csv").toString());
        b.addAll(List.of("--out", dir.resolve("double.json").toString()));
        CliRun big = CliRun.run(b.toArray(String[]::new));
        assertEquals(0, big.status(), big.err());
        var single = org.psdkit.io.ModelIO.load(dir.resolve("single.json"));
        var dbl = org.psdkit.io.ModelIO.load(dir.resolve("double.json"));
        SplittableRandom rnd = new SplittableRandom(32);
        org.psdkit.linalg.Matrix x = org.psdkit.linalg.Matrix.zeros(2000, COLUMNS - 1);
        for (int k = 0; k < x.data().length; k++) {
            x.data()[k] = rnd.nextGaussian();
        }
        org.psdkit.linalg.Matrix ps = single.predict(x);
        org.psdkit.linalg.Matrix pd = dbl.predict(x);
        for (int c = 0; c < pd.cols(); c++) {
            double scale = 0;
            double diff = 0;
            for (int i = 0; i < pd.rows(); i++) {
                scale = Math.max(scale, Math.abs(pd.get(i, c)));
                diff = Math.max(diff, Math.abs(ps.get(i, c) - pd.get(i, c)));
            }
            System.out.println("hetero, single against double features, column " + c
                    + ": max prediction difference " + diff + ", max |prediction| " + scale);
            assertTrue(scale > 0 && diff <= 1e-4 * scale, "column " + c + ": max difference " + diff
                    + " of predictions up to " + scale);
        }
    }

    /** Heap of the Nyström baselines' runs: the double 320 x 40,000 kernel matrix (98 MiB) alone exceeds it. */
    private static final String BASELINE_HEAP = "-Xmx96m";
    private static final int BASELINE_ANCHORS = 320;

    /** Exit 0 with a model of {@code type} written, in {@link #BASELINE_HEAP}. */
    private void fits(String type, String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--kernel", "gaussian(sigma=3)", "--anchors", String.valueOf(BASELINE_ANCHORS), "--out",
                type + ".json"));
        Object[] r = runIn(BASELINE_HEAP, a.toArray(String[]::new));
        assertEquals(0, (int) r[0], type + ": " + r[1]);
        assertEquals(type, org.psdkit.io.ModelIO.load(dir.resolve(type + ".json")).type());
    }

    /**
     * The Nyström baselines of regression and density keep the anchors' m x n kernel matrix (or the r x n features)
     * in single precision when the double one does not fit (issue 30): with 320 anchors on 40,000 rows the double
     * matrix is 98 MiB, more than the heap; each fit exits 0 with its model written.
     */
    @Test
    void nystromBaselinesFitInASmallHeap() throws Exception {
        data(ROWS);
        assertTrue((long) ROWS * BASELINE_ANCHORS * Double.BYTES > 96L << 20, "the double kernel matrix");
        for (String type : List.of("ncm", "pnm", "glm")) {
            fits(type, "fit", type, "--train", "d.csv", "--lambda", "1e-3", "--max-iter", "3");
        }
        fits("ncm-density", "fit", "ncm-density", "--train", "d.csv", "--no-target", "--lambda", "1e-3",
                "--max-iter", "3");
        fits("pnm-density", "fit", "pnm-density", "--train", "d.csv", "--no-target", "--lambda", "1e-3",
                "--max-iter", "3");
        fits("glm-density", "fit", "glm-density", "--train", "d.csv", "--no-target", "--lambda", "1e-3",
                "--base", "gaussian(mu=0,sd=1)", "--max-iter", "3");
    }

    /**
     * The single-precision kernel matrix of the small heap and the double one of the test's heap give the same ncm
     * model up to the storage rounding: predictions of the two model files agree to 1e-5 relative.
     */
    @Test
    void singlePrecisionNcmAgreesWithTheDoubleOne() throws Exception {
        data(ROWS);
        fits("ncm", "fit", "ncm", "--train", "d.csv", "--lambda", "1e-3", "--max-iter", "20");
        CliRun big = CliRun.run("fit", "ncm", "--train", dir.resolve("d.csv").toString(), "--lambda", "1e-3",
                "--max-iter", "20", "--kernel", "gaussian(sigma=3)", "--anchors", String.valueOf(BASELINE_ANCHORS),
                "--out", dir.resolve("double.json").toString());
        assertEquals(0, big.status(), big.err());
        var single = org.psdkit.io.ModelIO.load(dir.resolve("ncm.json"));
        var dbl = org.psdkit.io.ModelIO.load(dir.resolve("double.json"));
        SplittableRandom rnd = new SplittableRandom(31);
        org.psdkit.linalg.Matrix x = org.psdkit.linalg.Matrix.zeros(2000, COLUMNS - 1);
        for (int k = 0; k < x.data().length; k++) {
            x.data()[k] = rnd.nextGaussian();
        }
        double[] ps = single.predict(x).col(0);
        double[] pd = dbl.predict(x).col(0);
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < pd.length; i++) {
            scale = Math.max(scale, Math.abs(pd[i]));
            diff = Math.max(diff, Math.abs(ps[i] - pd[i]));
        }
        System.out.println("ncm, single against double kernel matrix: max prediction difference " + diff
                + ", max |prediction| " + scale);
        assertTrue(scale > 0 && diff <= 1e-5 * scale, "max difference " + diff + " of predictions up to " + scale);
    }
}
