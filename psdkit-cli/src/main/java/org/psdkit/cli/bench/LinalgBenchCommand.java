package org.psdkit.cli.bench;

import java.util.Locale;
import java.util.concurrent.Callable;
import org.psdkit.bench.LinalgBenchmark;
import org.psdkit.bench.Machine;
import org.psdkit.cli.Main;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit bench linalg}: native eigh / Cholesky / GEMM and the Gaussian Gram matrix against baselines. */
@Command(name = "linalg", mixinStandardHelpOptions = true,
        description = {"Times eigh, Cholesky and GEMM (native OpenBLAS/LAPACK) with GFLOP/s and the speed-up over "
                + "plain-Java baselines run in the same command, the reusable eigen workspace, and the Gaussian "
                + "Gram matrix (GEMM + parallel exp vs a double loop over eval)."})
public final class LinalgBenchCommand implements Callable<Integer> {

    @Option(names = "--sizes", split = ",", defaultValue = "500,1000,2000",
            description = "Matrix sizes n (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--workspace-sizes", split = ",", defaultValue = "50,200,500",
            description = "Sizes for the eigen-workspace comparison (default: ${DEFAULT-VALUE}).")
    int[] workspaceSizes;

    @Option(names = "--repeats", defaultValue = "3", description = "Timed runs per measurement; the best is "
            + "reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--baseline-max-n", defaultValue = "1000", description = "Largest n for the slow plain-Java "
            + "baselines, run once each (default: ${DEFAULT-VALUE}; the Java eigen-solver needs ~10 s at 1000).")
    int baselineMaxN;

    @Option(names = "--gram-n", defaultValue = "5000", description = "Points for the Gram benchmark (default: "
            + "${DEFAULT-VALUE}).")
    int gramN;

    @Option(names = "--gram-d", defaultValue = "10", description = "Dimension for the Gram benchmark (default: "
            + "${DEFAULT-VALUE}).")
    int gramD;

    @Option(names = "--no-gram", description = "Skip the Gram-matrix benchmark.")
    boolean noGram;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed of the test matrices.")
    long seed;

    @Override
    public Integer call() {
        for (int n : workspaceSizes) {
            if (n < 1) {
                throw new IllegalArgumentException("--workspace-sizes: sizes must be >= 1, got " + n);
            }
        }
        if (sizes.length == 0) {
            throw new IllegalArgumentException("--sizes: give at least one size");
        }
        for (int n : sizes) {
            if (n < 1) {
                throw new IllegalArgumentException("--sizes: sizes must be >= 1, got " + n);
            }
        }
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats must be >= 1, got " + repeats);
        }
        if (gramN < 2 || gramD < 1) {
            throw new IllegalArgumentException("--gram-n must be >= 2 and --gram-d >= 1, got " + gramN + ", "
                    + gramD);
        }
        LinalgBenchmark.Options o = new LinalgBenchmark.Options(sizes, workspaceSizes, repeats, baselineMaxN, gramN,
                gramD, !noGram, seed);
        Machine m = Machine.warmUp();
        System.out.printf(Locale.ROOT, "psdkit bench linalg: OpenBLAS threads %d, kernel threads %d, %d cores; best "
                + "of %d runs after a warm-up; baselines (plain Java) up to n = %d%n", m.blasThreads(),
                m.kernelThreads(), m.cores(), repeats, baselineMaxN);
        System.out.printf(Locale.ROOT, "%-20s %6s %11s %9s %11s %9s  %s%n", "operation", "n", "psdkit s", "GFLOP/s",
                "baseline s", "speed-up", "baseline");
        LinalgBenchmark.run(o, new BenchProgress("bench linalg: "), this::print);
        return Main.EXIT_OK;
    }

    private void print(LinalgBenchmark.Row r) {
        String base = !r.hasBaseline() ? String.format(Locale.ROOT, "%11s %9s  %s", "-", "-",
                "skipped (n > --baseline-max-n " + baselineMaxN + ")")
                : String.format(Locale.ROOT, "%11.4f %8.1fx  %s", r.baselineSeconds(), r.speedup(), r.baseline());
        System.out.printf(Locale.ROOT, "%-20s %6d %11.4f %9.2f %s%s%n", r.op(), r.n(), r.seconds(), r.gflops(), base,
                r.note().isEmpty() ? "" : "  [" + r.note() + "]");
        System.out.flush();
    }
}
