package org.psdkit.kernel;

import java.util.List;
import org.psdkit.linalg.Matrix;

/** Σ_k w_k k_k with w_k ≥ 0: the kernel a multiple-kernel learner returns. */
public final class WeightedSumKernel implements Kernel {

    private final List<Kernel> parts;
    private final double[] weights;

    public WeightedSumKernel(List<Kernel> parts, double[] weights) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a weighted sum needs at least one kernel");
        }
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

    /**
     * {@code weighted(w1*k1 + w2*k2 + ...)} with the weights in Java's exact decimal form (a part that is itself a
     * sum or product in parentheses); {@link Kernels#parse} gives back this kernel, not a {@link SumKernel}.
     */
    @Override
    public String spec() {
        StringBuilder sb = new StringBuilder("weighted(");
        for (int k = 0; k < weights.length; k++) {
            if (k > 0) {
                sb.append(" + ");
            }
            String part = parts.get(k).spec();
            boolean atom = part.matches("[A-Za-z_][A-Za-z0-9_]*(\\(.*\\))?") && balancedCall(part);
            sb.append(weights[k]).append('*').append(atom ? part : "(" + part + ")");
        }
        return sb.append(')').toString();
    }

    /** Whether a string NAME(...) is one call (its first '(' closes at the very end). */
    private static boolean balancedCall(String s) {
        int open = s.indexOf('(');
        if (open < 0) {
            return true;
        }
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i == s.length() - 1;
            }
        }
        return false;
    }

    public List<Kernel> parts() {
        return parts;
    }

    public double[] weights() {
        return weights.clone();
    }
}
