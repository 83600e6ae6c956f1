package org.psdkit.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.Svr;
import org.psdkit.regression.SvrTrainer;

/**
 * The one-class SVM, ν-SVC and ν-SVR against scikit-learn's {@code OneClassSVM}, {@code NuSVC} and {@code NuSVR}
 * (LIBSVM) on the small problems that docs/benchmarks/nu_sklearn.py recorded in the test resources
 * {@code peers/nu/*}: the same kernel, ν, C and tolerance 1e-6. Labels must agree on at least 99.5 % of the test
 * points, decision values and ν-SVR predictions to 1e-4 relative to their scale.
 */
class NuPeerTest {
    @TempDir
    Path dir;

    private Path copy(String name) {
        Path out = dir.resolve(name);
        try (InputStream in = NuPeerTest.class.getResourceAsStream("/peers/nu/" + name)) {
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The expected file: test points (x1, x2) and the peer's output columns. */
    private Matrix expected(String problem) {
        return CsvReader.read(copy(problem + "-expected.csv"), CsvReader.Options.unsupervised()).x();
    }

    private static Matrix points(Matrix e) {
        return e.selectCols(new int[] {0, 1});
    }

    private static double scale(double[] v) {
        double s = 0;
        for (double x : v) {
            s = Math.max(s, Math.abs(x));
        }
        return s;
    }

    @Test
    void oneClassSvmAgreesWithScikitLearn() {
        Dataset train = CsvReader.read(copy("one-class-train.csv"), CsvReader.Options.unsupervised());
        OneClassSvm m = new OneClassSvmTrainer(OneClassSvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.5)"),
                0.1).withTolerance(1e-6)).fit(train);
        Matrix e = expected("one-class");
        Matrix p = m.predict(points(e));
        double[] dec = e.col(2);
        double tol = 1e-4 * scale(dec);
        int agree = 0;
        for (int i = 0; i < e.rows(); i++) {
            assertEquals(dec[i], p.get(i, 0), tol, "decision of test row " + i);
            agree += p.get(i, 1) == e.get(i, 3) ? 1 : 0;
        }
        assertTrue(agree >= 0.995 * e.rows(), agree + " of " + e.rows() + " labels agree");
        // ν bounds the fraction of training outliers (f < 0) from above and that of support vectors from below
        // (Schölkopf et al. 2001, Proposition 4); points on the boundary (f = 0 to the tolerance) are neither
        int outliers = 0;
        for (double f : m.decision(train.x())) {
            outliers += f < -1e-5 ? 1 : 0;
        }
        assertTrue(outliers <= 0.1 * train.n(), outliers + " outliers");
        assertTrue(m.inner().coef().length >= 0.1 * train.n(), m.inner().coef().length + " support vectors");
    }

    @Test
    void nuSvcAgreesWithScikitLearn() {
        Dataset train = CsvReader.read(copy("nu-svc-train.csv"), new CsvReader.Options(null, false, true));
        SvmClassifier m = (SvmClassifier) new SvmTrainer(SvmTrainer.Options.nu(
                Kernels.parse("gaussian(sigma=0.7)"), 0.6).withTolerance(1e-6)).fit(train);
        assertEquals(0.6, m.hyperParameters().get("nu"));
        Matrix e = expected("nu-svc");
        Matrix x = points(e);
        double[] f = m.predict(x).col(0);
        String[] labels = m.labelsOf(m.predict(x));
        // scikit-learn's decision is positive for its second class (+1); psdkit's for its positive label
        double sign = Double.parseDouble(m.binaryLabels().positive()) > 0 ? 1 : -1;
        double[] dec = e.col(2);
        double tol = 1e-4 * scale(dec);
        int agree = 0;
        for (int i = 0; i < e.rows(); i++) {
            assertEquals(dec[i], sign * f[i], tol, "decision of test row " + i);
            agree += Double.parseDouble(labels[i]) == e.get(i, 3) ? 1 : 0;
        }
        assertTrue(agree >= 0.995 * e.rows(), agree + " of " + e.rows() + " labels agree");
    }

