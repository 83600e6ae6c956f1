package org.psdkit.cli.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.TestFiles;
import org.psdkit.experiments.toy.KernelSosExample;

class SdpCliTest {

    @TempDir
    Path dir;

    @Test
    void sdpSolveReportsTheSdplibValue() {
        Path f = TestFiles.resource(dir, "sdplib/truss1.dat-s");
        CliRun r = CliRun.run("sdp", "solve", f.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("optimal", j.get("status").asText());
        assertEquals(-8.999996, j.get("objective").asDouble(), 1e-6 * 9);
        for (String k : new String[] {"primal_objective", "dual_objective", "relative_gap", "iterations", "seconds"}) {
            assertTrue(j.has(k), "missing " + k);
        }
        assertTrue(j.get("relative_gap").asDouble() < 1e-7);
    }

    /**
     * min x1 s.t. [[x1, 1], [1, x2]] ⪰ 0: the infimum 0 is approached only as x2 → ∞. With a tolerance the
     * iteration limit cannot reach, the run ends ill_posed, and its verified upper bound is ≥ the true value 0.
     */
    @Test
    void sdpSolveReportsAnIllPosedProblemWithAVerifiedBound() {
        Path f = TestFiles.write(dir, "toy.dat-s", "2\n1\n2\n1.0 0.0\n0 1 1 2 -1.0\n1 1 1 1 1.0\n2 1 2 2 1.0\n");
        CliRun r = CliRun.run("sdp", "solve", f.toString(), "--json", "--tolerance", "1e-14",
                "--max-iterations", "25");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("ill_posed", j.get("status").asText(), j.toString());
        double upper = j.get("objective_upper_bound").asDouble();
        assertTrue(upper >= 0 && upper < 1e-6, j.toString());
        assertTrue(j.get("note").asText().contains("not certified"));
        assertTrue(j.get("note").asText().contains("objective_upper_bound = -L"), j.toString());
    }

    /**
     * Entries of 1e±308 make the iterates overflow: the report has null where a value is not finite (no NaN or
     * Infinity anywhere in the output), the message gives the data's scale, and {@code --solution} is not written.
     */
    @Test
    void overflowingIteratesAreReportedWithoutNaNAndWriteNoSolution() {
        Path f = TestFiles.write(dir, "extreme.dat-s", "1\n1\n1\n1e308\n0 1 1 1 1e308\n1 1 1 1 1e-308\n");
        Path sol = dir.resolve("sol.json");
        CliRun r = CliRun.run("sdp", "solve", f.toString(), "--json", "--solution", sol.toString());
        assertEquals(0, r.status(), r.err());
        assertFalse(r.out().contains("NaN") || r.out().contains("Infinity"), r.out());
        JsonNode j = r.json();
        assertEquals("numerical_problems", j.get("status").asText(), j.toString());
        assertTrue(j.get("relative_gap").isNull(), j.toString());
        assertTrue(j.get("message").asText().contains("rescale b, C and the A_i"), j.toString());
        assertTrue(j.get("solution").isNull(), j.toString());
        assertTrue(j.get("solution_not_written").asText().contains("non-finite"), j.toString());
        assertFalse(Files.exists(sol));
    }

    /**
     * A run stopped early still reports a verified bound. The solver's message gives it for its own (P), with the
     * opposite sign of the SDPA value beside it, so the report says how the two read (truss1: SDPA optimum −9).
     */
    @Test
    void anEarlyStopExplainsTheSignOfItsBound() {
        Path f = TestFiles.resource(dir, "sdplib/truss1.dat-s");
        CliRun r = CliRun.run("sdp", "solve", f.toString(), "--json", "--max-iterations", "4");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("iteration_limit", j.get("status").asText(), j.toString());
        double upper = j.get("objective_upper_bound").asDouble();
        assertTrue(upper >= -8.999996 && upper < 0, j.toString());
        assertTrue(j.get("message").asText().contains("lower bound on the optimal value of (P): " + (-upper)),
                j.toString());
        assertTrue(j.get("note").asText().contains("(P) is SDPA's dual with the sign flipped"), j.toString());
    }

    /**
     * min x1 + x2 s.t. [[x1, 1], [1, x2]] ⪰ 0 and x1 ≥ 0.5 (a diagonal block): x = (1, 1), the slack
     * X = [[1, 1], [1, 1]] ⊕ [0.5], the dual Y = [[1, −1], [−1, 1]] ⊕ [0], both objectives 2.
     */
    @Test
    void sdpSolveWritesTheSolutionInSdpaNames() throws IOException {
        Path f = TestFiles.write(dir, "two.dat-s", "2\n2\n2 -1\n1.0 1.0\n0 1 1 2 -1.0\n0 2 1 1 0.5\n"
                + "1 1 1 1 1.0\n1 2 1 1 1.0\n2 1 2 2 1.0\n");
        Path sol = dir.resolve("two.json");
        CliRun r = CliRun.run("sdp", "solve", f.toString(), "--json", "--solution", sol.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(2.0, r.json().get("objective").asDouble(), 1e-7);
        JsonNode s = new com.fasterxml.jackson.databind.ObjectMapper().readTree(sol.toFile());
        assertEquals("optimal", s.get("status").asText());
        double x1 = s.get("x").get(0).asDouble();
        double x2 = s.get("x").get(1).asDouble();
        // the written pieces fit together: c'x is the primal objective, X = x1 F1 + x2 F2 − F0, <F_i, Y> = c_i
        assertEquals(s.get("primal_objective").asDouble(), x1 + x2, 1e-12);
        JsonNode xb = s.get("X").get(0);
        JsonNode yb = s.get("Y").get(0);
        assertEquals(x1, xb.get(0).get(0).asDouble(), 1e-9);
        assertEquals(x2, xb.get(1).get(1).asDouble(), 1e-9);
        assertEquals(1.0, xb.get(0).get(1).asDouble(), 1e-9);
        assertEquals(x1 - 0.5, s.get("X").get(1).get(0).asDouble(), 1e-9); // a diagonal block is its diagonal
        assertEquals(1.0, yb.get(0).get(0).asDouble() + s.get("Y").get(1).get(0).asDouble(), 1e-8);
        assertEquals(1.0, yb.get(1).get(1).asDouble(), 1e-8);
        // and they are the known solution (to the accuracy an interior point reaches on this face: ~√tolerance)
        double[][] xs = {{1, 1}, {1, 1}};
        double[][] ys = {{1, -1}, {-1, 1}};
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 2; j++) {
                assertEquals(xs[i][j], xb.get(i).get(j).asDouble(), 1e-4);
                assertEquals(ys[i][j], yb.get(i).get(j).asDouble(), 1e-4);
            }
        }
        assertEquals(0.5, s.get("X").get(1).get(0).asDouble(), 1e-4);
        assertEquals(0.0, s.get("Y").get(1).get(0).asDouble(), 1e-4);
        // an output folder that does not exist is refused before solving
        CliRun bad = CliRun.run("sdp", "solve", f.toString(), "--solution", dir.resolve("no/such.json").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--solution"), bad.err());
    }

    @Test
    void sdpSolveRejectsMissingAndMalformedFiles() {
        CliRun missing = CliRun.run("sdp", "solve", dir.resolve("none.dat-s").toString());
        assertEquals(2, missing.status());
        assertTrue(missing.err().contains("no such file"), missing.err());
        Path bad = TestFiles.write(dir, "bad.dat-s", "1\n1\n2\n1.0\n1 1 1 1 abc\n");
        CliRun r = CliRun.run("sdp", "solve", bad.toString(), "--json");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("bad.dat-s:5: expected a number for value"), r.err());
        assertTrue(r.out().isEmpty());
    }

