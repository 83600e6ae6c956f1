package org.psdkit.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import org.psdkit.experiments.TkTable1;
import org.psdkit.classify.mkl.KernelLearning.Method;
import org.psdkit.classify.mkl.KernelLearning;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

/**
 * Time to learn a tessellated kernel and train the SVM on one 80/20 split of a binary data set, against baselines
 * measured in the same run: a plain SVM with a fixed Gaussian kernel (Gram + SMO) and SimpleMKL over the
 * Gaussian/polynomial library, all with the same relative C. Medians over repetitions after warm-up runs (JIT
 * compilation, native library loading). Behind {@code psdkit bench tk} (pima).
 */
public final class TkBenchmark {
    private TkBenchmark() {
    }

    /**
     * Options of one run.
     *
     * @param data      CSV file with a header and the binary label in the last column
     * @param repeats   timed runs (&gt;= 1)
     * @param warmup    untimed runs before them (&gt;= 0)
     * @param cRel      relative C (&gt; 0)
     * @param epsilon   box margin of the TK kernel (&gt;= 0)
     * @param degree    TK degree
     * @param simpleMkl whether to run the SimpleMKL baseline
     */
    public record Options(Path data, int repeats, int warmup, double cRel, double epsilon, int degree,
                          boolean simpleMkl) {
        public Options {
            if (data == null) {
                throw new IllegalArgumentException("data must not be null");
            }
            if (repeats < 1 || warmup < 0) {
                throw new IllegalArgumentException("repeats must be >= 1 and warmup >= 0");
            }
            if (!(cRel > 0) || !(epsilon >= 0)) {
                throw new IllegalArgumentException("cRel must be > 0 and epsilon >= 0");
            }
        }
    }

    /**
     * One run: its number (negative for the warm-up runs: −warmup … −1, then 0 … repeats−1) and the seconds of each
     * method (SimpleMKL 0 when skipped).
     */
    public record Run(int run, double tkSeconds, double gaussianSvmSeconds, double simpleMklSeconds) {
    }

    /**
     * The medians over the timed runs.
     *
     * @param data               the data source
     * @param trainRows          training rows
     * @param features           features
     * @param tkSeconds          TK learning + SVM
     * @param gaussianSvmSeconds fixed-Gaussian SVM (Gram + SMO)
     * @param simpleMklSeconds   SimpleMKL, NaN when skipped
     * @param tkIterations       iterations of the last TK fit
     * @param tkKernel           summary of the last learned kernel
     */
    public record Result(String data, int trainRows, int features, double tkSeconds, double gaussianSvmSeconds,
                         double simpleMklSeconds, int tkIterations, String tkKernel) {
        public double ratioTkOverGaussianSvm() {
            return tkSeconds / gaussianSvmSeconds;
        }

        public double ratioTkOverSimpleMkl() {
            return tkSeconds / simpleMklSeconds;
        }
    }

    /** Runs the benchmark; {@code listener} gets one report per run (may be null). */
    public static Result run(Options options, ProgressListener listener) {
        return run(options, listener, null);
    }

    /** Runs the benchmark and hands each run's times to {@code onRun} as soon as it is done (may be null). */
    public static Result run(Options o, ProgressListener listener, Consumer<? super Run> onRun) {
        int repeats = o.repeats();
        int warmup = o.warmup();
        double cRel = o.cRel();
        double eps = o.epsilon();
        boolean noMkl = !o.simpleMkl();
        TkTable1.Split part = TkTable1.Labeled.read(o.data()).split(1000);
        Matrix x = part.xtr();
        double[] ytr = part.ytr();
        KernelLearning.Settings st = new KernelLearning.Settings(o.degree(), TessellatedKernel.Orthant.LOWER, 300, 1);
        double[] tk = new double[repeats];
        double[] gauss = new double[repeats];
        double[] mkl = new double[repeats];
        KernelLearning.Fitted last = null;
        Phases phases = new Phases(listener, (long) warmup + repeats);
        for (int r = -warmup; r < repeats; r++) {
            phases.start(r < 0 ? "warm-up run " + (r + warmup + 1) + "/" + warmup
                    : "timed run " + (r + 1) + "/" + repeats);
            long t0 = System.nanoTime();
            last = KernelLearning.fit(x, ytr, KernelLearning.FitOptions.relative(Method.TK, cRel, eps, st, 1e-2),
                    null);
            long t1 = System.nanoTime();
            GaussianKernel g = new GaussianKernel(1.0);
            Matrix k = g.gram(x);
            Smo.solve(KernelRows.dense(k), ytr, cRel / (k.trace() / k.rows()), Smo.DEFAULT_TOLERANCE, null);
            long t2 = System.nanoTime();
            if (!noMkl) {
                KernelLearning.fit(x, ytr, KernelLearning.FitOptions.relative(Method.SIMPLEMKL, cRel, 0, st, 1e-2),
                        null);
            }
            long t3 = System.nanoTime();
            phases.end();
            if (r >= 0) {
                tk[r] = (t1 - t0) * 1e-9;
                gauss[r] = (t2 - t1) * 1e-9;
                mkl[r] = (t3 - t2) * 1e-9;
            }
            if (onRun != null) {
                onRun.accept(new Run(r, (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, (t3 - t2) * 1e-9));
            }
        }
        return new Result(String.valueOf(o.data().getFileName()), x.rows(), x.cols(), median(tk), median(gauss), noMkl ? Double.NaN : median(mkl),
                last.iterations(), last.summary());
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }
}
