package org.psdkit.optim.sdp;

import org.psdkit.linalg.LinalgException;
import org.psdkit.optim.ProgressListener;

/**
 * The primal–dual interior-point iteration of the project, written once: the double-precision {@link SdpSolver},
 * its double-double restart ({@link DdSdpSolver}) and the Kernel SoS solver ({@code org.psdkit.sos}) each supply
 * their arithmetic and operators as an {@link IpmOperations} and run this loop.
 *
 * <p>One iteration: the residuals and measures of the current iterate ({@link IpmOperations#measure}); the
 * {@link IterateMonitor} scores it and keeps the best; the stopping rules in order (convergence, an infeasibility
 * certificate, the implementation's own early stop, stagnation, slow progress once near-optimal where the variant
 * asks for it, the iteration and time limits); then the factorisations, Mehrotra's predictor–corrector
 * (Mehrotra 1992: σ = (μ_aff/μ)^{@link IpmSettings#mehrotraExponent()} from the predictor's full step to the
 * boundary), step lengths of {@link IpmSettings#stepFraction()} of the way to the boundary of each cone, the stall
 * test, and the step. The constants are those of {@link IpmSettings}.
 */
public final class IpmCore {

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private IpmCore() {
    }

    /**
     * The rules in which the double and the double-double iterations differ. Each is a difference of method, not of
     * arithmetic, and each is kept because the other side's rule would change that side's runs:
     * <ol>
     *   <li>the gap tested: in double the smaller of the objective and ⟨X, Z⟩ gaps (SDPT3's measure; the two agree up
     *   to the infeasibilities, tested separately), in double-double the objective gap itself, which its extra
     *   precision can reach and which certifies the optimal value;</li>
     *   <li>the stall test on step lengths ({@link IterateMonitor#stalled}): it ends a double run that can no longer
     *   move, the cue for the restart; double-double steps are confirmed by halving instead, and a short step is
     *   part of its end-game;</li>
     *   <li>the slow-progress stop near the optimum ({@link IterateMonitor#slowNearOptimal}): the double-double run
     *   only, the last run of a problem; a double run that slows down ends on stagnation or the stall test and is
     *   continued by the restart;</li>
     *   <li>{@link StrictMath#pow} for σ in double-double (its ill-conditioned iterations amplify a last-bit
     *   difference of {@link Math#pow} between interpreted and compiled code into different final digits), Math.pow
     *   in double, whose published SDPLIB runs it made: switching would move their last digits.</li>
     * </ol>
     */
    public enum Variant {
        /**
         * Double precision: the gap test accepts the smaller of the objective gap and the complementarity gap
         * ⟨X, Z⟩/(1 + |pobj| + |dobj|) (SDPT3's measure; they agree up to the infeasibilities, tested separately);
         * the stall test of {@link IterateMonitor#stalled} applies.
         */
        DOUBLE(false, true, false, false),
        /**
         * Double-double: the objective gap itself is tested and scored (with the extra precision it can be reached,
         * and it is what certifies the optimal value; ⟨X, Z⟩ is a fourth measure of progress: it can still halve
         * every few iterations while the objective gap floats at ‖r_p‖·‖y‖, as on qap6 from a warm start); steps are
         * confirmed by halving instead of the stall test; a near-optimal run stops on slow progress
         * ({@link IterateMonitor#slowNearOptimal(int)}); σ uses {@link StrictMath#pow}, since {@link Math#pow} may
         * differ in the last bit between interpreted and compiled code and these ill-conditioned iterations amplify
         * that into different final digits from run to run.
         */
        DOUBLE_DOUBLE(true, false, true, true);

        final boolean objectiveGapOnly;
        final boolean stallTest;
        final boolean slowNearOptimalStop;
        final boolean strictPow;

        Variant(boolean objectiveGapOnly, boolean stallTest, boolean slowNearOptimalStop, boolean strictPow) {
            this.objectiveGapOnly = objectiveGapOnly;
            this.stallTest = stallTest;
            this.slowNearOptimalStop = slowNearOptimalStop;
            this.strictPow = strictPow;
        }
    }

    /**
     * One run's setting.
     *
     * @param options          tolerances, iteration limit, listener, CPU or wall clock
     * @param settings         the method's constants
     * @param variant          double or double-double rules
     * @param corrector        Mehrotra's corrector (false: the baseline σ = {@link IpmSettings#baselineSigma()})
     * @param firstIteration   added to the iteration count in progress events and messages (a restart continues the
     *                         count of the run it continues)
     * @param timeLimitSeconds stop after this many seconds (≤ 0: no limit), CPU or wall as {@code options} says
     * @param timeLimitMessage the message of that stop
     * @param startNanos       {@link System#nanoTime()} at the start of the run
     * @param startCpuNanos    the thread's CPU time at the start (read when {@code options.cpuTime()})
     */
    public record Setup(SdpOptions options, IpmSettings settings, Variant variant, boolean corrector,
                        int firstIteration, double timeLimitSeconds, String timeLimitMessage, long startNanos,
                        long startCpuNanos) {

        /** A double-precision run from now, with the options' time limit. */
        public static Setup of(SdpOptions options, IpmSettings settings, boolean corrector) {
            return new Setup(options, settings, Variant.DOUBLE, corrector, 0, options.timeLimitSeconds(),
                    "time limit " + options.timeLimitSeconds() + " s (" + (options.cpuTime() ? "CPU" : "wall")
                            + ") reached", System.nanoTime(), cpuNow(options));
        }

        /** Seconds since the start, CPU or wall as the options say. */
        double elapsed() {
            return options.cpuTime() ? (THREADS.getCurrentThreadCpuTime() - startCpuNanos) * 1e-9
                    : (System.nanoTime() - startNanos) * 1e-9;
        }
    }

