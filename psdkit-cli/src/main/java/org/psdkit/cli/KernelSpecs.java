package org.psdkit.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;

/**
 * Kernel strings on the command line ({@code --kernel}). Every CLI command parses kernels through here so that one
 * place decides the syntax. Errors name the option.
 */
public final class KernelSpecs {
    private KernelSpecs() {
    }

    private static final Pattern GAUSSIAN = Pattern.compile("\\s*gaussian\\s*\\(\\s*sigma\\s*=\\s*([^)\\s]+)\\s*\\)\\s*");

    /** Parses a kernel string; throws {@link IllegalArgumentException} naming {@code --kernel}. */
    public static Kernel parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("--kernel: empty kernel string");
        }
        Matcher m = GAUSSIAN.matcher(spec);
        if (m.matches()) {
            double sigma;
            try {
                sigma = Double.parseDouble(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--kernel " + spec + ": sigma '" + m.group(1) + "' is not a number");
            }
            if (!(sigma > 0) || Double.isInfinite(sigma)) {
                throw new IllegalArgumentException("--kernel " + spec + ": sigma must be > 0, got " + m.group(1));
            }
            return new GaussianKernel(sigma);
        }
        throw new IllegalArgumentException("--kernel: cannot parse '" + spec + "' (expected e.g. gaussian(sigma=0.5))");
    }
}
