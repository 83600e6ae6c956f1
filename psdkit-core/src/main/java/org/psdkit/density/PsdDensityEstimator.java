package org.psdkit.density;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.MemoryBudget;
import org.psdkit.linalg.Threads;
import org.psdkit.optim.ProgressListener;

/**
 * Density estimation with a PSD model (Marteau-Ferey, Bach and Rudi 2020 Sec. 6, eq. 12): minimise −(1/n) Σ log f_A(x_i) + λ₁ Tr A +
 * (λ₂/2)‖A‖_F² over A ⪰ 0 subject to Tr(A W) = 1, where f_A(x) = Φ(x)ᵀ A Φ(x), W = Tᵀ M T and
 * M_ij = ∫ k(x,x_i) k(x,x_j) dν (closed form, {@link KernelIntegrals}). The learned density is p = f·ν.
 *
 * <p>Solved by FISTA on the dual ({@link LogLikelihoodDual#solveFixedMetric}: per-coordinate steps from a valid
 * diagonal bound on ∇²g, {@link #metric}, no backtracking, one eigen-decomposition per iteration) with smooth part
 * g(β, μ) = −μ + (1/(2λ₂)) ‖[μ W̃ + V Diag(β) Vᵀ − λ₁ I]_+‖_F² and A = [·]_+/λ₂ (Lemma 5 with the sign of the
 * data block flipped: β = −α &gt; 0; this is the same as Thm. 2's ‖[V Diag(α) Vᵀ + λ₁ I]_-‖ and was checked against
 * a brute-force primal solve). To avoid the ‖W‖_F ≈ 1e-11 scale trap of 10-D Gaussian base measures, the problem is
 * always solved for Ã = ‖W‖_F·A with W̃ = W/‖W‖_F (unit Frobenius norm, like each data block V_iV_iᵀ, whose norm
 * is k(x_i,x_i)), and raw λ's are converted ({@link PsdDensityOptions.LambdaScale}).
 *
 * <p>The returned model is rescaled by the exact closed-form integral so that ∫ f dν = 1 up to rounding; the
 * integral of the solver's own iterate is kept in the diagnostics.
 */
public final class PsdDensityEstimator {

    private PsdDensityEstimator() {
    }

    /**
     * The PSD density on {@code x} (Marteau-Ferey, Bach &amp; Rudi 2020, eq. 12) with the kernel, base measure and
     * solver options of {@code options}, expanded on {@code anchors} (Nyström, App. B.5; null: every data point, the
     * exact model). {@code options.nystrom()}'s anchor count and {@code options.scale()} are not used here: the
     * anchors are given and {@code x} is the data as the model sees it ({@link PsdDensityTrainer} fits raw data).
     * {@code listener} (null: none) receives one event per iteration, task {@code "density"}, measure
     * {@code "gap"}.
     */
    public static PsdDensity fit(Matrix x, Matrix anchors, PsdDensityTrainer.Options options,
                                 ProgressListener listener) {
        return fit(x, anchors, options.kernel(), options.base(), options.psd(), WarmStart.DEFAULT, listener);
    }

    /**
     * As {@link #fit(Matrix, Matrix, PsdDensityTrainer.Options, ProgressListener)} with the primal solver's warm
     * start given ({@link WarmStart#DEFAULT} there; the benchmark compares it with {@link WarmStart#COARSE}).
     */
    public static PsdDensity fit(Matrix x, Matrix anchors, PsdDensityTrainer.Options options, WarmStart warm,
                                 ProgressListener listener) {
        return fit(x, anchors, options.kernel(), options.base(), options.psd(), warm, listener);
    }

    static PsdDensity fit(Matrix x, Kernel kernel, BaseMeasure base, PsdDensityOptions opt) {
        return fit(x, kernel, base, opt, null);
    }

    static PsdDensity fit(Matrix x, Kernel kernel, BaseMeasure base, PsdDensityOptions opt,
                          ProgressListener listener) {
        return fit(x, null, kernel, base, opt, listener);
    }

