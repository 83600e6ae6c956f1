package org.psdkit.cli;

import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * How the SimpleMKL Gaussian/polynomial library is prepared ({@code --gauss-bandwidth}, {@code --gauss-scaling}),
 * shared by {@code fit simplemkl} and {@code reproduce tk-table1}.
 */
final class GaussLibraryOptions {

    @Option(names = "--gauss-bandwidth", defaultValue = "sigma", paramLabel = "sigma|beta",
            description = "How the Gaussian library's bandwidths 0.5..10 are read: sigma in "
                    + "exp(-|x-y|^2/(2 sigma^2)) (SimpleMKL's convention; default) or beta in exp(-beta |x-y|^2) (the "
                    + "paper's definition of the bandwidth, Sec. II: much narrower kernels on [0,1]-scaled data).")
    String bandwidth;

    @Option(names = "--gauss-scaling", defaultValue = "minmax", paramLabel = "minmax|zscore",
            description = "Features the Gaussian/polynomial library sees: minmax (the [0,1] scaling the tessellated "
                    + "kernels need; default) or zscore (standardised on the training part, mean 0 and standard "
                    + "deviation 1, as SimpleMKL's own examples prepare data).")
    String scaling;

    /** Whether the bandwidths are read as β ({@code --gauss-bandwidth beta}). */
    boolean beta() {
        return switch (bandwidth.trim().toLowerCase(Locale.ROOT)) {
            case "beta" -> true;
            case "sigma" -> false;
            default -> throw new IllegalArgumentException("--gauss-bandwidth: '" + bandwidth
                    + "' is not beta or sigma");
        };
    }

    /** Whether the library sees standardised features ({@code --gauss-scaling zscore}). */
    boolean zscore() {
        return switch (scaling.trim().toLowerCase(Locale.ROOT)) {
            case "zscore" -> true;
            case "minmax" -> false;
            default -> throw new IllegalArgumentException("--gauss-scaling: '" + scaling + "' is not minmax or zscore");
        };
    }
}
