package org.psdkit.tribuo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.tribuo.Example;
import org.tribuo.Model;
import org.tribuo.MutableDataset;
import org.tribuo.Prediction;
import org.tribuo.evaluation.CrossValidation;
import org.tribuo.evaluation.KFoldSplitter;
import org.tribuo.impl.ArrayExample;
import org.tribuo.regression.RegressionFactory;
import org.tribuo.regression.Regressor;
import org.tribuo.regression.evaluation.RegressionEvaluation;
import org.tribuo.regression.evaluation.RegressionEvaluator;
import com.oracle.labs.mlrg.olcut.util.Pair;

/**
 * The regression trainers on data read by Tribuo's own CSVLoader predict as psdkit's direct fit of the same options
 * on the same file read by psdkit's CsvReader, to 1e-12; Tribuo's RegressionEvaluator and CrossValidation agree
 * with psdkit's metrics on the same rows.
 */
class PsdkitRegressionTrainersTest {
    static final double TOL = 1e-12;

    @TempDir
    static Path dir;
    static Path csv;
    static MutableDataset<Regressor> tribuo;
    static org.psdkit.data.Dataset raw;

    @BeforeAll
    static void data() throws IOException {
        csv = TestData.regressionCsv(dir, 80, 11);
        tribuo = TestData.tribuoRegression(csv);
        raw = TestData.psdkitRegression(csv);
        assertEquals(List.of("x1", "x2", "x3"), List.of(raw.featureNames()));
    }

    static List<Families> families() {
        return Families.all();
    }

    /** |a − b| ≤ 1e-12·max(1, |b|). */
    static void close(double expected, double actual, String what) {
        assertTrue(Math.abs(expected - actual) <= TOL * Math.max(1, Math.abs(expected)),
                what + ": expected " + expected + ", got " + actual);
    }

