package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad option of the density, cone and non-negative regression families is refused by the library's options record
 * ({@link org.psdkit.model.ParameterException}); the CLI names the flag the user typed ({@link Flags}).
 */
class TrainerOptionFlagsCliTest {
    @TempDir
    Path dir;

    private Path csv() {
        StringBuilder sb = new StringBuilder("x,y\n");
        for (int i = 0; i < 12; i++) {
            double x = i / 4.0 - 1.5;
            sb.append(x).append(',').append(x * x + 0.01 * (i % 3)).append('\n');
        }
        return TestFiles.write(dir, "d.csv", sb.toString());
    }

    private void refused(String message, String... args) {
        CliRun r = CliRun.run(args);
        assertEquals(2, r.status(), r.err());
        assertEquals("psdkit: error: " + message, r.err().strip());
    }

    @Test
    void eachFamilyNamesTheFlag() {
        String data = csv().toString();
        String out = dir.resolve("m.json").toString();
        refused("--tol must be > 0, got 0.0", "fit", "ncm-density", "--train", data, "--no-target", "--out", out,
                "--tol", "0");
        refused("--max-iter must be >= 1, got 0", "fit", "density", "--train", data, "--no-target", "--out", out,
                "--max-iter", "0");
        refused("--lambda must be > 0 and finite, got -1.0", "fit", "pnm-density", "--train", data, "--no-target",
                "--out", out, "--lambda", "-1");
        refused("--base must be a probability measure for glm-density (gaussian(...) or box(...)), got lebesgue",
                "fit", "glm-density", "--train", data, "--no-target", "--out", out);
        refused("--bandwidth must be > 0, got -0.5", "fit", "kde", "--train", data, "--no-target", "--out", out,
                "--bandwidth", "-0.5");
        refused("--lambda2 must be > 0 (the dual needs a Frobenius term), got 0.0", "fit", "psd-regression",
                "--train", data, "--out", out, "--lambda2", "0");
        refused("--time-limit must be > 0 seconds, got 0.0", "fit", "psd-regression", "--train", data, "--out", out,
                "--time-limit", "0");
        refused("--tol must be >= 0, got -1.0", "fit", "ncm", "--train", data, "--out", out, "--tol", "-1");
        refused("--frobenius-weight must be > 0, got 0.0", "fit", "hetero", "--train", data, "--out", out,
                "--kernel", "gaussian(sigma=1)", "--lambda", "0.1", "--frobenius-weight", "0");
        refused("--lambda must be > 0, got -1.0", "fit", "hetero", "--train", data, "--out", out,
                "--kernel", "gaussian(sigma=1)", "--lambda", "-1");
        refused("--restarts must be >= 1, got 0", "fit", "quantile", "--train", data, "--out", out,
                "--kernel", "gaussian(sigma=1)", "--lambda", "0.1", "--restarts", "0");
        refused("--taus must be strictly increasing, got [0.5, 0.25]", "fit", "quantile", "--train", data, "--out",
                out, "--kernel", "gaussian(sigma=1)", "--lambda", "0.1", "--taus", "0.5,0.25");
    }
}
