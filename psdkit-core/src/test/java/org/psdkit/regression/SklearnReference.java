package org.psdkit.regression;

import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * The small problem and scikit-learn's predictions recorded by {@code psdkit-bench/scripts/krr_sklearn_reference.py}
 * (test resources {@code sklearn/krr-train.csv} and {@code sklearn/krr-test.csv}); no Python at test time.
 */
public final class SklearnReference {
    /** Features x1..x3 of the training rows. */
    public final Matrix xTrain;
    /** Sample weights (column w). */
    public final double[] w;
    /** Targets y1, y2, y3 (n × 3). */
    public final Matrix y;
    /** Features of the test rows. */
    public final Matrix xTest;
    private final Dataset test;

    private SklearnReference() {
        Dataset tr = read("krr-train.csv");
        test = read("krr-test.csv");
        xTrain = columns(tr, "x1", "x2", "x3");
        w = columns(tr, "w").col(0);
        y = columns(tr, "y1", "y2", "y3");
        xTest = columns(test, "x1", "x2", "x3");
    }

    /** The recorded problem. */
    public static SklearnReference load() {
        return new SklearnReference();
    }

    /** A recorded prediction column of the test rows ({@code krr_w}, {@code krr_y1}, {@code ridge_w}, …). */
    public double[] expected(String column) {
        return columns(test, column).col(0);
    }

    /** The training rows as a data set with target {@code y<k>} (k = 1..3), without weights. */
    public Dataset train(int k) {
        return new Dataset(xTrain, y.col(k - 1), null, new String[] {"x1", "x2", "x3"}, "y" + k, "krr-train.csv");
    }

    private static Dataset read(String name) {
        var in = SklearnReference.class.getResourceAsStream("/sklearn/" + name);
        if (in == null) {
            throw new IllegalStateException("missing test resource sklearn/" + name);
        }
        return CsvReader.read(new InputStreamReader(in, StandardCharsets.UTF_8), name, CsvReader.Options.unsupervised());
    }

    private static Matrix columns(Dataset d, String... names) {
        int[] idx = new int[names.length];
        for (int j = 0; j < names.length; j++) {
            idx[j] = Arrays.asList(d.featureNames()).indexOf(names[j]);
            if (idx[j] < 0) {
                throw new IllegalStateException(d.source() + " has no column " + names[j]);
            }
        }
        return d.x().selectCols(idx);
    }
}
