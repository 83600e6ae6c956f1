package org.psdkit.bench;

import java.util.Arrays;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrLoo;
import org.psdkit.regression.nystrom.NystromDirect;
import org.psdkit.psd.Anchors;

/**
 * The leave-one-out path of KRR ({@link KrrLoo}) against one fit, in the same run: on a z-scored subsample of n rows,
 * one exact fit (Gram matrix + Cholesky, {@link KernelRidge#fit}) and the leave-one-out errors of a whole λ path
 * (Gram matrix + one eigendecomposition + the path); with anchors, one direct Nyström fit against the Nyström path
 * on the same anchors. The fits and paths alternate, best of {@code repeats}.
 */
public final class KrrLooBenchmark {
    private KrrLooBenchmark() {
    }

    /** What was measured (seconds are the best of the repeats). */
    public record Result(int n, int lambdas, double fitSeconds, double pathSeconds, int anchors,
                         double nystromFitSeconds, double nystromPathSeconds, double bestLambda, double bestRmse) {
        /** Path time over one fit. */
        public double ratio() {
            return pathSeconds / fitSeconds;
        }

        /** Nyström path time over one Nyström fit. */
        public double nystromRatio() {
            return nystromPathSeconds / nystromFitSeconds;
        }
    }

    /** λ values spaced evenly in log scale from lo to hi. */
    public static double[] logspace(double lo, double hi, int count) {
        double[] l = new double[count];
        for (int i = 0; i < count; i++) {
            l[i] = count == 1 ? lo : Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * i / (count - 1));
        }
        return l;
    }

    public static Result run(Dataset all, int n, Kernel kernel, double[] lambdas, int anchors, int repeats,
                             long seed) {
        int[] idx = Arrays.copyOf(Splits.permutation(all.n(), seed), n);
        Dataset sub = Splits.subset(all, idx);
        Matrix x = Scaler.fit(Scaler.Kind.ZSCORE, sub.x()).apply(sub.x());
        double[] y = sub.y();
        double fit = Double.POSITIVE_INFINITY;
        double path = Double.POSITIVE_INFINITY;
        double nfit = Double.POSITIVE_INFINITY;
        double npath = Double.POSITIVE_INFINITY;
        KrrLoo.Path p = null;
        Matrix c = anchors > 0 ? x.selectRows(Anchors.uniform(n, anchors, seed)) : null;
        for (int r = 0; r < repeats; r++) {
            long t0 = System.nanoTime();
            KernelRidge.fit(kernel, x, y, KernelRidge.Options.standard(lambdas[lambdas.length / 2]));
            fit = Math.min(fit, (System.nanoTime() - t0) * 1e-9);
            t0 = System.nanoTime();
            p = KrrLoo.exact(kernel, x, y, lambdas);
            path = Math.min(path, (System.nanoTime() - t0) * 1e-9);
            if (c != null) {
                t0 = System.nanoTime();
                NystromDirect.solve(NystromDirect.normal(kernel, x, c, Matrix.column(y), null, false),
                        lambdas[lambdas.length / 2]);
                nfit = Math.min(nfit, (System.nanoTime() - t0) * 1e-9);
                t0 = System.nanoTime();
                KrrLoo.nystrom(kernel, x, c, y, lambdas);
                npath = Math.min(npath, (System.nanoTime() - t0) * 1e-9);
            }
        }
        int b = p.bestLoo();
        return new Result(n, lambdas.length, fit, path, anchors, c == null ? Double.NaN : nfit,
                c == null ? Double.NaN : npath, lambdas[b], Math.sqrt(p.looMse()[b]));
    }
}
