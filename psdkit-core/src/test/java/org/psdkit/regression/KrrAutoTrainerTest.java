package org.psdkit.regression;

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
import org.psdkit.kernel.LibraryKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.optim.ProgressListener;
import org.psdkit.regression.KrrAutoTrainer.Objective;

/** Automatic σ and λ of exact KRR: gradients, objectives, the search and its model file (n ≤ 200). */
class KrrAutoTrainerTest {
    @TempDir
    Path dir;

    private static final KrrTrainer.Options BASE = KrrTrainer.Options.of(new GaussianKernel(1), 1e-3);

    /** Analytic gradients of every objective, with one bandwidth and with one per feature, against central differences. */
    @Test
    void gradientsMatchFiniteDifferences() {
        Matrix x = KernelRidgeTest.points(30, 3, 7);
        double[] y = KernelRidgeTest.target(x, 8);
        for (Objective obj : Objective.values()) {
            for (boolean ard : new boolean[] {false, true}) {
                double[] theta = ard ? new double[] {Math.log(0.9), Math.log(1.6), Math.log(1.2), Math.log(0.05)}
                        : new double[] {Math.log(1.3), Math.log(0.02)};
                double[] g = new double[theta.length];
                double f0 = KrrAutoTrainer.evaluate(x, y, 22, obj, ard, theta, g);
                assertTrue(Double.isFinite(f0) && f0 > 0, obj + " " + f0);
                assertEquals(f0, KrrAutoTrainer.evaluate(x, y, 22, obj, ard, theta, null), 1e-14 * f0);
                for (int k = 0; k < theta.length; k++) {
                    double h = 1e-5;
                    double[] tp = theta.clone();
                    double[] tm = theta.clone();
                    tp[k] += h;
                    tm[k] -= h;
                    double fd = (KrrAutoTrainer.evaluate(x, y, 22, obj, ard, tp, null)
                            - KrrAutoTrainer.evaluate(x, y, 22, obj, ard, tm, null)) / (2 * h);
                    assertEquals(fd, g[k], 1e-6 * Math.max(1e-3, Math.abs(fd)),
                            obj + (ard ? " ard" : "") + " component " + k);
                }
            }
        }
    }

    /** The leave-one-out and GCV values are those of the eigendecomposition path ({@link KrrLoo}). */
    @Test
    void objectivesEqualTheLeaveOneOutPath() {
        Matrix x = KernelRidgeTest.points(60, 2, 3);
        double[] y = KernelRidgeTest.target(x, 4);
        double sigma = 0.7;
        double lambda = 0.03;
        KrrLoo.Path p = KrrLoo.exact(new GaussianKernel(sigma), x, y, new double[] {lambda});
        double[] theta = {Math.log(sigma), Math.log(lambda)};
        assertEquals(p.looMse()[0], KrrAutoTrainer.evaluate(x, y, 60, Objective.LOO, false, theta, null),
                1e-10 * p.looMse()[0]);
        assertEquals(p.gcv()[0], KrrAutoTrainer.evaluate(x, y, 60, Objective.GCV, false, theta, null),
                1e-10 * p.gcv()[0]);
    }

    /**
     * The search ends at least as low as every point of a 6 × 6 grid of the same objective, and the model is the
     * ordinary fit at the chosen σ and λ, bit for bit.
     */
    @Test
    void searchBeatsTheGridAndFitsTheChosenPoint() {
        Matrix x = KernelRidgeTest.points(150, 2, 11);
        Dataset train = Dataset.of(x, KernelRidgeTest.target(x, 12));
        List<ProgressListener.Event> events = new ArrayList<>();
        Pipeline<KernelRidge> m = new KrrAutoTrainer(KrrAutoTrainer.Options.of(BASE)).fit(train, events::add);
        KrrAutoTrainer.Fit d = assertInstanceOf(KrrAutoTrainer.Fit.class, m.diagnostics());
        assertEquals(d.search().evaluations(), d.search().path().size());
        assertEquals(d.search().evaluations(), events.size());
        assertEquals(KrrAutoTrainer.TASK, events.get(0).task());
        double sigma = ((GaussianKernel) m.inner().kernel()).sigma();
        double lambda = m.inner().options().lambda();
        double best = looRmse(x, train.y(), sigma, lambda);
        assertEquals(best, d.search().rmse(), 1e-9 * best);
        for (double s : new double[] {0.25, 0.5, 1, 2, 4, 8}) {
            for (double l : new double[] {1e-4, 1e-3, 1e-2, 1e-1, 1, 10}) {
                assertTrue(best <= looRmse(x, train.y(), s, l) * (1 + 1e-9), "grid point " + s + ", " + l);
            }
        }
        Pipeline<KernelRidge> plain = new KrrTrainer(BASE.withKernel(new GaussianKernel(sigma)).withLambda(lambda))
                .fit(train);
        assertArrayEquals(plain.inner().alpha(), m.inner().alpha(), 0.0);
    }

    private static double looRmse(Matrix x, double[] y, double sigma, double lambda) {
        return Math.sqrt(KrrLoo.exact(new GaussianKernel(sigma), x, y, new double[] {lambda}).looMse()[0]);
    }

