package org.psdkit.cli;

import java.util.concurrent.Callable;
import org.psdkit.cli.bench.LinalgBenchmark;
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
        new LinalgBenchmark(new LinalgBenchmark.Options(sizes, workspaceSizes, repeats, baselineMaxN, gramN, gramD, !noGram, seed),
                System.out).run();
        return 0;
    }
}
