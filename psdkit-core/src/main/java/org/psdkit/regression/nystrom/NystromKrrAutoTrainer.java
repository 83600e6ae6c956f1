package org.psdkit.regression.nystrom;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.Lbfgs;
import org.psdkit.optim.ProgressListener;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrAutoTrainer;
import org.psdkit.regression.KrrAutoTrainer.Objective;
import org.psdkit.regression.KrrAutoTrainer.Search;
import org.psdkit.regression.KrrAutoTrainer.Step;
import org.psdkit.regression.KrrTrainer;

/**
 * Nyström kernel ridge regression ({@link NystromKrrTrainer}) whose Gaussian bandwidth(s) and λ are chosen by
 * L-BFGS on the leave-one-out error, GCV or a held-out error of the m-dimensional problem, as
 * {@link KrrAutoTrainer} does for exact KRR (the same starts, box, restarts, objectives and search path); the chosen
 * σ and λ land in an ordinary Nyström {@code krr} model, the search in its diagnostics ({@code auto}).
 *
 * <p>The anchors are chosen once, before the search, by the options' method and seed on the scaled rows, with the
 * Gaussian kernel at the median pairwise distance and the options' λ (uniform anchors depend on the seed alone, so
 * they are those of a fit with the chosen σ and λ), and stay fixed. With Φ = K_nm (n×m, rows φ_i), K = K_mm,
 * A = ΦᵀΦ + λK and B = A⁻¹, the fit is α = BΦᵀy ({@link NystromDirect}'s normal equations; Rudi, Carratino &amp;
 * Rosasco 2017, Eq. 1), the residual r = y − Φα and the hat matrix H = ΦBΦᵀ, h_i = φ_iᵀBφ_i (see {@link
 * org.psdkit.regression.KrrLoo#nystrom}: the leave-one-out residual r_i/(1 − h_i) is exact for this penalised
 * least-squares problem). One evaluation costs O(nm² + m³): ΦᵀΦ, the inverse of A, P = ΦB and, for the gradient,
 * M = Pᵀ diag(b) P and ΦM.
 * <ul>
 *   <li>LOO: f = Σ e_i²/n with e_i = r_i/(1 − h_i); GCV: f = n‖r‖²/(n − tr H)²; held-out: A and α on the first
 *       t rows, f = ‖r_V‖²/|V| on the others.</li>
 *   <li>Gradient: with a_i = ∂f/∂r_i and b_i = ∂f/∂h_i (b = 0 for the held-out error), g = BΦᵀa,
 *       df = ⟨Γ, dΦ⟩ + ⟨Γ_K, dK⟩ + (∂f/∂λ) dλ where Γ = −aαᵀ + [training rows] (−r gᵀ + Φg αᵀ) + 2 diag(b)P − 2ΦM,
 *       Γ_K = λ(gαᵀ − M) and ∂f/∂λ = gᵀKα − ⟨K, M⟩ (from dα = B(dΦᵀy − dA α) and dh_i = 2dφ_iᵀBφ_i −
 *       φ_iᵀB dA Bφ_i). A Gaussian entry k(u, v) = exp(−Σ_k (u_k − v_k)²/(2ℓ_k²)) has ∂k/∂log ℓ_k =
 *       k (u_k − v_k)²/ℓ_k², so ∂f/∂log ℓ_k = Σ_ij (Γ∘Φ)_ij (z_ik − w_jk)² + Σ_ij (Γ_K∘K)_ij (w_ik − w_jk)² on the
 *       rows z and anchors w divided by the bandwidths.</li>
 * </ul>
 * The search runs on all rows unless {@link Options#searchRows()} asks for fewer (its cost grows with n, not n³);
 * then λ is scaled to all rows and a few iterations on all rows polish it, as for exact KRR.
 *
 * @param options the base Nyström options, the objective, ARD, restarts, iterations and the search's rows
 */
