package org.psdkit.kernel;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The syntax tree of a kernel string, as {@link Kernels#syntax} reads it before any kernel is built: sums, weighted
 * products, calls {@code name(key=value, ...)} and weighted sums {@code weighted(w1*k1 + ...)}. Model files use it
 * to store a learned kernel as a JSON object field by field, without knowing the kernel classes.
 */
public sealed interface KernelSyntax {

    /** Column (0-based) where this node starts in the kernel string. */
    int at();

    /** This node's own text in the kernel string. */
    String text();

    /** {@code t1 + t2 + ...} (two or more terms). */
    record Sum(List<KernelSyntax> terms, int at, String text) implements KernelSyntax {
        public Sum {
            terms = List.copyOf(terms);
        }
    }

    /**
     * {@code 0.5*k1*k2}: the numbers multiplied into {@code weight} ({@code weighted} when the term had any), the
     * kernels in {@code factors} (none: the constant kernel).
     */
    record Product(double weight, boolean weighted, List<KernelSyntax> factors, int at, String text)
            implements KernelSyntax {
        public Product {
            factors = List.copyOf(factors);
        }
    }

    /** {@code name(key=value, ...)}, arguments in the order written. */
    record Call(String name, Map<String, Arg> args, int at, String text) implements KernelSyntax {
        public Call {
            args = Collections.unmodifiableMap(new LinkedHashMap<>(args));
        }
    }

    /** {@code weighted(w1*k1 + w2*k2 + ...)}: a learned weighted sum, kept as one kernel. */
    record Weighted(double[] weights, List<KernelSyntax> parts, int at, String text) implements KernelSyntax {
        public Weighted {
            weights = weights.clone();
            parts = List.copyOf(parts);
        }

        @Override
        public double[] weights() {
            return weights.clone();
        }
    }

    /**
     * One argument value: a {@link Long} (a number written without '.' or exponent), a {@link Double}, a
     * {@link String} (a name such as {@code lower}), a {@code double[]} ({@code [1, 2]}) or a
     * {@link org.psdkit.linalg.Matrix} ({@code [[1, 0], [0, 1]]}).
     *
     * @param at    column of the argument
     * @param value the value
     */
    record Arg(int at, Object value) {
    }
}
