package org.psdkit.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Metrics;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;

/**
 * Nyström KRR at scale ({@link NystromKrr}, behind {@code psdkit bench krr-scale}): synthetic d = 10 regression with a
 * Gaussian kernel, written as CSV and read back (the reading is timed), fitted with m anchors, scored on a held-out
 * test set. Beside it, on the same CSV files and in the same run: exact KRR ({@link KernelRidge}) when n is small
 * enough, and optionally scikit-learn's {@code Nystroem(n_components=m)} + {@code Ridge(alpha=λ,
 * fit_intercept=False)} — the same problem, since with Φ = K_nm K_mm^{-1/2} the ridge penalty ‖w‖² equals αᵀK_mmα.
 */
public final class KrrScaleBenchmark {

    /** Input dimension of the synthetic problem (the d = 10). */
    public static final int D = 10;

    /** Noise standard deviation of the synthetic targets. */
    public static final double NOISE = 0.5;

    private KrrScaleBenchmark() {
    }

    /**
     * One configuration.
     *
     * @param n training rows
     * @param m anchors
     */
    public record Config(int n, int m) {
        public Config {
            if (n < 2 || m < 1 || m > n) {
                throw new IllegalArgumentException("configs: need 2 <= n and 1 <= m <= n, got n=" + n + " m=" + m);
            }
        }

