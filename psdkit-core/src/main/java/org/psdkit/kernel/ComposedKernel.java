package org.psdkit.kernel;

import java.util.List;
import java.util.Optional;
import org.psdkit.linalg.Matrix;

/**
 * Composition with a feature map, k(x, t) = k₀(φ(x), φ(t)) (closure rule 5 of Herbster's slides "Kernels and Regularization"): PSD for any map φ.
 * The Gram matrix is k₀'s Gram matrix of the mapped points, so k₀'s fast path is used.
 *
 * <p>A user-supplied Java map has no text form, so {@link #spec()} of a composed kernel throws
 * {@link UnsupportedOperationException}: such kernels cannot be written to a model file or named on the command
 * line.
 *
 * @param kernel k₀
 * @param map    φ
 */
public record ComposedKernel(Kernel kernel, FeatureMap map) implements Kernel {

    public ComposedKernel {
        if (kernel == null || map == null) {
            throw new IllegalArgumentException("composed kernel: kernel and feature map are required");
        }
    }

    @Override
    public double eval(double[] x, double[] t) {
        return kernel.eval(map.apply(x), map.apply(t));
    }

    @Override
    public Matrix gram(Matrix x) {
        return kernel.gram(map.map(x));
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        return kernel.cross(map.map(x), map.map(z));
    }

    @Override
    public double[] diag(Matrix x) {
        return kernel.diag(map.map(x));
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        // Probe the mapped dimension on a zero vector, then ask the inner kernel for its map at that dimension.
        int mapped = map.apply(new double[dimension]).length;
        return kernel.featureMap(mapped).map(inner -> x -> inner.apply(map.apply(x)));
    }

    @Override
    public String kind() {
        return "composed";
    }

    @Override
    public List<Kernel> children() {
        return List.of(kernel);
    }

    @Override
    public Kernel withChildren(List<Kernel> children) {
        if (children.size() != 1) {
            throw new IllegalArgumentException("composed kernel takes one sub-kernel");
        }
        return new ComposedKernel(children.get(0), map);
    }

    @Override
    public String spec() {
        throw new UnsupportedOperationException("a kernel composed with a Java feature map has no kernel string ("
                + "inner kernel: " + kernel.spec() + ")");
    }

    @Override
    public String toString() {
        return "composed(" + kernel.spec() + ", " + map + ")";
    }
}
