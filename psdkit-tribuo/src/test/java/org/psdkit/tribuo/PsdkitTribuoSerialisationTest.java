package org.psdkit.tribuo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.oracle.labs.mlrg.olcut.config.ConfigurationData;
import com.oracle.labs.mlrg.olcut.config.ConfigurationManager;
import com.oracle.labs.mlrg.olcut.config.PropertyException;
import com.oracle.labs.mlrg.olcut.provenance.ProvenanceUtil;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.psdkit.data.Scaler;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.tribuo.Model;
import org.tribuo.MutableDataset;
import org.tribuo.Output;
import org.tribuo.Prediction;
import org.tribuo.Trainer;
import org.tribuo.classification.Label;
import org.tribuo.regression.Regressor;

/**
 * Tribuo's serialisation (Java and protobuf) gives back models that predict bit for bit as the originals, with the
 * same provenance; Tribuo's configuration system builds the trainers, and the provenance of a model rebuilds its
 * trainer.
 */
class PsdkitTribuoSerialisationTest {
    @TempDir
    static Path dir;
    static MutableDataset<Regressor> regression;
    static MutableDataset<Label> labels;

    @BeforeAll
    static void data() throws IOException {
        regression = TestData.tribuoRegression(TestData.regressionCsv(dir, 60, 21));
        labels = TestData.tribuoLabels(TestData.classificationCsv(dir, 60, 22, "in", "out"));
    }

    static List<Families> families() {
        return Families.all();
    }

    /** Every output value, score and variance of two prediction lists is the same double. */
    static <T extends Output<T>> void identical(List<Prediction<T>> a, List<Prediction<T>> b) {
        assertEquals(a.size(), b.size());
        for (int i = 0; i < a.size(); i++) {
            T x = a.get(i).getOutput();
            T y = b.get(i).getOutput();
            assertTrue(x.fullEquals(y), "row " + i + ": " + x + " vs " + y);
            if (x instanceof Regressor rx) {
                assertArrayEquals(rx.getValues(), ((Regressor) y).getValues());
                assertArrayEquals(rx.getVariances(), ((Regressor) y).getVariances());
            }
            assertEquals(a.get(i).getOutputScores(), b.get(i).getOutputScores());
        }
    }