    /** The thread's CPU time now when the options measure CPU time, else 0. */
    static long cpuNow(SdpOptions options) {
        return options.cpuTime() ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    /**
     * The measures of an iterate.
     *
     * @param pobj  ⟨C, X⟩
     * @param dobj  bᵀy
     * @param gap   |pobj − dobj| / (1 + |pobj| + |dobj|)
     * @param gapXz ⟨X, Z⟩ / (1 + |pobj| + |dobj|)
     * @param pinf  ‖r_p‖ / (1 + ‖b‖)
     * @param dinf  ‖R_d‖_F / (1 + ‖C‖_F)
     * @param xz    ⟨X, Z⟩
     * @param mu    ⟨X, Z⟩ / n
     */
    public record Measures(double pobj, double dobj, double gap, double gapXz, double pinf, double dinf, double xz,
                           double mu) {

        /** The measures from the objectives, ⟨X, Z⟩, the residual norms, the data norms and n. */
        public static Measures of(double pobj, double dobj, double xz, double normRp, double normRd, double normB,
                                  double normC, int n) {
            double scale = 1 + Math.abs(pobj) + Math.abs(dobj);
            return new Measures(pobj, dobj, Math.abs(pobj - dobj) / scale, Math.abs(xz) / scale,
                    normRp / (1 + normB), normRd / (1 + normC), xz, xz / n);
        }

        /** {pobj, dobj, gap, pinf, dinf}, as {@link BestIterate#stats()}. */
        public double[] stats() {
            return new double[] {pobj, dobj, gap, pinf, dinf};
        }
    }

    /**
     * How a run ended.
     *
     * @param status     why it stopped
     * @param message    the explanation
     * @param iterations iterations done
     * @param last       the measures of the last iterate measured (null if none was)
     * @param monitor    the monitor with the best iterate
     * @param <T>        the stored form of the best iterate
     */
    public record Outcome<T>(SdpStatus status, String message, int iterations, Measures last,
                             IterateMonitor<T> monitor) {
    }

    /** Runs the iteration from the implementation's current iterate. */
    public static <T, D> Outcome<T> run(IpmOperations<T, D> ops, Setup setup) {
        SdpOptions opt = setup.options();
        IterateMonitor<T> monitor = setup.variant().objectiveGapOnly
                ? new IterateMonitor<>(setup.settings(), opt.gapTolerance(), opt.gapTolerance(),
                        opt.feasibilityTolerance(), opt.feasibilityTolerance())
                : new IterateMonitor<>(setup.settings(), opt.gapTolerance(), opt.feasibilityTolerance(),
                        opt.feasibilityTolerance());
        int iter = 0;
        while (true) {
            Measures m = ops.measure();
            StopReason stop = judge(ops, setup, monitor, iter, m);
            if (stop == null) {
                iter++;
                stop = iterate(ops, setup, monitor, iter, m.mu());
            }
            if (stop != null) {
                return new Outcome<>(stop.status(), stop.message(), iter, m, monitor);
            }
        }
    }

    /**
     * Reports, scores and keeps iterate {@code iter}, then applies the stopping rules in order: non-finite iterate,
     * convergence, certificate, the implementation's early stop, stagnation, slow progress (double-double), the
     * iteration and time limits. Null to go on.
     */
    private static <T, D> StopReason judge(IpmOperations<T, D> ops, Setup setup, IterateMonitor<T> monitor, int iter,
                                           Measures m) {
        SdpOptions opt = setup.options();
        IpmSettings s = setup.settings();
        if (iter > 0 && opt.listener() != null) {
            opt.listener().onProgress(new ProgressListener.Event(SdpSolver.TASK, setup.firstIteration() + iter, 0,
                    SdpSolver.MEASURE, m.gap(), (System.nanoTime() - setup.startNanos()) * 1e-9));
        }
        if (!(Double.isFinite(m.pobj()) && Double.isFinite(m.dobj()) && Double.isFinite(m.mu()))) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, "non-finite iterate");
        }
        boolean objectiveOnly = setup.variant().objectiveGapOnly;
        double gap = objectiveOnly ? m.gap() : Math.min(m.gap(), m.gapXz());
        double score = IterateMonitor.score(gap, m.pinf(), m.dinf(), opt);
        double[] measures = objectiveOnly ? new double[] {m.gap(), m.gapXz(), m.pinf(), m.dinf()}
                : new double[] {gap, m.pinf(), m.dinf()};
        monitor.observe(iter, score, measures, () -> ops.snapshot(iter, m));
        ops.observed(iter, score, m);
        if (gap < opt.gapTolerance() && m.pinf() < opt.feasibilityTolerance()
                && m.dinf() < opt.feasibilityTolerance()) {
            return new StopReason(SdpStatus.OPTIMAL, "relative gap and infeasibilities below tolerance");
        }
        StopReason stop = ops.certificate(m);
        if (stop == null) {
            stop = ops.earlyStop(iter, m, monitor);
        }
        if (stop != null) {
            return stop;
        }
        if (monitor.stagnant(iter)) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, "no improvement for " + s.stagnationIterations()
                    + " iterations");
        }
        monitor.remember(iter);
        if (setup.variant().slowNearOptimalStop && monitor.slowNearOptimal(iter)) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, "near-optimal, and less than "
                    + (int) s.slowProgressFactor() + "-fold progress in " + s.stagnationIterations() + " iterations");
        }
        if (iter >= opt.maxIterations()) {
            return new StopReason(SdpStatus.ITERATION_LIMIT, "iteration limit " + opt.maxIterations() + " reached");
        }
        if (setup.timeLimitSeconds() > 0 && setup.elapsed() > setup.timeLimitSeconds()) {
            return new StopReason(SdpStatus.TIME_LIMIT, setup.timeLimitMessage());
        }
        return null;
    }

    /**
     * Iteration {@code iter}: factorisations, direction, step lengths ({@link IpmSettings#stepFraction()} of the way
     * to the boundary, at most 1), the stall test (double), the step. Null to go on.
     */
    private static <T, D> StopReason iterate(IpmOperations<T, D> ops, Setup setup, IterateMonitor<T> monitor,
                                             int iter, double mu) {
        IpmSettings s = setup.settings();
        int shown = setup.firstIteration() + iter;
        String failed = ops.factor(shown);
        if (failed != null) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, failed);
        }
        D dir = direction(ops, setup, mu);
        double ap;
        double ad;
        try {
            ap = Math.min(1.0, s.stepFraction() * ops.maxPrimalStep(dir));
            ad = Math.min(1.0, s.stepFraction() * ops.maxDualStep(dir));
        } catch (LinalgException e) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, "step length computation failed at iteration "
                    + shown + ": " + e.getMessage());
        }
        // ap, ad ∈ [0, 1] unless a step length is NaN
        if (!(ap >= 0) || !(ad >= 0) || !ops.finite(dir)) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, ops.nonFinite(shown));
        }
        if (setup.variant().stallTest && monitor.stalled(ap, ad)) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, "no progress: step lengths below " + s.stallStep()
                    + " for " + s.stallIterations() + " iterations");
        }
        failed = ops.step(shown, dir, ap, ad);
        return failed == null ? null : new StopReason(SdpStatus.NUMERICAL_PROBLEMS, failed);
    }

    /**
     * A direction and its step lengths.
     *
     * @param direction the search direction
     * @param ap        the primal step length
     * @param ad        the dual step length
     * @param <D>       the direction's form
     */
    record Probe<D>(D direction, double ap, double ad) {
    }

    /**
     * The first iteration's direction and step lengths from the implementation's current iterate, without taking the
     * step: what {@link #run} computes at iteration 1 (for tests comparing arithmetics).
     */
    static <T, D> Probe<D> probe(IpmOperations<T, D> ops, Setup setup) {
        Measures m = ops.measure();
        String failed = ops.factor(setup.firstIteration() + 1);
        if (failed != null) {
            throw new IllegalStateException(failed);
        }
        D dir = direction(ops, setup, m.mu());
        double ap = Math.min(1.0, setup.settings().stepFraction() * ops.maxPrimalStep(dir));
        double ad = Math.min(1.0, setup.settings().stepFraction() * ops.maxDualStep(dir));
        return new Probe<>(dir, ap, ad);
    }

    /**
     * The HKM direction with Mehrotra's predictor–corrector: the predictor (R_c Z⁻¹ = −X), its full steps to the
     * boundary, μ_aff, σ = min(1, (max(μ_aff, 0)/μ)^{@link IpmSettings#mehrotraExponent()}) and the corrector; without
     * the corrector the centred direction with σ = {@link IpmSettings#baselineSigma()}.
     */
    static <T, D> D direction(IpmOperations<T, D> ops, Setup setup, double mu) {
        IpmSettings s = setup.settings();
        ops.prepareDirections();
        if (!setup.corrector()) {
            return ops.centred(s.baselineSigma() * mu, null);
        }
        D affine = ops.predictor();
        double ap = Math.min(1.0, ops.maxPrimalStep(affine));
        double ad = Math.min(1.0, ops.maxDualStep(affine));
        double muAff = ops.affineMu(affine, ap, ad);
        double ratio = Math.max(muAff, 0) / mu;
        double sigma = Math.min(1.0, setup.variant().strictPow ? StrictMath.pow(ratio, s.mehrotraExponent())
                : Math.pow(ratio, s.mehrotraExponent()));
        return ops.centred(sigma * mu, affine);
    }
}
