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
import org.psdkit.model.Classifier;
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
public record SvmTrainer(Options options) implements Trainer<Classifier> {

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
     *                  {@code -s 1 -n}, scikit-learn's {@code NuSVC(nu)}), which then ignores C; the ν-SVC is
     *                  binary, without probabilities or weights
     * @param probability whether the model gives class probabilities (Platt scaling on 5-fold out-of-fold decision
     *                  values, coupled over the pairs for more than two classes; LIBSVM's {@code -b 1},
     *                  scikit-learn's {@code probability=True}); a model with probabilities is one-vs-one even for
     *                  two classes
     * @param classWeight per-class weights of C ({@code null}: none; LIBSVM's {@code -wi}, scikit-learn's
     *                  {@code class_weight})
     * @param seed      seed of the probability folds
     */
    public record Options(Kernel kernel, double c, double tolerance, int cacheMb, Scaler.Kind scale, double nu,
                          boolean probability, ClassWeights classWeight, long seed) {
        /** The value of {@code nu} that selects the C-SVC. */
        public static final double C_SVC = 0;
        /** LIBSVM's stopping tolerance, {@link Smo#DEFAULT_TOLERANCE} (the command line's {@code --tolerance}). */
        public static final double DEFAULT_TOLERANCE = Smo.DEFAULT_TOLERANCE;
        /** No feature scaling by default. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;
        /** The seed of the probability folds by default. */
        public static final long DEFAULT_SEED = 42;

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
                if (probability || classWeight != null) {
                    throw new ParameterException("nu", "selects the binary nu-SVC, which takes no probability "
                            + "and no classWeight; use C for those");
                }
            }
        }

        /** Without probabilities or class weights. */
        public Options(Kernel kernel, double c, double tolerance, int cacheMb, Scaler.Kind scale, double nu) {
            this(kernel, c, tolerance, cacheMb, scale, nu, false, null, DEFAULT_SEED);
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
            return new Options(kernel, c, tolerance, cacheMb, scale, value, probability, classWeight, seed);
        }

