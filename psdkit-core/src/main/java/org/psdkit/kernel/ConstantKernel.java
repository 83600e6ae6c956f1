package org.psdkit.kernel;

import java.util.Arrays;
import java.util.Optional;
import org.psdkit.linalg.Matrix;

/**
 * The constant kernel k(x, t) = 1 (feature map φ(x) = 1). In a kernel string a bare number c is c·constant, so
 * {@code linear + 1} is the inhomogeneous linear kernel xᵀt + 1.
 */
public final class ConstantKernel implements Kernel {

    static final ConstantKernel INSTANCE = new ConstantKernel();

    private ConstantKernel() {
    }

    @Override
    public double eval(double[] x, double[] t) {
        return 1.0;
    }

    @Override
    public Matrix gram(Matrix x) {
        return cross(x, x);
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        Matrix k = Matrix.zeros(x.rows(), z.rows());
        Arrays.fill(k.data(), 1.0);
        return k;
    }

    @Override
    public double[] diag(Matrix x) {
        double[] d = new double[x.rows()];
        Arrays.fill(d, 1.0);
        return d;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        return Optional.of(x -> new double[] {1.0});
    }

    @Override
    public String kind() {
        return "constant";
    }

    @Override
    public String spec() {
        return "constant";
    }

    @Override
    public String toString() {
        return spec();
    }
}
