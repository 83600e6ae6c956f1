package org.psdkit.cone;

import org.psdkit.linalg.Matrix;

/** A fitted real function of the inputs (one block of a vector-valued model). */
public interface ScalarFunction {

    /** f at every row of {@code x}. */
    double[] eval(Matrix x);
}