        /** C with LIBSVM's tolerance and the default cache, unscaled. */
        public static Options of(Kernel kernel, double c) {
            return new Options(kernel, c, DEFAULT_TOLERANCE, DEFAULT_CACHE_MB, DEFAULT_SCALE);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, c, tolerance, cacheMb, scale, nu, probability, classWeight, seed);
        }

        public Options withC(double value) {
            return new Options(kernel, value, tolerance, cacheMb, scale, nu, probability, classWeight, seed);
        }

        public Options withTolerance(double t) {
            return new Options(kernel, c, t, cacheMb, scale, nu, probability, classWeight, seed);
        }

        public Options withCacheMb(int mb) {
            return new Options(kernel, c, tolerance, mb, scale, nu, probability, classWeight, seed);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, c, tolerance, cacheMb, s, nu, probability, classWeight, seed);
        }

        public Options withProbability(boolean p) {
            return new Options(kernel, c, tolerance, cacheMb, scale, nu, p, classWeight, seed);
        }

        public Options withClassWeight(ClassWeights w) {
            return new Options(kernel, c, tolerance, cacheMb, scale, nu, probability, w, seed);
        }

        public Options withSeed(long s) {
            return new Options(kernel, c, tolerance, cacheMb, scale, nu, probability, classWeight, s);
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

    /**
     * Fits a binary {@link SvmClassifier} (two classes, no probabilities) or a one-vs-one {@link MulticlassSvm} (more
     * classes, or probabilities), with the data's sample weights ({@link Dataset#weights()}) when it has them.
     */
    @Override
    public Classifier fit(Dataset train, ProgressListener listener) {
        return fit(train, train.weights(), listener);
    }

    /**
     * As {@link #fit(Dataset, ProgressListener)} with a weight per training row: row i's bound is C_i = C·w_i
     * (LIBSVM's instance-weight extension, scikit-learn's {@code SVC.fit(sample_weight=…)}); rows of weight 0 are
     * left out; the probabilities' sigmoid fit weights each row by w_i.
     *
     * @param sampleWeights one weight ≥ 0 (finite) per row, not all 0, or {@code null} for none
     * @throws ParameterException ({@code sampleWeights}) naming the first bad row
     */
    public Classifier fit(Dataset train, double[] sampleWeights, ProgressListener listener) {
        org.psdkit.model.SampleWeights.check(sampleWeights, train.n());
        String[] tokens = canonicalTokens(train);
        boolean binary = !options.probability() && distinctAtMost2(tokens);
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        Kernel kernel = options.kernel();
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "svm");
        Smo.Options so = new Smo.Options(options.tolerance(), true);
        long cacheBytes = (long) options.cacheMb() << 20;
        Map<String, Object> h = new LinkedHashMap<>();
        if (options.isNu()) {
            h.put("nu", options.nu());
        } else {
            h.put("C", options.c());
        }
        if (options.classWeight() != null) {
            h.put("classWeight", options.classWeight().toString());
        }
        if (sampleWeights != null) {
            h.put("sampleWeights", true);
        }
        if (options.isNu() && (!binary || sampleWeights != null)) {
            throw new ParameterException("nu", "selects the binary nu-SVC: it takes two classes and no "
                    + "sampleWeights; use C for more classes or weights");
        }
        if (!binary) {
            if (options.probability()) {
                h.put("probability", true);
                h.put("seed", options.seed());
            }
            OneVsOne.Result r = OneVsOne.fit(kernel, x, tokens, options.c(), options.classWeight(), sampleWeights,
                    so, cacheBytes, options.probability(), options.seed());
            return new MulticlassSvm(ModelHeader.of(TYPE, train, scaler, kernel.spec(), h), r.decision(), r.fit());
        }
        SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(train);
        long t0 = System.nanoTime();
        Smo.Result r;
        if (options.isNu()) {
            r = NuSvc.solve(kernel, x, lab.y(), options.nu(), so, cacheBytes, null).result();
        } else if (options.classWeight() == null && sampleWeights == null) {
            r = Smo.solve(kernel, x, lab.y(), null, options.c(), so, cacheBytes, null, null);
        } else {
            r = weightedBinary(kernel, x, lab, sampleWeights, so, cacheBytes);
        }
        double secs = (System.nanoTime() - t0) * 1e-9;
        Fit d = new Fit(r.iterations(), r.violation(), r.dual(), r.converged(), secs);
        SvmDecision decision = SvmDecision.of(kernel, x, lab.y(), r.alpha(), r.bias());
        // the C-SVC's linear term is p = −e; the ν-SVC's is 0 (its α, b and gradient scaled by 1/r, NuSvc)
        double[] f = trainingDecisions(r, lab.y(), options.isNu() ? 0 : -1, decision, x);
        return new SvmClassifier(ModelHeader.of(TYPE, train, scaler, kernel.spec(), h), decision, lab.labels(), d,
                Map.of()).withTrainingDecisions(f);
    }

    /** Training rows predicted to measure how far the gradient's decision values are from a predict's. */
    static final int CHECK_ROWS = 32;

    /**
     * Decision values whose magnitude is at most this factor times the largest difference seen on the checked rows
     * are predicted again, so that every sign, and with it every label, is the one a full predict gives.
     */
    static final double SIGN_SAFETY = 1e3;

    /**
     * Largest difference on the checked rows, relative to 1 + max |f|, beyond the single-precision bound below, for
     * which the gradient's values are used at all (rounding in the SMO's gradient updates is far below it).
     */
    static final double CHECK_TOLERANCE = 1e-9;

    /**
     * The decision values at the training points from the solver's final gradient, without a pass over the kernel:
     * ∇ = Qα + p with Q_st = y_s y_t K_st gives Σ_s α_s y_s K(x_s, x_t) = y_t (∇_t − p), so f(x_t) = y_t (∇_t − p) + b
     * (Chang &amp; Lin 2011, Sec. 4.1.3: LIBSVM's ρ is computed from the same gradient). Rows the solve left out
     * (sample weight 0, a NaN gradient) and rows whose |f| is within {@link #SIGN_SAFETY} times the difference
     * measured on {@link #CHECK_ROWS} spread rows, plus the bound of {@link #roundingBound}, are predicted as
     * {@link SvmDecision#decision} does, so the signs are exactly a full predict's; the other values differ from it
     * by the gradient's rounding only. Null when the solve returned no gradient or the check fails: the caller then
     * predicts every row.
     *
     * @param p the constant linear term of the dual (−1 for the C-SVC, 0 for the rescaled ν-SVC)
     */
    static double[] trainingDecisions(Smo.Result r, double[] y, double p, SvmDecision decision, Matrix x) {
        double[] g = r.gradient();
        int n = y.length;
        if (g == null || g.length != n) {
            return null;
        }
        double[] bound = r.singlePrecision() ? roundingBound(decision, x) : new double[n];
        double[] f = new double[n];
        double big = 0;
        for (int t = 0; t < n; t++) {
            f[t] = y[t] * (g[t] - p) + r.bias();
            if (Double.isFinite(f[t])) {
                big = Math.max(big, Math.abs(f[t]));
            } else {
                f[t] = Double.NaN; // predicted below
            }
        }
        int s = Math.min(n, CHECK_ROWS);
        int[] rows = new int[s];
        for (int k = 0; k < s; k++) {
            rows[k] = (int) ((long) k * n / s);
        }
        double[] check = decision.decision(x.selectRows(rows));
        double err = 0;
        for (int k = 0; k < s; k++) {
            double ft = f[rows[k]];
            if (Double.isFinite(ft)) {
                double excess = Math.abs(check[k] - ft) - bound[rows[k]];
                if (!(excess <= CHECK_TOLERANCE * (1 + big))) {
                    return null;
                }
                err = Math.max(err, Math.abs(check[k] - ft));
            }
        }
        for (int k = 0; k < s; k++) {
            f[rows[k]] = check[k];
        }
        double margin = SIGN_SAFETY * err;
        int again = 0;
        for (int t = 0; t < n; t++) {
            if (!(Math.abs(f[t]) > margin + bound[t])) {
                again++;
            }
        }
        if (again > 0) {
            int[] redo = new int[again];
            int q = 0;
            for (int t = 0; t < n; t++) {
                if (!(Math.abs(f[t]) > margin + bound[t])) {
                    redo[q++] = t;
                }
            }
            double[] v = decision.decision(x.selectRows(redo));
            for (int k = 0; k < again; k++) {
                f[redo[k]] = v[k];
            }
        }
        return f;
    }

    /**
     * A bound on |Σ_s c_s (K̃_st − K_st)| at each training point t when the solver kept its kernel rows in single
     * precision: each stored entry is y_s y_t K_st rounded to the nearest float, off by at most 2⁻²⁴ |K_st| (unit
     * roundoff, Higham 2002, Thm. 2.2) or 2⁻¹⁵⁰ where it underflows, and |K_st| ≤ √(K_ss K_tt) for a positive
     * semi-definite kernel (Cauchy–Schwarz), so the bound is 2⁻²⁴ √K_tt Σ_s |c_s| √K_ss + 2⁻¹⁵⁰ Σ_s |c_s|, doubled
     * for the rounding of these sums themselves.
     */
    static double[] roundingBound(SvmDecision decision, Matrix x) {
        double[] c = decision.coef();
        double[] ds = decision.kernel().diag(decision.supportVectors());
        double weighted = 0;
        double total = 0;
        for (int s = 0; s < c.length; s++) {
            weighted += Math.abs(c[s]) * Math.sqrt(Math.max(0, ds[s]));
            total += Math.abs(c[s]);
        }
        double[] dt = decision.kernel().diag(x);
        double[] b = new double[dt.length];
        for (int t = 0; t < b.length; t++) {
            b[t] = 2 * (0x1p-24 * Math.sqrt(Math.max(0, dt[t])) * weighted + 0x1p-150 * total);
        }
        return b;
    }

    /** The binary solve with bounds C·w_{class}·w_i; rows of weight 0 are left out (α = 0). */
    private Smo.Result weightedBinary(Kernel kernel, Matrix x, SvmClassifier.Encoded lab, double[] sw,
                                      Smo.Options so, long cacheBytes) {
        double[] y = lab.y();
        int n = y.length;
        int[] cls = new int[n];
        for (int i = 0; i < n; i++) {
            cls[i] = y[i] > 0 ? 1 : 0;
        }
        double[] cw = options.classWeight() == null ? new double[] {1, 1}
                : options.classWeight().resolve(List.of(lab.labels().negative(), lab.labels().positive()), cls, sw);
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (sw == null || sw[i] > 0) {
                kept++;
            }
        }
        int[] rows = new int[kept];
        double[] yk = new double[kept];
        double[] upper = new double[kept];
        int t = 0;
        for (int i = 0; i < n; i++) {
            if (sw == null || sw[i] > 0) {
                rows[t] = i;
                yk[t] = y[i];
                upper[t] = options.c() * cw[cls[i]] * (sw == null ? 1 : sw[i]);
                t++;
            }
        }
        Smo.Result r = Smo.solve(kernel, x.selectRows(rows), yk, null, upper, so, cacheBytes, null, null);
        double[] alpha = new double[n];
        double[] grad = null;
        if (r.gradient() != null) {
            grad = new double[n];
            java.util.Arrays.fill(grad, Double.NaN); // rows left out: no gradient
        }
        for (int i = 0; i < kept; i++) {
            alpha[rows[i]] = r.alpha()[i];
            if (grad != null) {
                grad[rows[i]] = r.gradient()[i];
            }
        }
        return new Smo.Result(alpha, r.bias(), r.dual(), r.iterations(), r.violation(), r.converged(), r.seconds(),
                r.cachePeakBytes(), r.kernelEntries(), grad, r.singlePrecision());
    }

    /** The class labels of the rows, numbers in canonical form ("2.0" and "2" are one class); empty is refused. */
    static String[] canonicalTokens(Dataset raw) {
        String[] t = SvmClassifier.labelTokens(raw);
        String[] out = new String[t.length];
        for (int i = 0; i < t.length; i++) {
            String s = t[i] == null ? "" : t[i].trim();
            if (s.isEmpty()) {
                throw new IllegalArgumentException(raw.source() + ": empty class label in row " + (i + 1));
            }
            out[i] = BinaryLabels.canonical(s);
        }
        return out;
    }

    private static boolean distinctAtMost2(String[] t) {
        String a = null;
        String b = null;
        for (String s : t) {
            if (a == null || s.equals(a)) {
                a = s;
            } else if (b == null || s.equals(b)) {
                b = s;
            } else {
                return false;
            }
        }
        return true;
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
        String[] tokens = canonicalTokens(raw);
        double[] codes = distinctAtMost2(tokens) ? SvmClassifier.Encoded.of(raw).y() : classCodes(tokens);
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
        bothClassParts(Splits.kFold(raw.n(), folds, seed), codes); // refuses data where no fold can train
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

    /** Codes ±1 for the first class and the others: {@link #bothClassParts} then keeps folds of two classes or more. */
    private static double[] classCodes(String[] tokens) {
        double[] y = new double[tokens.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = tokens[i].equals(tokens[0]) ? 1 : -1;
        }
        return y;
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