    /** With one bandwidth per feature, an irrelevant feature gets a far larger bandwidth than a relevant one. */
    @Test
    void ardWidensTheIrrelevantFeature() {
        Random r = new Random(5);
        int n = 200;
        Matrix x = Matrix.zeros(n, 3);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                x.set(i, k, r.nextGaussian());
            }
            y[i] = Math.sin(2 * x.get(i, 0)) + x.get(i, 1) + 0.05 * r.nextGaussian();
        }
        Pipeline<KernelRidge> m = new KrrAutoTrainer(KrrAutoTrainer.Options.of(BASE).withArd(true))
                .fit(Dataset.of(x, y));
        LibraryKernel k = assertInstanceOf(LibraryKernel.class, m.inner().kernel());
        double[] ell = k.std().scale();
        assertTrue(ell[2] > 3 * ell[0] && ell[2] > 3 * ell[1], java.util.Arrays.toString(ell));
        Pipeline<KernelRidge> iso = new KrrAutoTrainer(KrrAutoTrainer.Options.of(BASE)).fit(Dataset.of(x, y));
        assertTrue(((KrrAutoTrainer.Fit) m.diagnostics()).search().rmse()
                < ((KrrAutoTrainer.Fit) iso.diagnostics()).search().rmse());
    }

    /**
     * On more rows than the search takes, (σ, λ) is polished on all rows: the reported error is the
     * leave-one-out error of the final model on all rows.
     */
    @Test
    void subsampledSearchIsPolishedOnAllRows() {
        Matrix x = KernelRidgeTest.points(160, 2, 21);
        Dataset train = Dataset.of(x, KernelRidgeTest.target(x, 22));
        Pipeline<KernelRidge> m = new KrrAutoTrainer(KrrAutoTrainer.Options.of(BASE).withSearchRows(60)).fit(train);
        KrrAutoTrainer.Fit d = (KrrAutoTrainer.Fit) m.diagnostics();
        assertEquals(60, d.search().searchRows());
        assertTrue(d.search().path().stream().anyMatch(s -> s.restart() == KrrAutoTrainer.POLISH));
        assertEquals(KrrAutoTrainer.POLISH, d.search().path().get(d.search().path().size() - 1).restart());
        double sigma = ((GaussianKernel) m.inner().kernel()).sigma();
        assertEquals(looRmse(x, train.y(), sigma, m.inner().options().lambda()), d.search().rmse(),
                1e-9 * d.search().rmse());
    }

    /** The held-out objective and GCV run and give a model better than a constant. */
    @Test
    void holdoutAndGcvFit() {
        Matrix x = KernelRidgeTest.points(120, 2, 31);
        Dataset train = Dataset.of(x, KernelRidgeTest.target(x, 32));
        for (Objective o : new Objective[] {Objective.HOLDOUT, Objective.GCV}) {
            Pipeline<KernelRidge> m = new KrrAutoTrainer(KrrAutoTrainer.Options.of(BASE).withObjective(o))
                    .fit(train);
            KrrAutoTrainer.Fit d = (KrrAutoTrainer.Fit) m.diagnostics();
            assertEquals(o, d.search().objective());
            assertTrue(d.search().rmse() < 0.5, o + " " + d.search().rmse()); // the target's sd is about 0.9
        }
    }

    /** Saved and loaded: same predictions, the typed diagnostics rebuilt with the whole path. */
    @Test
    void modelFileRoundTrip() {
        Matrix x = KernelRidgeTest.points(50, 2, 41);
        Dataset train = Dataset.of(x, KernelRidgeTest.target(x, 42));
        for (boolean ard : new boolean[] {false, true}) {
            Pipeline<KernelRidge> m = new KrrAutoTrainer(KrrAutoTrainer.Options.of(BASE.withScale(Scaler.Kind.ZSCORE))
                    .withArd(ard).withRestarts(2)).fit(train);
            Path f = dir.resolve("auto-" + ard + ".json");
            ModelIO.save(m, f);
            Model back = ModelIO.load(f);
            assertArrayEquals(m.predict(x).data(), back.predict(x).data(), 0.0);
            KrrAutoTrainer.Fit d = assertInstanceOf(KrrAutoTrainer.Fit.class, back.diagnostics());
            assertEquals(m.diagnostics().toMap(), d.toMap());
            assertEquals(ard, d.search().ard());
        }
    }

    @Test
    void optionsNameTheirParameter() {
        KrrAutoTrainer.Options o = KrrAutoTrainer.Options.of(BASE);
        assertEquals("restarts", assertThrows(ParameterException.class, () -> o.withRestarts(0)).parameter());
        assertEquals("iterations", assertThrows(ParameterException.class, () -> o.withIterations(0)).parameter());
        assertEquals("searchRows", assertThrows(ParameterException.class, () -> o.withSearchRows(5)).parameter());
        assertEquals("holdout", assertThrows(ParameterException.class, () -> o.withHoldout(1)).parameter());
        assertEquals("objective", assertThrows(ParameterException.class, () -> Objective.parse("cv")).parameter());
        assertEquals("kernel", assertThrows(ParameterException.class, () -> KrrAutoTrainer.Options.of(
                BASE.withKernel(Kernels.parse("laplacian(sigma=1)")))).parameter());
        assertEquals("form", assertThrows(ParameterException.class, () -> KrrAutoTrainer.Options.of(
                BASE.withForm(KernelRidge.Form.REPRESENTER))).parameter());
    }
}
