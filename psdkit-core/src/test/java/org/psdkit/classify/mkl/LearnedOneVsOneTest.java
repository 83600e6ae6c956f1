package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.data.Splits;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Trainer;

/** One-vs-one learned-kernel SVMs: each pair is the binary trainer's fit on its two classes; LIBSVM's vote. */
class LearnedOneVsOneTest {

    /** Three (or {@code k}) Gaussian blobs, labels "c", "a", "b", … in order of first appearance. */
    static Dataset blobs(int n, int k, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        String[] lab = new String[n];
        String[] names = {"c", "a", "b", "d"};
        for (int i = 0; i < n; i++) {
            int c = i % k;
            x[i][0] = r.nextGaussian() + (c == 1 ? 2.5 : 0) + (c == 3 ? 2.5 : 0);
            x[i][1] = r.nextGaussian() + (c == 2 ? 2.5 : 0) + (c == 3 ? 2.5 : 0);
            lab[i] = names[c];
        }
        return new Dataset(Matrix.of(x), null, lab, new String[] {"x1", "x2"}, "cls", "blobs");
    }

    private static void checkPairs(Trainer<SvmClassifier> binary, Dataset ds) {
        Classifier m = new LearnedOneVsOne(binary).fit(ds);
        MulticlassLearnedSvm ml = assertInstanceOf(MulticlassLearnedSvm.class, m);
        assertEquals(List.of("c", "a", "b"), ml.labels());
        assertEquals(List.of("decision(c|a)", "decision(c|b)", "decision(a|b)"), ml.outputColumns());
        Matrix out = ml.predict(ds.x());
        String[][] pairs = {{"c", "a"}, {"c", "b"}, {"a", "b"}};
        for (int p = 0; p < 3; p++) {
            // the pair is the binary trainer's fit on the rows of its two classes, in their order
            int count = 0;
            for (String l : ds.labels()) {
                count += l.equals(pairs[p][0]) || l.equals(pairs[p][1]) ? 1 : 0;
            }
            int[] idx = new int[count];
            int t = 0;
            for (int i = 0; i < ds.n(); i++) {
                if (ds.labels()[i].equals(pairs[p][0]) || ds.labels()[i].equals(pairs[p][1])) {
                    idx[t++] = i;
                }
            }
            SvmClassifier alone = binary.fit(Splits.subset(ds, idx));
            double sign = alone.binaryLabels().positive().equals(pairs[p][0]) ? 1 : -1;
            double[] f = alone.predict(ds.x()).col(0);
            for (int i = 0; i < f.length; i++) {
                f[i] *= sign;
            }
            assertArrayEquals(f, out.col(p), 0.0, "pair " + p);
        }
        // LIBSVM's vote: f_ij > 0 votes i, else j; the first class in order wins ties
        String[] labels = ml.labelsOf(out);
        for (int i = 0; i < ds.n(); i++) {
            int[] v = new int[3];
            v[out.get(i, 0) > 0 ? 0 : 1]++;
            v[out.get(i, 1) > 0 ? 0 : 2]++;
            v[out.get(i, 2) > 0 ? 1 : 2]++;
            int best = v[1] > v[0] ? 1 : 0;
            best = v[2] > v[best] ? 2 : best;
            assertEquals(ml.labels().get(best), labels[i]);
        }
        assertTrue(ml.evaluate(ds).accuracy() > 0.8, "training accuracy " + ml.evaluate(ds).accuracy());
        // the model file keeps every pair: bit-identical predictions after a round trip
        Classifier back = (Classifier) ModelIO.fromJson(ModelIO.toJson(m), "round trip");
        assertArrayEquals(out.data(), back.predict(ds.x()).data(), 0.0);
        assertEquals(ml.diagnostics().toMap(), back.diagnostics().toMap());
        assertInstanceOf(OneVsOneFit.class, back.diagnostics());
    }

    @Test
    void tkSvmPairsAreTheBinaryFitsOnTheirClasses() {
        checkPairs(new TkSvmTrainer(TkSvmTrainer.Options.of(10, 0.1, 1)), blobs(45, 3, 1));
    }

    @Test
    void simpleMklPairsAreTheBinaryFitsOnTheirClasses() {
        checkPairs(new SimpleMklTrainer(SimpleMklTrainer.Options.builder(KernelLearning.Method.SIMPLEMKL).c(10)
                .build()), blobs(45, 3, 2));
    }

    @Test
    void twoClassesGiveTheBinaryModel() {
        Dataset two = blobs(30, 2, 3);
        TkSvmTrainer binary = new TkSvmTrainer(TkSvmTrainer.Options.of(10, 0.1, 1));
        Classifier m = new LearnedOneVsOne(binary).fit(two);
        SvmClassifier b = assertInstanceOf(SvmClassifier.class, m);
        assertArrayEquals(binary.fit(two).predict(two.x()).data(), b.predict(two.x()).data(), 0.0);
    }

    @Test
    void fourClassesMakeSixPairs() {
        Dataset four = blobs(48, 4, 4);
        MulticlassLearnedSvm m = (MulticlassLearnedSvm) new LearnedOneVsOne(new TkSvmTrainer(
                TkSvmTrainer.Options.of(10, 0.1, 1))).fit(four);
        assertEquals(6, m.pairs().size());
        assertEquals(6, ((OneVsOneFit) m.diagnostics()).pairs());
    }

    @Test
    void aMissingBinaryTrainerIsNamed() {
        var e = assertThrows(org.psdkit.model.ParameterException.class, () -> new LearnedOneVsOne(null));
        assertTrue(e.getMessage().contains("binary"), e.getMessage());
    }
}
