package org.psdkit.density;

/**
 * What a density fit reports: primal objective (in the user's λ scale), dual value, relative duality gap,
 * iterations, seconds, whether the tolerance was met, and the integral ∫ f dν of the solver's candidate before the
 * final exact rescaling (its distance from 1 measures how well the constraint was met by the iterate itself).
 */
public record DensityDiagnostics(double objective, double dual, double relativeGap, int iterations, double seconds,
                                 boolean converged, double integralBeforeRescale, int rank, double eigenSeconds) {
}