    /** Checks Tribuo's predictions of rows against psdkit's outputs of the same rows. */
    static void samePredictions(org.psdkit.model.Model direct, double[][] expected, List<Prediction<Regressor>> got,
                                String name) {
        List<String> columns = direct.outputColumns();
        assertEquals(expected.length, got.size());
        for (int i = 0; i < expected.length; i++) {
            Regressor r = got.get(i).getOutput();
            if (columns.size() == 1) {
                assertEquals(1, r.size(), name);
                close(expected[i][0], r.getValues()[0], name + " row " + i);
            } else if (columns.equals(List.of("mean", "variance"))) {
                assertEquals(1, r.size(), name);
                close(expected[i][0], r.getValues()[0], name + " mean, row " + i);
                close(expected[i][1], r.getVariances()[0], name + " variance, row " + i);
            } else {
                assertEquals(columns.size(), r.size(), name);
                for (int k = 0; k < columns.size(); k++) {
                    double v = r.getDimension(columns.get(k)).orElseThrow().getValue();
                    close(expected[i][k], v, name + " " + columns.get(k) + ", row " + i);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void predictsAsPsdkitsDirectFit(Families f) {
        PsdkitModel<Regressor> model = f.tribuo().train(tribuo);
        org.psdkit.model.Model direct = f.psdkit().fit(raw);
        double[][] expected = direct.predict(raw.x().toRowArrays());
        List<Prediction<Regressor>> batch = model.predict(tribuo);
        samePredictions(direct, expected, batch, f.name());
        // one example at a time: the batch's numbers (to rounding: one row is a matrix-vector product)
        for (int i = 0; i < 5; i++) {
            Regressor one = model.predict(tribuo.getExample(i)).getOutput();
            assertEquals(List.of(batch.get(i).getOutput().getNames()), List.of(one.getNames()));
            for (int k = 0; k < one.size(); k++) {
                close(batch.get(i).getOutput().getValues()[k], one.getValues()[k], f.name() + " one row " + i);
            }
        }
        assertEquals(direct.type(), model.unwrap().type());
        assertEquals(direct.hyperParameters().toMap(), model.unwrap().hyperParameters().toMap());
        assertEquals(direct.outputColumns(), model.unwrap().outputColumns());
        assertEquals(List.of(raw.featureNames()), model.unwrap().featureNames());
        assertEquals(PsdkitRegressionModel.class.getName(), model.getProvenance().getClassName());
    }

    @Test
    void aFeatureTheExampleLacksIsZeroAndAnUnknownOneIsIgnored() {
        PsdkitModel<Regressor> model = new PsdkitKrrTrainer("gaussian(sigma=1)", 1e-2).train(tribuo);
        ArrayExample<Regressor> e = new ArrayExample<>(RegressionFactory.UNKNOWN_REGRESSOR,
                new String[] {"x1", "x3", "zz"}, new double[] {0.5, -1.0, 7.0});
        Prediction<Regressor> p = model.predict(e);
        assertEquals(2, p.getNumActiveFeatures());
        assertEquals(model.unwrap().predict(new double[] {0.5, 0.0, -1.0})[0], p.getOutput().getValues()[0]);
        ArrayExample<Regressor> none = new ArrayExample<>(RegressionFactory.UNKNOWN_REGRESSOR,
                new String[] {"zz"}, new double[] {1.0});
        assertThrows(IllegalArgumentException.class, () -> model.predict(none));
    }

    @Test
    void regressionEvaluatorAgreesWithPsdkitsMetrics() throws IOException {
        Path testCsv = TestData.regressionCsv(dir, 40, 12);
        MutableDataset<Regressor> test = TestData.tribuoRegression(testCsv);
        org.psdkit.data.Dataset testRaw = TestData.psdkitRegression(testCsv);
        KrrTrainer.Options o = KrrTrainer.Options.of(Families.KERNEL, 1e-2);
        PsdkitModel<Regressor> model = new PsdkitKrrTrainer(o).train(tribuo);
        RegressionEvaluation ev = new RegressionEvaluator().evaluate(model, test);
        Map<String, Object> m = new KrrTrainer(o).fit(raw).evaluate(testRaw).toMap();
        close((Double) m.get("rmse"), ev.averageRMSE(), "rmse");
        close((Double) m.get("mae"), ev.averageMAE(), "mae");
        close((Double) m.get("r2"), ev.averageR2(), "r2");

        // heteroscedastic: Tribuo scores the mean
        PsdkitModel<Regressor> het = Families.all().get(4).tribuo().train(tribuo);
        HeteroPipeline h = het.unwrap(HeteroPipeline.class);
        double[][] mv = h.predict(testRaw.x().toRowArrays());
        double sse = 0;
        for (int i = 0; i < mv.length; i++) {
            sse += (mv[i][0] - testRaw.y()[i]) * (mv[i][0] - testRaw.y()[i]);
        }
        close(Math.sqrt(sse / mv.length), new RegressionEvaluator().evaluate(het, test).averageRMSE(), "hetero rmse");
    }

    @Test
    void crossValidationFoldsEqualPsdkitFitsOnTheSameRows() {
        KrrTrainer.Options o = KrrTrainer.Options.of(Families.KERNEL, 1e-2);
        PsdkitKrrTrainer trainer = new PsdkitKrrTrainer(o);
        List<Pair<RegressionEvaluation, Model<Regressor>>> cv =
                new CrossValidation<>(trainer, tribuo, new RegressionEvaluator(), 3, 5L).evaluate();
        assertEquals(3, cv.size());
        Iterator<KFoldSplitter.TrainTestFold<Regressor>> folds = new KFoldSplitter<Regressor>(3, 5L)
                .split(tribuo, true);
        for (int k = 0; k < 3; k++) {
            KFoldSplitter.TrainTestFold<Regressor> fold = folds.next();
            org.psdkit.data.Dataset train = TestData.rows(raw, fold.train.getExampleIndices());
            org.psdkit.data.Dataset test = TestData.rows(raw, fold.test.getExampleIndices());
            Pipeline<KernelRidge> direct = new KrrTrainer(o).fit(train);
            close((Double) direct.evaluate(test).get("rmse"), cv.get(k).getA().averageRMSE(), "fold " + k);
            List<Example<Regressor>> examples = new ArrayList<>();
            fold.test.forEach(examples::add);
            samePredictions(direct, direct.predict(test.x().toRowArrays()), cv.get(k).getB().predict(examples),
                    "fold " + k);
        }
        assertEquals(3, trainer.getInvocationCount());
    }

    @Test
    void kernelRidgeTakesNoWeights() throws IOException {
        // KRR has no sample weights: weighted examples fit the model of the unweighted ones
        MutableDataset<Regressor> weighted = TestData.tribuoRegression(csv);
        int i = 0;
        for (Example<Regressor> e : weighted) {
            e.setWeight(1 + (i++ % 3));
        }
        PsdkitKrrTrainer trainer = new PsdkitKrrTrainer("gaussian(sigma=1)", 1e-2);
        List<Prediction<Regressor>> a = trainer.train(weighted).predict(tribuo);
        List<Prediction<Regressor>> b = trainer.train(tribuo).predict(tribuo);
        for (int k = 0; k < a.size(); k++) {
            assertEquals(b.get(k).getOutput().getValues()[0], a.get(k).getOutput().getValues()[0]);
        }
    }

    @Test
    void aDataSetWithSeveralTargetsIsRefusedNamingThem() throws IOException {
        Path two = dir.resolve("two-targets.csv");
        Files.write(two, List.of("x1,a,b", "0.1,1,2", "0.2,2,3", "0.3,3,1"));
        MutableDataset<Regressor> d = new MutableDataset<>(new org.tribuo.data.csv.CSVLoader<>(
                new RegressionFactory()).loadDataSource(two, java.util.Set.of("a", "b")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PsdkitKrrTrainer().train(d));
        assertTrue(e.getMessage().contains("2 dimensions") && e.getMessage().contains("a"), e.getMessage());
    }

    @Test
    void aBadOptionIsRefusedNamingIt() {
        org.psdkit.model.ParameterException e = assertThrows(org.psdkit.model.ParameterException.class,
                () -> new PsdkitKrrTrainer("gaussian(sigma=1)", -1));
        assertEquals("lambda", e.parameter());
        assertEquals("kernel", assertThrows(org.psdkit.model.ParameterException.class,
                () -> new PsdkitKrrTrainer("no-such-kernel(", 1e-2)).parameter());
        assertEquals("taus", assertThrows(org.psdkit.model.ParameterException.class,
                () -> new PsdkitQuantileTrainer(new double[] {0.9, 0.1}, "gaussian(sigma=1)", 1e-3)).parameter());
    }
}
