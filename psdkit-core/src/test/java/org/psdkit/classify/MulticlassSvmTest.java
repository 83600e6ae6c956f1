package org.psdkit.classify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;

/**
 * The one-vs-one SVM against scikit-learn's {@code SVC} on iris (values recorded by
 * docs/benchmarks/svm_multiclass_reference.py, scikit-learn 1.2.1), its probabilities, weights and their errors.
 */
class MulticlassSvmTest {
    private static final SvmTrainer.Options OPTIONS = SvmTrainer.Options.of(GaussianKernel.fromGamma(0.5), 2)
            .withTolerance(1e-8);

    private static List<String[]> rows(String name) throws IOException {
        try (InputStream in = MulticlassSvmTest.class.getResourceAsStream("/classify/" + name)) {
            List<String[]> out = new ArrayList<>();
            for (String l : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!l.isBlank() && !l.startsWith("#")) {
                    out.add(l.split(","));
                }
            }
            return out.subList(1, out.size()); // header
        }
    }

    private static Dataset data(List<String[]> rows) {
        double[][] x = new double[rows.size()][4];
        String[] lab = new String[rows.size()];
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < 4; j++) {
                x[i][j] = Double.parseDouble(rows.get(i)[j]);
            }
            lab[i] = rows.get(i)[4];
        }
        return new Dataset(Matrix.of(x), null, lab, new String[] {"sl", "sw", "pl", "pw"}, "species", "iris");
    }

    private static Dataset train() throws IOException {
        return data(rows("iris-train.csv"));
    }

    private static double[] weights() throws IOException {
        return rows("iris-weights.csv").stream().mapToDouble(r -> Double.parseDouble(r[0])).toArray();
    }

    /** Labels equal and pairwise decision values to 1e-6 relative for the variant at column {@code col}. */
    private static void agrees(MulticlassSvm m, List<String[]> ref, int col) {
        Matrix out = m.predict(data(ref).x());
        String[] labels = m.labelsOf(out);
        for (int i = 0; i < ref.size(); i++) {
            String[] r = ref.get(i);
            assertEquals(r[col], labels[i], "row " + i);
            for (int p = 0; p < 3; p++) {
                double e = Double.parseDouble(r[col + 1 + p]);
                assertEquals(e, out.get(i, p), 1e-6 * Math.max(1, Math.abs(e)), "row " + i + " pair " + p);
            }
        }
    }

    @Test
    void oneVsOneEqualsScikitLearnSvc() throws IOException {
        MulticlassSvm m = assertInstanceOf(MulticlassSvm.class, new SvmTrainer(OPTIONS).fit(train()));
        assertEquals(List.of("a-setosa", "b-virginica", "c-versicolor"), m.labels()); // order of first appearance
        assertEquals(List.of("decision(a-setosa|b-virginica)", "decision(a-setosa|c-versicolor)",
                "decision(b-virginica|c-versicolor)"), m.outputColumns());
        agrees(m, rows("iris-sklearn.csv"), 5);
        SvmTrainer.Fit fit = assertInstanceOf(SvmTrainer.Fit.class, m.diagnostics());
        assertTrue(fit.converged() && fit.iterations() > 0, fit.toString());
    }

    @Test
    void classWeightsEqualScikitLearnClassWeight() throws IOException {
        ClassWeights w = ClassWeights.parse("a-setosa=4");
        agrees((MulticlassSvm) new SvmTrainer(OPTIONS.withClassWeight(w)).fit(train()), rows("iris-sklearn.csv"), 9);
    }

    @Test
    void sampleWeightsEqualScikitLearnSampleWeight() throws IOException {
        agrees((MulticlassSvm) new SvmTrainer(OPTIONS).fit(train(), weights(), null), rows("iris-sklearn.csv"), 13);
    }

    @Test
    void probabilitiesSumToOneAgreeWithTheLabelAndAreSeeded() throws IOException {
        Dataset tr = train();
        Dataset te = data(rows("iris-sklearn.csv"));
        MulticlassSvm a = (MulticlassSvm) new SvmTrainer(OPTIONS.withProbability(true)).fit(tr);
        MulticlassSvm b = (MulticlassSvm) new SvmTrainer(OPTIONS.withProbability(true)).fit(tr);
        MulticlassSvm c = (MulticlassSvm) new SvmTrainer(OPTIONS.withProbability(true).withSeed(7)).fit(tr);
        assertArrayEquals(a.inner().probA(), b.inner().probA(), 0.0);
        assertArrayEquals(a.inner().probB(), b.inner().probB(), 0.0);
        assertNotEquals(a.inner().probA()[0], c.inner().probA()[0]);
        Matrix p = a.probabilities(te.x());
        String[] labels = a.predictLabels(te.x());
        for (int i = 0; i < p.rows(); i++) {
            double sum = 0;
            int am = 0;
            for (int j = 0; j < 3; j++) {
                assertTrue(p.get(i, j) >= 0);
                sum += p.get(i, j);
                am = p.get(i, j) > p.get(i, am) ? j : am;
            }
            assertEquals(1.0, sum, 1e-12);
            assertEquals(a.labels().get(am), labels[i]);
        }
        MulticlassSvm.Scores e = a.evaluate(te);
        assertTrue(e.accuracy() > 0.9, e.toString());
        assertTrue(e.logLoss() < 0.3 && e.brier() < 0.2, e.toString());
        assertEquals(List.of("accuracy", "n", "classes", "logLoss", "brier"), List.copyOf(e.toMap().keySet()));
        assertEquals(null, plainScores(tr, te).logLoss());
        // the same pairs' decision values as without probabilities (the sigmoids come after the solve)
        MulticlassSvm plain = (MulticlassSvm) new SvmTrainer(OPTIONS).fit(tr);
        assertEquals(plain.predict(te.x()).get(0, 0), a.predict(te.x()).get(0, 0), 0.0);
    }

    private static MulticlassSvm.Scores plainScores(Dataset tr, Dataset te) {
        return ((MulticlassSvm) new SvmTrainer(OPTIONS).fit(tr)).evaluate(te);
    }

    @Test
    void twoClassesStayTheBinaryModelUnlessProbabilitiesAreAsked() throws IOException {
        Dataset tr = train();
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < tr.n(); i++) {
            if (!tr.labels()[i].equals("b-virginica")) {
                keep.add(i);
            }
        }
        int[] idx = keep.stream().mapToInt(Integer::intValue).toArray();
        String[] lab = new String[idx.length];
        for (int i = 0; i < idx.length; i++) {
            lab[i] = tr.labels()[idx[i]];
        }
        Dataset two = new Dataset(tr.x().selectRows(idx), null, lab, tr.featureNames(), "species", "iris");
        SvmClassifier bin = assertInstanceOf(SvmClassifier.class, new SvmTrainer(OPTIONS).fit(two));
        assertEquals(List.of("decision"), bin.outputColumns());
        MulticlassSvm prob = assertInstanceOf(MulticlassSvm.class,
                new SvmTrainer(OPTIONS.withProbability(true)).fit(two));
        assertEquals(List.of("decision(a-setosa|c-versicolor)", "p(a-setosa)", "p(c-versicolor)"),
                prob.outputColumns());
        // the pair's decision is the binary one with the sign of its first class (a-setosa is the negative)
        Matrix q = two.x().rowRange(0, 5);
        for (int i = 0; i < 5; i++) {
            assertEquals(-bin.predict(q).get(i, 0), prob.predict(q).get(i, 0), 1e-6);
        }
        // weighted binary fits keep the binary model
        assertInstanceOf(SvmClassifier.class, new SvmTrainer(OPTIONS.withClassWeight(ClassWeights.balancedWeights()))
                .fit(two));
    }

    @Test
    void votesBreakTiesTowardsTheFirstClass() {
        OvoDecision d = new OvoDecision(List.of("x", "y", "z"), GaussianKernel.fromGamma(1), Matrix.zeros(0, 1),
                new int[3], new double[2][0], new double[3], null, null);
        // x beats y, z beats x, y beats z: one vote each, x wins; a zero decision votes for the second class
        assertEquals(0, d.winner(new double[] {1, -1, 1}));
        assertEquals(1, d.winner(new double[] {-1, 1, 1}));
        assertEquals(2, d.winner(new double[] {0, 0, 0}));
        assertEquals(1, d.winner(new double[] {0, 1, 1}));
    }

    @Test
    void badWeightsAreRefusedNamingTheParameterAndRow() throws IOException {
        Dataset tr = train();
        double[] w = weights();
        w[2] = -1;
        ParameterException e = assertThrows(ParameterException.class, () -> new SvmTrainer(OPTIONS).fit(tr, w, null));
        assertEquals("sampleWeights", e.parameter());
        assertTrue(e.getMessage().contains("row 3") && e.getMessage().contains("-1.0"), e.getMessage());
        w[2] = Double.NaN;
        assertTrue(assertThrows(ParameterException.class, () -> new SvmTrainer(OPTIONS).fit(tr, w, null))
                .getMessage().contains("row 3"));
        assertThrows(ParameterException.class, () -> new SvmTrainer(OPTIONS).fit(tr, new double[3], null));
        assertThrows(ParameterException.class, () -> new SvmTrainer(OPTIONS).fit(tr, new double[tr.n()], null));
        ParameterException u = assertThrows(ParameterException.class,
                () -> new SvmTrainer(OPTIONS.withClassWeight(ClassWeights.parse("sick=5"))).fit(tr));
        assertEquals("classWeight", u.parameter());
        assertTrue(u.getMessage().contains("'sick'"), u.getMessage());
        for (String bad : new String[] {"a=x", "a", "=3", "a=-1", "a=0", "a=1,a=2", "", "a=Infinity"}) {
            assertEquals("classWeight", assertThrows(ParameterException.class, () -> ClassWeights.parse(bad))
                    .parameter(), bad);
        }
        assertEquals("sick=5.0,healthy=1.0", ClassWeights.parse("sick=5, healthy=1").toString());
        assertEquals("balanced", ClassWeights.parse("balanced").toString());
    }

    @Test
    void zeroSampleWeightsLeaveRowsOut() throws IOException {
        Dataset tr = train();
        double[] w = new double[tr.n()];
        java.util.Arrays.fill(w, 1);
        w[0] = 0;
        w[5] = 0;
        List<Integer> keep = new ArrayList<>();
        for (int i = 0; i < tr.n(); i++) {
            if (w[i] > 0) {
                keep.add(i);
            }
        }
        int[] idx = keep.stream().mapToInt(Integer::intValue).toArray();
        String[] lab = new String[idx.length];
        for (int i = 0; i < idx.length; i++) {
            lab[i] = tr.labels()[idx[i]];
        }
        Dataset fewer = new Dataset(tr.x().selectRows(idx), null, lab, tr.featureNames(), "species", "iris");
        Matrix q = tr.x().rowRange(0, 10);
        Matrix a = new SvmTrainer(OPTIONS).fit(tr, w, null).predict(q);
        Matrix b = new SvmTrainer(OPTIONS).fit(fewer).predict(q);
        for (int i = 0; i < 10; i++) {
            for (int p = 0; p < 3; p++) {
                assertEquals(b.get(i, p), a.get(i, p), 0.0);
            }
        }
    }
}