        /** Parses {@code n:m}. */
        public static Config parse(String s) {
            String[] p = s.trim().split(":");
            try {
                if (p.length == 2) {
                    return new Config(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()));
                }
            } catch (NumberFormatException e) {
                // fall through
            }
            throw new IllegalArgumentException("configs: '" + s + "' is not n:m (e.g. 20000:2000)");
        }
    }

    /**
     * Options.
     *
     * @param configs   (n, m) pairs
     * @param nTest     test rows per configuration
     * @param sigma     Gaussian kernel width
     * @param lambda    λ of (K_nmᵀK_nm + λK_mm)α = K_nmᵀy, i.e. Ridge(alpha=λ)
     * @param tolerance CG relative residual
     * @param exactMaxN exact KRR is run beside Nyström when n ≤ this
     * @param sklearn   also run the scikit-learn peer ({@code python3}) when n ≥ sklearnMinN
     * @param sklearnMinN smallest n for the peer
     * @param python    the Python interpreter with scikit-learn (e.g. {@code /usr/bin/python3})
     * @param storages  where K_nm lives between CG iterations: one Nyström fit per entry on the same data, in this
     *                  order (the first is the one exact KRR and scikit-learn run beside)
     * @param dir       directory for the CSV files ({@link GeneratedFiles}: files of the same names that a benchmark
     *                  did not write there are refused)
     * @param seed      data and anchor seed
     */
    public record Options(List<Config> configs, int nTest, double sigma, double lambda, double tolerance,
                          int exactMaxN, boolean sklearn, int sklearnMinN, String python, List<Storage> storages, Path dir, long seed) {
        public Options {
            if (configs == null || configs.isEmpty()) {
                throw new IllegalArgumentException("configs must not be empty");
            }
            if (nTest < 1) {
                throw new IllegalArgumentException("nTest must be >= 1, got " + nTest);
            }
            if (!(sigma > 0) || !(lambda > 0)) {
                throw new IllegalArgumentException("sigma and lambda must be > 0");
            }
            if (dir == null) {
                throw new IllegalArgumentException("dir must not be null");
            }
            storages = storages == null || storages.isEmpty() ? List.of(Storage.AUTO) : List.copyOf(storages);
        }
    }

    /**
     * One row of the result.
     *
     * @param readSeconds     reading the training CSV (psdkit's CsvReader)
     * @param fitSeconds      Nyström fit (anchors, K_mm, CG), wall
     * @param fitCpuSeconds   the same, CPU time of all threads
     * @param exactRmse       NaN when not run
     * @param sklearnFitSeconds NaN when not run; Nystroem.fit_transform + Ridge.fit
     * @param profile         where the fit's time went ({@link NystromKrrTrainer#fitScaledProfiled})
     */
    public record Row(int n, int m, double readSeconds, double fitSeconds, double fitCpuSeconds, int iterations, double residual,
                      String storage, double rmse, double exactSeconds, double exactRmse, double sklearnReadSeconds,
                      double sklearnFitSeconds, double sklearnRmse, String sklearnError,
                      java.util.Map<String, Double> profile) {
    }

    /**
     * Runs every configuration, handing each row to {@code sink} as it completes. Consecutive configurations with the
     * same n share the data (written and read once) and the exact KRR fit (run once; its time and RMSE are repeated in
     * their rows).
     */
    public static List<Row> run(Options o, Consumer<Row> sink) {
        GeneratedFiles.requireReplaceable(o.dir(), files(o), "--dir");
        List<Row> rows = new ArrayList<>();
        Kernel k = new GaussianKernel(o.sigma());
        // consecutive configurations with the same n share the data files and the exact KRR fit (a sweep over m)
        int lastN = -1;
        Dataset tr = null;
        Dataset te = null;
        double read = Double.NaN;
        double[] exact = {Double.NaN, Double.NaN};
        for (Config c : o.configs()) {
            Path train = o.dir().resolve(trainFile(c.n()));
            Path test = o.dir().resolve(testFile(c.n()));
            boolean newData = c.n() != lastN;
            if (newData) {
                tr = null;
                te = null;
                writeCsv(train, c.n(), o.seed() * 1_000_003L + c.n());
                writeCsv(test, o.nTest(), o.seed() * 1_000_003L + c.n() + 7);
                long t0 = System.nanoTime();
                tr = CsvReader.read(train, CsvReader.Options.regression());
                read = (System.nanoTime() - t0) * 1e-9;
                te = CsvReader.read(test, CsvReader.Options.regression());
                exact = new double[] {Double.NaN, Double.NaN};
                lastN = c.n();
            }
            long t0;
            boolean first = true;
            for (Storage storage : o.storages()) {
            NystromKrrTrainer.Options no = new NystromKrrTrainer.Options(k, null, Nystrom.of(c.m(), Anchors.Method.UNIFORM,
                    o.seed()), o.lambda(), false, o.tolerance(), NystromKrr.DEFAULT_MAX_ITERATIONS, storage);
            t0 = System.nanoTime();
            long cpu0 = processCpuNanos();
            NystromKrrTrainer.ProfiledFit pf = NystromKrrTrainer.fitScaledProfiled(k, tr.x(), tr.y(), no);
            NystromKrrTrainer.Fit f = pf.fit();
            double fit = (System.nanoTime() - t0) * 1e-9;
            double fitCpu = (processCpuNanos() - cpu0) * 1e-9;
            double rmse = rmse(te, f.model().predictVector(te.x()));
            NystromKrr.Diagnostics d = f.diagnostics();
            f = null; // let K_nm go before the exact fit
            if (first && c.n() <= o.exactMaxN() && Double.isNaN(exact[1])) {
                t0 = System.nanoTime();
                KernelRidge e = KernelRidge.fit(k, tr.x(), tr.y(), KernelRidge.Options.standard(o.lambda()));
                exact[0] = (System.nanoTime() - t0) * 1e-9;
                exact[1] = rmse(te, e.predictVector(te.x()));
            }
            double exactSecs = first ? exact[0] : Double.NaN;
            double exactRmse = first ? exact[1] : Double.NaN;
            double[] sk = {Double.NaN, Double.NaN, Double.NaN};
            String skErr = null;
            if (first && o.sklearn() && c.n() >= o.sklearnMinN()) {
                try {
                    sk = sklearn(o, train, test, c.m());
                } catch (RuntimeException ex) {
                    skErr = ex.getMessage();
                }
            }
            Row r = new Row(c.n(), c.m(), read, fit, fitCpu, d.iterations(), d.residual(), d.storage(), rmse, exactSecs, exactRmse, sk[0], sk[1], sk[2],
                    skErr, pf.timings());
            rows.add(r);
            sink.accept(r);
            first = false;
            }
        }
        return rows;
    }

    /** The names of the files a run writes into {@link Options#dir}. */
    public static List<String> files(Options o) {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        for (Config c : o.configs()) {
            names.add(trainFile(c.n()));
            names.add(testFile(c.n()));
            if (o.sklearn() && c.n() >= o.sklearnMinN()) {
                names.add(SKLEARN_SCRIPT);
            }
        }
        return List.copyOf(names);
    }

    static String trainFile(int n) {
        return "krr-scale-train-" + n + ".csv";
    }

    static String testFile(int n) {
        return "krr-scale-test-" + n + ".csv";
    }

    static final String SKLEARN_SCRIPT = "krr_scale_sklearn.py";

    /** CPU time of the whole process (all threads), 0 if the JVM does not report it. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os =
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return Math.max(0, sun.getProcessCpuTime());
        }
        return 0;
    }

    private static double rmse(Dataset te, double[] pred) {
        return Metrics.regression(te.y(), pred).get("rmse");
    }

    /** The regression function: smooth, with interactions, on x ~ N(0, I_10). */
    static double target(double[] x) {
        return Math.sin(x[0]) + 0.5 * Math.sin(2 * x[1]) + 0.5 * x[2] * x[3] / (1 + x[4] * x[4])
                + 0.3 * Math.cos(x[5] + x[6]) + 0.2 * (x[7] - x[8] + x[9]);
    }

    /**
     * Writes n rows x1..x10,y with y = target(x) + N(0, NOISE²), atomically and recorded as generated
     * ({@link GeneratedFiles#write}).
     */
    public static void writeCsv(Path file, int n, long seed) {
        try {
            GeneratedFiles.write(file.toAbsolutePath().getParent(), file.getFileName().toString(), os -> {
                Writer w = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8));
                writeRows(w, n, seed);
                w.flush();
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void writeRows(Writer w, int n, long seed) throws IOException {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder();
        for (int j = 0; j < D; j++) {
            sb.append('x').append(j + 1).append(',');
        }
        w.write(sb.append("y\n").toString());
        double[] x = new double[D];
        for (int i = 0; i < n; i++) {
            sb.setLength(0);
            for (int j = 0; j < D; j++) {
                x[j] = r.nextGaussian();
                sb.append(String.format(Locale.ROOT, "%.6f", x[j])).append(',');
            }
            sb.append(String.format(Locale.ROOT, "%.6f", target(x) + NOISE * r.nextGaussian())).append('\n');
            w.write(sb.toString());
        }
    }

    /** The peer script: reads both CSVs, times Nystroem(rbf, gamma = 1/(2σ²)) + Ridge, prints three numbers. */
    static String script() {
        return String.join("\n",
                "import sys, time, numpy as np",
                "from sklearn.kernel_approximation import Nystroem",
                "from sklearn.linear_model import Ridge",
                "train, test, m, sigma, lam, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), "
                        + "float(sys.argv[5]), int(sys.argv[6])",
                "t0 = time.time()",
                "a = np.loadtxt(train, delimiter=',', skiprows=1)",
                "read = time.time() - t0",
                "b = np.loadtxt(test, delimiter=',', skiprows=1)",
                "t0 = time.time()",
                "ny = Nystroem(kernel='rbf', gamma=1.0 / (2 * sigma * sigma), n_components=m, random_state=seed)",
                "phi = ny.fit_transform(a[:, :-1])",
                "rr = Ridge(alpha=lam, fit_intercept=False).fit(phi, a[:, -1])",
                "fit = time.time() - t0",
                "p = rr.predict(ny.transform(b[:, :-1]))",
                "print(read, fit, float(np.sqrt(np.mean((p - b[:, -1]) ** 2))))",
                "");
    }

    private static double[] sklearn(Options o, Path train, Path test, int m) {
        try {
            Path py = GeneratedFiles.write(o.dir(), SKLEARN_SCRIPT,
                    os -> os.write(script().getBytes(StandardCharsets.UTF_8)));
            Process p = new ProcessBuilder(o.python() == null ? "python3" : o.python(), py.toString(), train.toString(), test.toString(),
                    Integer.toString(m), Double.toString(o.sigma()), Double.toString(o.lambda()),
                    Long.toString(o.seed())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            int rc = p.waitFor();
            String last = out.isEmpty() ? "" : out.substring(out.lastIndexOf('\n') + 1);
            String[] f = last.trim().split("\\s+");
            if (rc != 0 || f.length != 3) {
                throw new IllegalStateException("scikit-learn peer failed (exit " + rc + "): " + out);
            }
            return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + o.python() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("scikit-learn peer printed something unexpected: " + e.getMessage(), e);
        }
    }
}
