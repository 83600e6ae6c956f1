package org.psdkit.cli;

import java.nio.file.Path;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;

/**
 * A model read back from its file, as {@code predict} and {@code eval} see it. Inputs are RAW features (the columns
 * named by {@link #featureNames()}, in that order); the model applies its stored scaler itself.
 * {@link CoreModel} implements this for every library {@link org.psdkit.model.Model}.
 */
public interface LoadedModel {

    /** Reads a model file of any registered type through the library ({@link org.psdkit.io.ModelIO#load}). */
    static LoadedModel load(Path file) {
        return new CoreModel(ModelIO.load(file), "model file " + file);
    }

    String type();

    /** Input columns in the order {@link #predict} expects them. */
    String[] featureNames();

    /** The target column the model was trained on, or {@code null}. */
    String targetName();

    /** Output column names of {@link #predict} ({@code prediction} for regression). */
    String[] outputColumns();

    /** True for models without a target (densities): eval then reads only the feature columns. */
    default boolean unsupervised() {
        return false;
    }

    /** True if the target holds class labels (eval then reads it as text). */
    default boolean classifier() {
        return false;
    }

    /**
     * Outputs for raw inputs: n × outputColumns().length. A NaN or infinite output is a numerical failure
     * ({@link ArithmeticException}, exit 1) naming the model and the first such row, never a number in a report.
     */
    Matrix predict(Matrix rawX);

    /**
     * The cells of the prediction CSV, one String[] per input row, matching {@link #outputColumns()}. The default
     * formats {@link #predict} with {@link Double#toString}; classifiers may return label tokens.
     */
    default String[][] predictText(Matrix rawX) {
        Matrix p = predict(rawX);
        String[][] out = new String[p.rows()][p.cols()];
        for (int i = 0; i < p.rows(); i++) {
            for (int j = 0; j < p.cols(); j++) {
                out[i][j] = Double.toString(p.get(i, j));
            }
        }
        return out;
    }

    /** Metrics on a raw data set with a target (ordered; {@code rmse, mae, r2} for regression). */
    Map<String, Object> evaluate(Dataset raw);
}
