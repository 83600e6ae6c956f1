package org.psdkit.regression;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.nystrom.NystromDirect;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sample weights in kernel ridge (exact and Nyström) and ridge, against scikit-learn's recorded predictions. */
class SampleWeightsTest {
    private static final SklearnReference REF = SklearnReference.load();
    private static final Kernel GAUSS = Kernels.parse("gaussian(sigma=1)");

    private static void assertClose(double[] expected, double[] actual, double tol) {
        assertEquals(expected.length, actual.length);
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], actual[i], tol, "entry " + i);
        }
    }

    @Test
    void weightedKrrEqualsScikitLearn() {
        Dataset train = REF.train(1).withWeights(REF.w);
        Pipeline<KernelRidge> m = new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1)).fit(train);
        double[] p = m.predict(REF.xTest).col(0);
        assertClose(REF.expected("krr_w"), p, 1e-10);
        // without the weights the predictions differ: the test can fail
        double[] plain = new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1)).fit(REF.train(1)).predict(REF.xTest).col(0);
        assertTrue(KernelRidgeTest.maxRelDiff(plain, REF.expected("krr_w")) > 1e-4);
    }

    @Test
    void weightedKrrOnACachedGramEqualsTheDirectFit() {
        KernelRidge.Options o = KernelRidge.Options.standard(0.1);
        KernelRidge a = KernelRidge.fit(GAUSS, REF.xTrain, REF.y.col(0), REF.w, o);
        KernelRidge b = KernelRidge.fitGram(GAUSS, REF.xTrain, GAUSS.gram(REF.xTrain), REF.y.col(0), REF.w, o);
        assertClose(a.alpha(), b.alpha(), 1e-12);
        assertEquals(0.0, a.alpha()[3], "a zero weight gives a zero coefficient");
    }

    @Test
    void integerWeightsEqualDuplicatedRowsWithCentring() {
        double[] w = new double[REF.xTrain.rows()];
        java.util.Arrays.fill(w, 1);
        w[5] = 2;
        int[] idx = new int[w.length + 1];
        for (int i = 0; i < w.length; i++) {
            idx[i] = i;
        }
        idx[w.length] = 5;
        KernelRidge.Options o = new KernelRidge.Options(0.1, KernelRidge.Form.STANDARD, 0, true);
        KernelRidge weighted = KernelRidge.fit(GAUSS, REF.xTrain, REF.y.col(0), w, o);
        double[] yd = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            yd[i] = REF.y.get(idx[i], 0);
        }
        KernelRidge dup = KernelRidge.fit(GAUSS, REF.xTrain.selectRows(idx), yd, o);
        assertClose(dup.predictVector(REF.xTest), weighted.predictVector(REF.xTest), 1e-10);
        assertEquals(dup.offset(), weighted.offset(), 1e-14);
    }

    @Test
    void weightedRidgeEqualsScikitLearnInBothForms() {
        Dataset train = REF.train(1).withWeights(REF.w);
        for (RidgeTrainer.Form f : RidgeTrainer.Form.values()) {
            double[] p = new RidgeTrainer(RidgeTrainer.Options.of(1.0).withForm(f)).fit(train).predict(REF.xTest)
                    .col(0);
            assertClose(REF.expected("ridge_w"), p, 1e-10);
        }
        double[] plain = new RidgeTrainer(RidgeTrainer.Options.of(1.0)).fit(REF.train(1)).predict(REF.xTest).col(0);
        assertTrue(KernelRidgeTest.maxRelDiff(plain, REF.expected("ridge_w")) > 1e-4);
    }

    @Test
    void weightedNystromWithEveryPointAnAnchorIsExactWeightedKrr() {
        Dataset train = REF.train(1).withWeights(REF.w);
        int n = train.n();
        Pipeline<KernelRidge> m = new NystromKrrTrainer(NystromKrrTrainer.Options.of(GAUSS, 0.1, n, 7)).fit(train);
        assertEquals("nystrom-direct", m.diagnostics().toMap().get("route"));
        assertClose(REF.expected("krr_w"), m.predict(REF.xTest).col(0), 1e-7);
    }

    @Test
    void weightedNystromEqualsDuplicatedRowsOnTheSameAnchors() {
        Random r = new Random(3);
        Matrix x = KernelRidgeTest.points(60, 2, 5);
        double[] y = KernelRidgeTest.target(x, 6);
        double[] w = new double[60];
        int extra = 0;
        for (int i = 0; i < 60; i++) {
            w[i] = r.nextInt(3);
            extra += (int) w[i];
        }
        int[] idx = new int[extra];
        for (int i = 0, k = 0; i < 60; i++) {
            for (int c = 0; c < w[i]; c++) {
                idx[k++] = i;
            }
        }
        Matrix anchors = x.selectRows(new int[] {0, 5, 9, 17, 22, 31, 40, 51});
        double[] yd = new double[extra];
        for (int k = 0; k < extra; k++) {
            yd[k] = y[idx[k]];
        }
        NystromDirect.Solution a = NystromDirect.solve(NystromDirect.normal(GAUSS, x, anchors, Matrix.column(y), w,
                true), 0.05);
        NystromDirect.Solution b = NystromDirect.solve(NystromDirect.normal(GAUSS, x.selectRows(idx), anchors,
                Matrix.column(yd), null, true), 0.05);
        assertClose(b.alpha().col(0), a.alpha().col(0), 1e-8);
        assertEquals(b.offsets()[0], a.offsets()[0], 1e-13);
    }

    private static Dataset threeTargets(double[] w) {
        Dataset d = Dataset.ofTargets(REF.xTrain, new String[] {"x1", "x2", "x3"}, REF.y,
                new String[] {"y1", "y2", "y3"}, "krr-train.csv");
        return w == null ? d : d.withWeights(w);
    }

    private static void assertColumns(String prefix, Matrix p, double tol) {
        assertEquals(3, p.cols());
        for (int k = 0; k < 3; k++) {
            assertClose(REF.expected(prefix + (k + 1)), p.col(k), tol);
        }
    }

    @Test
    void threeTargetsInOneSolveEqualScikitLearn() {
        Pipeline<KernelRidge> m = new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1)).fit(threeTargets(null));
        assertColumns("krr_y", m.predict(REF.xTest), 1e-10);
        KrrTrainer.Fit fit = (KrrTrainer.Fit) m.diagnostics();
        assertEquals(3, fit.targets());
        assertEquals(1, fit.factorizations());
        assertEquals(3, m.diagnostics().toMap().get("targets"));
        Pipeline<KernelRidge> w = new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1)).fit(threeTargets(REF.w));
        assertColumns("krrw_y", w.predict(REF.xTest), 1e-10);
        // one target's fit still writes the one-target diagnostics
        assertEquals(java.util.List.of("route", "jitter", "rank", "conditionEstimate", "seconds"),
                java.util.List.copyOf(new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1)).fit(REF.train(2))
                        .diagnostics().toMap().keySet()));
    }

    @Test
    void eachTargetOfTheJointFitEqualsItsOwnFit() {
        Pipeline<KernelRidge> joint = new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1).withCenter(true))
                .fit(threeTargets(null));
        for (int k = 1; k <= 3; k++) {
            double[] own = new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1).withCenter(true)).fit(REF.train(k))
                    .predict(REF.xTest).col(0);
            assertClose(own, joint.predict(REF.xTest).col(k - 1), 1e-12);
        }
    }

    @Test
    void threeTargetsOfRidgeEqualScikitLearnInBothForms() {
        for (RidgeTrainer.Form f : RidgeTrainer.Form.values()) {
            Pipeline<RidgeRegression> m = new RidgeTrainer(RidgeTrainer.Options.of(1.0).withForm(f))
                    .fit(threeTargets(null));
            assertColumns("ridge_y", m.predict(REF.xTest), 1e-10);
            // weighted: the first column is the weighted one-target fit
            Pipeline<RidgeRegression> w = new RidgeTrainer(RidgeTrainer.Options.of(1.0).withForm(f))
                    .fit(threeTargets(REF.w));
            assertClose(REF.expected("ridge_w"), w.predict(REF.xTest).col(0), 1e-10);
        }
    }

    @Test
    void nystromOfThreeTargetsWithEveryPointAnAnchorIsExactKrr() {
        int n = REF.xTrain.rows();
        Pipeline<KernelRidge> m = new NystromKrrTrainer(NystromKrrTrainer.Options.of(GAUSS, 0.1, n, 7))
                .fit(threeTargets(null));
        assertEquals(3, m.diagnostics().toMap().get("targets"));
        assertEquals(1, m.diagnostics().toMap().get("factorizations"));
        assertColumns("krr_y", m.predict(REF.xTest), 1e-7);
    }

    @Test
    void severalTargetsRoundTripThroughModelFiles(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Pipeline<KernelRidge> m = new KrrTrainer(KrrTrainer.Options.of(GAUSS, 0.1)).fit(threeTargets(REF.w));
        java.nio.file.Path f = dir.resolve("m.json");
        org.psdkit.io.ModelIO.save(m, f);
        org.psdkit.model.Model back = org.psdkit.io.ModelIO.load(f);
        assertEquals("y1,y2,y3", back.targetName());
        assertArrayEquals(m.predict(REF.xTest).data(), back.predict(REF.xTest).data(), 0.0);
        Pipeline<RidgeRegression> r = new RidgeTrainer(RidgeTrainer.Options.of(1.0)).fit(threeTargets(null));
        org.psdkit.io.ModelIO.save(r, f);
        assertArrayEquals(r.predict(REF.xTest).data(), org.psdkit.io.ModelIO.load(f).predict(REF.xTest).data(), 0.0);
    }

    @Test
    void theRepresenterFormRefusesWeights() {
        ParameterException e = assertThrows(ParameterException.class, () -> KernelRidge.fit(GAUSS, REF.xTrain,
                REF.y.col(0), REF.w, new KernelRidge.Options(0.1, KernelRidge.Form.REPRESENTER, 0, false)));
        assertEquals("form", e.parameter());
    }

    @Test
    void badWeightsAreRefusedNamingTheEntry() {
        double[] w = REF.w.clone();
        w[4] = -1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> REF.train(1).withWeights(w));
        assertTrue(e.getMessage().contains("weights[4] = -1.0"), e.getMessage());
        w[4] = Double.NaN;
        assertThrows(IllegalArgumentException.class, () -> REF.train(1).withWeights(w));
        assertThrows(IllegalArgumentException.class, () -> REF.train(1).withWeights(new double[3]));
        assertThrows(IllegalArgumentException.class, () -> REF.train(1).withWeights(new double[REF.w.length]));
    }

    @Test
    void subsetsKeepTheirRowsWeights() {
        Dataset d = REF.train(1).withWeights(REF.w);
        Dataset s = Splits.subset(d, new int[] {7, 3, 0});
        assertArrayEquals(new double[] {REF.w[7], REF.w[3], REF.w[0]}, s.weights());
    }
}