    @Test
    void benchSdpPrintsErrorsAndTheBaselineRatio() throws IOException {
        Path d = Files.createDirectories(dir.resolve("sdplib"));
        TestFiles.resource(d, "sdplib/truss1.dat-s");
        Files.writeString(d.resolve("README.md"), """
                | problem | m | blocks | block sizes | n | bytes | class | published optimum | src | CSDP 6.2.0 | remark |
                |---|---:|---:|---|---:|---:|---|---:|---|---:|---|
                | truss1 | 6 | 7 | 6×2, 1 | 13 | 600 | S | -8.999996 | table | -8.9999963 |  |
                """);
        CliRun r = CliRun.run("bench", "sdp", "--dir", d.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals(1, j.get("problems").asInt());
        JsonNode row = j.get("rows").get(0);
        assertTrue(row.get("error_csdp").asDouble() < 1e-6, row.toString());
        assertTrue(row.get("ratio").asDouble() > 0);
        assertEquals(1, j.get("within_1e-6_of_csdp").asInt());
    }

    /**
     * hinf1 takes the double-double restart by default and is certified; {@code --no-double-double} returns the
     * double run's point, with its status (not optimal) and the reason in the message, and {@code bench sdp
     * --no-double-double} reports the setting and the row uncertified.
     */
    @Test
    void noDoubleDoubleReturnsTheDoublePointUncertified() throws IOException {
        Path f = TestFiles.resource(dir, "sdplib/hinf1.dat-s");
        CliRun full = CliRun.run("sdp", "solve", f.toString(), "--json");
        assertEquals(0, full.status(), full.err());
        assertEquals("optimal", full.json().get("status").asText(), full.out());
        CliRun dbl = CliRun.run("sdp", "solve", f.toString(), "--json", "--no-double-double");
        assertEquals(0, dbl.status(), dbl.err());
        JsonNode j = dbl.json();
        assertFalse("optimal".equals(j.get("status").asText()), j.toString());
        assertTrue(j.toString().contains("the double-double restart that would follow is switched off"), j.toString());
        assertEquals(2.0326, j.get("objective").asDouble(), 1e-3 * 2.0326, j.toString());
        assertTrue(j.get("iterations").asInt() < full.json().get("iterations").asInt(), j.toString());

        Path d = Files.createDirectories(dir.resolve("lib"));
        TestFiles.resource(d, "sdplib/hinf1.dat-s");
        Files.writeString(d.resolve("README.md"), """
                | problem | m | blocks | block sizes | n | bytes | class | published optimum | src | CSDP 6.2.0 | remark |
                |---|---:|---:|---|---:|---:|---|---:|---|---:|---|
                | hinf1 | 13 | 3 | 2×4, 6 | 14 | 3245 | S | 2.0326 | table | 2.0326623 |  |
                """);
        CliRun b = CliRun.run("bench", "sdp", "--dir", d.toString(), "--baseline", "none", "--json",
                "--no-double-double");
        assertEquals(0, b.status(), b.err());
        assertFalse(b.json().get("double_double").asBoolean(), b.out());
        JsonNode row = b.json().get("rows").get(0);
        assertFalse(row.get("certified").asBoolean(), row.toString());
        assertFalse(row.get("profile").get("double_double_restart").asBoolean(), row.toString());
    }

    Path data(int n, long seed) throws IOException {
        KernelSosExample.Sample s = KernelSosExample.sample(n, 0.5, seed);
        StringBuilder sb = new StringBuilder("x,y\n");
        for (int i = 0; i < n; i++) {
            sb.append(String.format(Locale.ROOT, "%.17g,%.17g%n", s.x().get(i, 0), s.y()[i]));
        }
        return Files.writeString(dir.resolve("d" + seed + ".csv"), sb.toString());
    }

    @Test
    void fitKernelSosReportsObjectiveLmiAndAlphaAndTheModelPredicts() throws IOException {
        Path train = data(25, 3);
        Path model = dir.resolve("sos.json");
        CliRun r = CliRun.run("fit", "kernel-sos", "--train", train.toString(), "--target", "y",
                "--kernel", "gaussian(sigma=0.75) + 0.01*delta", "--lambda", "0.01", "--out", model.toString(),
                "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("kernel-sos", j.get("model").asText());
        assertTrue(j.get("objective").asDouble() > 0);
        assertTrue(j.get("lmi_min_eigenvalue").asDouble() > -1e-6);
        assertTrue(j.get("alpha_min").asDouble() > -1e-6);
        CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", train.toString(), "--json");
        assertEquals(0, e.status(), e.err());
        assertEquals(j.get("rmse").asDouble(), e.json().get("rmse").asDouble(), 1e-9);
    }

    @Test
    void fitKernelSosRejectsBadOptionsBeforeWriting() throws IOException {
        Path train = data(10, 4);
        Path model = dir.resolve("x.json");
        CliRun r = CliRun.run("fit", "kernel-sos", "--train", train.toString(), "--lambda", "-1", "--out",
                model.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--lambda"), r.err());
        assertFalse(Files.exists(model));
    }

    @Test
    void reproduceKernelSosWritesAFigureAndTheTable() {
        Path png = dir.resolve("fig.png");
        CliRun r = CliRun.run("reproduce", "kernel-sos", "--n", "12", "--sigmas", "0.75", "--test", "20", "--out",
                png.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.isRegularFile(png));
        JsonNode rows = r.json().get("rows");
        assertEquals(3, rows.size());
        for (JsonNode row : rows) {
            assertTrue(row.get("min_prediction").asDouble() >= -1e-9, row.toString());
            assertTrue(row.get("rmse_true").asDouble() > 0);
        }
    }
}
