package org.psdkit.classify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.Smo;
import org.psdkit.select.CrossValidation;
import org.psdkit.select.GridSearch;

/**
 * Fits a soft-margin SVM with a fixed kernel (model type {@code svm}) by SMO with second-order working sets (Fan,
 * Chen &amp; Lin 2005) on raw data: the scaler is fitted on the training rows and kept in the model. With
 * {@link Options#nu()} set, the ν-SVC ({@link NuSvc}): the same decision function, options {@code nu} instead of
 * {@code C}.
 *
 * <pre>{@code
 * SvmClassifier m = new SvmTrainer(SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10)
 *         .withScale(Scaler.Kind.ZSCORE)).fit(train);
 * }</pre>
 *
 * C chosen by cross-validation is a {@link GridSearch} over this trainer ({@link #cSearch}).
 *
 * @param options the kernel, C, SMO tolerance, kernel cache and scaling (validated by their record)
 */
public record SvmTrainer(Options options) implements Trainer<SvmClassifier> {

    /** The model type written in model files. */
    public static final String TYPE = "svm";
    /** Default memory for kernel values, MB ({@link Smo#DEFAULT_CACHE_MB}). */
    public static final int DEFAULT_CACHE_MB = Smo.DEFAULT_CACHE_MB;
    /** Relative C grid (C = c / mean diag K) that {@link #cSearch} searches by default. */
    public static final double[] DEFAULT_C_GRID = {0.1, 1, 10, 100};
    /** Folds of {@link #cSearch} by default. */
    public static final int DEFAULT_FOLDS = 5;

    /**
     * Everything an SVM fit takes; the constructor checks every field.
     *
     * @param kernel    the kernel (required)
     * @param c         the penalty C &gt; 0 (finite)
     * @param tolerance SMO stopping tolerance on the KKT violation, &gt; 0 (finite)
     * @param cacheMb   memory for kernel values in MB, ≥ 1 (LIBSVM's {@code -m}): kernel rows are computed on demand
     *                  and cached, in double precision when all m rows fit (8m² bytes), else in single precision (see
     *                  {@link Smo#solve(Kernel, Matrix, double[], double[], double, Smo.Options, long, double[],
     *                  ProgressListener)}); it changes the speed, not the model
     * @param scale     the feature scaling fitted on the training data ({@code null}: {@link #DEFAULT_SCALE})
     * @param nu        {@link #C_SVC} (0) for the C-SVC; ν in (0, 1] for the ν-SVC ({@link NuSvc}; LIBSVM's
     *                  {@code -s 1 -n}, scikit-learn's {@code NuSVC(nu)}), which then ignores C
     */
    public record Options(Kernel kernel, double c, double tolerance, int cacheMb, Scaler.Kind scale, double nu) {
        /** The value of {@code nu} that selects the C-SVC. */
        public static final double C_SVC = 0;
        /** LIBSVM's stopping tolerance, {@link Smo#DEFAULT_TOLERANCE} (the command line's {@code --tolerance}). */
        public static final double DEFAULT_TOLERANCE = Smo.DEFAULT_TOLERANCE;
        /** No feature scaling by default. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("kernel", kernel);
            ParameterException.positive("c", c);
            ParameterException.positive("tolerance", tolerance);
            ParameterException.atLeast("cacheMb", cacheMb, 1);
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
            if (nu != C_SVC) {
                ParameterException.unitHalfOpen("nu", nu);
            }
        }

        /** The C-SVC with these fields. */
        public Options(Kernel kernel, double c, double tolerance, int cacheMb, Scaler.Kind scale) {
            this(kernel, c, tolerance, cacheMb, scale, C_SVC);
        }

        /** The ν-SVC with ν, LIBSVM's tolerance and the default cache, unscaled (C, unused, is 1). */
        public static Options nu(Kernel kernel, double nu) {
            return new Options(kernel, 1, DEFAULT_TOLERANCE, DEFAULT_CACHE_MB, DEFAULT_SCALE, nu);
        }

        /** Whether this is the ν-SVC. */
        public boolean isNu() {
            return nu != C_SVC;
        }

        /** The same options with ν ({@link #C_SVC}: the C-SVC). */
        public Options withNu(double value) {
            return new Options(kernel, c, tolerance, cacheMb, scale, value);
        }

