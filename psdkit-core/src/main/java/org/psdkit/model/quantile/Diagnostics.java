package org.psdkit.model.quantile;

import org.psdkit.model.cone.ConeDualSolver;

/** Solver diagnostics carried by a fitted model (gap/dual NaN for the primal baselines). */
public record Diagnostics(int iterations, double primal, double dual, double gap, double infeasibility,
                          boolean converged, int restarts, double seconds) {

    public static Diagnostics of(ConeDualSolver.Result r, long startNanos) {
        return new Diagnostics(r.iterations(), r.primal(), r.dual(), r.gap(), r.infeasibility(), r.converged(),
                r.restarts(), (System.nanoTime() - startNanos) * 1e-9);
    }
}
