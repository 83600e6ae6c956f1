package org.psdkit.kernel;

import java.util.Optional;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/** Linear kernel k(x, t) = xᵀt; Gram matrix X Xᵀ by one dsyrk; feature map φ(x) = x. */
public final class LinearKernel extends DotProductKernel {

    static final LinearKernel INSTANCE = new LinearKernel();

    private LinearKernel() {
    }

    @Override
    double f(double s) {
        return s;
    }

    @Override
    public Matrix gram(Matrix x) {
        return Linalg.syrk(x, false);
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException("linear kernel: points of dimension " + x.cols() + " and " + z.cols());
        }
        Matrix g = Matrix.zeros(x.rows(), z.rows());
        if (x.cols() > 0 && x.rows() > 0 && z.rows() > 0) {
            Linalg.gemmInPlace(1.0, x, false, z, true, 0.0, g);
        }
        return g;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        return Optional.of(double[]::clone);
    }

    @Override
    public String kind() {
        return "linear";
    }

    @Override
    public String spec() {
        return "linear";
    }
}
