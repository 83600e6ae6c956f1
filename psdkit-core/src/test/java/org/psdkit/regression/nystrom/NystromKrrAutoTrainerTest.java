package org.psdkit.regression.nystrom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.optim.ProgressListener;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrAutoTrainer;
import org.psdkit.regression.KrrAutoTrainer.Objective;
import org.psdkit.regression.KrrLoo;

/** Automatic σ and λ of Nyström KRR: gradients, objectives against brute force, the search and its model file. */
class NystromKrrAutoTrainerTest {
    @TempDir
    Path dir;

    private static final NystromKrrTrainer.Options BASE = NystromKrrTrainer.Options.of(new GaussianKernel(1), 1e-3,
            20, 5);

    static Matrix points(int n, int d, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < d; k++) {
                x.set(i, k, 2 * r.nextDouble() - 1);
            }
        }
        return x;
    }

    /** A smooth function of the first feature (the others are irrelevant) plus noise of sd 0.1. */
    static double[] target(Matrix x, long seed) {
        Random r = new Random(seed);
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.sin(3 * x.get(i, 0)) + 0.1 * r.nextGaussian();
        }
        return y;
    }

    /** Analytic gradients of every objective, with one bandwidth and with one per feature, against central differences. */
    @Test
    void gradientsMatchFiniteDifferences() {
        Matrix x = points(40, 3, 7);
        double[] y = target(x, 8);
        Matrix c = x.selectRows(new int[] {0, 3, 5, 9, 12, 17, 21, 26, 30, 38});
        for (Objective obj : Objective.values()) {
            for (boolean ard : new boolean[] {false, true}) {
                double[] theta = ard ? new double[] {Math.log(0.9), Math.log(1.6), Math.log(1.2), Math.log(0.05)}
                        : new double[] {Math.log(0.8), Math.log(0.02)};
                double[] g = new double[theta.length];
                java.util.Arrays.fill(g, 123.0); // whatever the caller's array held is overwritten
                double f0 = NystromKrrAutoTrainer.evaluate(x, c, y, 30, obj, ard, theta, g);
                assertTrue(Double.isFinite(f0) && f0 > 0, obj + " " + f0);
                assertEquals(f0, NystromKrrAutoTrainer.evaluate(x, c, y, 30, obj, ard, theta, null), 1e-14 * f0);
                for (int k = 0; k < theta.length; k++) {
                    double h = 1e-5;
                    double[] tp = theta.clone();
                    double[] tm = theta.clone();
                    tp[k] += h;
                    tm[k] -= h;
                    double fd = (NystromKrrAutoTrainer.evaluate(x, c, y, 30, obj, ard, tp, null)
                            - NystromKrrAutoTrainer.evaluate(x, c, y, 30, obj, ard, tm, null)) / (2 * h);
                    assertEquals(fd, g[k], 1e-6 * Math.max(1e-3, Math.abs(fd)),
                            obj + (ard ? " ard" : "") + " component " + k);
                }
            }
        }
    }

    /**
     * On n = 100 rows and 20 anchors: the leave-one-out error is that of 100 refits each without its row (same
     * anchors, normal equations solved directly), and both leave-one-out and GCV equal the eigendecomposition path
     * of {@link KrrLoo#nystrom}; the held-out error is that of a fit on the first rows scored on the others.
     */
    @Test
    void objectivesEqualBruteForce() {
        int n = 100;
        Matrix x = points(n, 2, 3);
        double[] y = target(x, 4);
        Matrix c = x.selectRows(new int[] {1, 6, 11, 15, 22, 28, 33, 37, 41, 47, 52, 58, 63, 66, 71, 77, 83, 88, 92,
                97});
        double sigma = 0.6;
        double lambda = 0.03;
        GaussianKernel k = new GaussianKernel(sigma);
        Matrix phi = k.cross(x, c);
        Matrix kmm = k.gram(c);
        double loo = 0;
        for (int i = 0; i < n; i++) {
            int[] keep = new int[n - 1];
            for (int j = 0, q = 0; j < n; j++) {
                if (j != i) {
                    keep[q++] = j;
                }
            }
            double[] a = ridge(phi.selectRows(keep), pick(y, keep), kmm, lambda);
            double e = y[i] - Linalg.dot(phi.row(i), a);
            loo += e * e / n;
        }
        double[] theta = {Math.log(sigma), Math.log(lambda)};
        double value = NystromKrrAutoTrainer.evaluate(x, c, y, n, Objective.LOO, false, theta, null);
        assertEquals(loo, value, 1e-9 * loo);
        KrrLoo.Path p = KrrLoo.nystrom(k, x, c, y, new double[] {lambda});
        assertEquals(p.looMse()[0], value, 1e-9 * loo);
        double gcv = NystromKrrAutoTrainer.evaluate(x, c, y, n, Objective.GCV, false, theta, null);
        assertEquals(p.gcv()[0], gcv, 1e-9 * gcv);
        int t = 80;
        int[] head = new int[t];
        for (int i = 0; i < t; i++) {
            head[i] = i;
        }
        double[] a = ridge(phi.selectRows(head), pick(y, head), kmm, lambda);
        double held = 0;
        for (int i = t; i < n; i++) {
            double e = y[i] - Linalg.dot(phi.row(i), a);
            held += e * e / (n - t);
        }
        assertEquals(held, NystromKrrAutoTrainer.evaluate(x, c, y, t, Objective.HOLDOUT, false, theta, null),
                1e-9 * held);
    }

    private static double[] ridge(Matrix phi, double[] y, Matrix kmm, double lambda) {
        Matrix a = Linalg.syrk(phi, true).plus(kmm.scale(lambda));
        return Linalg.solveSpd(a, Linalg.gemv(phi, true, y));
    }

    private static double[] pick(double[] v, int[] idx) {
        double[] r = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            r[i] = v[idx[i]];
        }
        return r;
    }

    /**
     * The search ends at least as low as every point of a 6 × 6 grid of the Nyström leave-one-out error on the same
     * anchors, reports progress, and the model is the ordinary Nyström fit at the chosen σ and λ (uniform anchors:
     * the same anchors), bit for bit.
     */
    @Test
    void searchBeatsTheGridAndFitsTheChosenPoint() {
        Matrix x = points(200, 2, 11);
        Dataset train = Dataset.of(x, target(x, 12));
        List<ProgressListener.Event> events = new ArrayList<>();
        Pipeline<KernelRidge> m = new NystromKrrAutoTrainer(NystromKrrAutoTrainer.Options.of(BASE))
                .fit(train, events::add);
        NystromKrrAutoTrainer.Fit d = assertInstanceOf(NystromKrrAutoTrainer.Fit.class, m.diagnostics());
        assertEquals(NystromKrrTrainer.FitDiagnostics.CG, d.fit().route());
        assertEquals(d.search().evaluations(), d.search().path().size());
        assertEquals(d.search().evaluations(), events.size());
        assertEquals(KrrAutoTrainer.TASK, events.get(0).task());
        assertEquals(200, d.search().searchRows());
        double sigma = ((GaussianKernel) m.inner().kernel()).sigma();
        double lambda = m.inner().options().lambda();
        Matrix c = m.inner().points();
        assertEquals(20, c.rows());
        double best = looRmse(x, c, train.y(), sigma, lambda);
        // KrrLoo's path drops the directions of K_mm below its rank threshold: agreement to 1e-7, not rounding
        assertEquals(best, d.search().rmse(), 1e-7 * best);
        for (double s : new double[] {0.125, 0.25, 0.5, 1, 2, 4}) {
            for (double l : new double[] {1e-4, 1e-3, 1e-2, 1e-1, 1, 10}) {
                assertTrue(best <= looRmse(x, c, train.y(), s, l) * (1 + 1e-9), "grid point " + s + ", " + l);
            }
        }
        Pipeline<KernelRidge> plain = new NystromKrrTrainer(BASE.withKernel(new GaussianKernel(sigma))
                .withLambda(lambda)).fit(train);
        assertArrayEquals(plain.inner().points().data(), c.data(), 0.0);
        assertArrayEquals(plain.inner().alpha(), m.inner().alpha(), 0.0);
        assertEquals(plain.hyperParameters().toMap(), m.hyperParameters().toMap());
    }

    private static double looRmse(Matrix x, Matrix c, double[] y, double sigma, double lambda) {
        return Math.sqrt(KrrLoo.nystrom(new GaussianKernel(sigma), x, c, y, new double[] {lambda}).looMse()[0]);
    }

    /** With one bandwidth per feature, the irrelevant second feature gets a far larger bandwidth than the first. */
    @Test
    void ardWidensTheIrrelevantFeature() {
        Matrix x = points(200, 2, 21);
        Dataset train = Dataset.of(x, target(x, 22));
        Pipeline<KernelRidge> m = new NystromKrrAutoTrainer(NystromKrrAutoTrainer.Options.of(BASE).withArd(true))
                .fit(train);
        NystromKrrAutoTrainer.Fit d = assertInstanceOf(NystromKrrAutoTrainer.Fit.class, m.diagnostics());
        double[] s = d.search().path().get(d.search().path().size() - 1).sigma();
        assertEquals(2, s.length);
        double[] best = null;
        double bestRmse = Double.POSITIVE_INFINITY;
        for (KrrAutoTrainer.Step st : d.search().path()) {
            if (st.rmse() < bestRmse) {
                bestRmse = st.rmse();
                best = st.sigma();
            }
        }
        assertTrue(best[1] > 3 * best[0], best[0] + " " + best[1]);
        assertEquals(bestRmse, d.search().rmse(), 1e-12);
    }

    /** A search on a subsample ends with polishing steps on all rows; GCV and the held-out error fit too. */
    @Test
    void subsampleHoldoutAndGcv() {
        Matrix x = points(240, 2, 31);
        Dataset train = Dataset.of(x, target(x, 32));
        Pipeline<KernelRidge> m = new NystromKrrAutoTrainer(NystromKrrAutoTrainer.Options.of(BASE)
                .withSearchRows(80).withRestarts(2)).fit(train);
        NystromKrrAutoTrainer.Fit d = assertInstanceOf(NystromKrrAutoTrainer.Fit.class, m.diagnostics());
        assertEquals(80, d.search().searchRows());
        List<KrrAutoTrainer.Step> path = d.search().path();
        assertEquals(KrrAutoTrainer.POLISH, path.get(path.size() - 1).restart());
        assertEquals(0, path.get(0).restart());
        for (Objective o : new Objective[] {Objective.GCV, Objective.HOLDOUT}) {
            NystromKrrAutoTrainer.Fit f = assertInstanceOf(NystromKrrAutoTrainer.Fit.class,
                    new NystromKrrAutoTrainer(NystromKrrAutoTrainer.Options.of(BASE).withObjective(o)
                            .withRestarts(2)).fit(train).diagnostics());
            assertEquals(o, f.search().objective());
            assertTrue(f.search().rmse() < 0.2, o + " " + f.search().rmse()); // noise sd 0.1, target sd 0.7
        }
    }

    /** Saved and loaded: same predictions, the typed diagnostics rebuilt with the whole path. */
    @Test
    void modelFileRoundTrip() {
        Matrix x = points(80, 2, 41);
        Dataset train = Dataset.of(x, target(x, 42));
        for (boolean ard : new boolean[] {false, true}) {
            Pipeline<KernelRidge> m = new NystromKrrAutoTrainer(NystromKrrAutoTrainer.Options.of(
                    BASE.withScale(Scaler.Kind.ZSCORE)).withArd(ard).withRestarts(2)).fit(train);
            Path f = dir.resolve("nystrom-auto-" + ard + ".json");
            ModelIO.save(m, f);
            Model back = ModelIO.load(f);
            assertArrayEquals(m.predict(x).data(), back.predict(x).data(), 0.0);
            NystromKrrAutoTrainer.Fit d = assertInstanceOf(NystromKrrAutoTrainer.Fit.class, back.diagnostics());
            assertEquals(m.diagnostics().toMap(), d.toMap());
            assertEquals(ard, d.search().ard());
        }
    }

    /** The search's memory is checked before it starts: five n×m matrices at n = 10⁷, m = 10⁴ cannot fit. */
    @Test
    void memoryIsCheckedBeforeTheSearch() {
        assertThrows(org.psdkit.linalg.MemoryBudget.InsufficientMemoryException.class,
                () -> NystromKrrAutoTrainer.checkMemory(10_000_000, 8, 10_000));
        NystromKrrAutoTrainer.checkMemory(1_000, 8, 100);
    }

    @Test
    void optionsNameTheirParameter() {
        NystromKrrAutoTrainer.Options o = NystromKrrAutoTrainer.Options.of(BASE);
        assertEquals("restarts", assertThrows(ParameterException.class, () -> o.withRestarts(0)).parameter());
        assertEquals("iterations", assertThrows(ParameterException.class, () -> o.withIterations(0)).parameter());
        assertEquals("searchRows", assertThrows(ParameterException.class, () -> o.withSearchRows(5)).parameter());
        assertEquals("holdout", assertThrows(ParameterException.class, () -> o.withHoldout(0)).parameter());
        assertEquals("kernel", assertThrows(ParameterException.class, () -> NystromKrrAutoTrainer.Options.of(
                BASE.withKernel(Kernels.parse("laplacian(sigma=1)")))).parameter());
        assertEquals("options", assertThrows(ParameterException.class,
                () -> NystromKrrAutoTrainer.Options.of(null)).parameter());
        Matrix x = points(20, 2, 1);
        double[] ones = new double[20];
        java.util.Arrays.fill(ones, 1.0);
        Dataset weighted = Dataset.of(x, target(x, 2)).withWeights(ones);
        assertThrows(IllegalArgumentException.class,
                () -> new NystromKrrAutoTrainer(NystromKrrAutoTrainer.Options.of(BASE)).fit(weighted));
    }
}
