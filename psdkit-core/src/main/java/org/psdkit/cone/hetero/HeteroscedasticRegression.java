package org.psdkit.cone.hetero;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.psdkit.cone.Block;
import org.psdkit.cone.ConeData;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.ConeGrid;
import org.psdkit.psd.Nystrom;
import org.psdkit.cone.Diagnostics;
import org.psdkit.cone.Features;
import org.psdkit.cone.GaussianNaturalNll;
import org.psdkit.cone.LinearBlock;
import org.psdkit.cone.NystromLinearBlock;
import org.psdkit.cone.PrimalCone;
import org.psdkit.cone.PsdBlock;
import org.psdkit.cone.ScalarFunction;
import org.psdkit.cone.TargetScaling;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * Heteroscedastic Gaussian regression (Marteau-Ferey, Bach and Rudi 2020, Sec. 6): y | x ~ N(μ(x), v(x)), fitted by
 * penalised maximum
 * likelihood in the natural parameters η = μ/v (a linear kernel model, kernel k + 1) and θ = 1/v, where the
 * negative log-likelihood (1/n) Σ [−½ log θ_i + y_i²θ_i/2 − y_iη_i + η_i²/(2θ_i)] + const is jointly convex. The
 * model for θ is what the methods differ in:
 * <ul>
 *   <li>{@code PSD}: θ = Φ(x)ᵀAΦ(x) + t, A ⪰ 0, t ≥ 0 (a second PSD block on the constant feature, so that far from
 *       the data θ → t and the variance stays finite) — θ ≥ 0 everywhere; convex; multi-block dual;</li>
 *   <li>{@code PNM}: θ a linear kernel model, positive on the training points only through the log barrier of the
 *       likelihood; convex; dual;</li>
 *   <li>{@code NCM}: θ = Σ γ_i k(x, x_i), γ ≥ 0; convex; primal projected gradient;</li>
 *   <li>{@code GLM}: θ = exp(linear kernel model); not convex; seeded restarts.</li>
 * </ul>
 * Targets are standardised (mean, standard deviation) before fitting.
 */
public final class HeteroscedasticRegression {

    /** θ model. */
    public enum Method {
        PSD, PNM, NCM, GLM;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Method parse(String s) {
            for (Method m : values()) {
                if (m.id().equalsIgnoreCase(s)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown heteroscedastic method '" + s
                    + "' (expected psd, pnm, ncm or glm)");
        }
    }

    /** See the quantile family's PRIMAL_TOLERANCE_FACTOR (same value, same reason). */
    public static final double PRIMAL_TOLERANCE_FACTOR = 1e-2;
    /** Iteration cap of the primal baselines. */
    public static final int PRIMAL_MAX_ITERATIONS = 20000;

    /**
     * @param kernel          kernel k (Gaussian in the paper; NCM needs k ≥ 0)
     * @param lambda          λ, for (λ/2)‖w‖² and λ(‖A‖_* + γ_F‖A‖_F²)
     * @param frobeniusWeight γ_F
     * @param method          θ model
     * @param restarts        GLM restarts
     * @param seed            seed of the GLM restarts
     * @param solver          dual solver settings
     * @param nystrom         anchors and rank threshold of the PSD method ({@link Nystrom#exact()}: the exact
     *                        model); anchors are for the PSD method only
     * @param scale           the feature scaling {@link HeteroTrainer} fits on the training data (the static
     *                        {@link #fit} takes inputs as they are)
     */
    public record Options(Kernel kernel, double lambda, double frobeniusWeight, Method method, int restarts, long seed,
                          ConeDualSolver.Options solver, Nystrom nystrom, Scaler.Kind scale) {

        /** Default number of GLM restarts. */
        public static final int DEFAULT_RESTARTS = 5;
        /** Default scaling of {@link HeteroTrainer}: none. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ConeData.checkOptions(kernel, lambda, frobeniusWeight, restarts, solver);
            org.psdkit.model.ParameterException.required("method", method);
            nystrom = ConeData.nystrom(nystrom, method == Method.PSD, method.id());
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** No scaling. */
        public Options(Kernel kernel, double lambda, double frobeniusWeight, Method method, int restarts, long seed,
                       ConeDualSolver.Options solver, Nystrom nystrom) {
            this(kernel, lambda, frobeniusWeight, method, restarts, seed, solver, nystrom, DEFAULT_SCALE);
        }

        /** The exact model ({@link Nystrom#exact()}), no scaling. */
        public Options(Kernel kernel, double lambda, double frobeniusWeight, Method method, int restarts, long seed,
                       ConeDualSolver.Options solver) {
            this(kernel, lambda, frobeniusWeight, method, restarts, seed, solver, Nystrom.exact());
        }

        public static Options of(double sigma, double lambda, Method method) {
            return new Options(new GaussianKernel(sigma), lambda, ConeData.APPENDIX_E_FROBENIUS_WEIGHT,
                    method, DEFAULT_RESTARTS, 0L, ConeDualSolver.Options.defaults());
        }

        public Options with(Kernel newKernel, double newLambda) {
            return new Options(newKernel, newLambda, frobeniusWeight, method, restarts, seed, solver, nystrom, scale);
        }

        public Options withSolver(ConeDualSolver.Options s) {
            return new Options(kernel, lambda, frobeniusWeight, method, restarts, seed, s, nystrom, scale);
        }

        public Options withNystrom(Nystrom n) {
            return new Options(kernel, lambda, frobeniusWeight, method, restarts, seed, solver, n, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, lambda, frobeniusWeight, method, restarts, seed, solver, nystrom, s);
        }
    }