    @Test
    void nuSvrAgreesWithScikitLearn() {
        Dataset train = CsvReader.read(copy("nu-svr-train.csv"), CsvReader.Options.regression());
        Pipeline<Svr> m = new SvrTrainer(SvrTrainer.Options.nu(Kernels.parse("gaussian(sigma=0.8)"), 2, 0.4)
                .withTolerance(1e-6)).fit(train);
        Matrix e = expected("nu-svr");
        double[] p = m.predict(points(e)).col(0);
        double[] want = e.col(2);
        double s = scale(want);
        for (int i = 0; i < e.rows(); i++) {
            assertEquals(want[i], p[i], 1e-4 * Math.max(Math.abs(want[i]), 1e-2 * s), "prediction of test row " + i);
        }
        Svr svr = m.inner();
        assertTrue(svr.epsilon() > 0, "the epsilon found: " + svr.epsilon());
        // strong duality: the primal with the ε found equals the dual at the optimum
        assertEquals(svr.diagnostics().dual(), svr.diagnostics().primal(),
                1e-4 * Math.abs(svr.diagnostics().dual()));
    }

    static Stream<Arguments> badNu() {
        return Stream.of(Arguments.of(0.0 - 1e-3), Arguments.of(1.5), Arguments.of(Double.NaN), Arguments.of(-1.0));
    }

    @ParameterizedTest(name = "nu = {0}")
    @MethodSource("badNu")
    void nuOutsideTheUnitIntervalNamesTheParameter(double nu) {
        var k = Kernels.parse("gaussian(sigma=1)");
        for (Runnable r : new Runnable[] {() -> OneClassSvmTrainer.Options.of(k, nu),
                () -> SvmTrainer.Options.nu(k, nu), () -> SvrTrainer.Options.nu(k, 1, nu)}) {
            ParameterException e = assertThrows(ParameterException.class, r::run);
            assertEquals("nu", e.parameter());
            assertTrue(e.getMessage().contains("(0, 1]"), e.getMessage());
        }
        // ν = 0 selects the C-SVC / ε-SVR, ν = 1 is allowed
        assertEquals(false, SvmTrainer.Options.of(k, 1).withNu(0).isNu());
        assertEquals(true, SvmTrainer.Options.nu(k, 1).isNu());
        assertEquals(1.0, OneClassSvmTrainer.Options.of(k, 1).nu());
    }

    @Test
    void anInfeasibleNuForTheClassesIsNamedClearly() {
        // 3 of one class, 9 of the other: ν ≤ 2·3/12 = 0.5
        double[][] x = new double[12][];
        double[] y = new double[12];
        for (int i = 0; i < 12; i++) {
            x[i] = new double[] {i, Math.sin(i)};
            y[i] = i < 3 ? 1 : -1;
        }
        Dataset d = Dataset.of(Matrix.of(x), y);
        var k = Kernels.parse("gaussian(sigma=1)");
        ParameterException e = assertThrows(ParameterException.class,
                () -> new SvmTrainer(SvmTrainer.Options.nu(k, 0.6)).fit(d));
        assertEquals("nu", e.parameter());
        assertTrue(e.getMessage().contains("infeasible") && e.getMessage().contains("0.5"), e.getMessage());
        // the largest feasible ν fits
        SvmClassifier ok = (SvmClassifier) new SvmTrainer(SvmTrainer.Options.nu(k, 0.5)).fit(d);
        assertTrue(((SvmTrainer.Fit) ok.diagnostics()).converged());
    }

    @Test
    void nuSvcWithTheCSvcsCGivesTheSameDecisionFunction() {
        // Chang & Lin 2001, Theorem 2: the ν-SVC solution α/r is the C-SVC solution for C = 1/r
        Dataset train = CsvReader.read(copy("nu-svc-train.csv"), new CsvReader.Options(null, false, true));
        var k = Kernels.parse("gaussian(sigma=0.7)");
        SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(train);
        var nr = NuSvc.solve(k, train.x(), lab.y(), 0.6, new org.psdkit.optim.smo.Smo.Options(1e-8, true), 1L << 26,
                null);
        SvmClassifier c = (SvmClassifier) new SvmTrainer(SvmTrainer.Options.of(k, 1 / nr.r()).withTolerance(1e-8)).fit(train);
        SvmClassifier n = (SvmClassifier) new SvmTrainer(SvmTrainer.Options.nu(k, 0.6).withTolerance(1e-8)).fit(train);
        double[] fc = c.predict(train.x()).col(0);
        double[] fn = n.predict(train.x()).col(0);
        for (int i = 0; i < fc.length; i++) {
            assertEquals(fc[i], fn[i], 1e-6, "row " + i);
        }
    }
}