        /** C with LIBSVM's tolerance and the default cache, unscaled. */
        public static Options of(Kernel kernel, double c) {
            return new Options(kernel, c, DEFAULT_TOLERANCE, DEFAULT_CACHE_MB, DEFAULT_SCALE);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, c, tolerance, cacheMb, scale, nu);
        }

        public Options withC(double value) {
            return new Options(kernel, value, tolerance, cacheMb, scale, nu);
        }

        public Options withTolerance(double t) {
            return new Options(kernel, c, t, cacheMb, scale, nu);
        }

        public Options withCacheMb(int mb) {
            return new Options(kernel, c, tolerance, mb, scale, nu);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, c, tolerance, cacheMb, s, nu);
        }
    }

    /**
     * What an SMO fit reports, in the model file's order.
     *
     * @param iterations SMO iterations
     * @param violation  final maximal KKT violation
     * @param dual       dual objective value
     * @param converged  whether the violation reached the tolerance
     * @param seconds    wall time of the solve
     */
    public record Fit(int iterations, double violation, double dual, boolean converged, double seconds)
            implements Diagnostics {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("iterations", iterations);
            d.put("violation", violation);
            d.put("dual", dual);
            d.put("converged", converged);
            d.put("seconds", seconds);
            return d;
        }

        /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
        public static Fit of(Map<String, Object> m) {
            return new Fit((Integer) m.get("iterations"), (Double) m.get("violation"), (Double) m.get("dual"),
                    (Boolean) m.get("converged"), (Double) m.get("seconds"));
        }
    }

    public SvmTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public SvmClassifier fit(Dataset train, ProgressListener listener) {
        SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(train);
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        Kernel kernel = options.kernel();
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "svm");
        long t0 = System.nanoTime();
        Smo.Options so = new Smo.Options(options.tolerance(), true);
        long cacheBytes = (long) options.cacheMb() << 20;
        Smo.Result r = options.isNu() ? NuSvc.solve(kernel, x, lab.y(), options.nu(), so, cacheBytes, null).result()
                : Smo.solve(kernel, x, lab.y(), null, options.c(), so, cacheBytes, null, null);
        double secs = (System.nanoTime() - t0) * 1e-9;
        Fit d = new Fit(r.iterations(), r.violation(), r.dual(), r.converged(), secs);
        Map<String, Object> h = new LinkedHashMap<>();
        if (options.isNu()) {
            h.put("nu", options.nu());
        } else {
            h.put("C", options.c());
        }
        return new SvmClassifier(ModelHeader.of(TYPE, train, scaler, kernel.spec(), h),
                SvmDecision.of(kernel, x, lab.y(), r.alpha(), r.bias()), lab.labels(), d, Map.of());
    }

    /**
     * The C chosen by k-fold cross-validation.
     *
     * @param c        the chosen C (the first of the best accuracy)
     * @param accuracy its validation accuracy (correct validation labels over all validation rows)
     * @param folds    the number of folds
     * @param grid     one row per grid point: {@code C}, {@code accuracy}
     */
    public record CChoice(double c, double accuracy, int folds, List<Map<String, Object>> grid) {
    }

    /**
     * The search for C by k-fold cross-validation ({@link GridSearch}, folds {@link Splits#kFold}) over C = c / κ for
     * c in {@code relativeGrid}, κ the mean diagonal of the kernel on the training data scaled as {@code options}
     * scale them; every point is {@code options} with that C. A fold whose training part holds one class is left
     * out (it counts no validation rows); the point with the most correct validation labels wins, the first on ties.
     *
     * @throws IllegalArgumentException if every fold's training part holds one class
     */
    public static GridSearch<Double, Model> cSearch(Options options, Dataset raw, double[] relativeGrid, int folds,
                                                     long seed) {
        ParameterException.required("options", options);
        if (relativeGrid == null || relativeGrid.length == 0) {
            throw new ParameterException("cGrid", "must hold at least one value");
        }
        SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(raw);
        Matrix x = Scaler.fit(options.scale(), raw.x()).apply(raw.x());
        double kappa = 0;
        for (double v : org.psdkit.kernel.Kernels.requireFinite(options.kernel(), x, "svm")) {
            kappa += v;
        }
        kappa /= x.rows();
        List<Double> cs = new ArrayList<>();
        for (double cr : relativeGrid) {
            cs.add(cr / kappa);
        }
        bothClassParts(Splits.kFold(raw.n(), folds, seed), lab.y()); // refuses data where no fold can train
        return GridSearch.over(cs, cc -> twoClassFolds(new SvmTrainer(options.withC(cc))), HITS, folds, seed);
    }

    /** The choice of a finished {@link #cSearch}: the chosen C, its pooled validation accuracy and the grid. */
    public static CChoice choice(GridSearch.Search<Double, Model> search, int folds) {
        List<Map<String, Object>> rows = new ArrayList<>();
        double accuracy = 0;
        for (CrossValidation.Result<Double> r : search.table()) {
            double acc = pooledAccuracy(r);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("C", r.params());
            row.put("accuracy", acc);
            rows.add(row);
            if (r.params().equals(search.best())) {
                accuracy = acc;
            }
        }
        return new CChoice(search.best(), accuracy, folds, rows);
    }

    /**
     * The cross-validation score of the SVM families: a fold's correct validation labels ({@code hits}) and its rows
     * ({@code rows}); the most hits win (their fold mean orders the points as their total does), the first on ties.
     * A fold left out by {@link #twoClassFolds} scores no hits and no rows.
     */
    public static final GridSearch.Scoring HITS = new GridSearch.Scoring("hits", false, SvmTrainer::foldHits);

    /**
     * {@code trainer}, except on a training part that holds one class: there it fits nothing, and {@link #HITS}
     * counts that fold's rows as none, as {@link #bothClassParts} leaves it out.
     */
    public static Trainer<Model> twoClassFolds(Trainer<? extends Model> trainer) {
        return (part, listener) -> oneClass(part) ? SKIPPED : trainer.fit(part, listener);
    }

    /** The model of a fold whose training part holds one class: it scores no rows. */
    private static final Model SKIPPED = new Pipeline<>(null, null, Diagnostics.NONE);

    private static boolean oneClass(Dataset part) {
        String[] t = SvmClassifier.labelTokens(part);
        for (String s : t) {
            if (!s.equals(t[0])) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Double> foldHits(Model fitted, Dataset rawTest) {
        if (fitted == SKIPPED) {
            Map<String, Double> s = new LinkedHashMap<>();
            s.put("hits", 0.0);
            s.put("rows", 0.0);
            return s;
        }
        return hits(fitted, rawTest);
    }

    /**
     * The folds whose training part holds both classes (a one-class fold is skipped).
     *
     * @throws IllegalArgumentException if no fold is left (e.g. 2 rows, one per class, in 2 folds)
     */
    public static Splits.TrainTest[] bothClassParts(Splits.TrainTest[] parts, double[] y) {
        List<Splits.TrainTest> keep = new ArrayList<>();
        for (Splits.TrainTest p : parts) {
            boolean pos = false;
            boolean neg = false;
            for (int i : p.train()) {
                pos |= y[i] > 0;
                neg |= y[i] < 0;
            }
            if (pos && neg) {
                keep.add(p);
            }
        }
        if (keep.isEmpty()) {
            throw new IllegalArgumentException("no CV fold can train an SVM: the training part of each of the "
                    + parts.length + " folds holds only one class (" + y.length + " rows); use more rows of each "
                    + "class or fewer folds, or give C to skip the CV");
        }
        return keep.toArray(new Splits.TrainTest[0]);
    }

    /** The CV score of a classifier on a raw test part: {@code hits} (correct labels) and {@code rows}. */
    public static Map<String, Double> hits(org.psdkit.model.Model fitted, Dataset rawTest) {
        Object accuracy = fitted.evaluate(rawTest).get("accuracy");
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("hits", (double) Math.round((Double) accuracy * rawTest.n()));
        s.put("rows", (double) rawTest.n());
        return s;
    }

    /** Validation hits over validation rows, pooled over the parts; 0 for a grid point that failed. */
    public static double pooledAccuracy(CrossValidation.Result<?> r) {
        if (r.error() != null || r.scores().isEmpty()) {
            return 0;
        }
        double hits = 0;
        double rows = 0;
        for (double v : r.scores().get("hits")) {
            hits += v;
        }
        for (double v : r.scores().get("rows")) {
            rows += v;
        }
        return rows == 0 ? 0 : hits / rows;
    }
}