    private HeteroscedasticRegression() {
    }

    static HeteroModel fit(Matrix x, double[] y, Options o) {
        return fit(x, y, o, null);
    }

    static HeteroModel fit(Matrix x, double[] y, Options o, ProgressListener listener) {
        ConeData.checkData(x, y);
        boolean single = ConeData.checkMemory("heteroscedastic fit", x.rows(), x.cols(), o.nystrom().enabled()
                ? o.nystrom().anchors() : 0, o.method() == Method.PSD ? 1 : 0, 2);
        TargetScaling sc = TargetScaling.of(y, false);
        double[] ys = sc.apply(y);
        int n = x.rows();
        double[] w = new double[n];
        Arrays.fill(w, 1.0 / n);
        Kernel k = o.kernel();
        long t0 = System.nanoTime();
        List<ScalarFunction> fns;
        double[][] d;
        Diagnostics diag;
        EmpiricalFeatureMap psdMap = null;
        Nystrom ny = o.nystrom();
        switch (o.method()) {
            case PSD, PNM -> {
                List<Block> blocks = new ArrayList<>();
                Matrix anchors = null;
                if (ny.enabled()) {
                    anchors = ny.select(k, x);
                    if (!single) {
                        blocks.add(new NystromLinearBlock(k, 1.0, anchors, x, o.lambda(), ny.rankThreshold()));
                    }
                } else {
                    Matrix g = LinearBlock.gram(k, 1.0, x);
                    double gn = LinearBlock.largestEigenvalue(g);
                    blocks.add(new LinearBlock(k, 1.0, x, g, gn, o.lambda()));
                    if (o.method() == Method.PNM) {
                        blocks.add(new LinearBlock(k, 1.0, x, g, gn, o.lambda()));
                    }
                }
                if (o.method() == Method.PSD) {
                    double l1 = o.lambda();
                    double l2 = 2 * o.lambda() * o.frobeniusWeight();
                    psdMap = anchors == null ? EmpiricalFeatureMap.of(k, x, ny.rankThreshold())
                            : single ? EmpiricalFeatureMap.nystromSingle(k, anchors, x, ny.rankThreshold())
                            : EmpiricalFeatureMap.nystrom(k, anchors, x, ny.rankThreshold());
                    Features kf = Features.kernel(psdMap);
                    if (single) {
                        // one single-precision feature matrix shared by the linear and the PSD block
                        blocks.add(NystromLinearBlock.large(k, 1.0, anchors, x, o.lambda(), ny.rankThreshold(), kf));
                    }
                    blocks.add(new PsdBlock(kf, l1, l2));
                    blocks.add(new PsdBlock(Features.constant(n), l1, l2));
                    d = new double[][] {{1, 0, 0}, {0, 1, 1}};
                } else {
                    d = new double[][] {{1, 0}, {0, 1}};
                }
                ConeDualSolver.Result r;
                try {
                    r = new ConeDualSolver(blocks, d, new GaussianNaturalNll(ys, w), n)
                            .solve(o.solver(), null, listener);
                } finally {
                    blocks.forEach(Block::close);
                }
                fns = r.functions();
                diag = Diagnostics.of(r, t0);
            }
            case NCM, GLM -> {
                boolean glm = o.method() == Method.GLM;
                d = new double[][] {{1, 0}, {0, 1}};
                PrimalCone pc = new PrimalCone(k, x,
                        new PrimalCone.Kind[] {PrimalCone.Kind.LINEAR, glm ? PrimalCone.Kind.GLM : PrimalCone.Kind.NCM},
                        d, o.lambda());
                PrimalCone.SmoothLoss loss = (z, gz) -> {
                    double val = 0;
                    for (int i = 0; i < n; i++) {
                        double eta = z[0][i];
                        double th = z[1][i];
                        if (!(th > 0)) {
                            return Double.POSITIVE_INFINITY;
                        }
                        val += w[i] * GaussianNaturalNll.nll(ys[i], eta, th);
                        gz[0][i] = w[i] * (-ys[i] + eta / th);
                        gz[1][i] = w[i] * (-0.5 / th + 0.5 * ys[i] * ys[i] - 0.5 * eta * eta / (th * th));
                    }
                    return val;
                };
                double meanK = pc.meanGram();
                PrimalCone.Initialiser init = (run, rnd, p0) -> {
                    // start at θ ≈ 1 (unit variance of the standardised target), η = 0
                    int off = pc.offset(1);
                    for (int i = 0; i < pc.size(1); i++) {
                        p0[off + i] = glm ? 0.5 * rnd.nextGaussian() : 1.0 / (n * meanK);
                    }
                    if (glm) {
                        p0[off + pc.interceptIndex()] = 0;
                    }
                };
                PrimalCone.Result r = pc.fit(loss, glm ? o.restarts() : 1, o.seed(), init,
                        PRIMAL_TOLERANCE_FACTOR * o.solver().gapTolerance(),
                        PRIMAL_MAX_ITERATIONS);
                fns = r.functions();
                diag = new Diagnostics(r.iterations(), r.objective(), Double.NaN, Double.NaN, Double.NaN,
                        r.converged(), 0, (System.nanoTime() - t0) * 1e-9);
            }
            default -> throw new IllegalStateException();
        }
        diag = psdMap == null ? diag.withFeatureSpace(0, Double.NaN, n)
                : diag.withFeatureSpace(psdMap.rank(), psdMap.relativeThreshold(), psdMap.expansionPoints());
        double thetaMax = 0;
        double[] thetaTrain = ConeDualSolver.combine(fns, d, x).col(1);
        for (double t : thetaTrain) {
            thetaMax = Math.max(thetaMax, t);
        }
        return new HeteroModel(o.method(), k, o.lambda(), o.frobeniusWeight(), fns, d, sc, thetaMax, diag);
    }

