package org.psdkit.kernel;

import java.util.Optional;

/**
 * ANOVA kernel k(x, t) = Π_{i=1}^{d} (1 + x_i t_i) (Herbster's slides "Kernels and Regularization"): a product of the PSD kernels 1 + x_i t_i. Its
 * explicit feature map has one feature per subset S of the coordinates, φ_S(x) = Π_{i∈S} x_i (2^d features; the
 * empty subset gives the constant 1). Kernel string {@code anova}.
 */
public final class AnovaKernel extends CoordinateProductKernel {

    /** Largest input dimension for the explicit map: 2^20 ≈ 1e6 features per point. */
    static final int MAX_FEATURE_MAP_DIMENSION = 20;

    static final AnovaKernel INSTANCE = new AnovaKernel();

    private AnovaKernel() {
    }

    @Override
    double h(double x, double t) {
        return 1 + x * t;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        if (dimension > MAX_FEATURE_MAP_DIMENSION) {
            return Optional.empty();
        }
        int count = 1 << dimension;
        return Optional.of(x -> {
            if (x.length != dimension) {
                throw new IllegalArgumentException("feature map for dimension " + dimension + " applied to a point "
                        + "of dimension " + x.length);
            }
            double[] out = new double[count];
            out[0] = 1.0;
            // subset mask s: φ_s = x_{top bit} · φ_{s without top bit}
            for (int s = 1; s < count; s++) {
                int top = 31 - Integer.numberOfLeadingZeros(s);
                out[s] = x[top] * out[s & ~(1 << top)];
            }
            return out;
        });
    }

    @Override
    public String kind() {
        return "anova";
    }

    @Override
    public String spec() {
        return "anova";
    }
}