    /**
     * As {@link #fit(Matrix, Kernel, BaseMeasure, PsdDensityOptions, ProgressListener)}, with the model's expansion
     * points restricted to {@code anchors} (a Nyström approximation, Marteau-Ferey, Bach and Rudi 2020 App. B.5): the likelihood still uses
     * every row of x, but A lives on the r ≤ #anchors features of the anchors, so an iteration costs O(r²n + r³)
     * instead of O(n³). {@code anchors == null} uses all points (the exact representer-theorem model). {@code listener}
     * (null: none) receives one event per iteration, task {@code "density"}, measure {@code "gap"}: the relative
     * duality gap compared with the tolerance.
     */
    static PsdDensity fit(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, PsdDensityOptions opt,
                          ProgressListener listener) {
        return fit(x, anchors, kernel, base, opt, WarmStart.DEFAULT, listener);
    }

    /**
     * As {@link #fit(Matrix, Matrix, Kernel, BaseMeasure, PsdDensityOptions, ProgressListener)} with the primal
     * solver's warm start given ({@link WarmStart#DEFAULT} there; the benchmark compares it with
     * {@link WarmStart#COARSE}). The dual solver ignores it.
     */
    static PsdDensity fit(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, PsdDensityOptions opt,
                          WarmStart warm, ProgressListener listener) {
        return fit(x, anchors, kernel, base, opt, warm, listener, null);
    }

    /**
     * As {@link #fit(Matrix, Matrix, Kernel, BaseMeasure, PsdDensityOptions, WarmStart, ProgressListener)} with the
     * weighted log-likelihood −Σ p_i log f(x_i), p_i = w_i / Σ w (scikit-learn's {@code sample_weight} of
     * {@code KernelDensity}); every weight must be &gt; 0 (leave zero-weight rows out beforehand). The weighted fit
     * runs the dual solver ({@link PsdDensityOptions.Solver#DUAL_FISTA}) whatever {@code opt.solver()} says;
     * {@code weights == null} is the unweighted fit.
     */
    static PsdDensity fit(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, PsdDensityOptions opt,
                          WarmStart warm, ProgressListener listener, double[] weights) {
        return fitWeighted(x, anchors, kernel, base, weights == null ? opt
                : opt.withSolver(PsdDensityOptions.Solver.DUAL_FISTA), warm, listener, weights);
    }