public record NystromKrrAutoTrainer(Options options) implements Trainer<Pipeline<KernelRidge>> {

    /**
     * Everything an automatic Nyström fit takes; the constructor checks every field.
     *
     * @param base       the Nyström options: a Gaussian kernel (its σ is replaced), anchors, centring, scaling, CG
     *                   settings and storage of the final fit (its λ is replaced; it is the ridge of
     *                   {@link org.psdkit.psd.Anchors.Method#RLS} anchors)
     * @param objective  what is minimised ({@code null}: leave-one-out)
     * @param ard        one bandwidth per feature instead of one for all
     * @param restarts   starting points of the search, ≥ 1
     * @param iterations L-BFGS iterations per start, ≥ 1
     * @param searchRows the search runs on at most this many rows (a seeded subsample), ≥ 10, or
     *                   {@link #ALL_ROWS} for all of them
     * @param holdout    the held-out fraction of the search's rows for {@link Objective#HOLDOUT}, in (0, 1)
     * @param seed       seed of the subsample and of the held-out split
     */
    public record Options(NystromKrrTrainer.Options base, Objective objective, boolean ard, int restarts,
                          int iterations, int searchRows, double holdout, long seed) {
        /** {@code searchRows} = 0: the search runs on all rows. */
        public static final int ALL_ROWS = 0;

        public Options {
            ParameterException.required("options", base);
            if (!(base.kernel() instanceof GaussianKernel)) {
                throw new ParameterException("kernel", "must be gaussian(...) for the automatic search, got "
                        + base.kernel().spec());
            }
            if (objective == null) {
                objective = KrrAutoTrainer.Options.DEFAULT_OBJECTIVE;
            }
            ParameterException.atLeast("restarts", restarts, 1);
            ParameterException.atLeast("iterations", iterations, 1);
            if (searchRows != ALL_ROWS) {
                ParameterException.atLeast("searchRows", searchRows, 10);
            }
            ParameterException.unitOpen("holdout", holdout);
        }

        /** The defaults around {@code base}: leave-one-out, one bandwidth, all rows, those of exact KRR otherwise. */
        public static Options of(NystromKrrTrainer.Options base) {
            return new Options(base, KrrAutoTrainer.Options.DEFAULT_OBJECTIVE, false,
                    KrrAutoTrainer.Options.DEFAULT_RESTARTS, KrrAutoTrainer.Options.DEFAULT_ITERATIONS, ALL_ROWS,
                    KrrAutoTrainer.Options.DEFAULT_HOLDOUT, KrrAutoTrainer.Options.DEFAULT_SEED);
        }

        /** The rows the search takes from {@code n}. */
        public int searchRows(int n) {
            return searchRows == ALL_ROWS ? n : Math.min(n, searchRows);
        }

        public Options withObjective(Objective o) {
            return new Options(base, o, ard, restarts, iterations, searchRows, holdout, seed);
        }

        public Options withArd(boolean a) {
            return new Options(base, objective, a, restarts, iterations, searchRows, holdout, seed);
        }

        public Options withRestarts(int r) {
            return new Options(base, objective, ard, r, iterations, searchRows, holdout, seed);
        }

        public Options withIterations(int i) {
            return new Options(base, objective, ard, restarts, i, searchRows, holdout, seed);
        }

        public Options withSearchRows(int rows) {
            return new Options(base, objective, ard, restarts, iterations, rows, holdout, seed);
        }

        public Options withHoldout(double h) {
            return new Options(base, objective, ard, restarts, iterations, searchRows, h, seed);
        }

        public Options withSeed(long s) {
            return new Options(base, objective, ard, restarts, iterations, searchRows, holdout, s);
        }
    }

    /**
     * The diagnostics of an automatic Nyström fit: the final fit's keys ({@link NystromKrrTrainer.FitDiagnostics}),
     * then {@code auto}.
     *
     * @param fit    the final fit's diagnostics
     * @param search the search
     */
    public record Fit(NystromKrrTrainer.FitDiagnostics fit, Search search) implements Diagnostics {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = fit.toMap();
            m.put("auto", search.toMap());
            return m;
        }

