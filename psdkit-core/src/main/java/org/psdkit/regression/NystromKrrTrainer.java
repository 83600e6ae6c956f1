package org.psdkit.regression;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits Nyström kernel ridge regression ({@link NystromKrr}) on raw data: the objective of {@link KrrTrainer}
 * (standard form) restricted to f = Σ_j α_j k(·, c_j) over m anchors. The model is an ordinary {@code krr} model
 * (points = anchors), so model files, {@code predict} and {@code eval} treat it like exact KRR; prediction costs
 * O(m) kernel evaluations per row.
 *
 * <pre>{@code
 * Pipeline<KernelRidge> m = new NystromKrrTrainer(Kernels.parse("gaussian(sigma=3)"),
 *         NystromKrrTrainer.Options.of(0.01, 2000, 42), Scaler.Kind.ZSCORE).fit(train);
 * }</pre>
 *
 * @param kernel  the kernel
 * @param options λ, centring, anchors and CG settings (validated by their record)
 * @param scale   the feature scaling fitted on the training data
 */
public record NystromKrrTrainer(Kernel kernel, Options options, Scaler.Kind scale)
        implements Trainer<Pipeline<KernelRidge>> {

    /**
     * Options.
     *
     * @param lambda        ridge λ ≥ 0 (the λ of {@code (K + λI)α = y})
     * @param center        subtract the training mean of y and add it back
     * @param anchors       number m ≥ 1 of anchors (capped at n when fitting)
     * @param method        how the anchors are chosen
     * @param seed          seed of the anchor choice
     * @param tolerance     relative residual at which CG stops, in (0, 1)
     * @param maxIterations cap on CG iterations
     * @param storage       where K_nm lives between iterations
     */
    public record Options(double lambda, boolean center, int anchors, NystromKrr.AnchorMethod method, long seed,
                          double tolerance, int maxIterations, NystromKrr.Storage storage) {
        public Options {
            if (!(lambda >= 0) || Double.isInfinite(lambda)) {
                throw new IllegalArgumentException("lambda must be >= 0 and finite, got " + lambda);
            }
            if (anchors < 1) {
                throw new IllegalArgumentException("anchors must be >= 1, got " + anchors);
            }
            if (method == null) {
                throw new IllegalArgumentException("anchorMethod must be uniform, kmeans++ or leverage");
            }
            if (!(tolerance > 0) || tolerance >= 1) {
                throw new IllegalArgumentException("tolerance must be in (0, 1), got " + tolerance);
            }
            if (maxIterations < 1) {
                throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
            }
            if (storage == null) {
                storage = NystromKrr.Storage.AUTO;
            }
        }

        /** Uniform anchors, no centring, default CG settings. */
        public static Options of(double lambda, int anchors, long seed) {
            return new Options(lambda, false, anchors, NystromKrr.AnchorMethod.UNIFORM, seed,
                    NystromKrr.DEFAULT_TOLERANCE, NystromKrr.DEFAULT_MAX_ITERATIONS, NystromKrr.Storage.AUTO);
        }

        public Options withLambda(double l) {
            return new Options(l, center, anchors, method, seed, tolerance, maxIterations, storage);
        }
    }

    public NystromKrrTrainer {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
    }

    @Override
    public Pipeline<KernelRidge> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": kernel ridge regression needs a numeric target");
        }
        Scaler scaler = Scaler.fit(scale, train.x());
        long t0 = System.nanoTime();
        org.psdkit.linalg.Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "nystrom krr");
        Fit f = fitScaled(kernel, x, train.y(), options);
        double secs = (System.nanoTime() - t0) * 1e-9;
        return KrrTrainer.of(ModelHeader.of(KrrTrainer.TYPE, train, scaler, kernel.spec(),
                hyperParameters(options, f.model().points().rows())), f.model(), diagnostics(f.diagnostics(), secs));
    }

    /** A fitted model with its CG diagnostics. */
    public record Fit(KernelRidge model, NystromKrr.Diagnostics diagnostics) {
    }

    /** {@link #fitScaled} with where the time went: the fit, and anchorSeconds plus {@link NystromKrr.Problem#timings()}. */
    public record ProfiledFit(Fit fit, Map<String, Double> timings) {
    }

    /** Like {@link #fitScaled}, timing the anchor choice and the phases of the problem. */
    public static ProfiledFit fitScaledProfiled(Kernel kernel, Matrix x, double[] y, Options o) {
        if (y.length != x.rows()) {
            throw new IllegalArgumentException("nystrom krr: " + x.rows() + " points but " + y.length + " targets");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("nystrom krr: no training points");
        }
        long t0 = System.nanoTime();
        int m = Math.min(o.anchors(), x.rows());
        int[] idx = NystromKrr.selectAnchors(kernel, x, m, o.method(), o.seed(), o.lambda());
        Matrix c = x.selectRows(idx);
        double anchorSecs = (System.nanoTime() - t0) * 1e-9;
        NystromKrr.Problem p = NystromKrr.problem(kernel, x, c, o.storage(), target(y, o));
        Fit f = solve(p, y, o);
        Map<String, Double> t = new LinkedHashMap<>();
        t.put("anchorSeconds", anchorSecs);
        t.putAll(p.timings());
        return new ProfiledFit(f, t);
    }

    /** Fits on already scaled points. */
    public static Fit fitScaled(Kernel kernel, Matrix x, double[] y, Options o) {
        if (y.length != x.rows()) {
            throw new IllegalArgumentException("nystrom krr: " + x.rows() + " points but " + y.length + " targets");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("nystrom krr: no training points");
        }
        int m = Math.min(o.anchors(), x.rows());
        int[] idx = NystromKrr.selectAnchors(kernel, x, m, o.method(), o.seed(), o.lambda());
        NystromKrr.Problem p = NystromKrr.problem(kernel, x, x.selectRows(idx), o.storage(), target(y, o));
        return solve(p, y, o);
    }

    /**
     * y − offset as {@link #solve} will form it (offset = the mean of y when centring, else 0): given to
     * {@link NystromKrr#problem(Kernel, Matrix, Matrix, NystromKrr.Storage, double[])}, its right-hand side is
     * computed in the problem's first pass.
     */
    public static double[] target(double[] y, Options o) {
        double off = offset(y, o);
        double[] t = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            t[i] = y[i] - off;
        }
        return t;
    }

    private static double offset(double[] y, Options o) {
        double off = 0;
        if (o.center()) {
            for (double v : y) {
                off += v;
            }
            off /= y.length;
        }
        return off;
    }

    /** Solves a prepared problem (anchors and K_mm factor shared across λ, as in cross-validation). */
    public static Fit solve(NystromKrr.Problem p, double[] y, Options o) {
        double off = offset(y, o);
        NystromKrr.Solution s = p.solve(y, off, o.lambda(), o.tolerance(), o.maxIterations());
        return new Fit(p.model(s, o.center()), s.diagnostics());
    }

    /** What the model file records: the krr options plus the anchors' settings. */
    public static Map<String, Object> hyperParameters(Options o, int anchorsUsed) {
        Map<String, Object> h = KrrTrainer.hyperParameters(
                new KernelRidge.Options(o.lambda(), KernelRidge.Form.STANDARD, 0, o.center()));
        h.put("anchors", anchorsUsed);
        h.put("anchorMethod", o.method().label());
        h.put("seed", o.seed());
        h.put("tolerance", o.tolerance());
        return h;
    }

    /** What a fit reports: route, CG iterations, recomputed relative residual, storage, jitter, seconds. */
    public static Map<String, Object> diagnostics(NystromKrr.Diagnostics d, double seconds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("route", "nystrom-cg");
        m.put("iterations", d.iterations());
        m.put("residual", d.residual());
        m.put("converged", d.converged());
        m.put("storage", d.storage());
        m.put("jitter", d.jitter());
        m.put("seconds", seconds);
        return m;
    }
}
