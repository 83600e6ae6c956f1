package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.psdkit.linalg.Matrix;

/**
 * Pointwise product k(x, t) = Π_j k_j(x, t) (closure rule: the Schur product of PSD matrices is PSD). The Gram
 * matrix is the elementwise product of the parts' Gram matrices; an explicit feature map, when every part has one,
 * is the tensor (Kronecker) product of theirs.
 *
 * @param factors at least two kernels
 */
public record ProductKernel(List<Kernel> factors) implements Kernel {

    public ProductKernel {
        if (factors == null || factors.size() < 2) {
            throw new IllegalArgumentException("a product kernel needs at least two factors");
        }
        factors = List.copyOf(factors);
    }

    @Override
    public double eval(double[] x, double[] t) {
        double s = 1;
        for (Kernel k : factors) {
            s *= k.eval(x, t);
        }
        return s;
    }

    private static void timesInPlace(Matrix acc, Matrix b) {
        double[] a = acc.data();
        double[] d = b.data();
        for (int k = 0; k < a.length; k++) {
            a[k] *= d[k];
        }
    }

    @Override
    public Matrix gram(Matrix x) {
        Matrix g = factors.get(0).gram(x);
        for (int i = 1; i < factors.size(); i++) {
            timesInPlace(g, factors.get(i).gram(x));
        }
        return g;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        Matrix g = factors.get(0).cross(x, z);
        for (int i = 1; i < factors.size(); i++) {
            timesInPlace(g, factors.get(i).cross(x, z));
        }
        return g;
    }

    @Override
    public double[] diag(Matrix x) {
        double[] d = factors.get(0).diag(x);
        for (int i = 1; i < factors.size(); i++) {
            double[] e = factors.get(i).diag(x);
            for (int k = 0; k < d.length; k++) {
                d[k] *= e[k];
            }
        }
        return d;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        List<FeatureMap> maps = new ArrayList<>();
        for (Kernel k : factors) {
            Optional<FeatureMap> m = k.featureMap(dimension);
            if (m.isEmpty()) {
                return Optional.empty();
            }
            maps.add(m.get());
        }
        return Optional.of(x -> {
            double[] out = {1.0};
            for (FeatureMap m : maps) {
                double[] p = m.apply(x);
                double[] next = new double[out.length * p.length];
                for (int a = 0; a < out.length; a++) {
                    for (int b = 0; b < p.length; b++) {
                        next[a * p.length + b] = out[a] * p[b];
                    }
                }
                out = next;
            }
            return out;
        });
    }

    @Override
    public String kind() {
        return "product";
    }

    @Override
    public List<Kernel> children() {
        return factors;
    }

    @Override
    public Kernel withChildren(List<Kernel> children) {
        return new ProductKernel(children);
    }

    static boolean needsParensAsFactor(Kernel k) {
        return k instanceof SumKernel || k instanceof ProductKernel || k instanceof ScaledKernel;
    }

    @Override
    public String spec() {
        return factors.stream().map(k -> needsParensAsFactor(k) ? "(" + k.spec() + ")" : k.spec())
                .collect(Collectors.joining(" * "));
    }

    @Override
    public String toString() {
        return spec();
    }
}
