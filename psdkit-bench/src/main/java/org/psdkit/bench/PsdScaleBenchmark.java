package org.psdkit.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Anchors;

/**
 * The PSD density solver from n = 300 to n = 10⁶ (issue 14, behind {@code psdkit bench psd-scale}): the primal
 * L-BFGS solver ({@link PsdDensityOptions.Solver#PRIMAL_LBFGS}) against the dual FISTA
 * ({@link PsdDensityOptions.Solver#DUAL_FISTA}) run on the same data in the same run, with the time ratio and the
 * difference of the objectives. Cases (Lebesgue base throughout):
 * <ul>
 * <li>{@code d10-n1000}, {@code d10-n2000}: the d = 10 mixture ½N(−2e₁, I/2π) + ½N(2e₁, I/2π), σ = 0.44, exact model,
 * λ₁ = λ₂ = 1e-3 on the raw scale, gap 1e-6;</li>
 * <li>{@code 2d-n300}: ½N((−1,0), 0.25 I) + ½N((1,0.5), 0.25 I), σ = 0.3, λ = 1e-3 on the default (trace) scale with
 * λ₂ = 0.01 λ (the CLI's {@code --lambda 1e-3}), gap 1e-6;</li>
 * <li>{@code d10-n20000-a500}: the d = 10 mixture, 500 uniform anchors, λ = 1e-3 (trace scale, λ₂ = 0.01 λ), gap 1e-6;
 * the dual FISTA gets a time limit;</li>
 * <li>on request ({@code bigN > 0}): n rows of the d = 10 mixture written as CSV and read back (timed), m anchors,
 * gap {@code bigTolerance}; the test log-likelihood on {@link #TEST_ROWS} fresh rows against the exact model fitted on
 * {@link #REFERENCE_ROWS} rows with the same σ, λ and tolerance; the time and process CPU seconds from reading the CSV
 * to the fitted model.</li>
 * </ul>
 */
public final class PsdScaleBenchmark {

    /** Kernel width of the d = 10 cases (the σ = 0.44). */
    public static final double SIGMA_10D = 0.44;
    /** Rows of the exact reference model of the large case (the 2,000). */
    public static final int REFERENCE_ROWS = 2000;
    /** Held-out rows of the large case. */
    public static final int TEST_ROWS = 10_000;

    /** The default cases, in the order they run. */
    public static final List<String> CASES = List.of("2d-n300", "d10-n1000", "d10-n2000", "d10-n20000-a500");

    private PsdScaleBenchmark() {
    }

    /**
     * Options.
     *
     * @param cases            the default cases to run by name ({@link #CASES}); empty: none
     * @param bigN             rows of the large case (0: not run)
     * @param bigAnchors       anchors of the large case
     * @param bigTolerance     relative gap of the large case
     * @param dualTimeLimit    seconds the dual FISTA may use per case (on a loaded machine it may not reach the gap;
     *                         its gap at the limit is reported, and the time ratio is then an upper bound)
     * @param dir              where the large case's CSV goes ({@link GeneratedFiles}: a file of the same name that a
     *                         benchmark did not write there is refused)
     * @param bigBaseline      also fit the large case with the single-rung warm start ({@link
     *                         PsdDensityEstimator.WarmStart#COARSE}) on the same data and anchors, the baseline of
     *                         the warm-start ladder (the row's baseline fields)
     * @param listener         the large fit's progress events (null: none)
     * @param optimumTolerance &gt; 0: after the two timed fits of a compared case, the primal solver once more to this
     *                         relative gap (not timed), the optimum both timed fits are compared with; its
     *                         certificate puts the true optimum in [objective − gap, objective] (the row's optimum
     *                         fields); 0: not run
     * @param compareTolerance the relative gap both solvers of the compared cases stop at ({@link
     *                         #COMPARE_TOLERANCE} by default)
     */
    public record Options(java.util.Set<String> cases, int bigN, int bigAnchors, double bigTolerance, double dualTimeLimit,
                          Path dir, boolean bigBaseline, ProgressListener listener, double optimumTolerance,
                          double compareTolerance) {

        /** Without the tighter reference solve. */
        public Options(java.util.Set<String> cases, int bigN, int bigAnchors, double bigTolerance,
                       double dualTimeLimit, Path dir, boolean bigBaseline, ProgressListener listener) {
            this(cases, bigN, bigAnchors, bigTolerance, dualTimeLimit, dir, bigBaseline, listener, 0,
                    COMPARE_TOLERANCE);
        }

        /** Without the large case's warm-start baseline, the reference solve and progress events. */
        public Options(java.util.Set<String> cases, int bigN, int bigAnchors, double bigTolerance,
                       double dualTimeLimit, Path dir) {
            this(cases, bigN, bigAnchors, bigTolerance, dualTimeLimit, dir, false, null, 0, COMPARE_TOLERANCE);
        }
    }

