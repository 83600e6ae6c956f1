package org.psdkit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.SvmDecision;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.CachedKernelRows;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

/**
 * Soft-margin SVM training time (Gaussian kernel, synthetic data) of {@link SvmTrainer} — shrinking, a kernel cache
 * of {@code cacheMb} MB — against the former path measured in the same run: no shrinking, the dense Gram matrix up
 * to {@link KernelRows#DENSE_LIMIT} points and beyond it full double-precision rows in a 100 MB LRU cache
 * ({@link CachedKernelRows}). The training and test sets are written as CSV ({@code x1..xd, y}) next to psdkit's test
 * decision values, so that a peer (scikit-learn's {@code SVC}, docs/benchmarks/svm_sklearn.py) can train on the same
 * data. Behind {@code psdkit bench svm}.
 *
 * <p>Data: x ~ N(0, I_d), y = sign(x₁x₂ + sin 2x₃ + x₄/2 − 0.3x₅² + 0.3 + 0.3 ε), ε ~ N(0, 1) (label noise, so that
 * bounded support vectors are common, as in real data); seeded.
 */
public final class SvmBenchmark {

    /** The former cache budget beyond the dense limit (the old {@code CachedKernelRows.DEFAULT_CACHE_BYTES}). */
    public static final long BASELINE_CACHE_BYTES = 100L << 20;
    /** Points of the untimed warm-up fits (both paths), so that the timed fits run JIT-compiled code. */
    public static final int WARM_UP_POINTS = 1500;
    /** Test points per size, drawn from the same distribution. */
    public static final int TEST_POINTS = 2000;

    private SvmBenchmark() {
    }

    /**
     * Options of one run.
     *
     * @param sizes          training-set sizes
     * @param dim            features d
     * @param c              penalty C
     * @param gamma          Gaussian γ = 1/(2σ²) (scikit-learn's parameterisation)
     * @param tolerance      SMO tolerance (both solvers and the peer)
     * @param cacheMb        psdkit's kernel memory in MB
     * @param baselineMaxN   largest size for which the former path is run (it is slow beyond the dense limit)
     * @param repeats        timed fits of each kind per size, the best is reported (after one untimed warm-up fit
     *                       on {@value #WARM_UP_POINTS} points, so that neither side pays for the JIT compiler)
     * @param seed           data seed
     * @param dir            where the CSV files go, or null for none ({@link GeneratedFiles}: files of the same
     *                       names that a benchmark did not write there are refused)
     */
    public record Options(int[] sizes, int dim, double c, double gamma, double tolerance, int cacheMb,
                          int baselineMaxN, int repeats, long seed, Path dir) {
        public Options {
            if (repeats < 1) {
                throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
            }
            sizes = Validate.sizes("sizes", sizes, 10);
            if (dim < 5) {
                throw new IllegalArgumentException("dim must be >= 5 (the labels use 5 features), got " + dim);
            }
            if (!(c > 0) || Double.isInfinite(c)) {
                throw new IllegalArgumentException("C must be positive and finite, got " + c);
            }
            if (!(gamma > 0) || Double.isInfinite(gamma)) {
                throw new IllegalArgumentException("gamma must be positive and finite, got " + gamma);
            }
            if (!(tolerance > 0)) {
                throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
            }
            if (cacheMb < 1) {
                throw new IllegalArgumentException("cacheMb must be >= 1, got " + cacheMb);
            }
        }
    }

    /**
     * One size.
     *
     * @param n                 training points
     * @param path              precision of psdkit's cached kernel rows: double when all rows fit the budget, else float
     * @param psdkitSeconds     {@link SvmTrainer#fit} wall time
     * @param iterations        SMO iterations of that fit
     * @param supportVectors    its support vectors
     * @param testAccuracy      its accuracy on the test set
     * @param baselineSeconds   the former path's wall time (Gram or cache + SMO without shrinking), NaN when skipped
     * @param baselineIterations its iterations, 0 when skipped
     * @param labelAgreement    share of test points where both give the same label, NaN when skipped
     * @param maxDecisionDiff   max |f − f_baseline| on the test set, NaN when skipped
     * @param trainFile         the training CSV, or null
     * @param testFile          the test CSV, or null
     * @param decisionFile      psdkit's test decision values (one per line, header {@code decision}), or null
     */
    public record Row(int n, String path, double psdkitSeconds, long iterations, int supportVectors,
                      double testAccuracy, double baselineSeconds, long baselineIterations, double labelAgreement,
                      double maxDecisionDiff, Path trainFile, Path testFile, Path decisionFile) {

        /** Whether the baseline was run. */
        public boolean hasBaseline() {
            return !Double.isNaN(baselineSeconds);
        }

        /** Baseline time over psdkit time. */
        public double speedup() {
            return baselineSeconds / psdkitSeconds;
        }
    }

