package org.psdkit.cli;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelParameter;
import org.psdkit.kernel.Kernels;

/**
 * Kernel strings on the command line ({@code --kernel}): every CLI command parses kernels through here, so the
 * library's syntax ({@link Kernels#parse}) is the CLI's syntax. Errors name the option.
 */
public final class KernelSpecs {
    private KernelSpecs() {
    }

    /** Parses a kernel string; throws {@link IllegalArgumentException} naming {@code --kernel}. */
    public static Kernel parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("--kernel: empty kernel string");
        }
        try {
            return Kernels.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--kernel: " + e.getMessage(), e);
        }
    }

    /**
     * True if {@code name} is a hyper-parameter of the kernel, by qualified name ({@code gaussian.sigma}) or by
     * simple name ({@code sigma}).
     */
    public static boolean hasParameter(Kernel k, String name) {
        for (KernelParameter p : k.parameters()) {
            if (p.name().equals(name) || p.simpleName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The kernel with one hyper-parameter changed; errors name the parameter and its admissible range. */
    public static Kernel withParameter(Kernel k, String name, String value) {
        double v;
        try {
            v = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("kernel parameter " + name + "=" + value + " is not a number");
        }
        return k.withParameter(name, v);
    }
}
