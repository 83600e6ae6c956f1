package org.psdkit.data;

import org.psdkit.linalg.Matrix;

/**
 * A table of n points in ℝ^d (one per row of {@code x}) with an optional target and optional sample weights.
 *
 * @param x            features, n×d
 * @param y            numeric target, or {@code null} for unsupervised data (or a non-numeric class column)
 * @param labels       the target column's raw text tokens (class labels), or {@code null} without a target
 * @param featureNames names of the d feature columns
 * @param targetName   name of the target column, or {@code null}
 * @param source       where the data came from (file name), for error messages
 * @param weights      one non-negative finite weight per row (scikit-learn's {@code sample_weight}), or {@code null}
 *                     for equal weights; not a feature
 * @param targets      several numeric targets (n × t, t ≥ 2, one column per name of {@link #targetNames()}), or
 *                     {@code null} for one target; {@code y} is then its first column and {@code targetName} the
 *                     names joined by commas
 */
public record Dataset(Matrix x, double[] y, String[] labels, String[] featureNames, String targetName,
                      String source, double[] weights, Matrix targets) {

    public Dataset {
        if (weights != null) {
            checkWeights(weights, x.rows(), source);
        }
        if (targets != null && (targets.rows() != x.rows() || targets.cols() < 2 || targetName == null
                || targetName.split(",", -1).length != targets.cols())) {
            throw new IllegalArgumentException(source + ": " + targets.cols() + " target columns for target names '"
                    + targetName + "' and " + x.rows() + " rows");
        }
    }

    /** A data set with one target (or none). */
    public Dataset(Matrix x, double[] y, String[] labels, String[] featureNames, String targetName, String source,
                   double[] weights) {
        this(x, y, labels, featureNames, targetName, source, weights, null);
    }

    /** A data set without sample weights. */
    public Dataset(Matrix x, double[] y, String[] labels, String[] featureNames, String targetName, String source) {
        this(x, y, labels, featureNames, targetName, source, null);
    }

    public int n() {
        return x.rows();
    }

    public int d() {
        return x.cols();
    }

    public boolean hasTarget() {
        return targetName != null;
    }

    /** Whether the rows carry sample weights. */
    public boolean hasWeights() {
        return weights != null;
    }

    /** The number of target columns: 0 without a target, t for several. */
    public int targetCount() {
        return targets != null ? targets.cols() : targetName == null ? 0 : 1;
    }

    /** The target columns' names (one for a single target, none without). */
    public String[] targetNames() {
        return targets != null ? targetName.split(",", -1) : targetName == null ? new String[0]
                : new String[] {targetName};
    }

    /** The targets as an n × t matrix (the single target as one column); null without a numeric target. */
    public Matrix targetMatrix() {
        return targets != null ? targets : y == null ? null : Matrix.column(y);
    }

    /**
     * Several numeric targets: the columns of {@code t} (n × names.length, at least two) named {@code names} (no
     * name may contain a comma).
     */
    public static Dataset ofTargets(Matrix x, String[] featureNames, Matrix t, String[] names, String source) {
        for (String nm : names) {
            if (nm.contains(",")) {
                throw new IllegalArgumentException(source + ": target name '" + nm + "' contains a comma");
            }
        }
        return new Dataset(x, t.col(0), null, featureNames, String.join(",", names), source, null, t);
    }

    /** The same data with sample weights {@code w} (one per row, each ≥ 0 and finite), or without for null. */
    public Dataset withWeights(double[] w) {
        return new Dataset(x, y, labels, featureNames, targetName, source, w == null ? null : w.clone(), targets);
    }

    /** A dataset of numeric features and target, no labels, named "(memory)". */
    public static Dataset of(Matrix x, double[] y) {
        String[] names = new String[x.cols()];
        for (int j = 0; j < names.length; j++) {
            names[j] = "x" + (j + 1);
        }
        return new Dataset(x, y, null, names, y == null ? null : "y", "(memory)");
    }

    /**
     * Checks sample weights: one per row, each finite and ≥ 0, not all 0; the message names the first bad entry
     * by its 0-based index.
     *
     * @throws IllegalArgumentException naming {@code source} and the first bad row
     */
    public static void checkWeights(double[] w, int n, String source) {
        String where = source == null ? "weights" : source + ": weights";
        if (w.length != n) {
            throw new IllegalArgumentException(where + ": " + w.length + " weights for " + n + " rows");
        }
        double sum = 0;
        for (int i = 0; i < w.length; i++) {
            if (!(w[i] >= 0) || Double.isInfinite(w[i])) {
                throw new IllegalArgumentException(where + ": weights[" + i + "] = " + w[i]
                        + "; weights must be >= 0 and finite");
            }
            sum += w[i];
        }
        if (n > 0 && !(sum > 0)) {
            throw new IllegalArgumentException(where + ": every weight is 0");
        }
    }
}
