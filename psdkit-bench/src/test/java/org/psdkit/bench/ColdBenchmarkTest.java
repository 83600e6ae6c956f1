package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ColdBenchmark} with stand-in commands: {@code /bin/true} as psdkit (every run succeeds), {@code /bin/false}
 * (every run fails) and a Python that does not exist (the peers are missing): the table says so instead of failing.
 */
class ColdBenchmarkTest {
    @TempDir
    Path dir;

    private ColdBenchmark.Options options(String psdkit, List<String> cases, Path script, List<String> log) {
        return new ColdBenchmark.Options(dir, List.of(psdkit), dir.resolve("no-python").toString(), script, null,
                dir, null, cases, List.of("arch0"), 2, Map.of(), log::add);
    }

    @Test
    void missingPeersAndFailedRunsAreRowsNotErrors() throws Exception {
        Path script = Files.writeString(dir.resolve("cold_peers.py"), "");
        List<String> log = new ArrayList<>();
        ColdBenchmark.Result r = ColdBenchmark.run(options("/bin/true", List.of("version", "krr-100", "density-300",
                "sdp"), script, log));
        assertEquals(List.of("version", "krr-100", "density-300", "sdp-arch0"),
                r.rows().stream().map(ColdBenchmark.Row::id).toList());
        ColdBenchmark.Row version = r.rows().get(0);
        assertTrue(version.psdkit() >= 0 && Double.isFinite(version.psdkit()), "version: " + version);
        assertTrue(version.note().isEmpty(), version.note());
        ColdBenchmark.Row krr = r.rows().get(1);
        assertTrue(Double.isFinite(krr.psdkit()));
        assertTrue(Double.isNaN(krr.peerTime()));
        assertTrue(krr.note().startsWith("peer missing: ") && krr.note().contains("cannot import sklearn"),
                krr.note());
        ColdBenchmark.Row sdp = r.rows().get(3);
        assertTrue(sdp.note().contains("arch0.dat-s not found"), sdp.note());
        // two rounds of the three cases that can run
        assertEquals(6, log.stream().filter(l -> l.startsWith("round")).count(), String.join("\n", log));
        assertTrue(Files.isRegularFile(dir.resolve("krr-100.csv")));
        assertEquals(101, Files.readAllLines(dir.resolve("krr-100.csv")).size());
        assertFalse(ColdBenchmark.table(r).isEmpty());

        ColdBenchmark.Result f = ColdBenchmark.run(options("/bin/false", List.of("version"), script, log));
        ColdBenchmark.Row failed = f.rows().get(0);
        assertTrue(Double.isNaN(failed.psdkit()));
        assertTrue(failed.note().startsWith("psdkit failed: exit 1"), failed.note());
    }

    @Test
    void unknownCaseIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> options("/bin/true", List.of("svm-7"), null, new ArrayList<>()));
        assertTrue(e.getMessage().contains("--cases") && e.getMessage().contains("svm-7"), e.getMessage());
    }

    @Test
    void medianOfTheSdpRowsAboveOneSecond() {
        ColdBenchmark.Row a = new ColdBenchmark.Row("sdp-a", "", "CSDP", 3, 1.5, "", "", 0, 0);
        ColdBenchmark.Row b = new ColdBenchmark.Row("sdp-b", "", "CSDP", 1, 0.5, "", "", 0, 0);
        ColdBenchmark.Row c = new ColdBenchmark.Row("sdp-c", "", "CSDP", 4, 1.0, "", "", 0, 0);
        ColdBenchmark.Result r = new ColdBenchmark.Result("", "", List.of(a, b, c));
        double[] v = ColdBenchmark.sdpRatios(r, 1.0);
        assertEquals(2, v.length);
        assertEquals(3.0, ColdBenchmark.median(v), 0.0);
    }

    /** CSDP's exit 3 (partial success) is a finished, timed solve with a note; 4 and above are failures. */
    @Test
    void csdpPartialSuccessIsTimedAndNamedAndItsFailuresAreNot() throws Exception {
        Path script = Files.writeString(dir.resolve("cold_peers.py"), "");
        Files.writeString(dir.resolve("arch0.dat-s"), "1\n1\n1\n1.0\n");
        for (int status : new int[] {3, 4}) {
            Path csdp = dir.resolve("csdp-" + status);
            Files.writeString(csdp, "#!/bin/sh\nexit " + status + "\n");
            assertTrue(csdp.toFile().setExecutable(true));
            List<String> log = new ArrayList<>();
            ColdBenchmark.Result r = ColdBenchmark.run(new ColdBenchmark.Options(dir, List.of("/bin/true"),
                    dir.resolve("no-python").toString(), script, csdp.toString(), dir, null, List.of("sdp"),
                    List.of("arch0"), 1, Map.of(), log::add));
            ColdBenchmark.Row row = r.rows().get(0);
            if (status == 3) {
                assertTrue(Double.isFinite(row.peerTime()), row.toString());
                assertEquals("CSDP exit 3 (partial success: solved at reduced accuracy)", row.note());
            } else {
                assertTrue(Double.isNaN(row.peerTime()), row.toString());
                assertTrue(row.note().startsWith("peer failed: exit 4"), row.note());
            }
        }
    }

}