    /** Default λ grid of {@link #select}. */
    public static final double[] DEFAULT_LAMBDAS = {1e-1, 1e-2, 1e-3};
    /** Default number of folds of {@link #select}. */
    public static final int DEFAULT_FOLDS = 5;
    /** Relative duality gap of the fits inside cross-validation (see QuantileRegression.CV_GAP_TOLERANCE). */
    public static final double CV_GAP_TOLERANCE = 1e-3;

    /**
     * Chooses kernel and λ by K-fold cross-validation on the held-out mean Gaussian NLL (+∞ where a predicted
     * variance is ≤ 0), on the rows of {@code data} as they are (no further scaling). The fits inside use the
     * solver settings of {@code base} with a gap tolerance of at least {@link #CV_GAP_TOLERANCE}.
     *
     * @param grid     kernels (null: {@link ConeGrid#defaultGaussians}), λ (null: {@link #DEFAULT_LAMBDAS}), folds, seed
     * @param listener one {@code "cv"} event per fit
     */
    public static ConeGrid.Outcome select(Dataset data, Options base, ConeGrid grid, ProgressListener listener) {
        ConeData.checkData(data.x(), data.y());
        ConeDualSolver.Options cvSolver = base.solver().withGapTolerance(
                Math.max(CV_GAP_TOLERANCE, base.solver().gapTolerance()));
        Options cvBase = base.withSolver(cvSolver).withScale(Scaler.Kind.NONE);
        return grid.select(data, DEFAULT_LAMBDAS, c -> new HeteroTrainer(cvBase.with(c.kernel(), c.lambda())),
                (m, test) -> HeteroModel.nll(m.predict(test.x()), test.y()), listener);
    }

    /** {@link #select(Dataset, Options, ConeGrid, ProgressListener)} on (x, y) without progress reports. */
    public static ConeGrid.Outcome select(Matrix x, double[] y, Options base, List<Kernel> kernels,
                                          double[] lambdas, int folds, long seed) {
        return select(Dataset.of(x, y), base, new ConeGrid(kernels, lambdas, folds, seed), null);
    }
}
