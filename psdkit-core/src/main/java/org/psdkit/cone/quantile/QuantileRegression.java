package org.psdkit.cone.quantile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.psdkit.cone.Block;
import org.psdkit.cone.ConeData;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.ConeGrid;
import org.psdkit.psd.Nystrom;
import org.psdkit.cone.Diagnostics;
import org.psdkit.cone.Features;
import org.psdkit.cone.KernelExpansion;
import org.psdkit.cone.LinearBlock;
import org.psdkit.cone.NystromLinearBlock;
import org.psdkit.cone.Pinball;
import org.psdkit.cone.PointLoss;
import org.psdkit.cone.PrimalCone;
import org.psdkit.cone.PsdBlock;
import org.psdkit.cone.ScalarFunction;
import org.psdkit.cone.ScalarLoss;
import org.psdkit.cone.SmoothPrimalSolver;
import org.psdkit.cone.TargetScaling;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * Multiple quantile regression (Marteau-Ferey, Bach and Rudi 2020, Sec. 6). For levels τ_1 &lt; … &lt; τ_m the level
 * closest to ½ is the pivot
 * q_p, a linear kernel model (kernel k + 1: the constant is a penalised intercept); the others are
 * q_{p±j} = q_p ± Σ_{i≤j} u_{±i} with non-negative increments u. The increments' model is what the methods differ in:
 * <ul>
 *   <li>{@code PSD}: u = Φ(x)ᵀAΦ(x) (+ t, a non-negative constant, when {@code constantBlocks}), A ⪰ 0 — ordered for
 *       every x; convex; solved through the multi-block dual;</li>
 *   <li>{@code PNM}: u a linear kernel model constrained to u(x_i) ≥ 0 on the training points only; convex; dual;</li>
 *   <li>{@code NCM}: u = Σ γ_i k(x, x_i), γ ≥ 0; convex; primal accelerated projected gradient on the pinball's
 *       Moreau envelope;</li>
 *   <li>{@code GLM}: u = exp(linear kernel model); not convex; primal gradient from seeded restarts, best kept;</li>
 *   <li>{@code INDEPENDENT}: every q_τ its own kernel quantile regression, no ordering (what other libraries do).</li>
 * </ul>
 * The loss is (1/n) Σ_τ Σ_i ρ_τ(y_i − q_τ(x_i)) on the standardised target; penalties λ(‖A‖_* + γ_F‖A‖_F²) for PSD
 * blocks and (λ/2)‖w‖² for linear models.
 */
public final class QuantileRegression {

