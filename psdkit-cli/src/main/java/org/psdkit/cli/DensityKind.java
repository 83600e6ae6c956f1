package org.psdkit.cli;

import org.psdkit.density.Baselines;
import org.psdkit.density.PsdDensity;

/**
 * Model types {@code psd-density}, {@code ncm-density}, {@code pnm-density}, {@code glm-density} and {@code kde}:
 * densities p = f·ν, saved and loaded by the library ({@link org.psdkit.density.DensityPipeline}, which applies the
 * Jacobian of the scaler and un-scales samples). {@code eval} reports {@code loglik}, {@code integral},
 * {@code min_density} and {@code negative_fraction}.
 */
public final class DensityKind implements ModelKind {
    private final String type;

    public DensityKind(String type) {
        this.type = type;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public String description() {
        return switch (type) {
            case PsdDensity.TYPE -> "density p = f·ν with f a PSD model (seed 002 eq. 12)";
            case Baselines.NCM -> "density baseline: non-negative coefficients on the simplex (seed 002 eq. 35)";
            case Baselines.PNM -> "density baseline: non-negative at the data only, ∫f dν = 1 (seed 002 eq. 37)";
            case Baselines.GLM -> "density baseline: exp-linear with Monte-Carlo normaliser (seed 002 eq. 33)";
            default -> "Gaussian kernel density estimate, bandwidth by likelihood cross-validation";
        };
    }
}
