package org.psdkit.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.KernelRidge;
import org.psdkit.model.SpdSolve;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench krr}: kernel ridge regression fit time on California-housing subsamples (z-scored features,
 * Gaussian kernel), against two baselines run in the same command on the same Gram matrix: the eigen route
 * (LAPACK dsyevd, α = V (Λ + λI)⁻¹ Vᵀ y) and a plain-Java Cholesky solve.
 */
@Command(name = "krr", description = "KRR fit time (Gram + Cholesky) for n = 2000, 5000 against in-run baselines.")
public final class BenchKrrCommand implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "FILE", description = "California housing CSV (default: ../shared/data/california-housing.csv).")
    Path data;

    @Option(names = "--sizes", split = ",", defaultValue = "2000,5000", description = "Subsample sizes (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", description = "Kernel (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.01", description = "Regularisation (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--repeats", defaultValue = "3", description = "Timed psdkit fits per size; the best is reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--java-max-n", defaultValue = "2000",
            description = "Largest n for the slow plain-Java Cholesky baseline (default: ${DEFAULT-VALUE}).")
    int javaMaxN;

    @Option(names = "--seed", defaultValue = "1", description = "Subsample seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        if (!(lambda > 0)) {
            throw new IllegalArgumentException("--lambda must be > 0 for this benchmark, got " + lambda);
        }
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats must be >= 1");
        }
        Kernel k = KernelSpecs.parse(kernel);
        Path file = data != null ? data : DataFiles.shared("california-housing.csv", "--data");
        Dataset all = CsvReader.read(file, CsvReader.Options.regression());
        for (int n : sizes) {
            if (n < 2 || n > all.n()) {
                throw new IllegalArgumentException("--sizes: " + n + " is not in [2, " + all.n() + "]");
            }
        }
        Linalg.warmUp();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int n : sizes) {
            int[] idx = java.util.Arrays.copyOf(Splits.permutation(all.n(), seed), n);
            Dataset sub = Splits.subset(all, idx);
            Matrix x = Scaler.fit(Scaler.Kind.ZSCORE, sub.x()).apply(sub.x());
            double[] y = sub.y();
            KernelRidge.Options opts = KernelRidge.Options.standard(lambda);
            Progress.info("bench krr: n=" + n + ": psdkit fit x" + repeats + " ...");
            // psdkit: KernelRidge.fit = Gram matrix + LAPACK Cholesky + two triangular solves
            double best = Double.POSITIVE_INFINITY;
            KernelRidge fitted = null;
            for (int r = 0; r < repeats; r++) {
                long t0 = System.nanoTime();
                fitted = KernelRidge.fit(k, x, y, opts);
                best = Math.min(best, (System.nanoTime() - t0) * 1e-9);
            }
            long g0 = System.nanoTime();
            Matrix gram = k.gram(x);
            double gramSec = (System.nanoTime() - g0) * 1e-9;
            Progress.info("bench krr: n=" + n + ": eigen-route baseline ...");
            // baseline 1: eigen route on the same Gram matrix (+ the Gram time, so that both are whole fits)
            long e0 = System.nanoTime();
            double[] alphaEig = SpdSolve.eigenSolve(gram, lambda, Matrix.column(y)).x().col(0);
            double eigSec = (System.nanoTime() - e0) * 1e-9 + gramSec;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("n", n);
            row.put("d", x.cols());
            row.put("psdkitSeconds", best);
            row.put("gramSeconds", gramSec);
            row.put("eigenRouteSeconds", eigSec);
            row.put("speedupVsEigenRoute", eigSec / best);
            row.put("maxRelDiffVsEigenRoute", relDiff(fitted.alpha(), alphaEig));
            if (n <= javaMaxN) {
                Progress.info("bench krr: n=" + n + ": plain-Java Cholesky baseline ...");
                long j0 = System.nanoTime();
                double[] alphaJava = plainJavaCholeskySolve(gram, lambda, y);
                double javaSec = (System.nanoTime() - j0) * 1e-9 + gramSec;
                row.put("plainJavaCholeskySeconds", javaSec);
                row.put("speedupVsPlainJava", javaSec / best);
                row.put("maxRelDiffVsPlainJava", relDiff(fitted.alpha(), alphaJava));
            }
            rows.add(row);
            if (!json) {
                System.err.printf(Locale.ROOT, "n=%d: psdkit fit %.3f s (Gram %.3f s); eigen route %.3f s (x%.1f)%s%n",
                        n, best, gramSec, eigSec, eigSec / best, row.containsKey("plainJavaCholeskySeconds")
                                ? String.format(Locale.ROOT, "; plain-Java Cholesky %.3f s (x%.1f)",
                                (double) row.get("plainJavaCholeskySeconds"), (double) row.get("speedupVsPlainJava"))
                                : "");
            }
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "krr");
        rep.put("data", file.toString());
        rep.put("kernel", k.spec());
        rep.put("lambda", lambda);
        rep.put("blasThreads", Linalg.threads());
        if (json) {
            rep.put("results", rows);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private static double relDiff(double[] a, double[] b) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < a.length; i++) {
            num = Math.max(num, Math.abs(a[i] - b[i]));
            den = Math.max(den, Math.abs(b[i]));
        }
        return num / den;
    }

    /**
     * The baseline: (K + λI) α = y by a textbook row-oriented Cholesky–Banachiewicz factorisation in plain Java
     * (row-major copy for contiguous inner products) and two triangular solves.
     */
    static double[] plainJavaCholeskySolve(Matrix k, double lambda, double[] y) {
        int n = y.length;
        double[][] l = new double[n][];
        for (int i = 0; i < n; i++) {
            l[i] = new double[i + 1];
            double[] li = l[i];
            for (int j = 0; j <= i; j++) {
                double[] lj = l[j];
                double s = k.get(i, j) + (i == j ? lambda : 0);
                for (int p = 0; p < j; p++) {
                    s -= li[p] * lj[p];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        throw new IllegalStateException("plain-Java Cholesky: matrix not positive definite at " + i);
                    }
                    li[i] = Math.sqrt(s);
                } else {
                    li[j] = s / lj[j];
                }
            }
        }
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            double s = y[i];
            for (int p = 0; p < i; p++) {
                s -= l[i][p] * z[p];
            }
            z[i] = s / l[i][i];
        }
        double[] a = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double s = z[i];
            for (int p = i + 1; p < n; p++) {
                s -= l[p][i] * a[p];
            }
            a[i] = s / l[i][i];
        }
        return a;
    }
}