    @SuppressWarnings("unchecked")
    static <M> M javaRoundTrip(M model) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(model);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (M) in.readObject();
        }
    }

    static <T extends Output<T>> void roundTrips(PsdkitModel<T> model, MutableDataset<T> data, Path file)
            throws Exception {
        List<Prediction<T>> before = model.predict(data);

        PsdkitModel<T> java = javaRoundTrip(model);
        identical(before, java.predict(data));
        assertEquals(model.getProvenance(), java.getProvenance());
        // a model file read back holds its integers as JSON gives them: compare the values as written
        assertEquals(String.valueOf(model.unwrap().hyperParameters().toMap()),
                String.valueOf(java.unwrap().hyperParameters().toMap()));

        model.serializeToFile(file);
        Model<?> proto = Model.deserializeFromFile(file);
        assertInstanceOf(model.getClass(), proto);
        @SuppressWarnings("unchecked")
        PsdkitModel<T> back = (PsdkitModel<T>) proto;
        identical(before, back.predict(data));
        assertEquals(model.getProvenance(), back.getProvenance());
        assertEquals(model.getName(), back.getName());
        assertEquals(model.getOutputIDInfo().getDomain(), back.getOutputIDInfo().getDomain());
        assertEquals(model.unwrap().type(), back.unwrap().type());
        assertEquals(model.generatesProbabilities(), back.generatesProbabilities());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void everyRegressionFamilyRoundTrips(Families f) throws Exception {
        roundTrips(f.tribuo().train(regression), regression, dir.resolve(f.name() + ".tribuo"));
    }

    @Test
    void theSvmRoundTrips() throws Exception {
        roundTrips(new PsdkitSvmTrainer("gaussian(sigma=0.7)", 10).train(labels), labels, dir.resolve("svm.tribuo"));
    }

    @Test
    void aCopyPredictsAsTheOriginal() {
        PsdkitModel<Regressor> m = new PsdkitKrrTrainer("gaussian(sigma=1)", 1e-2).train(regression);
        Model<Regressor> copy = m.copy();
        identical(m.predict(regression), copy.predict(regression));
        assertEquals(m.getProvenance(), copy.getProvenance());
    }

    @Test
    void aProtobufOfAnotherMessageIsRefused() {
        com.google.protobuf.Any other = com.google.protobuf.Any.pack(
                com.google.protobuf.StringValue.of("not a psdkit model"));
        assertThrows(com.google.protobuf.InvalidProtocolBufferException.class,
                () -> PsdkitRegressionModel.deserializeFromProto(0, PsdkitRegressionModel.class.getName(), other));
        assertThrows(IllegalArgumentException.class,
                () -> PsdkitRegressionModel.deserializeFromProto(1, PsdkitRegressionModel.class.getName(), other));
    }

    static final String CONFIG = """
            <?xml version="1.0" encoding="UTF-8"?>
            <config>
              <component name="krr" type="org.psdkit.tribuo.PsdkitKrrTrainer">
                <property name="kernel" value="gaussian(sigma=1.5)"/>
                <property name="lambda" value="%s"/>
                <property name="scale" value="ZSCORE"/>
                <property name="anchors" value="20"/>
                <property name="anchorMethod" value="KMEANSPP"/>
                <property name="anchorSeed" value="4"/>
              </component>
            </config>
            """;

    @Test
    void tribuosConfigurationBuildsTheTrainerAndProvenanceRebuildsIt() throws IOException {
        Path xml = dir.resolve("krr-config.xml");
        Files.writeString(xml, String.format(CONFIG, "0.001"));
        ConfigurationManager cm = new ConfigurationManager(xml.toString());
        PsdkitKrrTrainer configured = (PsdkitKrrTrainer) cm.lookup("krr");
        NystromKrrTrainer.Options same = NystromKrrTrainer.Options.of(
                org.psdkit.kernel.Kernels.parse("gaussian(sigma=1.5)"), 1e-3, 20, 4)
                .withNystrom(Nystrom.of(20, Anchors.Method.KMEANSPP, 4)).withScale(Scaler.Kind.ZSCORE);
        PsdkitModel<Regressor> model = configured.train(regression);
        identical(new PsdkitKrrTrainer(same).train(regression).predict(regression), model.predict(regression));
        assertEquals("0.001", model.getProvenance().getTrainerProvenance().getConfiguredParameters()
                .get("lambda").toString());
        assertEquals("gaussian(sigma=1.5)", model.getProvenance().getTrainerProvenance().getConfiguredParameters()
                .get("kernel").toString());

        // the model's provenance is a configuration: the trainer it names fits the same model again
        List<ConfigurationData> config = ProvenanceUtil.extractConfiguration(model.getProvenance());
        ConfigurationManager again = new ConfigurationManager();
        again.addConfiguration(config);
        String name = config.stream().filter(c -> c.getClassName().equals(PsdkitKrrTrainer.class.getName()))
                .findFirst().orElseThrow().getName();
        @SuppressWarnings("unchecked")
        Trainer<Regressor> rebuilt = (Trainer<Regressor>) again.lookup(name);
        assertNotNull(rebuilt);
        identical(model.predict(regression), rebuilt.train(regression).predict(regression));
    }

    @Test
    void aBadConfiguredValueIsRefusedNamingTheField() throws IOException {
        Path xml = dir.resolve("bad-config.xml");
        Files.writeString(xml, String.format(CONFIG, "-1"));
        ConfigurationManager cm = new ConfigurationManager(xml.toString());
        PropertyException e = assertThrows(PropertyException.class, () -> cm.lookup("krr"));
        assertTrue(e.getMessage().contains("lambda"), e.getMessage());
    }

    static final String QUANTILE_CONFIG = """
            <?xml version="1.0" encoding="UTF-8"?>
            <config>
              <component name="quantile" type="org.psdkit.tribuo.PsdkitQuantileTrainer">
                <property name="kernel" value="gaussian(sigma=1)"/>
                <propertylist name="taus">
                  <item>0.25</item>
                  <item>0.75</item>
                </propertylist>
                <property name="lambda" value="0.01"/>
                <property name="gapTolerance" value="0.001"/>
                <property name="feasibilityTolerance" value="0.001"/>
                <property name="maxIterations" value="1000"/>
                <property name="checkEvery" value="10"/>
                <property name="anchors" value="15"/>
                <property name="anchorSeed" value="5"/>
              </component>
            </config>
            """;

    /**
     * The dual solver's and the anchors' settings are declared once in {@link PsdkitConeTrainer}: Tribuo's
     * configuration sets them on a subclass, and the provenance records them.
     */
    @Test
    void theConeTrainersInheritedSettingsAreConfiguredAndRecorded() throws IOException {
        Path xml = dir.resolve("quantile-config.xml");
        Files.writeString(xml, QUANTILE_CONFIG);
        PsdkitQuantileTrainer configured = (PsdkitQuantileTrainer) new ConfigurationManager(xml.toString())
                .lookup("quantile");
        org.psdkit.cone.quantile.QuantileRegression.Options same =
                org.psdkit.cone.quantile.QuantileRegression.Options.of(new double[] {0.25, 0.75}, 1.0, 1e-2,
                        org.psdkit.cone.quantile.QuantileRegression.Method.PSD)
                        .withSolver(new org.psdkit.cone.ConeDualSolver.Options(1e-3, 1e-3, 1000, 10))
                        .withNystrom(new Nystrom(15, Anchors.Method.UNIFORM, 5,
                                org.psdkit.psd.PsdOptions.DEFAULT_RANK_THRESHOLD));
        PsdkitModel<Regressor> model = configured.train(regression);
        identical(new PsdkitQuantileTrainer(same).train(regression).predict(regression), model.predict(regression));
        var conf = model.getProvenance().getTrainerProvenance().getConfiguredParameters();
        assertEquals("15", conf.get("anchors").toString());
        assertEquals("5", conf.get("anchorSeed").toString());
        assertEquals("1000", conf.get("maxIterations").toString());
        assertEquals("0.001", conf.get("gapTolerance").toString());
    }

}
