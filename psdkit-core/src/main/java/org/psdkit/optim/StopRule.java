package org.psdkit.optim;

/**
 * A problem-specific stopping test of {@link Fista} (for instance a duality gap). It is called in every iteration
 * right after the smooth part was evaluated at the extrapolated point y (so the smooth function's caches describe
 * y), before the proximal step. Returning {@code true} ends the run with {@link FistaResult.Status#CONVERGED}.
 */
@FunctionalInterface
public interface StopRule {

    boolean shouldStop(int iteration, double[] y, double smoothValue, double[] gradient);

    StopRule NEVER = (i, y, v, g) -> false;
}
