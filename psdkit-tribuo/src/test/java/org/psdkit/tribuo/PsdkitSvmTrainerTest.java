package org.psdkit.tribuo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Scaler;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.tribuo.Example;
import org.tribuo.Model;
import org.tribuo.MutableDataset;
import org.tribuo.Prediction;
import org.tribuo.classification.Label;
import org.tribuo.classification.evaluation.LabelEvaluation;
import org.tribuo.classification.evaluation.LabelEvaluator;
import org.tribuo.evaluation.CrossValidation;
import org.tribuo.evaluation.KFoldSplitter;
import com.oracle.labs.mlrg.olcut.util.Pair;

/**
 * The SVM trainer on data read by Tribuo's CSVLoader: labels and decision values as psdkit's direct fit (1e-12),
 * LabelEvaluator's accuracy and CrossValidation's folds as psdkit's on the same rows.
 */
class PsdkitSvmTrainerTest {
    @TempDir
    Path dir;

    static final SvmTrainer.Options OPTIONS = SvmTrainer.Options.of(Families.KERNEL, 10)
            .withScale(Scaler.Kind.ZSCORE);

    /** Tribuo's predictions of rows against psdkit's labels and decision values of the same rows. */
    static void samePredictions(Classifier direct, Matrix x, List<Prediction<Label>> got) {
        String[] labels = direct.predictLabels(x);
        double[][] decision = direct.predict(x.toRowArrays());
        String negative = direct.labels().get(0);
        String positive = direct.labels().get(1);
        for (int i = 0; i < labels.length; i++) {
            Prediction<Label> p = got.get(i);
            assertEquals(labels[i], p.getOutput().getLabel(), "row " + i);
            double d = decision[i][0];
            assertTrue(Math.abs(d - p.getOutputScores().get(positive).getScore()) <= 1e-12 * Math.max(1, Math.abs(d)));
            assertEquals(-p.getOutputScores().get(positive).getScore(), p.getOutputScores().get(negative).getScore());
            assertEquals(Math.abs(p.getOutputScores().get(positive).getScore()), p.getOutput().getScore());
            assertFalse(p.hasProbabilities());
        }
    }

    @Test
    void predictsAndEvaluatesAsPsdkitsDirectFit() throws IOException {
        Path csv = TestData.classificationCsv(dir, 100, 3, "in", "out");
        Path testCsv = TestData.classificationCsv(dir, 50, 4, "in", "out");
        MutableDataset<Label> train = TestData.tribuoLabels(csv);
        MutableDataset<Label> test = TestData.tribuoLabels(testCsv);
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv);
        org.psdkit.data.Dataset testRaw = TestData.psdkitLabels(testCsv);

        PsdkitModel<Label> model = new PsdkitSvmTrainer(OPTIONS).train(train);
        Classifier direct = new SvmTrainer(OPTIONS).fit(raw);
        samePredictions(direct, testRaw.x(), model.predict(test));
        assertEquals(direct.labels(), model.unwrap(Classifier.class).labels());
        assertFalse(model.generatesProbabilities());

        LabelEvaluation ev = new LabelEvaluator().evaluate(model, test);
        assertEquals((Double) direct.evaluate(testRaw).get("accuracy"), ev.accuracy(), 1e-15);
        assertTrue(ev.accuracy() > 0.8, "accuracy " + ev.accuracy());
    }

    @Test
    void crossValidationFoldsEqualPsdkitFitsOnTheSameRows() throws IOException {
        Path csv = TestData.classificationCsv(dir, 90, 5, "in", "out");
        MutableDataset<Label> data = TestData.tribuoLabels(csv);
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv);
        List<Pair<LabelEvaluation, Model<Label>>> cv =
                new CrossValidation<>(new PsdkitSvmTrainer(OPTIONS), data, new LabelEvaluator(), 3, 9L).evaluate();
        Iterator<KFoldSplitter.TrainTestFold<Label>> folds = new KFoldSplitter<Label>(3, 9L).split(data, true);
        for (int k = 0; k < 3; k++) {
            KFoldSplitter.TrainTestFold<Label> fold = folds.next();
            org.psdkit.data.Dataset train = TestData.rows(raw, fold.train.getExampleIndices());
            org.psdkit.data.Dataset test = TestData.rows(raw, fold.test.getExampleIndices());
            Classifier direct = new SvmTrainer(OPTIONS).fit(train);
            assertEquals((Double) direct.evaluate(test).get("accuracy"), cv.get(k).getA().accuracy(), 1e-15);
            List<Example<Label>> examples = new ArrayList<>();
            fold.test.forEach(examples::add);
            samePredictions(direct, test.x(), cv.get(k).getB().predict(examples));
        }
    }

    @Test
    void numericLabelsKeepTribuosNames() throws IOException {
        // psdkit writes numeric class tokens canonically (1.0 as 1); Tribuo's predictions keep the file's names
        Path csv = TestData.classificationCsv(dir, 80, 6, "1.0", "-1.0");
        MutableDataset<Label> data = TestData.tribuoLabels(csv);
        PsdkitModel<Label> model = new PsdkitSvmTrainer(OPTIONS).train(data);
        Set<String> predicted = new HashSet<>();
        for (Prediction<Label> p : model.predict(data)) {
            predicted.add(p.getOutput().getLabel());
            assertEquals(Set.of("1.0", "-1.0"), p.getOutputScores().keySet());
        }
        assertEquals(Set.of("1.0", "-1.0"), predicted);
        assertTrue(new LabelEvaluator().evaluate(model, data).accuracy() > 0.8);
    }

    @Test
    void everyClassGoesToPsdkit() throws IOException {
        // three classes: psdkit's SVM fits them all, one-vs-one
        List<String> lines = new ArrayList<>(List.of("x1,x2,label"));
        java.util.Random r = new java.util.Random(2);
        for (int i = 0; i < 60; i++) {
            double a = 4 * r.nextDouble() - 2;
            lines.add(a + "," + r.nextGaussian() + "," + (a < -0.7 ? "left" : a < 0.7 ? "middle" : "right"));
        }
        Path csv = dir.resolve("three.csv");
        Files.write(csv, lines);
        MutableDataset<Label> data = TestData.tribuoLabels(csv);
        PsdkitModel<Label> model = new PsdkitSvmTrainer(OPTIONS).train(data);
        Set<String> predicted = new HashSet<>();
        model.predict(data).forEach(p -> predicted.add(p.getOutput().getLabel()));
        assertEquals(Set.of("left", "middle", "right"), predicted);
        assertEquals(3, model.unwrap(Classifier.class).labels().size());
    }
}
