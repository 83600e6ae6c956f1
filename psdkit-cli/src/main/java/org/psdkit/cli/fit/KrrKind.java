package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.cli.Params;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.nystrom.KnmBlocks;
import org.psdkit.regression.nystrom.NystromDirect;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;

/**
 * Model type {@code krr} (kernel ridge regression, {@link KernelRidge}) on the command line: its parameters, shared by
 * {@code fit krr} and {@code cv krr}, and its cross-validation support.
 */
public final class KrrKind {
    public static final String TYPE = "krr";

    private KrrKind() {
    }

    /** Parameters and defaults, shared by {@code fit krr} and {@code cv krr}. */
    static Map<String, String> defaultParams() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernel", "gaussian(sigma=1)");
        m.put("lambda", "0.001");
        m.put("form", "standard");
        m.put("nugget", "0");
        m.put("center", "false");
        return m;
    }

    /** Options from parameters; errors name the parameter. */
    static KernelRidge.Options options(Params p) {
        KernelRidge.Form f = KernelRidge.Form.parse(p.get("form"));
        String c = p.get("center").trim();
        if (!c.equals("true") && !c.equals("false")) {
            throw new IllegalArgumentException("center: '" + c + "' is not true or false");
        }
        return new KernelRidge.Options(p.getDouble("lambda"), f, p.getDouble("nugget"), c.equals("true"));
    }

    /** Options of {@code --anchors M} (Nystrom KRR); errors name the flags. */
    static NystromKrrTrainer.Options nystromOptions(Params p, int anchors, String method, long seed, String tol,
                                                    String maxIter) {
        return nystromOptions(p, anchors, method, seed, tol, maxIter, Storage.AUTO);
    }

    /** As above, with the route of the CG solve ({@code fit krr --storage}). */
    static NystromKrrTrainer.Options nystromOptions(Params p, int anchors, String method, long seed, String tol,
                                                    String maxIter, Storage storage) {
        KernelRidge.Options o = options(p);
        if (o.form() != KernelRidge.Form.STANDARD) {
            throw new IllegalArgumentException("--anchors: only --form standard is supported with anchors");
        }
        if (anchors < 1) {
            throw new IllegalArgumentException("--anchors must be >= 1, got " + anchors);
        }
        Anchors.Method am = FeatureSpaceOptions.anchorMethod(method, Anchors.Family.KRR);
        double t;
        int it;
        try {
            t = Double.parseDouble(tol.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--cg-tol: '" + tol + "' is not a number");
        }
        if (!(t > 0) || t >= 1) {
            throw new IllegalArgumentException("--cg-tol must be in (0, 1), got " + tol);
        }
        try {
            it = Integer.parseInt(maxIter.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--max-iter: '" + maxIter + "' is not an integer");
        }
        if (it < 1) {
            throw new IllegalArgumentException("--max-iter must be >= 1, got " + maxIter);
        }
        return new NystromKrrTrainer.Options(p.kernel(), null, Nystrom.of(anchors, am, seed), o.lambda(), o.center(), t, it,
                storage);
    }

    /** Fits on a scaled training set. */
    static KernelRidge train(Dataset scaledTrain, Params p) {
        KernelRidge.Options o = options(p);
        Kernel k = p.kernel();
        return KernelRidge.fit(k, scaledTrain.x(), scaledTrain.y(), o);
    }

    /**
     * One grid point of {@code cv krr --loo}: its parameters, the leave-one-out RMSE and the GCV score.
     */
    public record LooRow(Map<String, String> params, double rmse, double gcv) {
    }

    /**
     * {@code cv krr --loo}: the grid's points grouped by everything but lambda, and for each group one leave-one-out
     * path over its lambdas ({@link org.psdkit.regression.KrrLoo}: one eigendecomposition per group, exact or on the
     * group's Nystrom anchors). The scaler is fitted once on all rows (as scikit-learn's RidgeCV sees one matrix).
     *
     * @param step called once per grid point, when its group's path is done (progress)
     */
    public static List<LooRow> loo(Dataset raw, org.psdkit.data.Scaler.Kind scale, Map<String, String> base,
                                   List<Map<String, String>> points, Runnable step) {
        Matrix x = org.psdkit.data.Scaler.fit(scale, raw.x()).apply(raw.x());
        Map<Map<String, String>, List<Map<String, String>>> groups = new java.util.LinkedHashMap<>();
        for (Map<String, String> p : points) {
            Map<String, String> key = new java.util.LinkedHashMap<>(p);
            key.remove("lambda");
            groups.computeIfAbsent(key, k -> new java.util.ArrayList<>()).add(p);
        }
        Map<Map<String, String>, LooRow> byPoint = new java.util.HashMap<>();
        for (List<Map<String, String>> g : groups.values()) {
            double[] lambdas = new double[g.size()];
            Params first = new Params(base).with(g.get(0));
            KernelRidge.Options o = options(first);
            if (o.form() != KernelRidge.Form.STANDARD || o.center()) {
                throw new IllegalArgumentException("--loo: the leave-one-out shortcut is exact for the standard form "
                        + "without --center (form=standard, center=false)");
            }
            for (int i = 0; i < lambdas.length; i++) {
                lambdas[i] = new Params(base).with(g.get(i)).getPositive("lambda");
            }
            Kernel k = first.kernel();
            double a = first.getDouble(ANCHORS);
            org.psdkit.regression.KrrLoo.Path path;
            if (a > 0) {
                long seed = Long.parseLong(first.get("anchorSeed").trim());
                NystromKrrTrainer.Options no = nystromOptions(first, (int) a, first.get("anchorMethod"), seed,
                        Double.toString(NystromKrr.DEFAULT_TOLERANCE),
                        Integer.toString(NystromKrr.DEFAULT_MAX_ITERATIONS));
                Matrix anchors = x.selectRows(NystromKrrTrainer.anchors(k, x, no));
                path = org.psdkit.regression.KrrLoo.nystrom(k, x, anchors, raw.y(), lambdas);
            } else {
                path = org.psdkit.regression.KrrLoo.exact(k, x, raw.y(), lambdas);
            }
            for (int i = 0; i < lambdas.length; i++) {
                byPoint.put(g.get(i), new LooRow(g.get(i), Math.sqrt(path.looMse()[i]), path.gcv()[i]));
                step.run();
            }
        }
        List<LooRow> out = new java.util.ArrayList<>();
        for (Map<String, String> p : points) {
            out.add(byPoint.get(p));
        }
        return out;
    }

    /** Parameter {@code anchors} of {@code cv krr}: 0 = exact KRR, M > 0 = Nystrom KRR with M anchors. */
    static final String ANCHORS = "anchors";

    /** A new cross-validation support (with its own Gram-matrix cache) for one {@code cv krr} run. */
    static CvSupport cv() {
        return new CvSupport() {
            /**
             * Last Gram matrix per training fold (keyed by the fold's identity): the cv command visits the grid with
             * the last parameter (usually lambda) varying fastest, so consecutive fits of a fold share the kernel.
             */
            private final Map<Dataset, Object[]> gramCache = new java.util.IdentityHashMap<>();

            /**
             * With anchors: the last Nystrom problem per training fold (anchors, K_mm and its Cholesky factor, K_nm
             * if kept), reused while only lambda changes (the preconditioner's second factor is per lambda, m^3/3).
             */
            private final Map<Dataset, Object[]> nystromCache = new java.util.IdentityHashMap<>();

            @Override
            public Map<String, String> defaults() {
                Map<String, String> m = defaultParams();
                m.put(ANCHORS, "0");
                m.put("anchorMethod", "uniform");
                m.put("anchorSeed", "1");
                return m;
            }

            @Override
            public void validate(Params params) {
                options(params);
                params.kernel();
                if (anchors(params) > 0) {
                    nystrom(params);
                }
            }

            private int anchors(Params params) {
                double a = params.getDouble(ANCHORS);
                if (!(a >= 0) || a != Math.rint(a) || a > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("--anchors must be a whole number >= 0, got "
                            + params.get(ANCHORS));
                }
                return (int) a;
            }

            private NystromKrrTrainer.Options nystrom(Params params) {
                long seed;
                try {
                    seed = Long.parseLong(params.get("anchorSeed").trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("anchorSeed: '" + params.get("anchorSeed")
                            + "' is not an integer");
                }
                return nystromOptions(params, anchors(params), params.get("anchorMethod"), seed,
                        Double.toString(NystromKrr.DEFAULT_TOLERANCE),
                        Integer.toString(NystromKrr.DEFAULT_MAX_ITERATIONS));
            }

            @Override
            public boolean takesWeights() {
                return true;
            }

            @Override
            public Predictor fit(Dataset scaledTrain, Params params) {
                KernelRidge.Options o = options(params);
                Kernel k = params.kernel();
                if (anchors(params) > 0) {
                    NystromKrrTrainer.Options no = nystrom(params);
                    int m = Math.min(no.anchors(), scaledTrain.n());
                    String key = k.spec() + "|" + m + "|" + no.method().id() + "|" + no.seed()
                            + (no.method() == Anchors.Method.RLS ? "|" + no.lambda() : "")
                            + (scaledTrain.weights() != null ? "|weighted|" + no.center() : "");
                    Object[] hit = nystromCache.get(scaledTrain);
                    if (scaledTrain.weights() != null) {
                        // sample weights: the direct route of a weighted fit (NystromKrrTrainer.fitDirect), its
                        // anchors and normal equations kept per fold and solved for each λ
                        NystromDirect.Normal normal;
                        Matrix c;
                        if (hit != null && hit[0].equals(key)) {
                            c = (Matrix) hit[1];
                            normal = (NystromDirect.Normal) hit[2];
                        } else {
                            nystromCache.remove(scaledTrain);
                            c = scaledTrain.x().selectRows(NystromKrrTrainer.anchors(k, scaledTrain.x(), no));
                            normal = NystromDirect.normal(k, scaledTrain.x(), c, Matrix.column(scaledTrain.y()),
                                    scaledTrain.weights(), no.center());
                            nystromCache.put(scaledTrain, new Object[] {key, c, normal});
                        }
                        return NystromKrrTrainer.solveDirect(k, c, normal, no).model();
                    }
                    KnmBlocks problem;
                    if (hit != null && hit[0].equals(key)) {
                        problem = (KnmBlocks) hit[1];
                    } else {
                        nystromCache.remove(scaledTrain); // let the old problem's K_nm go before the new one
                        int[] idx = Anchors.select(k, scaledTrain.x(), m, no.method(), no.seed(),
                                no.lambda());
                        // the right-hand side K_nmᵀ(y − offset) is computed in the problem's first pass and
                        // reused by every λ of the grid (the same fold, the same y)
                        problem = NystromKrr.problem(k, scaledTrain.x(), scaledTrain.x().selectRows(idx),
                                no.storage(), NystromKrrTrainer.target(scaledTrain.y(), no));
                        nystromCache.put(scaledTrain, new Object[] {key, problem});
                    }
                    return NystromKrrTrainer.solve(problem, scaledTrain.y(), no).model();
                }
                Object[] hit = gramCache.get(scaledTrain);
                Matrix gram;
                if (hit != null && hit[0].equals(k.spec())) {
                    gram = (Matrix) hit[1];
                } else {
                    gram = k.gram(scaledTrain.x());
                    gramCache.put(scaledTrain, new Object[] {k.spec(), gram});
                }
                return new KrrTrainer(KrrTrainer.Options.of(k, o, Scaler.Kind.NONE))
                        .fitWithGram(scaledTrain.x(), gram, scaledTrain.y(), scaledTrain.weights());
            }
        };
    }
}
