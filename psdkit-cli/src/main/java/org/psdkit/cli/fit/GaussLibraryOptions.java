package org.psdkit.cli.fit;

import java.util.Locale;
import org.psdkit.classify.mkl.KernelLearning;
import picocli.CommandLine.Option;

/**
 * How the SimpleMKL Gaussian/polynomial library is prepared ({@code --gauss-bandwidth}, {@code --gauss-scaling}),
 * shared by {@code fit simplemkl} and {@code reproduce tk-table1}.
 */
public final class GaussLibraryOptions {

    @Option(names = "--gauss-bandwidth", defaultValue = "sigma", paramLabel = "sigma|beta",
            description = "How the Gaussian library's bandwidths 0.5..10 are read: sigma in "
                    + "exp(-|x-y|^2/(2 sigma^2)) (SimpleMKL's convention; default) or beta in exp(-beta |x-y|^2) (the "
                    + "paper's definition of the bandwidth, Sec. II: much narrower kernels on [0,1]-scaled data).")
    String bandwidth;

    @Option(names = "--gauss-scaling", defaultValue = "auto", paramLabel = "auto|minmax|zscore|cv",
            description = "Features the Gaussian/polynomial library sees: minmax (the [0,1] scaling the tessellated "
                    + "kernels need), zscore (standardised on the training part, mean 0 and standard deviation 1, as "
                    + "SimpleMKL's own examples prepare data), cv (whichever of the two has the higher 5-fold CV "
                    + "accuracy, chosen together with C and epsilon; costs both CVs) or auto (default: zscore for the "
                    + "gauss-poly library, cv for the combined one).")
    String scaling;

    /** Whether the bandwidths are read as β ({@code --gauss-bandwidth beta}). */
    public boolean beta() {
        return switch (bandwidth.trim().toLowerCase(Locale.ROOT)) {
            case "beta" -> true;
            case "sigma" -> false;
            default -> throw new IllegalArgumentException("--gauss-bandwidth: '" + bandwidth
                    + "' is not beta or sigma");
        };
    }

    /** The library's preparation for a method ({@code --gauss-scaling}; auto resolved per library). */
    public KernelLearning.GaussScaling scaling(KernelLearning.Method method) {
        return switch (scaling.trim().toLowerCase(Locale.ROOT)) {
            case "auto" -> autoScaling(method);
            case "zscore" -> KernelLearning.GaussScaling.ZSCORE;
            case "minmax" -> KernelLearning.GaussScaling.MINMAX;
            case "cv" -> KernelLearning.GaussScaling.CV;
            default -> throw new IllegalArgumentException("--gauss-scaling: '" + scaling
                    + "' is not auto, minmax, zscore or cv");
        };
    }

    /**
     * The default preparation: the Gaussian/polynomial library alone as SimpleMKL's own pipeline prepares it
     * (zscore); in the combined library, whose tessellated half needs the [0, 1] features, chosen by CV.
     */
    static KernelLearning.GaussScaling autoScaling(KernelLearning.Method method) {
        return switch (method) {
            case SIMPLEMKL -> KernelLearning.GaussScaling.ZSCORE;
            case COMBINED -> KernelLearning.GaussScaling.CV;
            default -> KernelLearning.GaussScaling.MINMAX;
        };
    }
}
