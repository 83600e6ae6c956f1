package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.psdkit.linalg.Matrix;

/**
 * Sum of kernels k(x, t) = Σ_j k_j(x, t) (closure rule: a sum of PSD kernels is PSD). The Gram matrix is the sum
 * of the parts' Gram matrices; an explicit feature map, when every part has one, is the concatenation of theirs.
 *
 * @param terms at least two kernels
 */
public record SumKernel(List<Kernel> terms) implements Kernel {

    public SumKernel {
        if (terms == null || terms.size() < 2) {
            throw new IllegalArgumentException("a sum kernel needs at least two terms");
        }
        terms = List.copyOf(terms);
    }

    @Override
    public double eval(double[] x, double[] t) {
        double s = 0;
        for (Kernel k : terms) {
            s += k.eval(x, t);
        }
        return s;
    }

    @Override
    public Matrix gram(Matrix x) {
        Matrix g = terms.get(0).gram(x);
        for (int i = 1; i < terms.size(); i++) {
            addInPlace(g, terms.get(i).gram(x));
        }
        return g;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        Matrix g = terms.get(0).cross(x, z);
        for (int i = 1; i < terms.size(); i++) {
            addInPlace(g, terms.get(i).cross(x, z));
        }
        return g;
    }

    private static void addInPlace(Matrix acc, Matrix b) {
        double[] a = acc.data();
        double[] d = b.data();
        for (int k = 0; k < a.length; k++) {
            a[k] += d[k];
        }
    }

    @Override
    public double[] diag(Matrix x) {
        double[] d = terms.get(0).diag(x);
        for (int i = 1; i < terms.size(); i++) {
            double[] e = terms.get(i).diag(x);
            for (int k = 0; k < d.length; k++) {
                d[k] += e[k];
            }
        }
        return d;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        List<FeatureMap> maps = new ArrayList<>();
        for (Kernel k : terms) {
            Optional<FeatureMap> m = k.featureMap(dimension);
            if (m.isEmpty()) {
                return Optional.empty();
            }
            maps.add(m.get());
        }
        return Optional.of(x -> {
            List<double[]> parts = new ArrayList<>(maps.size());
            int len = 0;
            for (FeatureMap m : maps) {
                double[] p = m.apply(x);
                parts.add(p);
                len += p.length;
            }
            double[] out = new double[len];
            int off = 0;
            for (double[] p : parts) {
                System.arraycopy(p, 0, out, off, p.length);
                off += p.length;
            }
            return out;
        });
    }

    @Override
    public String kind() {
        return "sum";
    }

    @Override
    public List<Kernel> children() {
        return terms;
    }

    @Override
    public Kernel withChildren(List<Kernel> children) {
        return new SumKernel(children);
    }

    @Override
    public String spec() {
        return terms.stream().map(k -> k instanceof SumKernel ? "(" + k.spec() + ")" : k.spec())
                .collect(Collectors.joining(" + "));
    }

    @Override
    public String toString() {
        return spec();
    }
}