    private static PsdDensity fitWeighted(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base,
                                          PsdDensityOptions opt, WarmStart warm, ProgressListener listener,
                                          double[] weights) {
        DensityData.check(x, "density fit");
        double[] p = null;
        if (weights != null) {
            org.psdkit.data.Dataset.checkWeights(weights, x.rows(), "density fit");
            double sum = 0;
            for (double v : weights) {
                if (!(v > 0)) {
                    throw new IllegalArgumentException("density fit: a weight is 0; leave such rows out");
                }
                sum += v;
            }
            p = new double[weights.length];
            for (int i = 0; i < p.length; i++) {
                p[i] = weights[i] / sum;
            }
        }
        base.requireDimension(x.cols());
        Matrix pts = anchors == null ? x : anchors;
        if (pts.cols() != x.cols()) {
            throw new IllegalArgumentException("density fit: anchors have " + pts.cols() + " columns, data "
                    + x.cols());
        }
        int n = x.rows();
        boolean primal = opt.solver() == PsdDensityOptions.Solver.PRIMAL_LBFGS;
        if (anchors != null) {
            MemoryBudget.check("density fit with " + pts.rows() + " anchors on " + n + " rows x " + x.cols()
                    + " columns", nystromBytes(n, x.cols(), pts.rows()));
        }
        // the primal solver streams the data's features itself (never the n×m cross matrix in double)
        FeatureBasis fb = FeatureBasis.of(kernel, pts, anchors == null || primal ? null : x, opt.rankThreshold());
        Scaled sc = Scaled.of(kernel, pts, base, fb, opt);
        Matrix m = sc.m;
        double wn = sc.wn;
        Matrix wt = sc.wt;
        double l1 = sc.l1;
        double l2 = sc.l2;
        if (primal) {
            DensityRows rows = anchors == null ? LocalDensityRows.of(fb.v)
                    : LocalDensityRows.nystrom(kernel, pts, fb.t, x);
            // the exact model on several threads: the rows' passes and W D split over the workers, the
            // certificates' decompositions beside the iterations, each on one BLAS thread (PsdDensityPrimal.solve)
            boolean overlap = anchors == null && Threads.get() > 1;
            PsdDensityPrimal.Result res = overlap
                    ? Threads.blasCapped(1, () -> solvePrimal(rows, wt, l1, l2, opt, warm, listener, true))
                    : solvePrimal(rows, wt, l1, l2, opt, warm, listener, false);
            return finishPrimal(kernel, pts, base, opt, fb, sc, res);
        }
        Smooth smooth = new Smooth(fb.v, wt, l1, l2);
        double[] beta0 = new double[n];
        if (p == null) {
            java.util.Arrays.fill(beta0, 1.0 / n);
        } else {
            System.arraycopy(p, 0, beta0, 0, n);
        }
        double[] lipBeta = new double[n];
        double lipMu = metric(fb.v, wt, l2, lipBeta);
        LogLikelihoodDual.Result res = LogLikelihoodDual.solveFixedMetric(smooth, beta0, 0.0, lipBeta, lipMu,
                opt.tolerance(), opt.maxIterations(), opt.timeLimitSeconds(), listener, p);
        State st = (State) res.eval().state();
        double integralTilde = res.eval().gradMu() + 1;
        if (!(integralTilde > 0)) {
            throw new IllegalStateException("density fit: the solver's candidate is zero after " + res.iterations()
                    + " iterations (relative gap " + res.relativeGap() + "); try a smaller lambda");
        }
        // A_raw = c·Ã/‖W‖ with c = 1/Tr(Ã W̃);   Ã = Q diag(c₊/λ₂) Qᵀ  →  factor G = Q diag(√(c c₊/(λ₂‖W‖)))
        double c = 1.0 / integralTilde;
        int q = st.positive.length;
        Matrix g = Matrix.zeros(fb.rank(), q);
        for (int k = 0; k < q; k++) {
            double s = Math.sqrt(c * st.positive[k] / (l2 * wn));
            for (int i = 0; i < fb.rank(); i++) {
                g.set(i, k, st.vectors.get(i, k) * s);
            }
        }
        // −(1/n)Σ log(f̃/‖W‖) = −(1/n)Σ log f̃ + log‖W‖
        return finish(kernel, pts, base, opt, fb, m, g, res.primal() + Math.log(wn), res.dual() + Math.log(wn),
                res.relativeGap(), res.iterations(), res.seconds(), res.converged(), smooth.eigenSeconds);
    }

    /**
     * A lower bound on the heap bytes of the Nyström fit with m anchors on n rows of d columns, before the solver
     * allocates: the data (n·d), the per-row state every pass keeps (3n: f(x_i) and two multipliers, {@link
     * LocalDensityRows}), and four m×m matrices that exist together while the feature basis is built (the anchors'
     * Gram matrix, its eigenvectors, the factor T and the integrals M of {@link KernelIntegrals#products}). The
     * features themselves are kept only when they fit and are recomputed otherwise, so they are not counted.
     */
    static long nystromBytes(long n, long d, long m) {
        long doubles = MemoryBudget.plus(MemoryBudget.times(n, MemoryBudget.plus(d, 3)),
                MemoryBudget.times(4, MemoryBudget.times(m, m)));
        return MemoryBudget.times(doubles, MemoryBudget.DOUBLE_BYTES);
    }

    /**
     * Above twice this many rows the primal solver first solves on random subsamples (a ladder of rungs, each
     * started from the last one's factor) and starts the full problem from the last rung's factor: a subsample's
     * optimum is within the sampling error of the full one, and its iterations cost rows/n of a full one.
     */
    static final int WARM_START_ROWS = 20_000;
    /** Seed of the warm-start subsamples (fixed: the fit stays deterministic). */
    static final long WARM_START_SEED = 14L;

