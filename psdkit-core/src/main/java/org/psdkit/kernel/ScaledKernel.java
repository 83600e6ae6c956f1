package org.psdkit.kernel;

import java.util.List;
import java.util.Optional;
import org.psdkit.linalg.Matrix;

/**
 * Non-negative scaling k(x, t) = w · k₀(x, t), w ≥ 0 (closure rule). Written {@code w*k₀} in a kernel string; its
 * parameter is {@code weight}. Feature map √w · φ₀.
 *
 * @param weight w ≥ 0
 * @param kernel k₀
 */
public record ScaledKernel(double weight, Kernel kernel) implements Kernel {

    public ScaledKernel {
        KernelParameter.check("scaled", KernelParameter.nonNegative("weight", weight));
        if (kernel == null) {
            throw new IllegalArgumentException("scaled kernel: no kernel to scale");
        }
    }

    @Override
    public double eval(double[] x, double[] t) {
        return weight * kernel.eval(x, t);
    }

    @Override
    public Matrix gram(Matrix x) {
        Matrix g = kernel.gram(x);
        g.scaleInPlace(weight);
        return g;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        Matrix g = kernel.cross(x, z);
        g.scaleInPlace(weight);
        return g;
    }

    @Override
    public double[] diag(Matrix x) {
        double[] d = kernel.diag(x);
        for (int i = 0; i < d.length; i++) {
            d[i] *= weight;
        }
        return d;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        double s = Math.sqrt(weight);
        return kernel.featureMap(dimension).map(m -> x -> {
            double[] p = m.apply(x);
            for (int i = 0; i < p.length; i++) {
                p[i] *= s;
            }
            return p;
        });
    }

    @Override
    public String kind() {
        return "scaled";
    }

    @Override
    public List<KernelParameter> ownParameters() {
        return List.of(KernelParameter.nonNegative("weight", weight));
    }

    @Override
    public Kernel withOwnParameter(String name, double value) {
        if (name.equals("weight")) {
            return new ScaledKernel(value, kernel);
        }
        return Kernel.super.withOwnParameter(name, value);
    }

    @Override
    public List<Kernel> children() {
        return List.of(kernel);
    }

    @Override
    public Kernel withChildren(List<Kernel> children) {
        if (children.size() != 1) {
            throw new IllegalArgumentException("scaled kernel takes one sub-kernel");
        }
        return new ScaledKernel(weight, children.get(0));
    }

    @Override
    public String spec() {
        boolean parens = kernel instanceof SumKernel || kernel instanceof ScaledKernel;
        return KernelFormat.num(weight) + "*" + (parens ? "(" + kernel.spec() + ")" : kernel.spec());
    }

    @Override
    public String toString() {
        return spec();
    }
}
