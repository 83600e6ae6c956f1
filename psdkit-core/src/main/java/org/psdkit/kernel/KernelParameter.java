package org.psdkit.kernel;

/**
 * A named hyper-parameter of a kernel with its current value and admissible range.
 *
 * <p>Inside a composite kernel the {@code name} is qualified by the kind of kernel that owns it, e.g.
 * {@code gaussian.sigma}, {@code scaled.weight}; when the same kind occurs more than once the occurrences are
 * numbered in the order they appear in the kernel string: {@code gaussian#1.sigma}, {@code gaussian#2.sigma}.
 * {@link Kernel#withParameter(String, double)} accepts the qualified name or, when it is unambiguous, the bare
 * name ({@code sigma}).
 *
 * @param name           qualified name ({@code kind.param}, or {@code kind#k.param})
 * @param value          current value
 * @param lower          lower bound of the admissible range
 * @param lowerInclusive whether {@code lower} itself is admissible (σ &gt; 0 is exclusive, a weight ≥ 0 inclusive)
 * @param upper          upper bound (inclusive; {@code +∞} for none)
 * @param integer        whether only integer values are admissible (polynomial degree)
 */
public record KernelParameter(String name, double value, double lower, boolean lowerInclusive, double upper,
                              boolean integer) {

    /** A real parameter that must be strictly positive and finite (bandwidths). */
    static KernelParameter positive(String name, double value) {
        return new KernelParameter(name, value, 0.0, false, Double.POSITIVE_INFINITY, false);
    }

    /** A real parameter that must be non-negative and finite (offsets, weights, rates). */
    static KernelParameter nonNegative(String name, double value) {
        return new KernelParameter(name, value, 0.0, true, Double.POSITIVE_INFINITY, false);
    }

    /** An integer parameter {@code >= lower}. */
    static KernelParameter integerAtLeast(String name, double value, int lower) {
        return new KernelParameter(name, value, lower, true, Double.POSITIVE_INFINITY, true);
    }

    /** The simple name (the part after the last dot). */
    public String simpleName() {
        return name.substring(name.lastIndexOf('.') + 1);
    }

    /** Whether {@code v} lies in the admissible range. */
    public boolean admits(double v) {
        if (!Double.isFinite(v)) {
            return false;
        }
        if (integer && v != Math.rint(v)) {
            return false;
        }
        boolean aboveLower = lowerInclusive ? v >= lower : v > lower;
        return aboveLower && v <= upper;
    }

    /** The admissible range as text, e.g. {@code > 0 and finite} or {@code an integer >= 1}. */
    public String requirement() {
        if (integer) {
            return "an integer >= " + KernelFormat.num(lower);
        }
        String low = (lowerInclusive ? ">= " : "> ") + KernelFormat.num(lower);
        return upper == Double.POSITIVE_INFINITY ? low + " and finite" : low + " and <= " + KernelFormat.num(upper);
    }

    /** Returns a copy with another qualified name. */
    KernelParameter renamed(String qualified) {
        return new KernelParameter(qualified, value, lower, lowerInclusive, upper, integer);
    }

    /** Throws an {@link IllegalArgumentException} naming the kernel and parameter unless {@code v} is admissible. */
    static double check(String kernel, KernelParameter range) {
        double v = range.value;
        String param = range.simpleName();
        if (!range.admits(v)) {
            throw new IllegalArgumentException(kernel + " kernel: " + param + " must be " + range.requirement()
                    + ", got " + KernelFormat.num(v));
        }
        return v;
    }
}
