package org.psdkit.density;

/**
 * What a density fit reports: primal objective (in the user's λ scale), dual value, relative duality gap,
 * iterations, seconds, whether the tolerance was met, and the integral ∫ f dν of the solver's candidate before the
 * final exact rescaling (its distance from 1 measures how well the constraint was met by the iterate itself),
 * the feature space the problem was solved in: {@code rank} eigen-directions of the Gram matrix of the expansion
 * points above {@code rankThreshold}·λ_max (NaN: no threshold, e.g. NCM's n coefficients) and the number of
 * expansion points {@code anchors} (n for the exact model). The objective and gap are those of the problem
 * restricted to these directions, not of the full span of k(·, x_i).
 */
public record DensityDiagnostics(double objective, double dual, double relativeGap, int iterations, double seconds,
                                 boolean converged, double integralBeforeRescale, int rank, double eigenSeconds,
                                 double rankThreshold, int anchors) {
}
