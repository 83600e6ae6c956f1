package org.psdkit.kernel;

import java.util.List;
import org.psdkit.linalg.Matrix;

/**
 * Factories for every kernel, the closure combinators, and the kernel-string parser shared by the library, the
 * CLI ({@code --kernel}) and model files.
 *
 * <h2>Kernel strings</h2>
 * <pre>
 *   gaussian(sigma=0.5) + 0.01*delta        Gaussian plus a nugget 0.01·I on distinct points (Bagnell and Farahmand 2015)
 *   polynomial(degree=3, offset=1)          (1 + xᵀt)³
 *   2*laplacian(sigma=1) * (linear + 1)     products with '*', parentheses, non-negative weights
 * </pre>
 * Kernels: {@code gaussian(sigma=|gamma=|beta=)} (alias {@code rbf}), {@code laplacian(sigma=)} (alias
 * {@code abel}), {@code linear}, {@code linear(A=[[..],..])}, {@code polynomial(degree=, offset=0)},
 * {@code exponential(a=1)}, {@code exponential(a=, degree=)} (truncated series), {@code anova}, {@code min},
 * {@code delta}, {@code constant}; a bare number c in a sum means c·constant. '+' binds weaker than '*'.
 * Subtraction and negative weights are rejected (the result need not be PSD). Every error is an
 * {@link IllegalArgumentException} whose message quotes the string and names the column and the problem.
 * {@link Kernel#spec()} prints the canonical string; {@code parse(k.spec())} gives a kernel with the same values.
 *
 * <h2>Hyper-parameters</h2>
 * {@code Kernels.parse("gaussian(sigma=1) + 0.01*delta").withParameter("sigma", 0.3)} returns
 * {@code gaussian(sigma=0.3) + 0.01*delta}; {@link Kernel#parameters()} lists qualified names, values and ranges
 * ({@code gaussian.sigma}, {@code scaled.weight}); see {@link KernelParameter}.
 */
public final class Kernels {
    private Kernels() {
    }

    /**
     * Refuses a kernel whose value k(x_i, x_i) is not finite on the (scaled) training points: parameters that overflow
     * on the data, e.g. polynomial(offset=1e300) or exponential(a=1e300). The diagonal suffices: for a positive
     * semidefinite kernel |k(x, t)|² ≤ k(x, x) k(t, t). n evaluations ({@link Kernel#diag}). Unchecked, a Gram matrix
     * of infinities gave a kernel ridge fit with α = 0, an SVR with no support vectors, or misleading failures
     * elsewhere ("C must be positive", "kernel matrix is zero", a failed eigensolver).
     *
     * @param who names the fit in the message, e.g. {@code "svm"}
     * @return the diagonal k(x_i, x_i), for callers that need it too
     * @throws IllegalArgumentException naming the kernel, the value and the point
     */
    public static double[] requireFinite(Kernel kernel, org.psdkit.linalg.Matrix x, String who) {
        double[] d = kernel.diag(x);
        for (int i = 0; i < d.length; i++) {
            if (!Double.isFinite(d[i])) {
                throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "%s: the kernel %s is %s at "
                        + "training point %d (k(x_%d, x_%d)), beyond double precision; choose parameters nearer the "
                        + "data's scale", who, kernel, d[i], i + 1, i + 1, i + 1));
            }
        }
        return d;
    }

    /** Parses a kernel string (see the class documentation). */
    public static Kernel parse(String spec) {
        return KernelParser.parse(spec);
    }

    /**
     * The syntax tree of a kernel string without building the kernel (same errors as {@link #parse} for malformed
     * text). Model files use it to store a learned kernel field by field.
     */
    public static KernelSyntax syntax(String spec) {
        return KernelParser.syntax(spec);
    }

    /** exp(−‖x − t‖² / (2σ²)). */
    public static Kernel gaussian(double sigma) {
        return new GaussianKernel(sigma);
    }

    /** exp(−‖x − t‖ / σ). */
    public static Kernel laplacian(double sigma) {
        return new LaplacianKernel(sigma);
    }

    /** xᵀt. */
    public static Kernel linear() {
        return LinearKernel.INSTANCE;
    }

    /** xᵀ A t for symmetric PSD A (checked). */
    public static Kernel linear(Matrix a) {
        return new GeneralLinearKernel(a);
    }

    /** (offset + xᵀt)^degree. */
    public static Kernel polynomial(int degree, double offset) {
        return new PolynomialKernel(degree, offset);
    }

    /** exp(a xᵀt). */
    public static Kernel exponential(double a) {
        return new ExponentialKernel(a);
    }

    /** Σ_{i ≤ degree} aⁱ/i! (xᵀt)ⁱ. */
    public static Kernel exponentialSeries(double a, int degree) {
        return new ExponentialSeriesKernel(a, degree);
    }

    /** Π (1 + x_i t_i). */
    public static Kernel anova() {
        return AnovaKernel.INSTANCE;
    }

    /** Π min(x_i, t_i) on [0, ∞)^d. */
    public static Kernel min() {
        return MinKernel.INSTANCE;
    }

    /** 1 if x = t exactly, else 0: the nugget (adds I to the Gram matrix of distinct points). */
    public static Kernel delta() {
        return DeltaKernel.INSTANCE;
    }

    /** The constant 1. */
    public static Kernel constant() {
        return ConstantKernel.INSTANCE;
    }

    /** k₁ + k₂ + …; a single kernel is returned as it is. */
    public static Kernel sum(Kernel... kernels) {
        return kernels.length == 1 ? kernels[0] : new SumKernel(List.of(kernels));
    }

    /** k₁ · k₂ · … pointwise; a single kernel is returned as it is. */
    public static Kernel product(Kernel... kernels) {
        return kernels.length == 1 ? kernels[0] : new ProductKernel(List.of(kernels));
    }

    /** w · k for w ≥ 0. */
    public static Kernel scale(double weight, Kernel k) {
        return new ScaledKernel(weight, k);
    }

    /** k(φ(x), φ(t)). Such a kernel has no kernel string (its {@code spec()} throws). */
    public static Kernel compose(Kernel k, FeatureMap phi) {
        return new ComposedKernel(k, phi);
    }

    /** {@code value} as an int, or an {@link IllegalArgumentException} naming the kernel and parameter. */
    static int integerValue(String kernel, String param, double value) {
        if (value != Math.rint(value) || Math.abs(value) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(kernel + " kernel: " + param + " must be an integer, got "
                    + KernelFormat.num(value));
        }
        return (int) value;
    }
}
