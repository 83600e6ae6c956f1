package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SdpBenchmarkTest {
    @TempDir
    Path dir;

    /** truss1 on disk; "big" and "gone" in the table only (one too large, one missing). */
    Path folder() throws IOException {
        Path d = Files.createDirectories(dir.resolve("sdplib"));
        try (InputStream in = SdpBenchmarkTest.class.getResourceAsStream("/sdplib/truss1.dat-s")) {
            Files.copy(in, d.resolve("truss1.dat-s"));
        }
        Files.writeString(d.resolve("README.md"), """
                | problem | m | blocks | block sizes | n | bytes | class | published optimum | src | CSDP 6.2.0 | remark |
                |---|---:|---:|---|---:|---:|---|---:|---|---:|---|
                | truss1 | 6 | 7 | 6×2, 1 | 13 | 600 | S | -8.999996 | table | -8.9999963 |  |
                | big | 6 | 1 | 5000 | 5000 | 600 | S | 1.0 | table | 1.0 |  |
                | gone | 6 | 1 | 10 | 10 | 600 | S | primal infeasible | table | - |  |
                """);
        return d;
    }

    @Test
    void readsTheReferenceTable() throws IOException {
        Map<String, SdpBenchmark.Reference> refs = SdpBenchmark.readReferences(folder().resolve("README.md"));
        assertEquals(List.of("truss1", "big", "gone"), List.copyOf(refs.keySet()));
        SdpBenchmark.Reference t = refs.get("truss1");
        assertEquals(6, t.m());
        assertEquals(13, t.n());
        assertEquals(-8.999996, t.published());
        assertEquals(-8.9999963, t.csdp());
        SdpBenchmark.Reference g = refs.get("gone");
        assertNull(g.published());
        assertEquals("primal_infeasible", g.expected());
        assertNull(g.csdp());
        assertThrows(IllegalArgumentException.class, () -> SdpBenchmark.readReferences(dir.resolve("none.md")));
    }

    @Test
    void solvesTheProblemsOnDiskWithinTheSizeAgainstTheBaseline() throws IOException {
        Path d = folder();
        SdpBenchmark.Result res = SdpBenchmark.run(new SdpBenchmark.Options(d, 1000, 30,
                SdpBenchmark.Baseline.parse(" Dense "), null), null);
        assertEquals(1, res.rows().size(), "big is too large, gone has no file");
        SdpBenchmark.Row r = res.rows().get(0);
        assertEquals("truss1", r.reference().name());
        assertTrue(r.errorCsdp() < 1e-6 && r.errorPublished() < 1e-6, r.toString());
        assertTrue(r.ratio() > 0 && r.baseline().iterations() > 0, r.toString());
        assertEquals(1, res.withinCsdp());
        assertEquals(1, res.comparedWithCsdp());
        assertEquals(r.cpuSeconds(), res.totalCpuSeconds());
        assertEquals(r.baseline().cpuSeconds(), res.baselineTotalCpuSeconds());

        SdpBenchmark.Result none = SdpBenchmark.run(new SdpBenchmark.Options(d, 1000, 30, SdpBenchmark.Baseline.NONE,
                List.of("truss1")), null);
        assertNull(none.rows().get(0).baseline());
        assertEquals(0.0, none.totalCpuSeconds(), "totals are summed over the problems that ran the baseline");
    }

    @Test
    void repeatedSolvesReportTheMeanTimesOfTheSamePoint() throws IOException {
        Path d = folder();
        SdpBenchmark.Result once = SdpBenchmark.run(new SdpBenchmark.Options(d, 1000, 30, SdpBenchmark.Baseline.NONE,
                List.of("truss1"), 1, 1), null);
        SdpBenchmark.Result five = SdpBenchmark.run(new SdpBenchmark.Options(d, 1000, 30, SdpBenchmark.Baseline.NONE,
                List.of("truss1"), 1, 5), null);
        SdpBenchmark.Row a = once.rows().get(0);
        SdpBenchmark.Row b = five.rows().get(0);
        assertEquals(a.objective(), b.objective(), "the solver is deterministic");
        assertEquals(a.iterations(), b.iterations());
        assertTrue(b.seconds() > 0 && b.cpuSeconds() > 0, b.toString());
        assertEquals(2.5, SdpBenchmark.mean(new double[] {4, 1, 3, 2}));
        assertThrows(IllegalArgumentException.class, () -> new SdpBenchmark.Options(d, 1000, 30,
                SdpBenchmark.Baseline.NONE, null, 0, 0));
    }

    @Test
    void unknownProblemsAndBaselinesAreRejected() throws IOException {
        Path d = folder();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SdpBenchmark.problems(
                new SdpBenchmark.Options(d, 1000, 30, SdpBenchmark.Baseline.NONE, List.of("nope"))));
        assertTrue(e.getMessage().startsWith("problems: 'nope' is not in"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SdpBenchmark.Baseline.parse("sparse"));
    }
}
