package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.model.Classifier;
import org.psdkit.model.KernelRidge;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;

/**
 * Model files of every released format version must load forever through the library alone and predict the same
 * numbers (computed here by hand from the file's numbers).
 */
class GoldenModelTest {
    @TempDir
    Path dir;

    @Test
    void krrVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "krr-v1.json"));
        assertEquals("krr", m.type());
        assertEquals(List.of("a", "b"), m.featureNames());
        assertInstanceOf(KernelRidge.class, ((Pipeline<?>) m).inner());
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[][] p = m.predict(raw);
        double[][] pts = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double[] alpha = {0.3, -0.2, 0.7};
        for (int t = 0; t < raw.length; t++) {
            // scaler by hand: ((a − 1)/2, (b − 2)/4); kernel by hand: exp(−‖u − p‖² / (2·1.5²)); offset 0.5
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            double f = 0.5;
            for (int i = 0; i < 3; i++) {
                double d2 = (u - pts[i][0]) * (u - pts[i][0]) + (v - pts[i][1]) * (v - pts[i][1]);
                f += alpha[i] * Math.exp(-d2 / (2 * 1.5 * 1.5));
            }
            assertEquals(f, p[t][0], 1e-14);
            assertEquals(p[t][0], m.predict(raw[t])[0], 0.0);
        }
        // the first row sits at the scaler's offset, so it maps to the origin: 0.5 + 0.3 − 0.2 e^{−2/4.5} + 0.7 e^{−0.5/4.5}
        assertEquals(0.5 + 0.3 - 0.2 * Math.exp(-2 / 4.5) + 0.7 * Math.exp(-0.5 / 4.5), p[0][0], 1e-14);
    }

    /**
     * The learned-kernel SVM files (tk-svm: a tessellated kernel with its P; simplemkl: a weighted sum of library
     * members) predict the labels and decision values recorded when they were written.
     */
    @Test
    void learnedKernelSvmsVersion1() throws java.io.IOException {
        Dataset data = CsvReader.read(GoldenFiles.copy(dir, "svm-train.csv"), new CsvReader.Options(null, false, true));
        for (String name : new String[] {"tk-svm-v1", "simplemkl-v1"}) {
            Classifier m = ModelIO.load(GoldenFiles.copy(dir, name + ".json"), Classifier.class);
            assertEquals(name.substring(0, name.length() - 3), m.type());
            assertEquals(List.of("no", "yes"), m.labels());
            assertEquals(List.of("decision"), m.outputColumns());
            List<String> expected = java.nio.file.Files.readAllLines(GoldenFiles.copy(dir, name + ".expected.csv"));
            assertEquals("label,decision", expected.get(0));
            assertEquals(data.n() + 1, expected.size());
            double[][] p = m.predict(data.x().toRowArrays());
            String[] labels = m.predictLabels(data.x());
            for (int i = 1; i < expected.size(); i++) {
                String[] e = expected.get(i).split(",");
                double ev = Double.parseDouble(e[1]);
                assertEquals(e[0], labels[i - 1], name + " row " + i);
                assertEquals(ev, p[i - 1][0], 1e-9 * Math.max(1, Math.abs(ev)), name + " row " + i);
            }
            // saving it again writes the same document (the learned kernel's JSON included)
            Path again = dir.resolve(name + "-again.json");
            ModelIO.save(m, again);
            assertEquals(ModelFile.read(GoldenFiles.copy(dir, name + ".json")), ModelFile.read(again));
        }
    }
}