    /**
     * The warm start of the primal solver at large n: rungs of {@code firstRows}, {@code firstRows·growth},
     * {@code firstRows·growth²}, … rows while a rung has less than half of the n rows (growth ≤ 1: the first rung
     * only), each a random subsample solved to relative gap max(tolerance·{@code toleranceFactor},
     * {@code minTolerance}) from the last rung's factor; the full problem starts from the last rung's factor.
     *
     * @param firstRows       rows of the first rung (no warm start at or below 2·firstRows rows)
     * @param growth          rows of a rung over the last one's (≤ 1: one rung)
     * @param toleranceFactor a rung's relative gap over the fit's tolerance
     * @param minTolerance    a rung's relative gap is at least this
     * @param curvature       whether the L-BFGS curvature pairs of a rung start the next solve (Hessians of
     *                        subsamples agree with the full one up to sampling error)
     */
    public record WarmStart(int firstRows, int growth, double toleranceFactor, double minTolerance,
                            boolean curvature) {

        /**
         * The default: one 20,000-row rung solved to the fit's own tolerance, its L-BFGS curvature pairs and μ
         * carried into the full solve. At n = 10⁶ with 1,000 anchors the 200,000-row rung of {@link #LADDER} took
         * 250 of the first 314 s (docs/benchmarks/psd-scale.md §8), while at n = 200,000 the ladder did not reduce
         * the full-data iterations, so the default stops at the first rung.
         */
        public static final WarmStart DEFAULT = new WarmStart(WARM_START_ROWS, 1, 1.0, 0.0, true);
        /**
         * 20,000 rows, then 200,000 (n &gt; 400,000), each solved to the fit's own tolerance, the curvature pairs
         * carried along (docs/benchmarks/psd-scale.md §8; not the default, see {@link #DEFAULT}).
         */
        public static final WarmStart LADDER = new WarmStart(WARM_START_ROWS, 10, 1.0, 0.0, true);
        /** The earlier single-rung warm start, the baseline of §8: one 20,000-row rung solved to gap max(tolerance, 1e-3). */
        public static final WarmStart COARSE = new WarmStart(WARM_START_ROWS, 1, 1.0, 1e-3, false);
        /** No warm start. */
        public static final WarmStart NONE = new WarmStart(Integer.MAX_VALUE, 1, 1.0, 0.0, false);

        /** The rungs' row counts for n rows, ascending (empty: no warm start). */
        public int[] rungs(long n) {
            java.util.List<Integer> out = new java.util.ArrayList<>();
            long m = firstRows;
            while (m >= 1 && 2 * m < n) {
                out.add((int) m);
                if (growth <= 1) {
                    break;
                }
                m *= growth;
            }
            return out.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    static PsdDensityPrimal.Result solvePrimal(DensityRows rows, Matrix wt, double l1, double l2,
                                               PsdDensityOptions opt, ProgressListener listener) {
        return solvePrimal(rows, wt, l1, l2, opt, WarmStart.DEFAULT, listener);
    }

    static PsdDensityPrimal.Result solvePrimal(DensityRows rows, Matrix wt, double l1, double l2,
                                               PsdDensityOptions opt, WarmStart warm, ProgressListener listener) {
        return solvePrimal(rows, wt, l1, l2, opt, warm, listener, false);
    }

    /** As the other solvePrimal; {@code overlap}: the full solve's certificates beside its iterations. */
    static PsdDensityPrimal.Result solvePrimal(DensityRows rows, Matrix wt, double l1, double l2,
                                               PsdDensityOptions opt, WarmStart warm, ProgressListener listener,
                                               boolean overlap) {
        Matrix start = null;
        PsdDensityPrimal.Curvature curvature = warm.curvature() ? new PsdDensityPrimal.Curvature() : null;
        for (int m : warm.rungs(rows.rows())) {
            DensityRows sub = rows.sample(m, WARM_START_SEED);
            if (sub == null) {
                break;
            }
            double tol = Math.max(opt.tolerance() * warm.toleranceFactor(), warm.minTolerance());
            // the rungs start narrow: the full-data solve inherits their factor's width (PsdDensityPrimal.solve)
            PsdDensityPrimal.Result res = PsdDensityPrimal.solve(sub, wt, l1, l2, start, curvature, tol,
                    opt.maxIterations(), opt.timeLimitSeconds(), null, true);
            start = res.s();
            if (listener != null) {
                listener.onProgress(new ProgressListener.Event(LogLikelihoodDual.TASK + "-warm-" + m,
                        res.iterations(), 0, "gap", res.relativeGap(), res.seconds()));
            }
        }
        return PsdDensityPrimal.solve(rows, wt, l1, l2, start, curvature, opt.tolerance(), opt.maxIterations(),
                opt.timeLimitSeconds(), listener, false, overlap);
    }

    /** The model from the feature-space factor g (A_raw = g gᵀ), rescaled to integrate to 1 exactly. */
    private static PsdDensity finish(Kernel kernel, Matrix pts, BaseMeasure base, PsdDensityOptions opt,
                                     FeatureBasis fb, Matrix m, Matrix g, double objectiveRaw, double dualRaw,
                                     double gap, int iterations, double seconds, boolean converged,
                                     double eigenSeconds) {
        Matrix r = Linalg.gemm(1.0, fb.t, false, g, false); // n×q: f(x) = ‖Rᵀ v(x)‖²
        double integral = traceQuadratic(m, r);
        double integralBefore = integral;
        if (integral > 0) {
            r.scaleInPlace(1.0 / Math.sqrt(integral));
        }
        DensityDiagnostics diag = new DensityDiagnostics(objectiveRaw, dualRaw, gap, iterations, seconds, converged,
                integralBefore, fb.rank(), eigenSeconds, opt.rankThreshold(), pts.rows());
        return new PsdDensity(kernel, pts.copy(), r, base, diag);
    }

    /**
     * The weight ω of the integral multiplier in the scaled diagonal-dominance bound below is this factor times
     * Σ_ij k̃_ij² / Σ_i c_i, which makes the two blocks' off-diagonal coupling terms the same size. 1: the best
     * round value of a sweep on the d = 10 benchmark (docs/benchmarks/psd-scale.md, "Tuning constants of the density
     * solvers"); the plain ω = 1 (W̃ weighted like one data block) gives μ a step about Σc_i times too small.
     */
    static final double METRIC_WEIGHT_MU = 1.0;

    /**
     * A diagonal metric D with ∇²g ⪯ D, written into {@code lipBeta} (data multipliers); returns the entry of μ.
     * g(β, μ) = −μ + ‖[L(β, μ) − λ₁I]_+‖²/(2λ₂) with L(β, μ) = Σβ_i v_i v_iᵀ + μW̃ linear and [·]_+ 1-Lipschitz, so
     * ∇²g ⪯ G/λ₂ with G the Gram matrix of L: G_ij = ⟨v_iv_iᵀ, v_jv_jᵀ⟩ = k̃_ij², G_iμ = c_i = v_iᵀW̃v_i,
     * G_μμ = ‖W̃‖² = 1. For any positive weights w, G ⪯ diag(Σ_j |G_ij| w_j / w_i) (scaled diagonal dominance);
     * with w = (1, …, 1, ω): D_i = (Σ_j k̃_ij² + ω|c_i|)/λ₂, D_μ = (1 + Σ_i |c_i|/ω)/λ₂
     * ({@link #METRIC_WEIGHT_MU} sets ω). Per-coordinate steps
     * precondition the two blocks separately (the scalar bound λ_max(G)/λ₂ gives μ a step ~Σ_j k̃_ij² times too
     * small) and give isolated points, whose multipliers are large, larger steps.
     */
    static double metric(Matrix v, Matrix wt, double l2, double[] lipBeta) {
        int n = v.cols();
        int r = v.rows();
        Matrix vtv = Linalg.gemm(1.0, v, true, v, false);
        Matrix wv = Linalg.gemm(1.0, wt, false, v, false);
        double[] vd = v.data();
        double[] wvd = wv.data();
        double[] c = new double[n];
        double[] rowA = new double[n];
        double sumC = 0;
        double sumA = 0;
        for (int i = 0; i < n; i++) {
            double ci = 0;
            for (int k = 0; k < r; k++) {
                ci += vd[k + i * r] * wvd[k + i * r];
            }
            c[i] = Math.abs(ci);
            sumC += c[i];
            double s = 0;
            for (int j = 0; j < n; j++) {
                double kij = vtv.get(i, j); // k̃(x_i, x_j)
                s += kij * kij;
            }
            rowA[i] = s;
            sumA += s;
        }
        double omega = sumC > 0 ? METRIC_WEIGHT_MU * sumA / sumC : 1.0;
        for (int i = 0; i < n; i++) {
            lipBeta[i] = (rowA[i] + omega * c[i]) / l2;
        }
        return (1 + sumC / omega) / l2;
    }

    /** Tr(Rᵀ M R). */
    static double traceQuadratic(Matrix m, Matrix r) {
        Matrix mr = Linalg.gemm(1.0, m, false, r, false);
        double s = 0;
        double[] a = mr.data();
        double[] b = r.data();
        for (int k = 0; k < a.length; k++) {
            s += a[k] * b[k];
        }
        return s;
    }

    record State(double[] positive, Matrix vectors) {
    }

    /** g(β, μ) = −μ + ‖[μ W̃ + V Diag(β) Vᵀ − λ₁ I]_+‖²/(2λ₂) with its gradient. */
    static final class Smooth implements LogLikelihoodDual.Smooth {
        final Matrix v;   // r×n
        final Matrix w;   // r×r, unit Frobenius norm
        final double l1;
        final double l2;
        double eigenSeconds;

        Smooth(Matrix v, Matrix w, double l1, double l2) {
            this.v = v;
            this.w = w;
            this.l1 = l1;
            this.l2 = l2;
        }

        @Override
        public LogLikelihoodDual.Eval evaluate(double[] beta, double mu) {
            int r = v.rows();
            int n = v.cols();
            Matrix vb = v.copy();
            double[] vd = vb.data();
            for (int j = 0; j < n; j++) {
                double b = beta[j];
                for (int i = 0; i < r; i++) {
                    vd[i + j * r] *= b;
                }
            }
            Matrix c = Linalg.gemm(1.0, vb, false, v, true);
            double[] cd = c.data();
            double[] wd = w.data();
            for (int k = 0; k < cd.length; k++) {
                cd[k] += mu * wd[k];
            }
            c.addToDiagonal(-l1);
            long t0 = System.nanoTime();
            Eigen e = Linalg.eigh(c);
            eigenSeconds += (System.nanoTime() - t0) * 1e-9;
            int first = 0;
            while (first < r && !(e.values()[first] > 0)) {
                first++;
            }
            int q = r - first;
            double[] pos = new double[q];
            Matrix qv = Matrix.zeros(r, q);
            System.arraycopy(e.values(), first, pos, 0, q);
            System.arraycopy(e.vectors().data(), first * r, qv.data(), 0, r * q);
            double sum = 0;
            double sum2 = 0;
            for (double p : pos) {
                sum += p;
                sum2 += p * p;
            }
            double[] grad = new double[n];
            double gradMu = -1;
            if (q > 0) {
                Matrix p = Linalg.gemm(1.0, qv, true, v, false); // q×n
                double[] pd = p.data();
                for (int j = 0; j < n; j++) {
                    double s = 0;
                    for (int k = 0; k < q; k++) {
                        double x = pd[k + j * q];
                        s += pos[k] * x * x;
                    }
                    grad[j] = s / l2;
                }
                Matrix wq = Linalg.gemm(1.0, w, false, qv, false);
                double tr = 0;
                for (int k = 0; k < q; k++) {
                    double s = 0;
                    for (int i = 0; i < r; i++) {
                        s += qv.get(i, k) * wq.get(i, k);
                    }
                    tr += pos[k] * s;
                }
                gradMu += tr / l2;
            }
            double value = -mu + sum2 / (2 * l2);
            // primal A = [C]_+/λ₂:  λ₁ Tr A = λ₁ Σc₊/λ₂,  (λ₂/2)‖A‖² = Σc₊²/(2λ₂)
            return new LogLikelihoodDual.Eval(value, grad, gradMu, l1 * sum / l2, sum2 / (2 * l2),
                    new State(pos, qv));
        }
    }

    /**
     * The Nyström fit with the primal solver over data rows that live elsewhere (psdkit-spark's {@code
     * SparkDensityRows}): {@code rowsOf} receives the anchors' feature factor T (m×r) and returns the rows' {@link
     * DensityRows} with features v_i = Tᵀ k(anchors, x_i). Everything else is {@link #fit(Matrix, Matrix,
     * PsdDensityTrainer.Options, ProgressListener)} with {@link PsdDensityOptions.Solver#PRIMAL_LBFGS}, whatever
     * {@code options.psd().solver()} says; with the same anchors and rows it gives the same model up to rounding.
     */
    public static PsdDensity fitRows(Matrix anchors, java.util.function.Function<Matrix, DensityRows> rowsOf,
                                     PsdDensityTrainer.Options options, ProgressListener listener) {
        return fitRows(anchors, rowsOf, options.kernel(), options.base(), options.psd(), listener);
    }

    static PsdDensity fitRows(Matrix anchors, java.util.function.Function<Matrix, DensityRows> rowsOf,
                              Kernel kernel, BaseMeasure base, PsdDensityOptions opt, ProgressListener listener) {
        base.requireDimension(anchors.cols());
        FeatureBasis fb = FeatureBasis.of(kernel, anchors, null, opt.rankThreshold());
        Scaled sc = Scaled.of(kernel, anchors, base, fb, opt);
        DensityRows rows = rowsOf.apply(fb.t);
        return finishPrimal(kernel, anchors, base, opt, fb, sc, solvePrimal(rows, sc.wt, sc.l1, sc.l2, opt, listener));
    }

    /**
     * The problem both fits hand to a solver: M (the kernel products' integrals), W = congruence of M by the feature
     * basis, its norm ‖W‖_F, W̃ = W/‖W‖_F and the λ's converted to the scaled variable Ã = ‖W‖_F·A (a λ applying to
     * s·A = (s/‖W‖_F)·Ã becomes λ·(s/‖W‖_F), λ₂ squared; {@link PsdDensityOptions.LambdaScale}).
     */
    private record Scaled(Matrix m, double wn, Matrix wt, double l1, double l2) {

        static Scaled of(Kernel kernel, Matrix pts, BaseMeasure base, FeatureBasis fb, PsdDensityOptions opt) {
            Matrix m = KernelIntegrals.products(kernel, pts, base, null, null);
            Matrix w = fb.congruence(m);
            double wn = w.normF();
            if (!(wn > 0) || !Double.isFinite(wn)) {
                throw new IllegalArgumentException("density fit: the integral operator W vanishes (‖W‖_F = " + wn
                        + "); the base measure " + base.spec() + " puts no mass near the data for kernel "
                        + kernel.spec());
            }
            double ratio = switch (opt.scale()) {
                case RAW -> 1.0 / wn;
                case NORMALIZED -> 1.0;
                case TRACE -> w.trace() / wn;
            };
            return new Scaled(m, wn, w.scale(1.0 / wn), opt.lambda1() * ratio, opt.lambda2() * ratio * ratio);
        }
    }

    /** The model of a primal solve: Ã = S Sᵀ/T is feasible (Tr(ÃW̃) = 1); A_raw = Ã/‖W‖ → factor G = S/√(T‖W‖). */
    private static PsdDensity finishPrimal(Kernel kernel, Matrix pts, BaseMeasure base, PsdDensityOptions opt,
                                           FeatureBasis fb, Scaled sc, PsdDensityPrimal.Result res) {
        Matrix g = res.s().scale(1.0 / Math.sqrt(res.traceSW() * sc.wn));
        return finish(kernel, pts, base, opt, fb, sc.m, g, res.primal() + Math.log(sc.wn),
                res.dual() + Math.log(sc.wn), res.relativeGap(), res.iterations(), res.seconds(), res.converged(),
                res.eigenSeconds());
    }
}
