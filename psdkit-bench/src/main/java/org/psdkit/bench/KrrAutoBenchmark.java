package org.psdkit.bench;

import java.util.Arrays;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Pipeline;
import org.psdkit.optim.ProgressListener;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrAutoTrainer;
import org.psdkit.regression.KrrTrainer;

/**
 * Automatic σ and λ ({@link KrrAutoTrainer}) against a 10 × 10 (σ, λ) grid searched by 5-fold cross-validation, in
 * the same run: n rows drawn (seeded) as the training set, the remaining rows as the test set, features z-scored on
 * the training rows (each fold's scaler on its own training part). The grid is the {@code cv krr} procedure: per
 * fold and σ one Gram matrix, per λ one Cholesky fit ({@link KrrTrainer#fitWithGram}), the held-out RMSE pooled over
 * the folds, then the best point refitted on all n rows. The automatic fit runs before and after the grid; its time
 * is the mean of the two runs (the machine's load drifts), its RMSE that of the first (both runs are the same
 * computation). Times are in-process wall seconds, the final fits included, and the process CPU seconds of the same
 * spans (all threads): on a shared machine whose load drifts through a long run, the CPU ratio is the steadier one.
 */
public final class KrrAutoBenchmark {
    private KrrAutoBenchmark() {
    }

    /**
     * What was measured.
     *
     * @param n           training rows
     * @param test        test rows
     * @param gridSeconds the grid's time (Gram matrices, 5 × 100 fits and predictions, the refit)
     * @param gridRmse    test RMSE of the grid's best point refitted on all rows
     * @param gridSigma   the grid's σ
     * @param gridLambda  the grid's λ
     * @param autoSeconds the automatic fit's time (mean of its two runs)
     * @param autoRmse    test RMSE of the automatic fit
     * @param autoKernel  its kernel string
     * @param autoLambda  its λ
     * @param evaluations evaluations of the search
     * @param searchRows  rows of the search
     * @param gridCpu     the grid's process CPU seconds
     * @param autoCpu     the automatic fit's process CPU seconds (mean of its two runs)
     */
    public record Result(int n, int test, double gridSeconds, double gridRmse, double gridSigma, double gridLambda,
                         double autoSeconds, double autoRmse, String autoKernel, double autoLambda, int evaluations,
                         int searchRows, double gridCpu, double autoCpu) {
        /** Automatic test RMSE over the grid's. */
        public double rmseRatio() {
            return autoRmse / gridRmse;
        }

        /** Automatic time over the grid's. */
        public double timeRatio() {
            return autoSeconds / gridSeconds;
        }

        /** Automatic CPU time over the grid's. */
        public double cpuRatio() {
            return autoCpu / gridCpu;
        }
    }

    /** count values spaced evenly in log scale from lo to hi. */
    public static double[] logspace(double lo, double hi, int count) {
        return KrrLooBenchmark.logspace(lo, hi, count);
    }

    /**
     * Runs both searches.
     *
     * @param all     the data set (raw)
     * @param n       training rows (the rest is the test set)
     * @param auto    the automatic trainer's options (its base scaling is used by the grid too)
     * @param sigmas  the grid's σ values (on the scaled features)
     * @param lambdas the grid's λ values
     * @param folds   folds of the grid's cross-validation
     * @param seed    seed of the split and the folds
     */
    public static Result run(Dataset all, int n, KrrAutoTrainer.Options auto, double[] sigmas, double[] lambdas,
                             int folds, long seed, ProgressListener listener) {
        ProgressListener progress = ProgressListener.orNone(listener);
        int[] perm = Splits.permutation(all.n(), seed);
        Dataset train = Splits.subset(all, Arrays.copyOf(perm, n));
        Dataset test = Splits.subset(all, Arrays.copyOfRange(perm, n, all.n()));
        long t0 = System.nanoTime();
        long c0 = KrrScaleBenchmark.processCpuNanos();
        Pipeline<KernelRidge> a = new KrrAutoTrainer(auto).fit(train);
        double auto1 = (System.nanoTime() - t0) * 1e-9;
        double autoCpu1 = (KrrScaleBenchmark.processCpuNanos() - c0) * 1e-9;
        double autoRmse = rmse(a.predict(test.x()).col(0), test.y());

        t0 = System.nanoTime();
        c0 = KrrScaleBenchmark.processCpuNanos();
        Scaler.Kind scale = auto.base().scale();
        double[][] sse = new double[sigmas.length][lambdas.length];
        Splits.TrainTest[] parts = Splits.kFold(n, folds, seed);
        int step = 0;
        for (Splits.TrainTest part : parts) {
            Dataset tr = Splits.subset(train, part.train());
            Dataset te = Splits.subset(train, part.test());
            Scaler sc = Scaler.fit(scale, tr.x());
            Matrix xtr = sc.apply(tr.x());
            Matrix xte = sc.apply(te.x());
            for (int s = 0; s < sigmas.length; s++) {
                Kernel k = new GaussianKernel(sigmas[s]);
                Matrix gram = k.gram(xtr);
                Matrix cross = k.cross(xte, xtr);
                for (int l = 0; l < lambdas.length; l++) {
                    KernelRidge m = new KrrTrainer(auto.base().withKernel(k).withLambda(lambdas[l])
                            .withScale(Scaler.Kind.NONE)).fitWithGram(xtr, gram, tr.y(), null);
                    double[] p = Linalg.gemv(cross, false, m.alpha());
                    for (int i = 0; i < p.length; i++) {
                        double r = te.y()[i] - p[i] - m.offset();
                        sse[s][l] += r * r;
                    }
                }
                progress.onProgress(new ProgressListener.Event("krr-auto grid", ++step,
                        (long) folds * sigmas.length, null, Double.NaN, (System.nanoTime() - t0) * 1e-9));
            }
        }
        int bs = 0;
        int bl = 0;
        for (int s = 0; s < sigmas.length; s++) {
            for (int l = 0; l < lambdas.length; l++) {
                if (sse[s][l] < sse[bs][bl]) {
                    bs = s;
                    bl = l;
                }
            }
        }
        Pipeline<KernelRidge> g = new KrrTrainer(auto.base().withKernel(new GaussianKernel(sigmas[bs]))
                .withLambda(lambdas[bl])).fit(train);
        double gridSeconds = (System.nanoTime() - t0) * 1e-9;
        double gridCpu = (KrrScaleBenchmark.processCpuNanos() - c0) * 1e-9;
        double gridRmse = rmse(g.predict(test.x()).col(0), test.y());

        t0 = System.nanoTime();
        c0 = KrrScaleBenchmark.processCpuNanos();
        new KrrAutoTrainer(auto).fit(train);
        double auto2 = (System.nanoTime() - t0) * 1e-9;
        double autoCpu2 = (KrrScaleBenchmark.processCpuNanos() - c0) * 1e-9;
        KrrAutoTrainer.Fit d = (KrrAutoTrainer.Fit) a.diagnostics();
        return new Result(n, test.n(), gridSeconds, gridRmse, sigmas[bs], lambdas[bl], (auto1 + auto2) / 2,
                autoRmse, a.inner().kernel().spec(), a.inner().options().lambda(), d.search().evaluations(),
                d.search().searchRows(), gridCpu, (autoCpu1 + autoCpu2) / 2);
    }

    private static double rmse(double[] p, double[] y) {
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            s += (y[i] - p[i]) * (y[i] - p[i]);
        }
        return Math.sqrt(s / p.length);
    }
}