    /** The relative gap of the compared cases by default (the "to gap 1e-6"). */
    public static final double COMPARE_TOLERANCE = 1e-6;

    /**
     * One case: the primal solver's figures and the dual FISTA's measured in the same run (NaN when not run);
     * {@code optimum}, {@code optimumGap}: the objective and absolute duality gap P − D of the tighter reference
     * solve ({@link Options#optimumTolerance}; the optimum lies in [optimum − optimumGap, optimum]);
     * {@code cpuSeconds}, {@code baselineCpuSeconds}: process CPU seconds of the primal and the dual FISTA fit (of
     * the whole large case for the large one).
     */
    public record Row(String name, int n, int d, int anchors, int rank, String solver, int iterations,
                      double seconds, double relativeGap, boolean converged, double objective,
                      double baselineSeconds, double baselineGap, boolean baselineConverged,
                      double baselineObjective, double readSeconds, double testLoglik, double referenceLoglik,
                      double featureSeconds, double solveSeconds, double referenceSeconds, double cpuSeconds,
                      double optimum, double optimumGap, double baselineCpuSeconds) {

        Row(String name, int n, int d, int anchors, int rank, String solver, int iterations, double seconds,
            double relativeGap, boolean converged, double objective, double baselineSeconds, double baselineGap,
            boolean baselineConverged, double baselineObjective, double optimum, double optimumGap,
            double cpuSeconds, double baselineCpuSeconds) {
            this(name, n, d, anchors, rank, solver, iterations, seconds, relativeGap, converged, objective,
                    baselineSeconds, baselineGap, baselineConverged, baselineObjective, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, cpuSeconds, optimum, optimumGap,
                    baselineCpuSeconds);
        }

        /** |objective − optimum| (NaN without the reference solve). */
        public double objectiveVsOptimum() {
            return Math.abs(objective - optimum);
        }

        /** |baseline objective − optimum| (NaN without the reference solve). */
        public double baselineObjectiveVsOptimum() {
            return Math.abs(baselineObjective - optimum);
        }

        /** Primal time over the dual FISTA's. */
        public double ratio() {
            return seconds / baselineSeconds;
        }

        /** |objective − baseline objective|. */
        public double objectiveDifference() {
            return Math.abs(objective - baselineObjective);
        }
    }

    /** ½N(−2e₁, I/2π) + ½N(2e₁, I/2π) in d = 10 (Marteau-Ferey, Bach &amp; Rudi 2020 App. E), seeded. */
    public static Matrix mixture10d(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double sd = 1 / Math.sqrt(2 * Math.PI);
        Matrix x = Matrix.zeros(n, 10);
        for (int i = 0; i < n; i++) {
            double c = rnd.nextBoolean() ? 2 : -2;
            for (int j = 0; j < 10; j++) {
                x.set(i, j, (j == 0 ? c : 0) + sd * rnd.nextGaussian());
            }
        }
        return x;
    }

