package org.psdkit.mkl;

import java.util.List;
import java.util.Locale;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/** Σ_k w_k k_k with w_k ≥ 0: the kernel a multiple-kernel learner returns. */
public final class WeightedSumKernel implements Kernel {

    private final List<Kernel> parts;
    private final double[] weights;

    public WeightedSumKernel(List<Kernel> parts, double[] weights) {
        if (parts.size() != weights.length) {
            throw new IllegalArgumentException(parts.size() + " kernels but " + weights.length + " weights");
        }
        for (double w : weights) {
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("kernel weights must be finite and >= 0, got " + w);
            }
        }
        this.parts = List.copyOf(parts);
        this.weights = weights.clone();
    }

    @Override
    public double eval(double[] x, double[] t) {
        double s = 0;
        for (int k = 0; k < weights.length; k++) {
            s += weights[k] * parts.get(k).eval(x, t);
        }
        return s;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        Matrix out = Matrix.zeros(x.rows(), z.rows());
        for (int k = 0; k < weights.length; k++) {
            Matrix c = parts.get(k).cross(x, z);
            double[] o = out.data();
            double[] d = c.data();
            for (int i = 0; i < o.length; i++) {
                o[i] += weights[k] * d[i];
            }
        }
        return out;
    }

    @Override
    public Matrix gram(Matrix x) {
        return cross(x, x);
    }

    @Override
    public String spec() {
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < weights.length; k++) {
            if (k > 0) {
                sb.append(" + ");
            }
            sb.append(String.format(Locale.ROOT, "%.6g*[%s]", weights[k], parts.get(k).spec()));
        }
        return sb.toString();
    }

    public List<Kernel> parts() {
        return parts;
    }

    public double[] weights() {
        return weights.clone();
    }
}
