package org.psdkit.optim;

/**
 * Accelerated proximal gradient (FISTA, Beck and Teboulle 2009) for min_x h(x) + g(x), h smooth, g given by its
 * prox, with gradient-based adaptive restart (O'Donoghue and Candès 2015): the momentum is reset whenever the
 * step direction and the momentum disagree, ⟨y − x⁺, x⁺ − x⟩ > 0, which keeps the O(1/k²) rate and recovers
 * linear convergence on strongly convex problems.
 *
 * <p>With a fixed Lipschitz bound the method evaluates h once per iteration (at the extrapolated point y); with
 * backtracking it also evaluates h at the candidate point. Stopping: a {@link StopRule} (duality gap …), the
 * iteration budget, the time budget.
 *
 * <p>Progress: one {@link ProgressListener.Event} per iteration, task {@value #TASK}, measure
 * {@value #MEASURE} = h at the extrapolated point where the gradient was taken (callers that know a duality gap
 * report it instead, see {@link ProgressListener}). A listener that throws stops the run.
 */
public final class Fista {
    /** Task name of the events. */
    public static final String TASK = "fista";
    /** Measure of the events: the smooth part h at the extrapolated point. */
    public static final String MEASURE = "objective";

    private Fista() {
    }

    public static FistaResult minimize(SmoothFunction h, ProxFunction g, double[] x0, FistaOptions options,
                                       StopRule stop, ProgressListener listener) {
        int n = h.dimension();
        if (x0.length != n) {
            throw new IllegalArgumentException("start point has length " + x0.length + ", expected " + n);
        }
        StopRule rule = stop == null ? StopRule.NEVER : stop;
        ProgressListener lis = ProgressListener.orNone(listener);
        boolean backtrack = Double.isNaN(options.lipschitz());
        double lip = backtrack ? FistaOptions.BACKTRACK_INITIAL_LIPSCHITZ : options.lipschitz();

        long start = System.nanoTime();
        double[] x = x0.clone();
        g.prox(1e-300, x, x); // bring the start into the domain of g (prox with a vanishing step = projection)
        double[] xPrev = x.clone();
        double[] y = x.clone();
        double[] grad = new double[n];
        double[] xNew = new double[n];
        double[] gradNew = backtrack ? new double[n] : null;
        double t = 1.0;
        int restarts = 0;
        int it = 0;
        FistaResult.Status status = FistaResult.Status.MAX_ITERATIONS;
        while (it < options.maxIterations()) {
            it++;
            double hy = h.valueAndGradient(y, grad);
            if (!Double.isFinite(hy) || !allFinite(grad)) {
                status = FistaResult.Status.NUMERICAL_FAILURE;
                break;
            }
            if (rule.shouldStop(it, y, hy, grad)) {
                status = FistaResult.Status.CONVERGED;
                lis.onProgress(new ProgressListener.Event(TASK, it, 0, MEASURE, hy, seconds(start)));
                break;
            }
            // proximal gradient step from y, with backtracking on L if requested
            while (true) {
                double step = 1.0 / lip;
                for (int i = 0; i < n; i++) {
                    xNew[i] = y[i] - step * grad[i];
                }
                g.prox(step, xNew, xNew);
                if (!backtrack) {
                    break;
                }
                double hx = h.valueAndGradient(xNew, gradNew);
                double lin = hy;
                double sq = 0;
                for (int i = 0; i < n; i++) {
                    double d = xNew[i] - y[i];
                    lin += grad[i] * d;
                    sq += d * d;
                }
                if (hx <= lin + 0.5 * lip * sq * (1 + 1e-12) + 1e-300 || !Double.isFinite(lip * 2)) {
                    break;
                }
                lip *= FistaOptions.BACKTRACK_FACTOR;
            }
            // adaptive restart test: <y - xNew, xNew - x> > 0
            double dot = 0;
            for (int i = 0; i < n; i++) {
                dot += (y[i] - xNew[i]) * (xNew[i] - x[i]);
            }
            double tNew;
            if (options.adaptiveRestart() && dot > 0) {
                restarts++;
                tNew = 1.0;
                System.arraycopy(xNew, 0, y, 0, n);
            } else {
                tNew = 0.5 * (1 + Math.sqrt(1 + 4 * t * t));
                double beta = (t - 1) / tNew;
                for (int i = 0; i < n; i++) {
                    y[i] = xNew[i] + beta * (xNew[i] - x[i]);
                }
            }
            t = tNew;
            double[] tmp = xPrev;
            xPrev = x;
            x = xNew;
            xNew = tmp;
            lis.onProgress(new ProgressListener.Event(TASK, it, 0, MEASURE, hy, seconds(start)));
            if (seconds(start) > options.timeLimitSeconds()) {
                status = FistaResult.Status.TIME_LIMIT;
                break;
            }
        }
        return new FistaResult(x, it, seconds(start), restarts, lip, status);
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) * 1e-9;
    }

    private static boolean allFinite(double[] v) {
        for (double d : v) {
            if (!Double.isFinite(d)) {
                return false;
            }
        }
        return true;
    }
}
