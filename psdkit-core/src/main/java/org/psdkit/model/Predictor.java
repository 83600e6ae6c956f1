package org.psdkit.model;

import org.psdkit.linalg.Matrix;

/**
 * A fitted model that maps points (rows of an n×d matrix, already in the model's input scale) to one or more
 * named output columns. Implementations are immutable and safe to call from several threads.
 */
public interface Predictor {

    /** The model type as written in model files and used on the command line ({@code krr}, {@code density}, …). */
    String type();

    /** Names of the output columns ({@code prediction}; {@code mean,variance}; {@code q0.25,q0.5}; …). */
    String[] outputColumns();

    /** Outputs for each row of {@code x}: an n × outputColumns().length matrix. */
    Matrix predict(Matrix x);
}
