package org.psdkit.kernel;

import java.util.Optional;

/** Linear kernel k(x, t) = xᵀt; Gram matrix X Xᵀ (BLAS, in column blocks); feature map φ(x) = x. */
public final class LinearKernel extends DotProductKernel {

    static final LinearKernel INSTANCE = new LinearKernel();

    private LinearKernel() {
    }

    @Override
    double f(double s) {
        return s;
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
