package org.psdkit.kernel;

import java.util.List;
import java.util.Optional;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdBuffer;

/**
 * A positive semidefinite kernel k(x, t) on ℝ^d.
 *
 * <p>Point sets are {@link Matrix} objects with one point per row (n×d). Implementations override
 * {@link #gram(Matrix)} and {@link #cross(Matrix, Matrix)} when a faster formulation than a double loop over
 * {@link #eval(double[], double[])} exists; the defaults are correct but slow.
 *
 * <p>{@link #spec()} returns the kernel string (e.g. {@code gaussian(sigma=0.5) + 0.01*delta}) that
 * {@code Kernels.parse} turns back into an equal kernel: the same string names a kernel in the library, the CLI and
 * model files.
 *
 * <p>Hyper-parameters are exposed by name: {@link #parameters()} lists them (value and admissible range) and
 * {@link #withParameter(String, double)} returns a copy with one changed; both walk composite kernels
 * (sums, products, scalings). A kernel that is a node of such a tree implements {@link #kind()},
 * {@link #ownParameters()}, {@link #withOwnParameter(String, double)}, {@link #children()} and
 * {@link #withChildren(List)}; a user kernel may ignore them all.
 */
public interface Kernel {

    /** k(x, t). */
    double eval(double[] x, double[] t);

    /** The kernel string of this kernel, parseable back into an equal kernel. */
    String spec();

    /** The Gram matrix K(X, X) (n×n, symmetric). */
    default Matrix gram(Matrix x) {
        int n = x.rows();
        double[][] pts = x.toRowArrays();
        Matrix k = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double v = eval(pts[i], pts[j]);
                k.set(i, j, v);
                k.set(j, i, v);
            }
        }
        return k;
    }

    /**
     * Writes the lower triangle of the Gram matrix K(X, X) into {@code out} (n×n, native memory), for solvers that
     * factor it in place. The default copies {@link #gram(Matrix)}; kernels with a faster route override it.
     */
    default void gramInto(Matrix x, SpdBuffer out) {
        out.setLower(gram(x));
    }

    /** The cross matrix K(X, Z) with entries k(x_i, z_j) (n×m). */
    default Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException("points of dimension " + x.cols() + " and " + z.cols());
        }
        double[][] px = x.toRowArrays();
        double[][] pz = z.toRowArrays();
        Matrix k = Matrix.zeros(px.length, pz.length);
        for (int j = 0; j < pz.length; j++) {
            for (int i = 0; i < px.length; i++) {
                k.set(i, j, eval(px[i], pz[j]));
            }
        }
        return k;
    }

    /**
     * The product K(X, Z) c of the cross matrix with a vector (length m = Z's rows): n values. The default forms
     * {@link #cross(Matrix, Matrix)} and multiplies by BLAS dgemv; the radial kernels override it with one pass over
     * column tiles that never holds the n×m matrix (the same kernel values as {@code cross}, summed in another
     * order, so the results agree to rounding).
     */
    default double[] crossTimes(Matrix x, Matrix z, double[] c) {
        if (c.length != z.rows()) {
            throw new IllegalArgumentException("a vector of length " + c.length + " for " + z.rows() + " points");
        }
        return org.psdkit.linalg.Linalg.gemv(cross(x, z), false, c);
    }

    /** The diagonal k(x_i, x_i). */
    default double[] diag(Matrix x) {
        double[][] px = x.toRowArrays();
        double[] d = new double[px.length];
        for (int i = 0; i < px.length; i++) {
            d[i] = eval(px[i], px[i]);
        }
        return d;
    }

    /** The kind name of this node, as in the kernel string ({@code gaussian}, {@code sum}, ...). */
    default String kind() {
        return getClass().getSimpleName();
    }

    /** The hyper-parameters of this node alone, with simple names ({@code sigma}). */
    default List<KernelParameter> ownParameters() {
        return List.of();
    }

    /** A copy of this node with its own parameter {@code simpleName} set to {@code value}. */
    default Kernel withOwnParameter(String simpleName, double value) {
        throw new IllegalArgumentException(kind() + " kernel has no parameter '" + simpleName + "'");
    }

    /** The kernels this one combines (empty for a basic kernel). */
    default List<Kernel> children() {
        return List.of();
    }

    /** A copy of this node combining {@code children} instead (same count and order as {@link #children()}). */
    default Kernel withChildren(List<Kernel> children) {
        if (!children.isEmpty()) {
            throw new IllegalArgumentException(kind() + " kernel has no sub-kernels");
        }
        return this;
    }

    /**
     * All hyper-parameters of this kernel and its sub-kernels, in the order they appear in {@link #spec()},
     * with qualified names ({@code gaussian.sigma}, {@code gaussian#2.sigma}; see {@link KernelParameter}).
     */
    default List<KernelParameter> parameters() {
        return KernelTree.parameters(this);
    }

    /**
     * A copy of this kernel with one hyper-parameter changed. {@code name} is a qualified name from
     * {@link #parameters()} or, when only one parameter has it, a simple name such as {@code sigma}.
     *
     * @throws IllegalArgumentException for an unknown or ambiguous name or a value outside the parameter's range
     */
    default Kernel withParameter(String name, double value) {
        return KernelTree.withParameter(this, name, value);
    }

    /**
     * An explicit finite feature map φ with k(x, t) = φ(x)ᵀφ(t) for inputs of dimension {@code dimension}, if this
     * kernel has one (linear, polynomial, truncated exponential, ANOVA, constant, and sums, scalings and products
     * of those); empty otherwise.
     */
    default Optional<FeatureMap> featureMap(int dimension) {
        return Optional.empty();
    }
}
