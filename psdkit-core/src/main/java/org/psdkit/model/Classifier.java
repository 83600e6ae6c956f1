package org.psdkit.model;

import java.util.List;
import org.psdkit.linalg.Matrix;

/** A {@link Model} whose target is a class label: its numeric output is the decision value. */
public interface Classifier extends Model {

    /** The class labels as they appeared in the training data (the original tokens), negative class first. */
    List<String> labels();

    /** The label of each row of outputs that {@link #predict(Matrix)} returned (decoding only, no prediction). */
    String[] labelsOf(Matrix outputs);

    /** The predicted label of each row of raw features. */
    default String[] predictLabels(Matrix rawX) {
        return labelsOf(predict(rawX));
    }
}
