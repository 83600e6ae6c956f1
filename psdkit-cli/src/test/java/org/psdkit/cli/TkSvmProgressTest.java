package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A long tk-svm fit announces its work before it starts and shows its progress on stderr while it runs: the CV fits
 * done, the running fit's Frank-Wolfe iteration and gap, then the final fit's iterations. Before, a fit on 300
 * features ran for over 12 minutes without a line: the CV reported only finished fits, and neither the folds' nor
 * the final fit's iterations. The displays' timing is made eager (every update drawn, every estimate announced) so
 * that a fit of milliseconds shows what a long one does; at the default timing the same small fit prints none of it.
 */
class TkSvmProgressTest {

    @TempDir
    Path dir;

    private Path data() throws IOException {
        Random r = new Random(4);
        StringBuilder sb = new StringBuilder("u,v,label\n");
        for (int i = 0; i < 40; i++) {
            double u = r.nextDouble();
            double v = r.nextDouble();
            sb.append(String.format(Locale.ROOT, "%.5f,%.5f,%s%n", u, v, u * u + v * v < 0.6 ? "in" : "out"));
        }
        return Files.writeString(dir.resolve("t.csv"), sb.toString());
    }

    private CliRun fit(Path train, String out) {
        return CliRun.run("fit", "tk-svm", "--train", train.toString(), "--out", dir.resolve(out).toString(),
                "--c-grid", "1,10", "--epsilon-grid", "0.1,1", "--json");
    }

    /** The JSON report without its timings and output path. */
    private static ObjectNode report(CliRun r) {
        ObjectNode j = (ObjectNode) r.json();
        j.remove(java.util.List.of("seconds", "fitSeconds", "out"));
        return j;
    }

    @Test
    void aLongFitAnnouncesItsWorkAndShowsItsIterations() throws IOException {
        Path train = data();
        boolean wasQuiet = Progress.quiet();
        Progress.setQuiet(false);
        try {
            CliRun quietTiming = fit(train, "a.json");
            assertEquals(0, quietTiming.status(), quietTiming.err());
            Progress.setEager(true);
            CliRun eager = fit(train, "b.json");
            assertEquals(0, eager.status(), eager.err());
            String err = eager.err();
            assertTrue(err.contains("tk-svm: expected work: one Frank-Wolfe iteration on 32 rows x 2 features "
                    + "(degree 1)") && err.contains("20 CV fits and the final fit take 1 to 61 iterations each"), err);
            assertTrue(err.contains("tk-svm: faster: fewer features") && err.contains("-C and --epsilon (no CV: 1 fit "
                    + "instead of 21)"), err);
            assertTrue(err.lines().anyMatch(l -> l.matches("cv tk-svm: 0/20 \\(0%\\) .* s, fit 1: iteration 0, "
                    + "gap .*")), err);
            assertTrue(err.lines().anyMatch(l -> l.matches("cv tk-svm: 19/20 \\(95%\\) .*, fit 20: iteration .*")),
                    err);
            assertTrue(err.contains("cv tk-svm: done in "), err);
            assertTrue(err.lines().anyMatch(l -> l.matches("tk-svm \\(Frank-Wolfe\\): iteration 0 of at most 60, .* s, "
                    + "gap .*")), err);
            assertTrue(err.contains("tk-svm (Frank-Wolfe): done in "), err);
            // without a CV: the one fit's iterations
            CliRun given = CliRun.run("fit", "tk-svm", "--train", train.toString(), "--out",
                    dir.resolve("c.json").toString(), "-C", "1", "--epsilon", "0.1", "--json");
            assertEquals(0, given.status(), given.err());
            assertTrue(given.err().contains("the fit takes 1 to 61 iterations: at least ~") && given.err().lines()
                    .anyMatch(l -> l.startsWith("tk-svm (Frank-Wolfe): iteration 0 of at most 60")), given.err());
            // at the default timing this fit of milliseconds prints none of it, and its report is the same
            String plain = quietTiming.err();
            assertFalse(plain.contains("expected work") || plain.contains("iteration") || plain.contains("Frank-Wolfe"),
                    plain);
            assertEquals(report(quietTiming), report(eager));
        } finally {
            Progress.setEager(false);
            Progress.setQuiet(wasQuiet);
        }
    }
}