    /** Increment model. */
    public enum Method {
        PSD, PNM, NCM, GLM, INDEPENDENT;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Method parse(String s) {
            for (Method m : values()) {
                if (m.id().equalsIgnoreCase(s)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown quantile method '" + s + "' (expected psd, pnm, ncm, glm or "
                    + "independent)");
        }
    }

    /** Frobenius weight of App. E: Ω(A) = λ(‖A‖_* + 0.05‖A‖_F²); see {@link ConeData#APPENDIX_E_FROBENIUS_WEIGHT}. */
    public static final double APPENDIX_E_FROBENIUS_WEIGHT = ConeData.APPENDIX_E_FROBENIUS_WEIGHT;
    /** Frobenius weight of Sec. 6: Ω(A) = λ(‖A‖_* + (0.01/2)‖A‖_F²). */
    public static final double SECTION_6_FROBENIUS_WEIGHT = 0.005;
    /**
     * Moreau-envelope parameter of the pinball loss for the primal baselines (standardised units): its bias is at most
     * μ·max(τ,1−τ)²/2 ≤ 0.005 per point, below the test-set noise of the reproduction's pinball losses.
     */
    public static final double PINBALL_SMOOTHING = 1e-2;
    /**
     * The primal baselines stop when the objective decreases by less than this fraction of the dual solver's gap
     * tolerance (relative, over 20 iterations): with the default 1e-4 that is 1e-6, tight enough that the plots and
     * losses no longer move, and ten times looser inside cross-validation.
     */
    public static final double PRIMAL_TOLERANCE_FACTOR = 1e-2;
    /** Iteration cap of the primal baselines. */
    public static final int PRIMAL_MAX_ITERATIONS = 20000;

    /**
     * Fit options.
     *
     * @param taus            increasing levels in (0,1)
     * @param kernel          kernel k (Gaussian in the paper; NCM needs k ≥ 0)
     * @param lambda          regularisation λ
     * @param frobeniusWeight γ_F in λ(‖A‖_* + γ_F‖A‖_F²)
     * @param method          increment model
     * @param constantBlocks  add a non-negative constant to every PSD increment
     * @param restarts        GLM restarts
     * @param seed            seed of the GLM restarts
     * @param solver          dual solver settings
     * @param nystrom         anchors and rank threshold of the PSD method ({@link Nystrom#exact()}: the exact
     *                        model); anchors are for the PSD method only
     * @param scale           the feature scaling {@link QuantileTrainer} fits on the training data (the static
     *                        {@link #fit} takes inputs as they are)
     */
    public record Options(double[] taus, Kernel kernel, double lambda, double frobeniusWeight, Method method,
                          boolean constantBlocks, int restarts, long seed, ConeDualSolver.Options solver,
                          Nystrom nystrom, Scaler.Kind scale) {

        /** Default number of GLM restarts (the paper restarts randomly without saying how often). */
        public static final int DEFAULT_RESTARTS = 5;
        /** Default scaling of {@link QuantileTrainer}: none. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            if (taus == null || taus.length == 0) {
                throw new org.psdkit.model.ParameterException("taus", "must hold at least one quantile level");
            }
            taus = taus.clone();
            for (int i = 0; i < taus.length; i++) {
                if (!(taus[i] > 0 && taus[i] < 1)) {
                    throw new org.psdkit.model.ParameterException("taus", "must be in (0,1), got " + taus[i]);
                }
                if (i > 0 && !(taus[i] > taus[i - 1])) {
                    throw new org.psdkit.model.ParameterException("taus", "must be strictly increasing, got "
                            + Arrays.toString(taus));
                }
            }
            ConeData.checkOptions(kernel, lambda, frobeniusWeight, restarts, solver);
            org.psdkit.model.ParameterException.required("method", method);
            nystrom = ConeData.nystrom(nystrom, method == Method.PSD, method.id());
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** No scaling. */
        public Options(double[] taus, Kernel kernel, double lambda, double frobeniusWeight, Method method,
                       boolean constantBlocks, int restarts, long seed, ConeDualSolver.Options solver,
                       Nystrom nystrom) {
            this(taus, kernel, lambda, frobeniusWeight, method, constantBlocks, restarts, seed, solver, nystrom,
                    DEFAULT_SCALE);
        }

        /** The exact model ({@link Nystrom#exact()}), no scaling. */
        public Options(double[] taus, Kernel kernel, double lambda, double frobeniusWeight, Method method,
                       boolean constantBlocks, int restarts, long seed, ConeDualSolver.Options solver) {
            this(taus, kernel, lambda, frobeniusWeight, method, constantBlocks, restarts, seed, solver,
                    Nystrom.exact());
        }

        public static Options of(double[] taus, double sigma, double lambda, Method method) {
            return new Options(taus, new GaussianKernel(sigma), lambda, APPENDIX_E_FROBENIUS_WEIGHT, method, false,
                    DEFAULT_RESTARTS, 0L,
                    ConeDualSolver.Options.defaults());
        }

        public Options with(Kernel newKernel, double newLambda) {
            return new Options(taus, newKernel, newLambda, frobeniusWeight, method, constantBlocks, restarts, seed,
                    solver, nystrom, scale);
        }

        public Options withSolver(ConeDualSolver.Options s) {
            return new Options(taus, kernel, lambda, frobeniusWeight, method, constantBlocks, restarts, seed, s,
                    nystrom, scale);
        }

        public Options withNystrom(Nystrom n) {
            return new Options(taus, kernel, lambda, frobeniusWeight, method, constantBlocks, restarts, seed, solver,
                    n, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(taus, kernel, lambda, frobeniusWeight, method, constantBlocks, restarts, seed, solver,
                    nystrom, s);
        }
    }

    private QuantileRegression() {
    }

    /** Levels whose distances to ½ differ by less than this count as tied (rounding of decimal input such as 0.3). */
    private static final double PIVOT_TIE = 1e-15;

    /** Index of the level closest to ½ (the lower one on a tie). */
    static int pivot(double[] taus) {
        int p = 0;
        for (int i = 1; i < taus.length; i++) {
            if (Math.abs(taus[i] - 0.5) < Math.abs(taus[p] - 0.5) - PIVOT_TIE) {
                p = i;
            }
        }
        return p;
    }

    public static QuantileModel fit(Matrix x, double[] y, Options o) {
        return fit(x, y, o, null);
    }

    public static QuantileModel fit(Matrix x, double[] y, Options o, ProgressListener listener) {
        checkData(x, y);
        boolean single = org.psdkit.cone.ConeData.checkMemory("quantile fit", x.rows(), x.cols(),
                o.nystrom().enabled() ? o.nystrom().anchors() : 0,
                o.method() == Method.PSD ? Math.max(1, o.taus().length - 1) : 0, o.taus().length);
        TargetScaling sc = TargetScaling.of(y, true);
        double[] ys = sc.apply(y);
        int n = x.rows();
        double[] w = new double[n];
        Arrays.fill(w, 1.0 / n);
        Kernel k = o.kernel();
        double[] taus = o.taus();
        int m = taus.length;
        int p = pivot(taus);
        long t0 = System.nanoTime();
        Nystrom ny = o.nystrom();
        // the n×n Gram of the exact linear blocks; the Nyström path never forms it
        Matrix g = ny.enabled() || o.method() == Method.NCM || o.method() == Method.GLM ? null
                : LinearBlock.gram(k, 1.0, x);
        double gn = g == null ? 0 : LinearBlock.largestEigenvalue(g);
        ScalarLoss[] pin = new ScalarLoss[m];
        for (int t = 0; t < m; t++) {
            pin[t] = ScalarLoss.pinball(taus[t], ys, w);
        }
        List<ScalarFunction> fns;
        double[][] dq;
        Diagnostics diag;
        EmpiricalFeatureMap psdMap = null;
        switch (o.method()) {
            case INDEPENDENT -> {
                List<Block> blocks = new ArrayList<>();
                dq = new double[m][m];
                for (int t = 0; t < m; t++) {
                    blocks.add(new LinearBlock(k, 1.0, x, g, gn, o.lambda()));
                    dq[t][t] = 1;
                }
                ConeDualSolver.Result r = new ConeDualSolver(blocks, dq, ScalarLoss.separable(pin), n)
                        .solve(o.solver(), null, listener);
                fns = r.functions();
                diag = Diagnostics.of(r, t0);
            }
            case PSD, PNM -> {
                boolean psd = o.method() == Method.PSD;
                List<Block> blocks = new ArrayList<>();
                Matrix anchors = ny.enabled() ? ny.select(k, x) : null;
                if (!single) {
                    blocks.add(anchors != null
                            ? new NystromLinearBlock(k, 1.0, anchors, x, o.lambda(), ny.rankThreshold())
                            : new LinearBlock(k, 1.0, x, g, gn, o.lambda()));
                }
                List<int[]> incBlocks = new ArrayList<>(); // per increment j (≠ p): block indices
                List<Integer> incLevel = new ArrayList<>();
                Features feats = null;
                double l1 = o.lambda();
                double l2 = 2 * o.lambda() * o.frobeniusWeight();
                if (psd) {
                    psdMap = anchors == null ? EmpiricalFeatureMap.of(k, x, ny.rankThreshold())
                            : single ? EmpiricalFeatureMap.nystromSingle(k, anchors, x, ny.rankThreshold())
                            : EmpiricalFeatureMap.nystrom(k, anchors, x, ny.rankThreshold());
                    feats = Features.kernel(psdMap);
                    if (single) {
                        // one single-precision feature matrix shared by the linear and every PSD block
                        blocks.add(NystromLinearBlock.large(k, 1.0, anchors, x, o.lambda(), ny.rankThreshold(),
                                feats));
                    }
                }
                for (int j = 0; j < m; j++) {
                    if (j == p) {
                        continue;
                    }
                    incLevel.add(j);
                    if (psd) {
                        blocks.add(new PsdBlock(feats, l1, l2));
                        if (o.constantBlocks()) {
                            blocks.add(new PsdBlock(Features.constant(n), l1, l2));
                            incBlocks.add(new int[] {blocks.size() - 2, blocks.size() - 1});
                        } else {
                            incBlocks.add(new int[] {blocks.size() - 1});
                        }
                    } else {
                        blocks.add(new LinearBlock(k, 1.0, x, g, gn, o.lambda()));
                        incBlocks.add(new int[] {blocks.size() - 1});
                    }
                }
                int nb = blocks.size();
                int outputs = psd ? m : m + (m - 1);
                double[][] d = new double[outputs][nb];
                for (int t = 0; t < m; t++) {
                    d[t][0] = 1;
                }
                for (int a = 0; a < incLevel.size(); a++) {
                    int j = incLevel.get(a);
                    for (int t = 0; t < m; t++) {
                        double c = 0;
                        if (j > p && t >= j) {
                            c = 1;
                        } else if (j < p && t <= j) {
                            c = -1;
                        }
                        for (int b : incBlocks.get(a)) {
                            d[t][b] = c;
                        }
                    }
                    if (!psd) {
                        d[m + a][incBlocks.get(a)[0]] = 1;
                    }
                }
                ScalarLoss[] all = new ScalarLoss[outputs];
                System.arraycopy(pin, 0, all, 0, m);
                for (int t = m; t < outputs; t++) {
                    all[t] = ScalarLoss.nonNegative();
                }
                PointLoss loss = ScalarLoss.separable(all);
                ConeDualSolver.Result r;
                try {
                    r = new ConeDualSolver(blocks, d, loss, n).solve(o.solver(), null, listener);
                } finally {
                    blocks.forEach(Block::close);
                }
                fns = r.functions();
                dq = Arrays.copyOf(d, m);
                diag = Diagnostics.of(r, t0);
            }
            case NCM, GLM -> {
                PrimalFit pf = primal(x, ys, w, k, o, p);
                fns = pf.functions;
                dq = pf.directions;
                diag = new Diagnostics(pf.iterations, pf.value, Double.NaN, Double.NaN, Double.NaN, pf.converged, 0,
                        (System.nanoTime() - t0) * 1e-9);
            }
            default -> throw new IllegalStateException();
        }
        diag = psdMap == null ? diag.withFeatureSpace(0, Double.NaN, x.rows())
                : diag.withFeatureSpace(psdMap.rank(), psdMap.relativeThreshold(), psdMap.expansionPoints());
        return new QuantileModel(taus, o.method(), k, o.lambda(), o.frobeniusWeight(), fns, dq, sc, diag);
    }

    /** Checks training data: matching sizes, at least 2 rows, finite values ({@link ConeData#checkData}). */
    public static void checkData(Matrix x, double[] y) {
        ConeData.checkData(x, y);
    }

    private record PrimalFit(List<ScalarFunction> functions, double[][] directions, double value, int iterations,
                             boolean converged) {
    }

    /** NCM / GLM increments by primal accelerated gradient on the smoothed pinball loss. */
    private static PrimalFit primal(Matrix x, double[] ys, double[] w, Kernel k, Options o, int p) {
        int n = x.rows();
        double[] taus = o.taus();
        int m = taus.length;
        boolean glm = o.method() == Method.GLM;
        int incs = m - 1;
        double[][] d = new double[m][1 + incs];
        PrimalCone.Kind[] kinds = new PrimalCone.Kind[1 + incs];
        kinds[0] = PrimalCone.Kind.LINEAR;
        int a0 = 0;
        for (int t = 0; t < m; t++) {
            d[t][0] = 1;
        }
        for (int j = 0; j < m; j++) {
            if (j == p) {
                continue;
            }
            kinds[1 + a0] = glm ? PrimalCone.Kind.GLM : PrimalCone.Kind.NCM;
            for (int t = 0; t < m; t++) {
                if (j > p && t >= j) {
                    d[t][1 + a0] = 1;
                } else if (j < p && t <= j) {
                    d[t][1 + a0] = -1;
                }
            }
            a0++;
        }
        double mu = PINBALL_SMOOTHING;
        PrimalCone.SmoothLoss loss = (z, gz) -> {
            double val = 0;
            double[] gr = new double[1];
            for (int t = 0; t < m; t++) {
                for (int i = 0; i < n; i++) {
                    val += w[i] * Pinball.envelope(taus[t], ys[i] - z[t][i], mu, gr);
                    gz[t][i] = -w[i] * gr[0];
                }
            }
            return val;
        };
        PrimalCone pc = new PrimalCone(k, x, kinds, d, o.lambda());
        double meanK = pc.meanGram();
        PrimalCone.Initialiser init = (run, rnd, p0) -> {
            // increments start near 0.5 standard units (a typical quartile gap): GLM through the intercept plus a
            // random perturbation per restart, NCM with equal weights
            for (int b = 1; b <= incs; b++) {
                int off = pc.offset(b);
                int size = pc.size(b);
                for (int i = 0; i < size; i++) {
                    p0[off + i] = glm ? 0.5 * rnd.nextGaussian() : 0.5 / (n * meanK);
                }
                if (glm) {
                    p0[off + pc.interceptIndex()] = Math.log(0.5);
                }
            }
        };
        PrimalCone.Result r = pc.fit(loss, glm ? o.restarts() : 1, o.seed(), init,
                PRIMAL_TOLERANCE_FACTOR * o.solver().gapTolerance(),
                PRIMAL_MAX_ITERATIONS);
        return new PrimalFit(r.functions(), d, r.objective(), r.iterations(), r.converged());
    }

    /** Default λ grid of {@link #select}: two decades around the values the reproduction selects. */
    public static final double[] DEFAULT_LAMBDAS = {1e-2, 1e-3};
    /** Default number of folds of {@link #select} (the solver is the cost: 3 folds keep the default fit short). */
    public static final int DEFAULT_FOLDS = 3;
    /**
     * Relative duality gap of the fits inside cross-validation: a held-out pinball loss moves by far less than its
     * fold-to-fold spread when the gap goes from 1e-3 to 1e-5.
     */
    public static final double CV_GAP_TOLERANCE = 1e-3;

    /** Mean over points of Σ_τ ρ_τ(y − q_τ(x)) (the fitted loss without the 1/n·regulariser). */
    public static double pinball(Matrix q, double[] y, double[] taus) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            for (int t = 0; t < taus.length; t++) {
                s += Pinball.loss(taus[t], y[i] - q.get(i, t));
            }
        }
        return s / y.length;
    }

