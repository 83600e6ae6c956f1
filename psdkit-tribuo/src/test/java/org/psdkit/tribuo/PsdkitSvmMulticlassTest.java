package org.psdkit.tribuo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.oracle.labs.mlrg.olcut.config.ConfigurationData;
import com.oracle.labs.mlrg.olcut.config.ConfigurationManager;
import com.oracle.labs.mlrg.olcut.config.PropertyException;
import com.oracle.labs.mlrg.olcut.provenance.ProvenanceUtil;
import com.oracle.labs.mlrg.olcut.util.Pair;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.MulticlassSvm;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Scaler;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.optim.ProgressListener;
import org.tribuo.Example;
import org.tribuo.Model;
import org.tribuo.MutableDataset;
import org.tribuo.Prediction;
import org.tribuo.Trainer;
import org.tribuo.classification.Label;
import org.tribuo.classification.evaluation.LabelEvaluation;
import org.tribuo.classification.evaluation.LabelEvaluator;
import org.tribuo.evaluation.CrossValidation;
import org.tribuo.evaluation.KFoldSplitter;

/**
 * The SVM trainer on three classes read by Tribuo's CSVLoader: one-vs-one votes, probabilities, class weights and
 * example weights as psdkit's direct fit of the same rows (1e-12), with LabelEvaluator, CrossValidation, provenance
 * and serialisation.
 */
class PsdkitSvmMulticlassTest {
    @TempDir
    Path dir;

    static final SvmTrainer.Options OPTIONS = SvmTrainer.Options.of(Families.KERNEL, 5)
            .withScale(Scaler.Kind.ZSCORE);
    static final SvmTrainer.Options PROBABILITY = OPTIONS.withProbability(true).withSeed(7);

    static void close(double expected, double got, String what) {
        assertTrue(Math.abs(expected - got) <= 1e-12 * Math.max(1, Math.abs(expected)),
                what + ": psdkit " + expected + ", tribuo " + got);
    }

    /**
     * Tribuo's predictions against psdkit's direct model: the same labels; the same output columns (decision
     * values per pair and probabilities) from the unwrapped model; the scores as psdkit's p(label), or votes.
     */
    static void samePredictions(Classifier direct, Matrix x, List<Prediction<Label>> got, PsdkitModel<Label> model) {
        String[] labels = direct.predictLabels(x);
        double[][] out = direct.predict(x.toRowArrays());
        double[][] wrapped = model.unwrap().predict(x.toRowArrays());
        List<String> classes = direct.labels();
        List<String> columns = direct.outputColumns();
        for (int i = 0; i < labels.length; i++) {
            Prediction<Label> p = got.get(i);
            assertEquals(labels[i], p.getOutput().getLabel(), "row " + i);
            for (int j = 0; j < out[i].length; j++) {
                close(out[i][j], wrapped[i][j], "row " + i + " " + columns.get(j));
            }
            Map<String, Label> scores = p.getOutputScores();
            assertEquals(classes.size(), scores.size());
            if (p.hasProbabilities()) {
                double sum = 0;
                String best = null;
                for (String c : classes) {
                    double pc = out[i][columns.indexOf("p(" + c + ")")];
                    close(pc, scores.get(c).getScore(), "row " + i + " p(" + c + ")");
                    sum += scores.get(c).getScore();
                    if (best == null || scores.get(c).getScore() > scores.get(best).getScore()) {
                        best = c;
                    }
                }
                assertEquals(1.0, sum, 1e-12, "row " + i + " probabilities sum");
                assertEquals(best, p.getOutput().getLabel(), "row " + i + ": the label is the most probable class");
                assertEquals(scores.get(best).getScore(), p.getOutput().getScore());
            } else {
                double votes = 0;
                for (String c : classes) {
                    votes += scores.get(c).getScore();
                }
                assertEquals(classes.size() * (classes.size() - 1) / 2.0, votes, "row " + i + " votes");
            }
        }
    }

    @Test
    void threeClassesWithProbabilitiesAsPsdkitsDirectFit() throws IOException {
        Path csv = TestData.threeClassCsv(dir, 120, 31);
        Path testCsv = TestData.threeClassCsv(dir, 60, 32);
        MutableDataset<Label> train = TestData.tribuoLabels(csv, "cultivar");
        MutableDataset<Label> test = TestData.tribuoLabels(testCsv, "cultivar");
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv, "cultivar");
        org.psdkit.data.Dataset testRaw = TestData.psdkitLabels(testCsv, "cultivar");

