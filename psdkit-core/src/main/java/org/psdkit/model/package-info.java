/**
 * The contract every family implements: a {@link org.psdkit.model.Trainer} fits RAW training data into a
 * {@link org.psdkit.model.Model}, which predicts from raw feature rows (scaling included), reports
 * {@link org.psdkit.model.Diagnostics} and evaluates itself ({@link org.psdkit.model.Metrics});
 * {@link org.psdkit.model.Pipeline} is the usual model (feature names, scaler, inner
 * {@link org.psdkit.model.Predictor}) and {@link org.psdkit.model.ParameterException} the error for a bad option. Use:
 * {@code Model m = trainer.fit(train); double[] p = m.predict(row);}.
 */
package org.psdkit.model;
