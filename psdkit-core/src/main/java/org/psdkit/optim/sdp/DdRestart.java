package org.psdkit.optim.sdp;

import org.psdkit.optim.ProgressListener;

/**
 * The double-double restart of a double-precision run that ended without meeting the tolerances ({@link SdpSolver}'s
 * class comment): when it applies, and the one or two runs of {@link DdSdpSolver} it makes — from the best
 * well-centred double iterate, then from the standard start if that missed a tolerance by more than
 * {@link IpmSettings#standardRestartScore()}.
 */
final class DdRestart {

    /** The method's constants (one record for the double, double-double and Kernel SoS iterations). */
    private static final IpmSettings S = IpmSettings.DEFAULT;

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private DdRestart() {
    }

    /**
     * Whether a double run on {@code p} that ended with {@code status} is continued in double-double: not when it
     * converged, found a certificate or ran out of time; after an iteration limit only when the run had stalled
     * ({@code stalled}: its best score improved less than {@link IpmSettings#slowProgressFactor()}-fold over the last
     * {@link IpmSettings#stagnationIterations()} iterations, far from the tolerances) and a well-centred iterate is
     * there to start from ({@code haveWarm}) — a run that was still converging is not continued behind the caller's
     * limit; a near-optimal run only when the double-double work is at most
     * {@link IpmSettings#nearOptimalRestartWork()}.
     */
    static boolean applies(SdpProblem p, SdpStatus status, boolean stalled, boolean haveWarm) {
        return status != SdpStatus.OPTIMAL && status != SdpStatus.PRIMAL_INFEASIBLE
                && status != SdpStatus.DUAL_INFEASIBLE && status != SdpStatus.TIME_LIMIT
                && (status != SdpStatus.ITERATION_LIMIT || stalled && haveWarm)
                && (DdSdpSolver.applicable(p) || haveWarm && DdSdpSolver.applicableWarm(p))
                && (status != SdpStatus.NEAR_OPTIMAL || DdSdpSolver.work(p) <= S.nearOptimalRestartWork());
    }

    /** The outcome of the double-double restart: its best result (null if none ran), the account, the iterations. */
    record Outcome(SdpResult result, String how, int iterations) {
    }

    /**
     * The double-double restart ({@link DdSdpSolver}) of the double run on {@code p} that stopped after {@code iterations}: from
     * {@code warm} (X, Z, {y}; the well-centred iterate of iteration {@code warmIter}) when there is one, then from
     * the standard start if that missed a tolerance by more than {@code standardRestartScore}, the problem is small
     * enough and the iterates did not diverge ({@link Diagnosis#illPosed}); within the time left.
     */
    static Outcome run(SdpProblem p, SdpOptions opt, double[][][] warm, int warmIter, int iterations,
                       Diagnosis diagnosis, long start, long startCpu) {
        // first from the best well-centred double iterate (cheaper: the early iterations are not repeated),
        // then, if that misses a tolerance and the problem is small enough, from the standard start
        SdpResult dd = null;
        String how = "";
        int ddIterations = iterations;
        for (int attempt = 0; attempt < 2; attempt++) {
            boolean fromWarm = attempt == 0;
            if (fromWarm ? warm == null || !DdSdpSolver.applicableWarm(p)
                    : dd != null && score(dd, opt) < S.standardRestartScore() || !DdSdpSolver.applicable(p)) {
                continue;
            }
            if (!fromWarm && dd != null && diagnosis.illPosed(dd)) {
                how += "; not again from the standard start: the iterates diverged (ill-posed)";
                continue;
            }
            double used = opt.cpuTime() ? (THREADS.getCurrentThreadCpuTime() - startCpu) * 1e-9
                    : (System.nanoTime() - start) * 1e-9;
            double left = opt.timeLimitSeconds() > 0 ? opt.timeLimitSeconds() - used : 0;
            if (opt.timeLimitSeconds() > 0 && left <= 0) {
                break;
            }
            SdpOptions ddOpt = opt.listener() == null ? opt : opt.withListener(shifted(opt.listener(),
                    (System.nanoTime() - start) * 1e-9));
            SdpResult r = fromWarm
                    ? DdSdpSolver.solve(p, ddOpt, ddIterations, left, warm[0], warm[2][0], warm[1])
                    : DdSdpSolver.solve(p, ddOpt, ddIterations, left);
            ddIterations = r.iterations();
            String note = (fromWarm ? "from iteration " + warmIter : "from the standard start") + ": "
                    + r.message();
            if (dd == null || score(r, opt) < score(dd, opt)) {
                how += (dd == null ? "" : "; it missed a tolerance, so again ") + note;
                dd = r;
            } else {
                how += "; again " + note + " (not better)";
            }
        }
        return new Outcome(dd, how, ddIterations);
    }

    /** The larger of gap/tolerance and infeasibility/tolerance of a result (below 1: every tolerance met). */
    static double score(SdpResult r, SdpOptions opt) {
        return IterateMonitor.score(r.relativeGap(), r.primalInfeasibility(), r.dualInfeasibility(), opt);
    }

    /** {@code l} with {@code seconds} added to every event's clock: the double-double restart starts its own. */
    static ProgressListener shifted(ProgressListener l, double seconds) {
        return e -> l.onProgress(new ProgressListener.Event(e.task(), e.step(), e.total(), e.measure(), e.value(),
                seconds + e.seconds()));
    }
}
