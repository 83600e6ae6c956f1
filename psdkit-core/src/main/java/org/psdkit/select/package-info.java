/**
 * Model selection over any {@link org.psdkit.model.Trainer}: k-fold cross-validation and repeated random splits
 * ({@link org.psdkit.select.CrossValidation}, the scaler fitted on each training part only) and grid search as a
 * trainer ({@link org.psdkit.select.GridSearch}: score every grid point on the folds, refit the best on all data).
 * The command line's {@code psdkit cv} runs the same loop.
 */
package org.psdkit.select;
