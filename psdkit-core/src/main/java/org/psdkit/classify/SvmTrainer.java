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
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.Smo;
import org.psdkit.select.CrossValidation;

/**
 * Fits a soft-margin SVM with a fixed kernel (model type {@code svm}) by SMO with second-order working sets (Fan,
 * Chen &amp; Lin 2005) on raw data: the scaler is fitted on the training rows and kept in the model.
 *
 * <pre>{@code
 * SvmClassifier m = new SvmTrainer(Kernels.parse("gaussian(sigma=0.7)"), 10, 1e-3, Scaler.Kind.ZSCORE).fit(train);
 * }</pre>
 *
 * @param kernel    the kernel
 * @param c         the penalty C &gt; 0
 * @param tolerance SMO stopping tolerance on the KKT violation, &gt; 0
 * @param scale     the feature scaling fitted on the training data
 * @param cacheMb   memory for kernel values in MB (LIBSVM's {@code -m}): kernel rows are computed on demand and
 *                  cached, in double precision when all m rows fit (8m² bytes), else in single precision (see
 *                  {@link Smo#solve(Kernel, Matrix, double[], double[], double, Smo.Options, long, double[],
 *                  ProgressListener)}); it changes the speed, not the model
 */
public record SvmTrainer(Kernel kernel, double c, double tolerance, Scaler.Kind scale, int cacheMb)
        implements Trainer<SvmClassifier> {

    /** The model type written in model files. */
    public static final String TYPE = "svm";
    /** Default memory for kernel values, MB ({@link Smo#DEFAULT_CACHE_MB}). */
    public static final int DEFAULT_CACHE_MB = Smo.DEFAULT_CACHE_MB;
    /** Relative C grid (C = c / mean diag K) that {@link #chooseC} searches by default. */
    public static final double[] DEFAULT_C_GRID = {0.1, 1, 10, 100};
    /** Folds of {@link #chooseC} by default. */
    public static final int DEFAULT_FOLDS = 5;

    public SvmTrainer {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (!(c > 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("C must be positive and finite, got " + c);
        }
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        if (cacheMb < 1) {
            throw new IllegalArgumentException("cacheMb must be >= 1, got " + cacheMb);
        }
    }

    /** With the default kernel cache of {@value #DEFAULT_CACHE_MB} MB. */
    public SvmTrainer(Kernel kernel, double c, double tolerance, Scaler.Kind scale) {
        this(kernel, c, tolerance, scale, DEFAULT_CACHE_MB);
    }

    @Override
    public SvmClassifier fit(Dataset train, ProgressListener listener) {
        SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(train);
        Scaler scaler = Scaler.fit(scale, train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "svm");
        long t0 = System.nanoTime();
        Smo.Result r = Smo.solve(kernel, x, lab.y(), null, c, new Smo.Options(tolerance, true),
                (long) cacheMb << 20, null, null);
        double secs = (System.nanoTime() - t0) * 1e-9;
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("iterations", r.iterations());
        d.put("violation", r.violation());
        d.put("dual", r.dual());
        d.put("converged", r.converged());
        d.put("seconds", secs);
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("C", c);
        return new SvmClassifier(ModelHeader.of(TYPE, train, scaler, kernel.spec(), h),
                SvmDecision.of(kernel, x, lab.y(), r.alpha(), r.bias()), lab.labels(), d, Map.of());
    }

    /**
     * The C chosen by k-fold cross-validation ({@link CrossValidation#evaluate}, folds {@link Splits#kFold}) over
     * C = c / κ for c in {@code relativeGrid}, κ the mean diagonal of the kernel on the scaled training data.
     *
     * @param c        the chosen C (the first of the best accuracy)
     * @param accuracy its validation accuracy (correct validation labels over all validation rows)
     * @param folds    the number of folds
     * @param grid     one row per grid point: {@code C}, {@code accuracy}
     */
    public record CChoice(double c, double accuracy, int folds, List<Map<String, Object>> grid) {
    }

    /** Chooses C by cross-validation (see {@link CChoice}); one {@code "cv"} progress event per fit. */
    public static CChoice chooseC(Kernel kernel, double tolerance, Scaler.Kind scale, Dataset raw,
                                  double[] relativeGrid, int folds, long seed, ProgressListener listener) {
        return chooseC(kernel, tolerance, scale, DEFAULT_CACHE_MB, raw, relativeGrid, folds, seed, listener);
    }

    /** As {@link #chooseC(Kernel, double, Scaler.Kind, Dataset, double[], int, long, ProgressListener)}, with
     * {@code cacheMb} MB for kernel values in each fit. */
    public static CChoice chooseC(Kernel kernel, double tolerance, Scaler.Kind scale, int cacheMb, Dataset raw,
                                  double[] relativeGrid, int folds, long seed, ProgressListener listener) {
        SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(raw);
        Matrix x = Scaler.fit(scale == null ? Scaler.Kind.NONE : scale, raw.x()).apply(raw.x());
        double kappa = 0;
        for (double v : org.psdkit.kernel.Kernels.requireFinite(kernel, x, "svm")) {
            kappa += v;
        }
        kappa /= x.rows();
        List<Double> cs = new ArrayList<>();
        for (double cr : relativeGrid) {
            cs.add(cr / kappa);
        }
        Splits.TrainTest[] parts = bothClassParts(Splits.kFold(raw.n(), folds, seed), lab.y());
        List<CrossValidation.Result<Double>> table = CrossValidation.evaluate(raw, parts, cs,
                cc -> new SvmTrainer(kernel, cc, tolerance, scale, cacheMb), SvmTrainer::hits, listener);
        double best = -1;
        double chosen = cs.get(0);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (CrossValidation.Result<Double> r : table) {
            double acc = pooledAccuracy(r);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("C", r.params());
            row.put("accuracy", acc);
            rows.add(row);
            if (acc > best) {
                best = acc;
                chosen = r.params();
            }
        }
        return new CChoice(chosen, best, folds, rows);
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
        Map<String, Object> e = fitted.evaluate(rawTest);
        Map<String, Double> s = new LinkedHashMap<>();
        s.put("hits", (double) Math.round((Double) e.get("accuracy") * rawTest.n()));
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
