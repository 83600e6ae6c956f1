package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.Progress;
import org.psdkit.cli.TestFiles;

/**
 * {@code fit krr}'s training metrics, taken from the solution (y − λα) for the exact fit, agree with {@code eval} of
 * the written model on the training file (a full predict) to 1e-12 relative.
 */
class FitKrrReportTest {
    @TempDir
    static Path dir;
    static Path boston;

    @BeforeAll
    static void data() {
        boston = TestFiles.resource(dir, "data/boston.csv");
        Progress.setQuiet(true);
    }

    /** Progress's quiet switch is static: give the classes that run next in this JVM their default back. */
    @org.junit.jupiter.api.AfterAll
    static void loud() {
        Progress.setQuiet(System.getenv("PSDKIT_QUIET") != null);
    }

    @Test
    void trainingMetricsMatchAPredictOfTheTrainingSet() {
        checkAgainstEval("m", new String[][] {
            {"--lambda", "0.01"},
            {"--lambda", "1e-4", "--center"},
            {"--lambda", "0.5", "--kernel", "laplacian(sigma=3)"},
            {"--lambda", "1e-6"},
        });
    }

    /**
     * The Nyström fit's training metrics, from the anchor-by-anchor Gaussian values (NystromKrrTrainer.fittedValues)
     * or, for another kernel, from a predict, agree with {@code eval} of the written model to 1e-12 relative.
     */
    @Test
    void nystromTrainingMetricsMatchAPredictOfTheTrainingSet() {
        checkAgainstEval("nys", new String[][] {
            {"--lambda", "0.01", "--anchors", "150", "--kernel", "gaussian(sigma=2)"},
            {"--lambda", "1e-4", "--anchors", "80", "--center", "--kernel", "gaussian(sigma=0.7)"},
            {"--lambda", "0.5", "--anchors", "100", "--kernel", "laplacian(sigma=3)"},
        });
    }

    private static void checkAgainstEval(String prefix, String[][] variants) {
        int i = 0;
        for (String[] v : variants) {
            Path model = dir.resolve(prefix + (i++) + ".json");
            String[] args = new String[v.length + 8];
            String[] head = {"fit", "krr", "--train", boston.toString(), "--scale", "zscore", "--out",
                model.toString()};
            System.arraycopy(head, 0, args, 0, head.length);
            System.arraycopy(v, 0, args, head.length, v.length);
            String[] withJson = java.util.Arrays.copyOf(args, args.length + 1);
            withJson[args.length] = "--json";
            CliRun f = CliRun.run(withJson);
            assertEquals(0, f.status(), f.err());
            JsonNode j = f.json();
            CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", boston.toString(), "--json");
            assertEquals(0, e.status(), e.err());
            for (String key : new String[] {"rmse", "mae", "r2"}) {
                double a = j.get(key).asDouble();
                double b = e.json().get(key).asDouble();
                assertEquals(b, a, 1e-12 * Math.abs(b), key + " of " + String.join(" ", v));
            }
        }
    }

    @Test
    void theNystromShortcutIsTakenForTheGaussianKernelOnly() {
        org.psdkit.data.Dataset raw = org.psdkit.data.CsvReader.read(boston,
                org.psdkit.data.CsvReader.Options.regression());
        org.psdkit.regression.nystrom.NystromKrrTrainer.Options o = org.psdkit.regression.nystrom.NystromKrrTrainer
                .Options.of(org.psdkit.kernel.Kernels.parse("gaussian(sigma=2)"), 0.01, 120, 3)
                .withScale(org.psdkit.data.Scaler.Kind.ZSCORE);
        org.psdkit.model.Pipeline<org.psdkit.regression.KernelRidge> m =
                new org.psdkit.regression.nystrom.NystromKrrTrainer(o).fit(raw);
        org.psdkit.linalg.Matrix f = FitKrrCommand.fittedFromNystrom(raw, m);
        org.junit.jupiter.api.Assertions.assertNotNull(f, "a Gaussian Nystrom fit takes the anchor-by-anchor values");
        double[] p = m.predict(raw.x()).col(0);
        for (int i = 0; i < raw.n(); i++) {
            assertEquals(p[i], f.get(i, 0), 1e-12 * (1 + Math.abs(p[i])));
        }
        org.psdkit.model.Pipeline<org.psdkit.regression.KernelRidge> lap =
                new org.psdkit.regression.nystrom.NystromKrrTrainer(
                        o.withKernel(org.psdkit.kernel.Kernels.parse("laplacian(sigma=3)"))).fit(raw);
        org.junit.jupiter.api.Assertions.assertNull(FitKrrCommand.fittedFromNystrom(raw, lap),
                "another kernel: a predict of every row");
    }

    @Test
    void theShortcutIsTakenWhenWellConditionedAndNotWithWeights() {
        org.psdkit.data.Dataset raw = org.psdkit.data.CsvReader.read(boston,
                org.psdkit.data.CsvReader.Options.regression());
        org.psdkit.regression.KrrTrainer t = new org.psdkit.regression.KrrTrainer(
                org.psdkit.regression.KrrTrainer.Options.of(org.psdkit.kernel.Kernels.parse("laplacian(sigma=3)"),
                        org.psdkit.regression.KernelRidge.Options.standard(0.5), org.psdkit.data.Scaler.Kind.ZSCORE));
        org.psdkit.model.Pipeline<org.psdkit.regression.KernelRidge> m = t.fit(raw);
        org.psdkit.linalg.Matrix f = FitKrrCommand.fittedFromSolution(raw, m);
        org.junit.jupiter.api.Assertions.assertNotNull(f, "a well-conditioned exact fit takes y - lambda alpha");
        double[] p = m.predict(raw.x()).col(0);
        for (int i = 0; i < raw.n(); i++) {
            assertEquals(p[i], f.get(i, 0), 1e-9 * (1 + Math.abs(p[i])));
        }
        double[] w = new double[raw.n()];
        java.util.Arrays.fill(w, 1.0);
        org.psdkit.data.Dataset weighted = raw.withWeights(w);
        org.junit.jupiter.api.Assertions.assertNull(FitKrrCommand.fittedFromSolution(weighted, t.fit(weighted)),
                "weights: (K + lambda W^-1) alpha = y, no shortcut");
    }
}
