package org.psdkit.data;

import org.psdkit.linalg.Matrix;

/**
 * A table of n points in ℝ^d (one per row of {@code x}) with an optional target.
 *
 * @param x            features, n×d
 * @param y            numeric target, or {@code null} for unsupervised data (or a non-numeric class column)
 * @param labels       the target column's raw text tokens (class labels), or {@code null} without a target
 * @param featureNames names of the d feature columns
 * @param targetName   name of the target column, or {@code null}
 * @param source       where the data came from (file name), for error messages
 */
public record Dataset(Matrix x, double[] y, String[] labels, String[] featureNames, String targetName,
                      String source) {

    public int n() {
        return x.rows();
    }

    public int d() {
        return x.cols();
    }

    public boolean hasTarget() {
        return targetName != null;
    }

    /** A dataset of numeric features and target, no labels, named "(memory)". */
    public static Dataset of(Matrix x, double[] y) {
        String[] names = new String[x.cols()];
        for (int j = 0; j < names.length; j++) {
            names[j] = "x" + (j + 1);
        }
        return new Dataset(x, y, null, names, y == null ? null : "y", "(memory)");
    }
}