        PsdkitModel<Label> model = new PsdkitSvmTrainer(PROBABILITY).train(train);
        Classifier direct = new SvmTrainer(PROBABILITY).fit(raw);
        assertInstanceOf(MulticlassSvm.class, model.unwrap());
        assertEquals(3, direct.labels().size());
        assertTrue(model.generatesProbabilities());
        samePredictions(direct, testRaw.x(), model.predict(test), model);

        LabelEvaluation ev = new LabelEvaluator().evaluate(model, test);
        assertEquals((Double) direct.evaluate(testRaw).get("accuracy"), ev.accuracy(), 1e-15);
        assertTrue(ev.accuracy() > 0.6, "accuracy " + ev.accuracy());
    }

    @Test
    void threeClassesByVotesAsPsdkitsDirectFit() throws IOException {
        Path csv = TestData.threeClassCsv(dir, 120, 33);
        MutableDataset<Label> train = TestData.tribuoLabels(csv, "cultivar");
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv, "cultivar");
        PsdkitModel<Label> model = new PsdkitSvmTrainer(OPTIONS).train(train);
        Classifier direct = new SvmTrainer(OPTIONS).fit(raw);
        assertFalse(model.generatesProbabilities());
        samePredictions(direct, raw.x(), model.predict(train), model);
        assertEquals((Double) direct.evaluate(raw).get("accuracy"),
                new LabelEvaluator().evaluate(model, train).accuracy(), 1e-15);
    }

    @Test
    void twoClassesWithProbabilitiesAreOneVsOneWithScoresThatAreProbabilities() throws IOException {
        Path csv = TestData.classificationCsv(dir, 80, 34, "in", "out");
        MutableDataset<Label> train = TestData.tribuoLabels(csv);
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv);
        PsdkitModel<Label> model = new PsdkitSvmTrainer(PROBABILITY).train(train);
        Classifier direct = new SvmTrainer(PROBABILITY).fit(raw);
        assertTrue(model.generatesProbabilities());
        samePredictions(direct, raw.x(), model.predict(train), model);
    }

    @Test
    void crossValidationFoldsEqualPsdkitFitsOnTheSameRows() throws IOException {
        Path csv = TestData.threeClassCsv(dir, 90, 35);
        MutableDataset<Label> data = TestData.tribuoLabels(csv, "cultivar");
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv, "cultivar");
        List<Pair<LabelEvaluation, Model<Label>>> cv = new CrossValidation<>(new PsdkitSvmTrainer(PROBABILITY), data,
                new LabelEvaluator(), 3, 9L).evaluate();
        Iterator<KFoldSplitter.TrainTestFold<Label>> folds = new KFoldSplitter<Label>(3, 9L).split(data, true);
        for (int k = 0; k < 3; k++) {
            KFoldSplitter.TrainTestFold<Label> fold = folds.next();
            org.psdkit.data.Dataset train = TestData.rows(raw, fold.train.getExampleIndices());
            org.psdkit.data.Dataset test = TestData.rows(raw, fold.test.getExampleIndices());
            Classifier direct = new SvmTrainer(PROBABILITY).fit(train);
            assertEquals((Double) direct.evaluate(test).get("accuracy"), cv.get(k).getA().accuracy(), 1e-15);
            List<Example<Label>> examples = new ArrayList<>();
            fold.test.forEach(examples::add);
            @SuppressWarnings("unchecked")
            PsdkitModel<Label> m = (PsdkitModel<Label>) cv.get(k).getB();
            samePredictions(direct, test.x(), m.predict(examples), m);
        }
    }

    @Test
    void classWeightsAsPsdkitsAndTheyChangeTheModel() throws IOException {
        Path csv = TestData.threeClassCsv(dir, 90, 36);
        MutableDataset<Label> train = TestData.tribuoLabels(csv, "cultivar");
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv, "cultivar");
        double[][] plain = new SvmTrainer(OPTIONS).fit(raw).predict(raw.x().toRowArrays());
        for (String text : List.of("balanced", "barolo=4,barbera=0.5")) {
            SvmTrainer.Options o = OPTIONS.withClassWeight(ClassWeights.parse(text));
            PsdkitModel<Label> model = new PsdkitSvmTrainer(o).train(train);
            Classifier direct = new SvmTrainer(o).fit(raw);
            samePredictions(direct, raw.x(), model.predict(train), model);
            assertEquals(ClassWeights.parse(text).toString(), model.getProvenance().getTrainerProvenance().getConfiguredParameters()
                    .get("classWeight").toString());
            if (!text.equals("balanced")) {
                assertNotEquals(plain[0][0], direct.predict(raw.x().toRowArrays())[0][0], text);
            }
        }
        Path xml = dir.resolve("bad-weights.xml");
        java.nio.file.Files.writeString(xml, """
                <?xml version="1.0" encoding="UTF-8"?>
                <config>
                  <component name="svm" type="org.psdkit.tribuo.PsdkitSvmTrainer">
                    <property name="classWeight" value="barolo=-1"/>
                  </component>
                </config>
                """);
        PropertyException e = assertThrows(PropertyException.class,
                () -> new ConfigurationManager(xml.toString()).lookup("svm"));
        assertTrue(e.getMessage().contains("classWeight") && e.getMessage().contains("barolo"), e.getMessage());
    }

    @Test
    void exampleWeightsAreSampleWeightsAndUnitWeightsChangeNothing() throws IOException {
        Path csv = TestData.threeClassCsv(dir, 90, 37);
        MutableDataset<Label> train = TestData.tribuoLabels(csv, "cultivar");
        org.psdkit.data.Dataset raw = TestData.psdkitLabels(csv, "cultivar");

        // all weights 1: exactly psdkit's unweighted fit, the model file without sampleWeights
        PsdkitModel<Label> unit = new PsdkitSvmTrainer(PROBABILITY).train(train);
        Classifier plain = new SvmTrainer(PROBABILITY).fit(raw);
        double[][] a = plain.predict(raw.x().toRowArrays());
        double[][] b = unit.unwrap().predict(raw.x().toRowArrays());
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[i].length; j++) {
                assertEquals(Double.doubleToLongBits(a[i][j]), Double.doubleToLongBits(b[i][j]), "row " + i);
            }
        }
        assertFalse(unit.unwrap().hyperParameters().toMap().containsKey("sampleWeights"));

        double[] w = new double[train.size()];
        MutableDataset<Label> weighted = TestData.tribuoLabels(csv, "cultivar");
        int i = 0;
        for (Example<Label> e : weighted) {
            w[i] = 0.25 + (i % 4);
            e.setWeight((float) w[i]);
            i++;
        }
        PsdkitModel<Label> model = new PsdkitSvmTrainer(PROBABILITY).train(weighted);
        Classifier direct = new SvmTrainer(PROBABILITY).fit(raw, w, ProgressListener.NONE);
        samePredictions(direct, raw.x(), model.predict(train), model);
        assertEquals(Boolean.TRUE, model.unwrap().hyperParameters().toMap().get("sampleWeights"));
        assertNotEquals(a[0][0], model.unwrap().predict(raw.x().toRowArrays())[0][0]);
    }

    @Test
    void provenanceRebuildsTheTrainerAndSerialisationRoundTrips() throws Exception {
        Path csv = TestData.threeClassCsv(dir, 90, 38);
        MutableDataset<Label> train = TestData.tribuoLabels(csv, "cultivar");
        PsdkitModel<Label> model = new PsdkitSvmTrainer(PROBABILITY.withClassWeight(ClassWeights.balancedWeights()))
                .train(train);
        Map<String, ?> conf = model.getProvenance().getTrainerProvenance().getConfiguredParameters();
        assertEquals("true", conf.get("probability").toString());
        assertEquals("balanced", conf.get("classWeight").toString());
        assertEquals("7", conf.get("seed").toString());

        List<ConfigurationData> config = ProvenanceUtil.extractConfiguration(model.getProvenance());
        ConfigurationManager again = new ConfigurationManager();
        again.addConfiguration(config);
        String name = config.stream().filter(c -> c.getClassName().equals(PsdkitSvmTrainer.class.getName()))
                .findFirst().orElseThrow().getName();
        @SuppressWarnings("unchecked")
        Trainer<Label> rebuilt = (Trainer<Label>) again.lookup(name);
        PsdkitTribuoSerialisationTest.identical(model.predict(train), rebuilt.train(train).predict(train));

        PsdkitTribuoSerialisationTest.roundTrips(model, train, dir.resolve("svm-ovo.tribuo"));
        PsdkitTribuoSerialisationTest.roundTrips(new PsdkitSvmTrainer(OPTIONS).train(train), train,
                dir.resolve("svm-votes.tribuo"));
    }
}
