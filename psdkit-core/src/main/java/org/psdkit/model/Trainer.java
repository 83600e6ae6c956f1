package org.psdkit.model;

import org.psdkit.data.Dataset;
import org.psdkit.optim.ProgressListener;

/**
 * The one way to fit a model of any family: a trainer holds validated options (a record per family) and fits RAW
 * training data, scaling included, into a {@link Model}. Cross-validation and grid search
 * ({@link org.psdkit.select.CrossValidation}) work over any trainer.
 *
 * @param <M> the model type
 */
@FunctionalInterface
public interface Trainer<M extends Model> {

    /** Fits raw training data, reporting progress to {@code listener}. */
    M fit(Dataset train, ProgressListener listener);

    /** Fits raw training data without progress reports. */
    default M fit(Dataset train) {
        return fit(train, ProgressListener.NONE);
    }
}