    /** ½N((−1,0), 0.5² I) + ½N((1,0.5), 0.5² I) in 2-D, seeded. */
    public static Matrix mixture2d(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Matrix x = Matrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            boolean right = rnd.nextBoolean();
            x.set(i, 0, (right ? 1 : -1) + 0.5 * rnd.nextGaussian());
            x.set(i, 1, (right ? 0.5 : 0) + 0.5 * rnd.nextGaussian());
        }
        return x;
    }

    private static PsdDensity fit(Matrix x, Matrix anchors, double sigma, PsdDensityOptions o) {
        return PsdDensityEstimator.fit(x, anchors, PsdDensityTrainer.Options.of(new GaussianKernel(sigma),
                new BaseMeasure.Lebesgue(), o), null);
    }

    private static double meanLog(PsdDensity p, Matrix x) {
        double s = 0;
        for (double v : p.density(x)) {
            s += Math.log(v);
        }
        return s / x.rows();
    }

    private static Row compare(String name, Matrix x, Matrix anchors, double sigma, PsdDensityOptions o,
                               double dualLimit, double optimumTolerance) {
        double c0 = processCpuSeconds();
        PsdDensity p = fit(x, anchors, sigma, o);
        double c1 = processCpuSeconds();
        PsdDensity b = fit(x, anchors, sigma, o.withSolver(PsdDensityOptions.Solver.DUAL_FISTA)
                .withTimeLimit(dualLimit));
        double c2 = processCpuSeconds();
        var dp = p.diagnostics();
        var db = b.diagnostics();
        double opt = Double.NaN;
        double optGap = Double.NaN;
        if (optimumTolerance > 0) {
            var dr = fit(x, anchors, sigma, o.withTolerance(optimumTolerance)).diagnostics();
            opt = dr.objective();
            optGap = dr.converged() ? dr.objective() - dr.dual() : Double.NaN;
        }
        return new Row(name, x.rows(), x.cols(), dp.anchors(), dp.rank(), o.solver().id(), dp.iterations(),
                dp.seconds(), dp.relativeGap(), dp.converged(), dp.objective(), db.seconds(), db.relativeGap(),
                db.converged(), db.objective(), opt, optGap, c1 - c0, c2 - c1);
    }

    /** Runs the cases; {@code each} receives every row as it is done. */
    public static List<Row> run(Options opt, Consumer<Row> each) {
        GeneratedFiles.requireReplaceable(opt.dir(), files(opt), "--dir");
        Machine.warmUp();
        List<Row> rows = new ArrayList<>();
        Consumer<Row> add = r -> {
            rows.add(r);
            if (each != null) {
                each.accept(r);
            }
        };
        double ct = opt.compareTolerance();
        PsdDensityOptions raw = new PsdDensityOptions(1e-3, 1e-3, PsdDensityOptions.LambdaScale.RAW, ct,
                PsdDensityOptions.DEFAULT_MAX_ITERATIONS, Double.POSITIVE_INFINITY);
        PsdDensityOptions cli = new PsdDensityOptions(1e-3, 1e-5, PsdDensityOptions.LambdaScale.TRACE, ct,
                PsdDensityOptions.DEFAULT_MAX_ITERATIONS, Double.POSITIVE_INFINITY);
        for (String c : opt.cases()) {
            if (!CASES.contains(c)) {
                throw new IllegalArgumentException("cases: '" + c + "' is not one of " + CASES);
            }
        }
        if (opt.cases().contains("2d-n300")) {
            add.accept(compare("2d-n300", mixture2d(300, 1), null, 0.3, cli, opt.dualTimeLimit(), opt.optimumTolerance()));
        }
        if (opt.cases().contains("d10-n1000")) {
            add.accept(compare("d10-n1000", mixture10d(1000, 1), null, SIGMA_10D, raw, opt.dualTimeLimit(), opt.optimumTolerance()));
        }
        if (opt.cases().contains("d10-n2000")) {
            add.accept(compare("d10-n2000", mixture10d(2000, 1), null, SIGMA_10D, raw, opt.dualTimeLimit(), opt.optimumTolerance()));
        }
        if (opt.cases().contains("d10-n20000-a500")) {
            Matrix x = mixture10d(20_000, 2);
            Matrix a = x.selectRows(Anchors.select(new GaussianKernel(SIGMA_10D), x, 500, Anchors.Method.UNIFORM,
                    1));
            add.accept(compare("d10-n20000-a500", x, a, SIGMA_10D, cli, opt.dualTimeLimit(), opt.optimumTolerance()));
        }
        if (opt.bigN() > 0) {
            add.accept(big(opt, cli.withTolerance(opt.bigTolerance())));
        }
        return rows;
    }

    /** The names of the files a run writes into {@link Options#dir}: the large case's CSV, if it runs. */
    public static List<String> files(Options opt) {
        return opt.bigN() > 0 ? List.of(bigFile(opt.bigN())) : List.of();
    }

    private static String bigFile(int n) {
        return "psd-scale-" + n + ".csv";
    }

    private static Row big(Options opt, PsdDensityOptions o) {
        Path csv = writeCsv(opt.dir(), bigFile(opt.bigN()), mixture10d(opt.bigN(), 3));
        System.gc(); // the writer's garbage is not the fit's
        double cpu0 = processCpuSeconds();
        long t0 = System.nanoTime();
        Dataset data = CsvReader.read(csv, CsvReader.Options.unsupervised());
        Matrix x = data.x();
        data = null;
        double read = (System.nanoTime() - t0) * 1e-9;
        Matrix a = x.selectRows(Anchors.select(new GaussianKernel(SIGMA_10D), x, opt.bigAnchors(),
                Anchors.Method.UNIFORM, 1));
        PsdDensity p = PsdDensityEstimator.fit(x, a, PsdDensityTrainer.Options.of(new GaussianKernel(SIGMA_10D),
                new BaseMeasure.Lebesgue(), o), PsdDensityEstimator.WarmStart.DEFAULT, opt.listener());
        double total = (System.nanoTime() - t0) * 1e-9;
        double cpu = processCpuSeconds() - cpu0;
        var dp = p.diagnostics();
        Matrix test = mixture10d(TEST_ROWS, 4);
        double testLoglik = meanLog(p, test);
        p = null;
        double bs = Double.NaN;
        double bg = Double.NaN;
        boolean bc = false;
        double bo = Double.NaN;
        if (opt.bigBaseline()) {
            long b0 = System.nanoTime();
            PsdDensity b = PsdDensityEstimator.fit(x, a, PsdDensityTrainer.Options.of(new GaussianKernel(SIGMA_10D),
                    new BaseMeasure.Lebesgue(), o), PsdDensityEstimator.WarmStart.COARSE, null);
            bs = (System.nanoTime() - b0) * 1e-9;
            bg = b.diagnostics().relativeGap();
            bc = b.diagnostics().converged();
            bo = b.diagnostics().objective();
        }
        x = null;
        long r0 = System.nanoTime();
        // the same σ, λ and tolerance (the gap bounds the objective's distance to the optimum, so a tighter one
        // moves the test log-likelihood in its 4th digit at most at 1e-4)
        PsdDensity ref = fit(mixture10d(REFERENCE_ROWS, 5), null, SIGMA_10D, o);
        double refSeconds = (System.nanoTime() - r0) * 1e-9;
        return new Row("d10-n" + opt.bigN() + "-a" + opt.bigAnchors(), opt.bigN(), 10, dp.anchors(), dp.rank(),
                o.solver().id(), dp.iterations(), total, dp.relativeGap(), dp.converged(), dp.objective(),
                bs, bg, bc, bo, read, testLoglik, meanLog(ref, test), total - read - dp.seconds(), dp.seconds(),
                refSeconds, cpu, Double.NaN, Double.NaN, Double.NaN);
    }

    /** CPU seconds of this process (all threads, native BLAS included), NaN where the JVM does not say. */
    static double processCpuSeconds() {
        var os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            long ns = sun.getProcessCpuTime();
            return ns < 0 ? Double.NaN : ns * 1e-9;
        }
        return Double.NaN;
    }

    /** Writes x as CSV (x1..xd) into dir/name, atomically and recorded as generated ({@link GeneratedFiles}). */
    private static Path writeCsv(Path dir, String name, Matrix x) {
        try {
            return GeneratedFiles.write(dir, name, os -> {
                BufferedWriter w = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8));
                StringBuilder h = new StringBuilder();
                for (int j = 0; j < x.cols(); j++) {
                    h.append(j == 0 ? "" : ",").append("x").append(j + 1);
                }
                w.write(h.toString());
                w.newLine();
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < x.rows(); i++) {
                    sb.setLength(0);
                    for (int j = 0; j < x.cols(); j++) {
                        sb.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.9g", x.get(i, j)));
                    }
                    w.write(sb.toString());
                    w.newLine();
                }
                w.flush();
            });
        } catch (IOException e) {
            throw new UncheckedIOException("psd-scale: cannot write " + dir.resolve(name) + ": " + e.getMessage(), e);
        }
    }
}