        /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
        public static Fit of(Map<String, Object> m) {
            Map<String, Object> rest = new LinkedHashMap<>(m);
            Object auto = rest.remove("auto");
            return new Fit(NystromKrrTrainer.FitDiagnostics.of(rest), Search.of((Map<?, ?>) auto));
        }
    }

    public NystromKrrAutoTrainer {
        ParameterException.required("options", options);
    }

    private static final GaussianKernel UNIT_GAUSSIAN = new GaussianKernel(1.0);

    @Override
    public Pipeline<KernelRidge> fit(Dataset train, ProgressListener listener) {
        ProgressListener progress = ProgressListener.orNone(listener);
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": kernel ridge regression needs a numeric target");
        }
        if (train.weights() != null || train.targets() != null) {
            throw new IllegalArgumentException(train.source() + ": the automatic search of sigma and lambda fits one "
                    + "unweighted target");
        }
        int n = train.n();
        if (n < 10) {
            throw new IllegalArgumentException(train.source() + ": the automatic search needs at least 10 rows, got "
                    + n);
        }
        long t0 = System.nanoTime();
        NystromKrrTrainer.Options base = options.base();
        Scaler scaler = Scaler.fit(base.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(base.kernel(), x, "nystrom krr");
        KrrAutoTrainer.SearchTarget target = KrrAutoTrainer.SearchTarget.of(train.y(), base.center());
        double[] y = target.y();
        double yScale = target.scale();
        Objective obj = options.objective();
        int ns = options.searchRows(n);
        int[] rows = ns == n && obj != Objective.HOLDOUT ? identity(n)
                : Arrays.copyOf(Splits.permutation(n, options.seed()), ns);
        Matrix xs = x.selectRows(rows);
        double[] ys = new double[ns];
        for (int i = 0; i < ns; i++) {
            ys[i] = y[rows[i]];
        }
        int trainRows = trainRows(ns);
        boolean ard = options.ard();
        int d = x.cols();
        int p = ard ? d : 1;
        double med = KrrAutoTrainer.medianDistance(xs, options.seed());
        checkMemory(n, d, Math.min(base.anchors(), n)); // the polish after a subsample runs on all rows
        int[] anchorRows = NystromKrrTrainer.anchors(new GaussianKernel(med), x,
                base.withKernel(new GaussianKernel(med)));
        Matrix c = x.selectRows(anchorRows);
        double[] lo = KrrAutoTrainer.lowerBounds(p, med);
        double[] hi = KrrAutoTrainer.upperBounds(p, med);
        List<Step> path = new ArrayList<>();
        int[] restart = {0};
        double[] best = null;
        double bestValue = Double.POSITIVE_INFINITY;
        Lbfgs.Options lbfgs = Lbfgs.Options.of(KrrAutoTrainer.GRADIENT_TOLERANCE, options.iterations());
        Lbfgs.Objective f = KrrAutoTrainer.logObjective(
                (theta, grad) -> evaluate(xs, c, ys, trainRows, obj, ard, theta, grad), lo, hi, obj, path, restart,
                yScale, progress, t0);
        for (int r = 0; r < options.restarts(); r++) {
            restart[0] = r;
            Lbfgs.Result res;
            try {
                res = Lbfgs.minimize(f, KrrAutoTrainer.start(r, p, med), lbfgs);
            } catch (IllegalArgumentException e) {
                continue; // the start is not positive definite: the other starts go on
            }
            if (res.value() < bestValue) {
                bestValue = res.value();
                best = res.x();
            }
        }
        if (best == null) {
            throw new IllegalStateException("nystrom krr: the automatic search found no positive definite start");
        }
        int fitRows = trainRows;
        if (ns < n) {
            // λ multiplies a sum over the rows: scale it to all rows, then polish (σ, λ) on all rows
            double[] theta0 = best.clone();
            theta0[p] += Math.log((double) trainRows(n) / trainRows);
            theta0[p] = Math.max(lo[p], Math.min(hi[p], theta0[p]));
            int[] all = obj == Objective.HOLDOUT ? Splits.permutation(n, options.seed()) : identity(n);
            double[] ya = new double[n];
            for (int i = 0; i < n; i++) {
                ya[i] = y[all[i]];
            }
            Matrix xa = obj == Objective.HOLDOUT ? x.selectRows(all) : x;
            int ta = trainRows(n);
            restart[0] = KrrAutoTrainer.POLISH;
            Lbfgs.Objective fa = KrrAutoTrainer.logObjective(
                    (theta, grad) -> evaluate(xa, c, ya, ta, obj, ard, theta, grad), lo, hi, obj, path, restart,
                    yScale, progress, t0);
            try {
                Lbfgs.Result res = Lbfgs.minimize(fa, theta0, Lbfgs.Options.of(KrrAutoTrainer.GRADIENT_TOLERANCE,
                        KrrAutoTrainer.POLISH_ITERATIONS));
                best = res.x();
                bestValue = res.value();
            } catch (IllegalArgumentException e) {
                best = theta0; // not positive definite on all rows: the subsample's point, λ scaled
            }
            fitRows = ta;
        }
        double[] sigma = new double[p];
        for (int k = 0; k < p; k++) {
            sigma[k] = Math.exp(best[k]);
        }
        double lambda = Math.exp(best[p]);
        double rmse = Math.sqrt(Math.exp(bestValue)) * yScale;
        if (obj == Objective.HOLDOUT) {
            lambda *= (double) n / fitRows; // the held-out part joins the final fit
        }
        double seconds = (System.nanoTime() - t0) * 1e-9;
        // the final fit: the Nyström solve of NystromKrrTrainer on the search's anchors
        long t1 = System.nanoTime();
        Kernel kernel = KrrAutoTrainer.kernel(sigma, d);
        NystromKrrTrainer.Options o = base.withKernel(kernel).withLambda(lambda);
        KnmBlocks problem = NystromKrr.problem(kernel, x, c, o.storage(), NystromKrrTrainer.target(train.y(), o));
        NystromKrrTrainer.Fit fit = NystromKrrTrainer.solve(problem, train.y(), o);
        double fitSeconds = (System.nanoTime() - t1) * 1e-9;
        Search search = new Search(obj, ard, options.restarts(), ns, path.size(), rmse, seconds, path);
        return KrrTrainer.of(ModelHeader.of(KrrTrainer.TYPE, train, scaler, kernel.spec(),
                NystromKrrTrainer.hyperParameters(o, c.rows())), fit.model(),
                new Fit(NystromKrrTrainer.diagnostics(fit.diagnostics(), fitSeconds), search));
    }

    /**
     * Fails with {@link org.psdkit.linalg.MemoryBudget.InsufficientMemoryException} before the search when the heap
     * cannot hold one evaluation on {@code rows} rows of d columns with m anchors: the scaled rows (rows·d), the five
     * rows×m matrices of an evaluation with its gradient (Φ, P = ΦB, Γ, diag(b)P, ΦM) and four m×m matrices (K_mm,
     * A, B, M).
     */
    static void checkMemory(long rows, long d, long m) {
        long doubles = org.psdkit.linalg.MemoryBudget.plus(org.psdkit.linalg.MemoryBudget.times(rows, d + 5 * m),
                org.psdkit.linalg.MemoryBudget.times(4, org.psdkit.linalg.MemoryBudget.times(m, m)));
        org.psdkit.linalg.MemoryBudget.check("the automatic search of nystrom kernel ridge with " + m + " anchors on "
                + rows + " rows x " + d + " columns", org.psdkit.linalg.MemoryBudget.times(doubles,
                org.psdkit.linalg.MemoryBudget.DOUBLE_BYTES));
    }

    /** The training rows of {@code rows} search rows: all, or all but the held-out part. */
    private int trainRows(int rows) {
        return options.objective() == Objective.HOLDOUT
                ? Math.max(2, Math.min(rows - 1, (int) Math.round((1 - options.holdout()) * rows))) : rows;
    }

    private static int[] identity(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    /**
     * The objective at θ = (log ℓ_1, …, log ℓ_p, log λ) (p = 1, or p = d with ARD) of Nyström KRR on rows x with
     * targets y and anchors c (see the class comment), its gradient into {@code grad} (if not null); +∞ when
     * ΦᵀΦ + λK_mm is not numerically positive definite or a leverage h_i reaches 1. For
     * {@link Objective#HOLDOUT} the first {@code trainRows} rows are the training part, the others the held-out part.
     */
    public static double evaluate(Matrix x, Matrix c, double[] y, int trainRows, Objective obj, boolean ard,
                                  double[] theta, double[] grad) {
        int n = x.rows();
        int m = c.rows();
        int d = x.cols();
        int p = ard ? d : 1;
        double[] sigma = new double[p];
        for (int k = 0; k < p; k++) {
            sigma[k] = Math.exp(theta[k]);
        }
        double lambda = Math.exp(theta[p]);
        Matrix z = KrrAutoTrainer.scaled(x, sigma, d);
        Matrix w = KrrAutoTrainer.scaled(c, sigma, d);
        Matrix phi = UNIT_GAUSSIAN.cross(z, w);
        Matrix kmm = UNIT_GAUSSIAN.gram(w);
        int t = obj == Objective.HOLDOUT ? trainRows : n;
        Matrix phiT = t == n ? phi : phi.rowRange(0, t);
        Matrix a = Linalg.syrk(phiT, true);
        double[] ad = a.data();
        double[] kd = kmm.data();
        for (int i = 0; i < ad.length; i++) {
            ad[i] += lambda * kd[i];
        }
        Matrix b;
        try {
            b = Linalg.inverseSpd(a);
        } catch (LinalgException e) {
            return Double.POSITIVE_INFINITY;
        }
        double[] alpha = Linalg.gemv(b, false, Linalg.gemv(phiT, true, Arrays.copyOf(y, t)));
        double[] fitted = Linalg.gemv(phi, false, alpha);
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            r[i] = y[i] - fitted[i];
        }
        double[] da = new double[n]; // ∂f/∂r_i
        double[] db = null;          // ∂f/∂h_i (leave-one-out and GCV)
        Matrix pb = null;            // P = ΦB
        double value;
        if (obj == Objective.HOLDOUT) {
            int v = n - t;
            double s = 0;
            for (int i = t; i < n; i++) {
                s += r[i] * r[i];
            }
            value = s / v;
            for (int i = t; i < n; i++) {
                da[i] = 2 * r[i] / v;
            }
        } else {
            pb = Linalg.gemm(1.0, phi, false, b, false);
            double[] pd = pb.data();
            double[] fd = phi.data();
            double[] h = new double[n];
            for (int j = 0; j < m; j++) {
                for (int i = 0; i < n; i++) {
                    h[i] += pd[i + j * n] * fd[i + j * n];
                }
            }
            db = new double[n];
            if (obj == Objective.LOO) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    double q = 1 - h[i];
                    if (!(q > 0)) {
                        return Double.POSITIVE_INFINITY;
                    }
                    double e = r[i] / q;
                    s += e * e;
                    da[i] = 2.0 / n * e / q;
                    db[i] = 2.0 / n * e * e / q;
                }
                value = s / n;
            } else {
                double tr = 0;
                double ss = 0;
                for (int i = 0; i < n; i++) {
                    tr += h[i];
                    ss += r[i] * r[i];
                }
                double den = n - tr;
                if (!(den > 0)) {
                    return Double.POSITIVE_INFINITY;
                }
                value = n * ss / (den * den);
                for (int i = 0; i < n; i++) {
                    da[i] = 2.0 * n * r[i] / (den * den);
                    db[i] = 2.0 * n * ss / (den * den * den);
                }
            }
        }
        if (!Double.isFinite(value)) {
            return Double.POSITIVE_INFINITY;
        }
        if (grad == null) {
            return value;
        }
        double[] g = Linalg.gemv(b, false, Linalg.gemv(phi, true, da));
        double[] phig = Linalg.gemv(phi, false, g);
        // Γ (n×m) and Γ_K (m×m)
        Matrix gam = Matrix.zeros(n, m);
        double[] gd = gam.data();
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < n; i++) {
                double v = -da[i] * alpha[j];
                if (i < t) {
                    v += -r[i] * g[j] + phig[i] * alpha[j];
                }
                gd[i + j * n] = v;
            }
        }
        Matrix gk = Matrix.zeros(m, m);
        double[] gkd = gk.data();
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < m; i++) {
                gkd[i + j * m] = lambda * g[i] * alpha[j];
            }
        }
        double[] ka = Linalg.gemv(kmm, false, alpha);
        double dLambda = Linalg.dot(g, ka);
        if (db != null) {
            Matrix bp = pb.copy(); // diag(b) P
            double[] bpd = bp.data();
            for (int j = 0; j < m; j++) {
                for (int i = 0; i < n; i++) {
                    bpd[i + j * n] *= db[i];
                }
            }
            Matrix mm = Linalg.gemm(1.0, pb, true, bp, false); // M = Pᵀ diag(b) P
            mm.symmetrizeInPlace();
            Matrix phiM = Linalg.gemm(1.0, phi, false, mm, false);
            double[] pmd = phiM.data();
            for (int i = 0; i < gd.length; i++) {
                gd[i] += 2 * bpd[i] - 2 * pmd[i];
            }
            double[] md = mm.data();
            double km = 0;
            for (int i = 0; i < md.length; i++) {
                gkd[i] -= lambda * md[i];
                km += kd[i] * md[i];
            }
            dLambda -= km;
        }
        grad[p] = lambda * dLambda;
        Arrays.fill(grad, 0, p, 0.0);
        // Γ∘Φ and Γ_K∘K, then Σ_ij Q_ij (u_ik − v_jk)² = Σ_i (Q1)_i u_ik² + Σ_j (Qᵀ1)_j v_jk² − 2 Σ_i u_ik (QV)_ik
        double[] fd = phi.data();
        for (int i = 0; i < gd.length; i++) {
            gd[i] *= fd[i];
        }
        for (int i = 0; i < gkd.length; i++) {
            gkd[i] *= kd[i];
        }
        addBandwidthGradient(gam, z, w, ard, grad);
        addBandwidthGradient(gk, w, w, ard, grad);
        return value;
    }

    /** Adds Σ_ij Q_ij (u_ik − v_jk)² to grad[k] (or, one bandwidth, the sum over k to grad[0]). */
    private static void addBandwidthGradient(Matrix q, Matrix u, Matrix v, boolean ard, double[] grad) {
        int n = q.rows();
        int m = q.cols();
        int d = u.cols();
        double[] qd = q.data();
        double[] rs = new double[n];
        double[] cs = new double[m];
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                double e = qd[i + j * n];
                rs[i] += e;
                s += e;
            }
            cs[j] = s;
        }
        Matrix qv = Linalg.gemm(1.0, q, false, v, false); // n×d
        for (int k = 0; k < d; k++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                double ui = u.get(i, k);
                s += rs[i] * ui * ui - 2 * ui * qv.get(i, k);
            }
            for (int j = 0; j < m; j++) {
                double vj = v.get(j, k);
                s += cs[j] * vj * vj;
            }
            grad[ard ? k : 0] += s;
        }
    }
}