    /**
     * Chooses kernel and λ by K-fold cross-validation on the held-out pinball loss (summed over levels), on the rows
     * of {@code data} as they are (no further scaling). The fits inside use the solver settings of {@code base} with
     * a gap tolerance of at least {@link #CV_GAP_TOLERANCE}.
     *
     * @param grid     kernels (null: {@link ConeGrid#defaultGaussians}), λ (null: {@link #DEFAULT_LAMBDAS}), folds, seed
     * @param listener one {@code "cv"} event per fit
     */
    public static ConeGrid.Outcome select(Dataset data, Options base, ConeGrid grid, ProgressListener listener) {
        checkData(data.x(), data.y());
        ConeDualSolver.Options cvSolver = base.solver().withGapTolerance(
                Math.max(CV_GAP_TOLERANCE, base.solver().gapTolerance()));
        Options cvBase = base.withSolver(cvSolver).withScale(Scaler.Kind.NONE);
        return grid.select(data, DEFAULT_LAMBDAS, c -> new QuantileTrainer(cvBase.with(c.kernel(), c.lambda())),
                (m, test) -> pinball(m.predict(test.x()), test.y(), base.taus()), listener);
    }

    /** {@link #select(Dataset, Options, ConeGrid, ProgressListener)} on (x, y) without progress reports. */
    public static ConeGrid.Outcome select(Matrix x, double[] y, Options base, List<Kernel> kernels,
                                          double[] lambdas, int folds, long seed) {
        return select(Dataset.of(x, y), base, new ConeGrid(kernels, lambdas, folds, seed), null);
    }
}
