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

    /**
     * Where the time of the exact path goes, against one fit's parts, on the same subsample (in-process wall
     * seconds, best of {@code repeats}): the Gram matrix; one fit's Cholesky factorisation (dpotrf) and solve; the
     * eigendecomposition by dsyevd (the path's route, {@link org.psdkit.linalg.Linalg#eigh}) and by dsyevr
     * ({@link org.psdkit.linalg.Linalg#eighMrrr}); the two products of the path with the eigenvectors, (V∘V)·[1/(s+λ)]
     * for every G_ii and V·[c/(s+λ)] for every α (n×n by n×λs); and the per-λ loop over the rows.
     *
     * @param maxDiagonalGap the largest |G_ii| difference between the dsyevd and dsyevr routes over the path,
     *                       relative to the largest G_ii
     */
    public record Phases(int n, int lambdas, double gram, double cholesky, double dsyevd, double dsyevr,
                         double products, double loop, double maxDiagonalGap) {
        /** One fit: the Gram matrix and the factorisation with its solve. */
        public double fit() {
            return gram + cholesky;
        }

        /** The path as {@link KrrLoo#exact} runs it: Gram, dsyevd, products, loop. */
        public double path() {
            return gram + dsyevd + products + loop;
        }
    }

    public static Phases profile(Dataset all, int n, Kernel kernel, double[] lambdas, int repeats, long seed) {
        if (n > WARM_UP_ROWS) {
            profile(all, WARM_UP_ROWS, kernel, lambdas, 1, seed); // compiles the Java loops, starts the BLAS threads
        }
        int[] idx = Arrays.copyOf(Splits.permutation(all.n(), seed), n);
        Dataset sub = Splits.subset(all, idx);
        Matrix x = Scaler.fit(Scaler.Kind.ZSCORE, sub.x()).apply(sub.x());
        double[] y = sub.y();
        double tg = Double.POSITIVE_INFINITY;
        double tc = Double.POSITIVE_INFINITY;
        double td = Double.POSITIVE_INFINITY;
        double tr = Double.POSITIVE_INFINITY;
        double tp = Double.POSITIVE_INFINITY;
        double tl = Double.POSITIVE_INFINITY;
        double gap = 0;
        int nl = lambdas.length;
        for (int rep = 0; rep < repeats; rep++) {
            long t0 = System.nanoTime();
            Matrix k = kernel.gram(x);
            tg = Math.min(tg, (System.nanoTime() - t0) * 1e-9);
            Matrix a = k.copy();
            a.addToDiagonal(lambdas[nl / 2]);
            t0 = System.nanoTime();
            org.psdkit.linalg.Linalg.choleskyStrict(a).solve(y);
            tc = Math.min(tc, (System.nanoTime() - t0) * 1e-9);
            t0 = System.nanoTime();
            org.psdkit.linalg.Eigen ed = org.psdkit.linalg.Linalg.eigh(k);
            td = Math.min(td, (System.nanoTime() - t0) * 1e-9);
            t0 = System.nanoTime();
            org.psdkit.linalg.Eigen er = org.psdkit.linalg.Linalg.eighMrrr(k);
            tr = Math.min(tr, (System.nanoTime() - t0) * 1e-9);
            // the path's products and loop (KrrLoo.exactGram) on the dsyevd vectors
            t0 = System.nanoTime();
            Matrix[] gd = products(ed, y, lambdas);
            tp = Math.min(tp, (System.nanoTime() - t0) * 1e-9);
            t0 = System.nanoTime();
            double[] loo = new double[nl];
            for (int l = 0; l < nl; l++) {
                double sl = 0;
                for (int i = 0; i < n; i++) {
                    double e = gd[1].get(i, l) / gd[0].get(i, l);
                    sl += e * e;
                }
                loo[l] = sl / n;
            }
            tl = Math.min(tl, (System.nanoTime() - t0) * 1e-9);
            Matrix[] gr = products(er, y, lambdas);
            double max = 0;
            double diff = 0;
            for (int i = 0; i < gd[0].data().length; i++) {
                max = Math.max(max, Math.abs(gd[0].data()[i]));
                diff = Math.max(diff, Math.abs(gd[0].data()[i] - gr[0].data()[i]));
            }
            gap = Math.max(gap, diff / max);
        }
        return new Phases(n, nl, tg, tc, td, tr, tp, tl, gap);
    }

    /** Rows of the untimed warm-up run of {@link #profile}. */
    static final int WARM_UP_ROWS = 300;

    /** G_ii and α_i for every λ (columns) from an eigendecomposition, as {@link KrrLoo#exactGram} forms them. */
    private static Matrix[] products(org.psdkit.linalg.Eigen e, double[] y, double[] lambdas) {
        int n = y.length;
        int nl = lambdas.length;
        double[] s = e.values();
        Matrix v = e.vectors();
        double[] c = org.psdkit.linalg.Linalg.gemv(v, true, y);
        Matrix inv = Matrix.zeros(n, nl);
        Matrix cInv = Matrix.zeros(n, nl);
        for (int l = 0; l < nl; l++) {
            for (int j = 0; j < n; j++) {
                double d = 1.0 / (Math.max(s[j], 0) + lambdas[l]);
                inv.set(j, l, d);
                cInv.set(j, l, c[j] * d);
            }
        }
        Matrix v2 = v.copy();
        double[] a2 = v2.data();
        for (int i = 0; i < a2.length; i++) {
            a2[i] *= a2[i];
        }
        return new Matrix[] {org.psdkit.linalg.Linalg.gemm(1.0, v2, false, inv, false),
            org.psdkit.linalg.Linalg.gemm(1.0, v, false, cInv, false)};
    }
}
