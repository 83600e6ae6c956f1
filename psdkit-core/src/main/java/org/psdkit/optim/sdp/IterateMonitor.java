package org.psdkit.optim.sdp;

import java.util.function.Supplier;

/**
 * The part of an interior-point run that judges its iterates, shared by the double-precision, double-double and
 * Kernel SoS iterations: it scores each iterate, keeps the best one, and says when to stop short of the tolerances.
 * <ul>
 *   <li>Score: the larger of gap/tolerance and infeasibility/tolerance ({@link #score}); below 1 every tolerance is
 *   met, below {@link IpmSettings#nearOptimalFactor()} the run is near-optimal.</li>
 *   <li>Stagnation ({@link #stagnant}): neither the best score nor any single measure above its tolerance (by a
 *   factor {@link IpmSettings#componentProgressFactor()}) improved for {@link IpmSettings#stagnationIterations()}
 *   iterations.</li>
 *   <li>Slow progress: the best score improved less than {@link IpmSettings#slowProgressFactor()}-fold over the
 *   stagnation window, far from the tolerances at an iteration limit ({@link #stalledAtLimit}) or once
 *   near-optimal ({@link #slowNearOptimal(int)}).</li>
 *   <li>Stall ({@link #stalled}): both step lengths below {@link IpmSettings#stallStep()} for
 *   {@link IpmSettings#stallIterations()} iterations in a row.</li>
 * </ul>
 *
 * @param <T> the stored form of the best iterate (the caller's arrays and statistics)
 */
public final class IterateMonitor<T> {
    private final IpmSettings s;
    private final double[] tolerances;
    /** Per measure: its value at its last {@code componentProgressFactor}-fold fall. */
    private final double[] measureRef;
    /** The best score at each of the last stagnationIterations + 1 iterations, indexed by iteration modulo length. */
    private final double[] history;
    private double bestScore = Double.POSITIVE_INFINITY;
    private int bestIter;
    private T best;
    private int lastMeasureProgress;
    private int stalls;

    /**
     * @param settings   the method's constants
     * @param tolerances the tolerance of each measure passed to {@link #observe}, in the same order
     */
    public IterateMonitor(IpmSettings settings, double... tolerances) {
        this.s = settings;
        this.tolerances = tolerances.clone();
        this.measureRef = new double[tolerances.length];
        java.util.Arrays.fill(measureRef, Double.POSITIVE_INFINITY);
        this.history = new double[settings.stagnationIterations() + 1];
    }

    /** The larger of gap/gap tolerance and max(pinf, dinf)/feasibility tolerance (below 1: every tolerance met). */
    public static double score(double gap, double pinf, double dinf, SdpOptions opt) {
        return Math.max(gap / opt.gapTolerance(), Math.max(pinf, dinf) / opt.feasibilityTolerance());
    }

    /**
     * Records iterate {@code iter} (0: the starting point, which is neither kept nor counted): keeps it (from
     * {@code snapshot}) when its score is the best so far, and notes which measures fell.
     *
     * @return whether it is the new best iterate
     */
    public boolean observe(int iter, double score, double[] measures, Supplier<T> snapshot) {
        if (iter == 0) {
            return false;
        }
        boolean better = score < bestScore;
        if (better) {
            bestScore = score;
            bestIter = iter;
            best = snapshot.get();
        }
        for (int k = 0; k < measures.length; k++) {
            if (measures[k] < measureRef[k] / s.componentProgressFactor()) {
                if (measureRef[k] > tolerances[k] && Double.isFinite(measureRef[k])) {
                    lastMeasureProgress = iter;
                }
                measureRef[k] = measures[k];
            }
        }
        return better;
    }

    /** No progress of the best score or of any measure above its tolerance for the stagnation window. */
    public boolean stagnant(int iter) {
        return iter - Math.max(bestIter, lastMeasureProgress) >= s.stagnationIterations() && bestIter > 0;
    }

    /** Stores the best score of iteration {@code iter} for the slow-progress tests. */
    public void remember(int iter) {
        history[iter % history.length] = bestScore;
    }

    /**
     * At an iteration limit: the run is still far from the tolerances (best score ≥ nearOptimalFactor) and its best
     * score improved less than slowProgressFactor-fold over the last stagnationIterations iterations.
     */
    public boolean stalledAtLimit(int iter) {
        int window = s.stagnationIterations();
        return iter >= window && bestScore >= s.nearOptimalFactor()
                && bestScore > history[(iter - window) % history.length] / s.slowProgressFactor();
    }

    /** {@link #slowNearOptimal(int, double, double[], int, IpmSettings)} for this run, {@link #remember}ed first. */
    public boolean slowNearOptimal(int iter) {
        return slowNearOptimal(iter, bestScore, history, lastMeasureProgress, s);
    }

    /**
     * Slow progress once near-optimal: the best score was already within nearOptimalFactor of the tolerances
     * stagnationIterations iterations ago and has improved less than slowProgressFactor-fold since, while no measure
     * above its tolerance halved. The plain stagnation test (no improvement at all) let such runs creep on: on
     * SDPLIB's hinf10 and hinf11 the double-double restart went on for 34 and 35 iterations past the iterate it
     * finally returned (the best score moved 2.77 → 2.45 and 3.59 → 2.02 while ⟨X, Z⟩ grew, and neither late iterate
     * rounded to double better), on hinf13 23 iterations for a gap of 6.4e-7 instead of 8.9e-7. A run still
     * converging gains orders of magnitude in that many iterations.
     *
     * @param history the best score at each of the last {@code history.length} iterations, indexed by
     *                {@code iteration % history.length}, this iteration's already stored
     */
    static boolean slowNearOptimal(int iter, double bestScore, double[] history, int lastMeasureProgress,
                                   IpmSettings s) {
        int window = history.length - 1;
        if (iter < window + 1 || iter - lastMeasureProgress < window) {
            return false;
        }
        double then = history[(iter - window) % history.length];
        return then < s.nearOptimalFactor() && bestScore > then / s.slowProgressFactor();
    }

    /**
     * Counts an iteration whose primal and dual steps were both below stallStep; true once stallIterations such
     * iterations came in a row.
     */
    public boolean stalled(double ap, double ad) {
        if (ap < s.stallStep() && ad < s.stallStep()) {
            return ++stalls >= s.stallIterations();
        }
        stalls = 0;
        return false;
    }

    /** The best score so far (+∞ before the first iteration). */
    public double bestScore() {
        return bestScore;
    }

    /** The iteration of the best iterate (0: none yet). */
    public int bestIteration() {
        return bestIter;
    }

    /** The best iterate, as stored by the snapshot of {@link #observe} (null: none yet). */
    public T best() {
        return best;
    }

    /** Whether the best iterate meets every tolerance within nearOptimalFactor. */
    public boolean nearOptimal() {
        return bestScore < s.nearOptimalFactor();
    }
}