    /** The kernel (its spec), the threads and one row per size. */
    public record Result(String kernel, Machine machine, List<Row> rows) {
        public Result {
            rows = List.copyOf(rows);
        }
    }

    /** The seeded synthetic data set of n points in d dimensions (labels ±1, see the class comment). */
    public static Dataset data(int n, int d, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double[] p = new double[d];
            for (int j = 0; j < d; j++) {
                p[j] = rnd.nextGaussian();
                x.set(i, j, p[j]);
            }
            double f = p[0] * p[1] + Math.sin(2 * p[2]) + 0.5 * p[3] - 0.3 * p[4] * p[4] + 0.3
                    + 0.3 * rnd.nextGaussian();
            y[i] = f >= 0 ? 1 : -1;
        }
        return Dataset.of(x, y);
    }

    /** Runs the benchmark, handing each row to {@code onRow} as soon as it is measured (may be null). */
    public static Result run(Options o, ProgressListener listener, Consumer<? super Row> onRow) {
        if (o.dir() != null) {
            GeneratedFiles.requireReplaceable(o.dir(), files(o), "--data-dir");
        }
        int phasesTotal = 0;
        for (int n : o.sizes()) {
            phasesTotal += n <= o.baselineMaxN() ? 2 : 1;
        }
        Phases phases = new Phases(listener, phasesTotal);
        Machine machine = Machine.warmUp();
        GaussianKernel kernel = GaussianKernel.fromGamma(o.gamma());
        Dataset test = data(TEST_POINTS, o.dim(), o.seed() + 1);
        Dataset warm = data(WARM_UP_POINTS, o.dim(), o.seed() - 1);
        new SvmTrainer(SvmTrainer.Options.of(kernel, o.c()).withTolerance(o.tolerance()).withCacheMb(o.cacheMb()))
                .fit(warm);
        Smo.solve(kernel, warm.x(), warm.y(), null, o.c(), new Smo.Options(o.tolerance(), true), 1L << 20,
                null, null);
        baseline(kernel, warm, warm.y(), o);
        List<Row> rows = new ArrayList<>();
        for (int n : o.sizes()) {
            Dataset train = data(n, o.dim(), o.seed() * 1_000_003L + n);
            Path trainFile = null;
            Path testFile = null;
            if (o.dir() != null) {
                trainFile = o.dir().resolve(trainFile(n));
                testFile = o.dir().resolve(TEST_FILE);
                writeCsv(trainFile, train);
                writeCsv(testFile, test);
            }
            phases.start("n=" + n + ": psdkit fit svm");
            double secs = Double.POSITIVE_INFINITY;
            SvmClassifier model = null;
            for (int rep = 0; rep < o.repeats(); rep++) {
                long t0 = System.nanoTime();
                model = (SvmClassifier) new SvmTrainer(SvmTrainer.Options.of(kernel, o.c()).withTolerance(o.tolerance())
                        .withCacheMb(o.cacheMb())).fit(train);
                secs = Math.min(secs, (System.nanoTime() - t0) * 1e-9);
            }
            phases.end();
            double[] f = model.predict(test.x()).col(0);
            double[] yTest = model.binaryLabels().encode(SvmClassifier.labelTokens(test), test.source());
            double[] yTrain = model.binaryLabels().encode(SvmClassifier.labelTokens(train), train.source());
            int ok = 0;
            for (int i = 0; i < f.length; i++) {
                ok += (f[i] >= 0 ? 1 : -1) == yTest[i] ? 1 : 0;
            }
            Path decisionFile = null;
            if (o.dir() != null) {
                decisionFile = o.dir().resolve(decisionFile(n));
                StringBuilder sb = new StringBuilder("label,decision\n");
                for (double v : f) {
                    // the original label the model predicts, and the decision value in that label's orientation
                    sb.append(model.binaryLabels().decode(v)).append(',').append(v).append('\n');
                }
                write(decisionFile, sb.toString());
            }
            double baseSecs = Double.NaN;
            long baseIter = 0;
            double agree = Double.NaN;
            double maxDiff = Double.NaN;
            if (n <= o.baselineMaxN()) {
                phases.start("n=" + n + ": former path (no shrinking)");
                baseSecs = Double.POSITIVE_INFINITY;
                Baseline b = null;
                for (int rep = 0; rep < o.repeats(); rep++) {
                    long b0 = System.nanoTime();
                    b = baseline(kernel, train, yTrain, o);
                    baseSecs = Math.min(baseSecs, (System.nanoTime() - b0) * 1e-9);
                }
                phases.end();
                SvmDecision dec = b.decision();
                baseIter = b.iterations();
                double[] fb = dec.decision(test.x());
                int same = 0;
                maxDiff = 0;
                for (int i = 0; i < f.length; i++) {
                    same += (f[i] >= 0) == (fb[i] >= 0) ? 1 : 0;
                    maxDiff = Math.max(maxDiff, Math.abs(f[i] - fb[i]));
                }
                agree = (double) same / f.length;
            }
            Object it = model.diagnostics().get("iterations");
            Row row = new Row(n, Smo.denseFits(n, (long) o.cacheMb() << 20) ? "cache (double)" : "cache (float)", secs,
                    ((Number) it).longValue(), model.inner().supportVectors().rows(), (double) ok / f.length,
                    baseSecs, baseIter, agree, maxDiff, trainFile, testFile, decisionFile);
            rows.add(row);
            if (onRow != null) {
                onRow.accept(row);
            }
        }
        return new Result(kernel.spec(), machine, rows);
    }

    private record Baseline(SvmDecision decision, long iterations) {
    }

    /** The former path: Gram matrix (or 100 MB of double rows), SMO without shrinking, the decision function. */
    private static Baseline baseline(GaussianKernel kernel, Dataset train, double[] y, Options o) {
        int n = train.n();
        KernelRows rowsOld = n <= KernelRows.DENSE_LIMIT ? KernelRows.dense(kernel.gram(train.x()))
                : new CachedKernelRows(kernel, train.x(), BASELINE_CACHE_BYTES);
        Smo.Result r = Smo.solve(rowsOld, y, null, o.c(), new Smo.Options(o.tolerance(), false), null, null);
        return new Baseline(SvmDecision.of(kernel, train.x(), y, r.alpha(), r.bias()), r.iterations());
    }

    private static void writeCsv(Path file, Dataset d) {
        StringBuilder sb = new StringBuilder();
        int dim = d.x().cols();
        for (int j = 0; j < dim; j++) {
            sb.append('x').append(j + 1).append(',');
        }
        sb.append("y\n");
        for (int i = 0; i < d.n(); i++) {
            for (int j = 0; j < dim; j++) {
                sb.append(d.x().get(i, j)).append(',');
            }
            sb.append(d.y()[i] > 0 ? "1" : "-1").append('\n');
        }
        write(file, sb.toString());
    }

    /** The names of the files a run writes into {@link Options#dir} (none without one). */
    public static List<String> files(Options o) {
        List<String> names = new ArrayList<>();
        if (o.dir() != null) {
            for (int n : o.sizes()) {
                names.add(trainFile(n));
                names.add(decisionFile(n));
            }
            names.add(TEST_FILE);
        }
        return names;
    }

    private static final String TEST_FILE = "svm-test.csv";

    private static String trainFile(int n) {
        return "svm-train-" + n + ".csv";
    }

    private static String decisionFile(int n) {
        return "svm-psdkit-decision-" + n + ".csv";
    }

    /** Writes the text atomically, recorded as generated ({@link GeneratedFiles}). */
    private static void write(Path file, String text) {
        try {
            GeneratedFiles.write(file.toAbsolutePath().getParent(), file.getFileName().toString(),
                    os -> os.write(text.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": cannot write: " + e.getMessage(), e);
        }
    }
}
