package org.psdkit.cone;

import org.psdkit.linalg.Matrix;

/** f(x) = value. */
public record Constant(double value) implements ScalarFunction {

    @Override
    public double[] eval(Matrix x) {
        double[] f = new double[x.rows()];
        java.util.Arrays.fill(f, value);
        return f;
    }
}
