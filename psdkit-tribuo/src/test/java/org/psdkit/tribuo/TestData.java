package org.psdkit.tribuo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.psdkit.data.CsvReader;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.data.csv.CSVLoader;
import org.tribuo.regression.RegressionFactory;
import org.tribuo.regression.Regressor;

/** Small CSV files read by both Tribuo's {@link CSVLoader} and psdkit's {@link CsvReader}. */
final class TestData {
    private TestData() {
    }

    /**
     * n rows of x1, x2, x3 uniform in [-2, 2] and a non-negative target y = exp(-|x|²/2) + 0.1·|x1| + 0.05·u, u
     * uniform in [0, 1) (PSD regression needs y ≥ 0; the noise grows with |x1| for the heteroscedastic model).
     */
    static Path regressionCsv(Path dir, int n, long seed) throws IOException {
        Random r = new Random(seed);
        List<String> lines = new ArrayList<>();
        lines.add("x1,x2,x3,y");
        for (int i = 0; i < n; i++) {
            double a = 4 * r.nextDouble() - 2;
            double b = 4 * r.nextDouble() - 2;
            double c = 4 * r.nextDouble() - 2;
            double y = Math.exp(-(a * a + b * b + c * c) / 2) + 0.1 * Math.abs(a) * r.nextDouble()
                    + 0.05 * r.nextDouble();
            lines.add(a + "," + b + "," + c + "," + y);
        }
        Path f = dir.resolve("regression-" + n + ".csv");
        Files.write(f, lines);
        return f;
    }

    /** n rows of x1, x2 uniform in [-2, 2], labelled {@code inside}/{@code outside} the circle |x|² = 1.5. */
    static Path classificationCsv(Path dir, int n, long seed, String inside, String outside) throws IOException {
        Random r = new Random(seed);
        List<String> lines = new ArrayList<>();
        lines.add("x1,x2,label");
        for (int i = 0; i < n; i++) {
            double a = 4 * r.nextDouble() - 2;
            double b = 4 * r.nextDouble() - 2;
            lines.add(a + "," + b + "," + (a * a + b * b < 1.5 ? inside : outside));
        }
        Path f = dir.resolve("classification-" + inside + "-" + n + ".csv");
        Files.write(f, lines);
        return f;
    }

    /**
     * n rows of four features f1..f4 in three overlapping Gaussian clusters (a wine-like set: the cultivars
     * {@code barolo}, {@code grignolino}, {@code barbera} with means 1.5 apart, sd 1), the class of each row drawn
     * uniformly.
     */
    static Path threeClassCsv(Path dir, int n, long seed) throws IOException {
        Random r = new Random(seed);
        String[] classes = {"barolo", "grignolino", "barbera"};
        double[][] mean = {{0, 0, 1, 0}, {1.5, 0.5, 0, 1}, {0, 1.5, 0.5, -1}};
        List<String> lines = new ArrayList<>();
        lines.add("f1,f2,f3,f4,cultivar");
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(3);
            StringBuilder line = new StringBuilder();
            for (int j = 0; j < 4; j++) {
                line.append(mean[c][j] + r.nextGaussian()).append(',');
            }
            lines.add(line.append(classes[c]).toString());
        }
        Path f = dir.resolve("three-class-" + n + "-" + seed + ".csv");
        Files.write(f, lines);
        return f;
    }

    static MutableDataset<Label> tribuoLabels(Path csv, String target) throws IOException {
        return new MutableDataset<>(new CSVLoader<>(new LabelFactory()).loadDataSource(csv, target));
    }

    static org.psdkit.data.Dataset psdkitLabels(Path csv, String target) {
        return CsvReader.read(csv, new CsvReader.Options(target, false, true));
    }

    static MutableDataset<Regressor> tribuoRegression(Path csv) throws IOException {
        return new MutableDataset<>(new CSVLoader<>(new RegressionFactory()).loadDataSource(csv, "y"));
    }

    static MutableDataset<Label> tribuoLabels(Path csv) throws IOException {
        return new MutableDataset<>(new CSVLoader<>(new LabelFactory()).loadDataSource(csv, "label"));
    }

    static org.psdkit.data.Dataset psdkitRegression(Path csv) {
        return CsvReader.read(csv, new CsvReader.Options("y", false, false));
    }

    static org.psdkit.data.Dataset psdkitLabels(Path csv) {
        return CsvReader.read(csv, new CsvReader.Options("label", false, true));
    }

    /** The rows {@code idx} of a psdkit data set. */
    static org.psdkit.data.Dataset rows(org.psdkit.data.Dataset d, int[] idx) {
        double[][] x = new double[idx.length][];
        double[] y = d.y() == null ? null : new double[idx.length];
        String[] labels = d.labels() == null ? null : new String[idx.length];
        double[][] all = d.x().toRowArrays();
        for (int i = 0; i < idx.length; i++) {
            x[i] = all[idx[i]];
            if (y != null) {
                y[i] = d.y()[idx[i]];
            }
            if (labels != null) {
                labels[i] = d.labels()[idx[i]];
            }
        }
        return new org.psdkit.data.Dataset(org.psdkit.linalg.Matrix.of(x), y, labels, d.featureNames(),
                d.targetName(), d.source());
    }
}
