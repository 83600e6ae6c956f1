package org.psdkit.classify.mkl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.SvmDecision;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.kernel.TkGram;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.Smo;
import org.psdkit.select.CrossValidation;
import org.psdkit.select.GridSearch;

/**
 * The four kernel-learning methods of Colbert &amp; Peet's Table I behind one interface, with C (and ε for the
 * tessellated kernel) chosen by k-fold cross-validation.
 *
 * <p><b>C is given relative to the kernel's scale</b>: C = c / κ with κ the mean diagonal of a reference Gram
 * matrix on the training data — for TK the starting kernel P₀ of {@link TkLearner} (tr P₀ = 1), for SimpleMKL the
 * unit-trace combination (κ = 1/m). The TK kernel's magnitude changes by orders of magnitude with ε and n
 * (volumes of boxes in n dimensions), so an absolute C grid would not transfer between data sets.
 */
public final class KernelLearning {

    /**
     * Relative C grid c (C = c/κ) of SimpleMKL with the Gaussian/polynomial and the combined library, a log grid
     * covering the optima seen on the five Table I sets; kept at five values because each CV point is a
     * SimpleMKL run over up to ~500 kernels.
     */
    public static final double[] DEFAULT_C_GRID = {0.01, 0.1, 1, 10, 100};
    /** ε grid for X = [−ε, 1+ε]ⁿ of the combined library (the tessellated half). */
    public static final double[] DEFAULT_EPSILON_GRID = {0.1, 1, 3};
    /**
     * Relative C grid of the columns whose kernels are all tessellated (the direct TK method and SimpleMKL-TK). One
     * decade wider at the small end than {@link #DEFAULT_C_GRID}: with that grid CV chose its smallest value c = 0.01
     * on 16 of breast-cancer's 30 splits for the direct method, i.e. the optimum was at the grid's edge. SimpleMKL-TK
     * uses the same kernel family and the same grid (on heart it moved from 82.78 to 83.52 % over 30 splits).
     */
    public static final double[] TK_C_GRID = {0.001, 0.01, 0.1, 1, 10, 100};
    /**
     * ε grid of the tessellated columns: {@link #DEFAULT_EPSILON_GRID} plus 10, for the same edge reason (ε = 3 won 15
     * of breast-cancer's 30 splits with the direct method).
     */
    public static final double[] TK_EPSILON_GRID = {0.1, 1, 3, 10};
    /** Folds of the cross-validation (the paper's 5). */
    public static final int DEFAULT_FOLDS = 5;
    /**
     * The smallest relative gap the trainers accept. The duality gap ({@link LearningGap}) is a difference of
     * non-negative numbers of the size of the SVM objective f (0 ≤ βᵀKβ ≤ 2f at the SVM optimum), each a sum over m² Gram entries or an extreme eigenvalue of a 2q×2q matrix: its rounding error
     * relative to f is of the order of (m or 2q)·2⁻⁵², about 1e-13 for a thousand rows. Below 1e-12 (about
     * 4500·2⁻⁵²) the stop would be decided by rounding errors, not by the gap.
     */
    public static final double MIN_GAP_TOLERANCE = 1e-12;

    private KernelLearning() {
    }

    /** The methods of Table I. */
    public enum Method {
        TK("TK (direct)"), SIMPLEMKL("SimpleMKL"), SIMPLEMKL_TK("SimpleMKL-TK"), COMBINED("Combined");

        private final String label;

        Method(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public boolean usesEpsilon() {
            return this != SIMPLEMKL;
        }

        /** The relative C grid this method's CV uses unless told otherwise. */
        public double[] defaultCGrid() {
            return (tessellatedOnly() ? TK_C_GRID : DEFAULT_C_GRID).clone();
        }

        /** The ε grid this method's CV uses unless told otherwise. */
        public double[] defaultEpsilonGrid() {
            return (tessellatedOnly() ? TK_EPSILON_GRID : DEFAULT_EPSILON_GRID).clone();
        }

        /** Whether this method's library holds the Gaussian/polynomial kernels (SimpleMKL and combined). */
        public boolean usesGaussLibrary() {
            return this == SIMPLEMKL || this == COMBINED;
        }

        /** Whether every kernel this method can choose is a tessellated kernel (TK and SimpleMKL-TK). */
        public boolean tessellatedOnly() {
            return this == TK || this == SIMPLEMKL_TK;
        }
    }

    /**
     * Which features the Gaussian/polynomial library sees.
     *
     * <ul>
     *   <li>{@link #MINMAX}: the [0, 1]-scaled features the tessellated kernels need;</li>
     *   <li>{@link #ZSCORE}: features standardised on the training part (mean 0, standard deviation 1), as
     *       SimpleMKL's own examples prepare data;</li>
     *   <li>{@link #CV}: the one of the two with the higher k-fold CV accuracy, chosen together with C and ε on the
     *       training part (ties go to MINMAX). A fit needs a concrete preparation, so CV is resolved by
     *       {@link #crossValidate} / {@link #crossValidateAndFit} (see {@link Choice#gaussScaling()}).</li>
     * </ul>
     */
    public enum GaussScaling {
        MINMAX, ZSCORE, CV;

        /** Lower-case name as written on the command line and in reports. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Settings shared by the methods.
     *
     * @param degree      TK monomial degree
     * @param orthant     TK orthant construction
     * @param librarySize number of random TK matrices for SimpleMKL-TK and combined
     * @param seed        seed of the random library
     * @param betaBandwidths read the library's bandwidths 0.5…10 as β in exp(−β‖x−y‖²) (Colbert &amp; Peet's own
     *                    definition of the Gaussian's bandwidth, Sec. II) instead of σ in exp(−‖x−y‖²/(2σ²))
     * @param gaussScaling which features the Gaussian/polynomial library sees (see {@link GaussScaling})
     */
    public record Settings(int degree, Orthant orthant, int librarySize, long seed, boolean betaBandwidths,
                           GaussScaling gaussScaling) {

        public Settings {
            if (gaussScaling == null) {
                throw new IllegalArgumentException("gaussScaling must not be null");
            }
        }

        /** Gaussian bandwidths read as σ in exp(−‖x−y‖²/(2σ²)) (SimpleMKL's convention), library inputs as given. */
        public Settings(int degree, Orthant orthant, int librarySize, long seed) {
            this(degree, orthant, librarySize, seed, false, GaussScaling.MINMAX);
        }

        /** Library inputs as given. */
        public Settings(int degree, Orthant orthant, int librarySize, long seed, boolean betaBandwidths) {
            this(degree, orthant, librarySize, seed, betaBandwidths, GaussScaling.MINMAX);
        }

        /** Whether the library sees standardised features (false for MINMAX and for an unresolved CV). */
        public boolean standardizeGauss() {
            return gaussScaling == GaussScaling.ZSCORE;
        }

        /** These settings with another preparation of the Gaussian/polynomial library. */
        public Settings withGaussScaling(GaussScaling g) {
            return new Settings(degree, orthant, librarySize, seed, betaBandwidths, g);
        }

        /** The Gaussian/polynomial library on x (scaled to [0, 1] on the training part) under these settings. */
        public GaussPolyLibrary gaussPoly(Matrix x) {
            if (gaussScaling == GaussScaling.CV) {
                throw new IllegalStateException("gauss scaling CV is chosen by crossValidate; fit with the chosen "
                        + "scaling (Choice.gaussScaling())");
            }
            return new GaussPolyLibrary(x, gaussSigmas(), GaussPolyLibrary.PAPER_DEGREES,
                    standardizeGauss() ? org.psdkit.kernel.LibraryKernel.Standardization.of(x) : null);
        }

        /** The Gaussian widths σ of the SimpleMKL library. */
        public double[] gaussSigmas() {
            return betaBandwidths ? GaussPolyLibrary.sigmasOfBetas(GaussPolyLibrary.PAPER_BANDWIDTHS)
                    : GaussPolyLibrary.PAPER_BANDWIDTHS.clone();
        }
    }

    /**
     * A trained classifier.
     *
     * @param kernel     the learned kernel
     * @param svm        SVM solution on the training data
     * @param c          absolute C used
     * @param epsilon    ε used (NaN when not applicable)
     * @param iterations outer iterations (Frank–Wolfe or reduced gradient)
     * @param gap         final duality gap, absolute ({@link LearningGap})
     * @param relativeGap the gap relative to the SVM objective, compared with the tolerance
     * @param stop        why the learning stopped ({@link LearningStop#CONVERGED} only when the relative gap reached
     *                    the tolerance)
     * @param summary     learned-kernel summary (rank and trace of P, or non-zero weights)
     * @param seconds     training time
     * @param weights     the library kernels with non-zero weight μ_k, largest first (empty for the direct TK method)
     */
    public record Fitted(Kernel kernel, Smo.Result svm, double c, double epsilon, int iterations, double gap,
                         double relativeGap, LearningStop stop, String summary, double seconds, List<Weight> weights) {

        public Fitted {
            weights = List.copyOf(weights);
        }

        /** A fit without library weights. */
        public Fitted(Kernel kernel, Smo.Result svm, double c, double epsilon, int iterations, double gap,
                      double relativeGap, LearningStop stop, String summary, double seconds) {
            this(kernel, svm, c, epsilon, iterations, gap, relativeGap, stop, summary, seconds, List.of());
        }

        /** Whether the relative gap reached the tolerance. */
        public boolean converged() {
            return stop == LearningStop.CONVERGED;
        }

        /** This fit with another training time. */
        Fitted withSeconds(double secs) {
            return new Fitted(kernel, svm, c, epsilon, iterations, gap, relativeGap, stop, summary, secs, weights);
        }

        /** Decision values on (scaled) points, given the scaled training points the SVM was trained on. */
        public double[] decision(Matrix xTrain, double[] yTrain, Matrix x) {
            return decisionFunction(xTrain, yTrain).decision(x);
        }

        /** The SVM decision function of this fit, given the scaled training points it was trained on. */
        public SvmDecision decisionFunction(Matrix xTrain, double[] yTrain) {
            return SvmDecision.of(kernel, xTrain, yTrain, svm.alpha(), svm.bias());
        }
    }

    /**
     * One library kernel of a SimpleMKL solution.
     *
     * @param kernel the library's description of the kernel
     * @param mu     its weight μ_k (Σ μ = 1; the kernel is normalised to unit trace on the training data)
     */
    public record Weight(String kernel, double mu) {
    }

    /** The non-zero weights of μ with the library's kernel descriptions, largest first (ties by index). */
    static List<Weight> weights(KernelLibrary lib, double[] mu) {
        List<Integer> nz = new ArrayList<>();
        for (int k = 0; k < mu.length; k++) {
            if (mu[k] > 0) {
                nz.add(k);
            }
        }
        nz.sort((a, b) -> mu[a] != mu[b] ? Double.compare(mu[b], mu[a]) : Integer.compare(a, b));
        List<Weight> out = new ArrayList<>();
        for (int k : nz) {
            out.add(new Weight(lib.describe(k), mu[k]));
        }
        return out;
    }

    /**
     * Reference scale κ (mean diagonal) of the TK starting kernel on x; refuses an ε whose kernels overflow on x or
     * lose the data in double precision ({@link TkGram#requireUsable}).
     */
    public static double tkScale(Matrix x, int degree, double epsilon, Orthant orthant) {
        new TkGram(x, degree, -epsilon, 1 + epsilon, orthant).requireUsable("tk-svm");
        int q = TessellatedKernel.monomialCount(x.cols(), degree);
        Matrix p0 = Matrix.zeros(2 * q, 2 * q);
        p0.set(0, 0, 0.5);
        p0.set(0, q, 0.5);
        p0.set(q, 0, 0.5);
        p0.set(q, q, 0.5);
        TessellatedKernel k = new TessellatedKernel(x.cols(), degree, -epsilon, 1 + epsilon, p0, orthant);
        double s = 0;
        for (double v : k.diag(x)) {
            s += v;
        }
        return s / x.rows();
    }

    /**
     * What one learned-kernel fit takes besides the data: the method, C (relative to the mean kernel diagonal for
     * TK, to n for the SimpleMKL methods, when {@code relative}; absolute otherwise), the box margin ε, the
     * settings of the kernels and the solver's relative gap tolerance.
     */
    public record FitOptions(Method method, double c, boolean relative, double epsilon, Settings settings,
                             double gapTolerance) {
        public FitOptions {
            org.psdkit.model.ParameterException.required("method", method);
            org.psdkit.model.ParameterException.required("settings", settings);
        }

        /** Relative C = {@code cRel}. */
        public static FitOptions relative(Method method, double cRel, double epsilon, Settings settings,
                                          double gapTolerance) {
            return new FitOptions(method, cRel, true, epsilon, settings, gapTolerance);
        }
    }

    /**
     * Trains one method on scaled data x (labels ±1), reporting the Frank–Wolfe ({@link TkLearner}) or SimpleMKL
     * iterations to {@code listener} (null: none). {@link TkSvmTrainer} and {@link SimpleMklTrainer} fit raw data.
     */
    public static Fitted fit(Matrix x, double[] y, FitOptions options, ProgressListener listener) {
        return fit(options.method(), x, y, options.c(), options.relative(), options.epsilon(), options.settings(),
                options.gapTolerance(), listener);
    }

    /** Trains one method with relative C = cRel and box margin ε on scaled data x (labels ±1). */
    static Fitted fit(Method method, Matrix x, double[] y, double cRel, double epsilon, Settings s,
                      double gapTolerance) {
        return fit(method, x, y, cRel, true, epsilon, s, gapTolerance);
    }

    /** As {@link #fit(Method, Matrix, double[], double, double, Settings, double)}; C absolute unless relative. */
    static Fitted fit(Method method, Matrix x, double[] y, double cValue, boolean relative, double epsilon,
                      Settings s, double gapTolerance) {
        return fit(method, x, y, cValue, relative, epsilon, s, gapTolerance, null);
    }

    /**
     * As {@link #fit(Method, Matrix, double[], double, boolean, double, Settings, double)}, reporting the
     * Frank–Wolfe ({@link TkLearner}) or SimpleMKL iterations to {@code listener} (null: none).
     */
    static Fitted fit(Method method, Matrix x, double[] y, double cValue, boolean relative, double epsilon,
                      Settings s, double gapTolerance, ProgressListener listener) {
        long t0 = System.nanoTime();
        double cRel = cValue;
        switch (method) {
            case TK -> {
                double c = relative ? cRel / tkScale(x, s.degree(), epsilon, s.orthant()) : cValue;
                TkLearner.Options o = new TkLearner.Options(s.degree(), epsilon, s.orthant(), c, 1.0,
                        gapTolerance, TkLearner.DEFAULT_MAX_ITERATIONS, Smo.DEFAULT_TOLERANCE);
                TkLearner.Result r = TkLearner.fit(x, y, o, listener);
                Matrix p = r.kernel().p();
                int rank = org.psdkit.linalg.Linalg.eigh(p).rankAbove(RANK_REPORT * p.trace());
                String summary = String.format(Locale.ROOT, "P %dx%d, trace %.4g, rank %d", p.rows(), p.cols(),
                        p.trace(), rank);
                return new Fitted(r.kernel(), r.svm(), c, epsilon, r.iterations(), r.gap(), r.relativeGap(),
                        r.stop(), summary, (System.nanoTime() - t0) * 1e-9);
            }
            default -> {
                KernelLibrary lib = libraryGrams(method, x, epsilon, s).full();
                Fitted f = fitLibrary(method, lib, x, y, cValue, relative, epsilon, gapTolerance, listener);
                return f.withSeconds((System.nanoTime() - t0) * 1e-9);
            }
        }
    }

    /** SimpleMKL on a prepared library (time excludes building the library). */
    static Fitted fitLibrary(Method method, KernelLibrary lib, Matrix x, double[] y, double cValue,
                             boolean relative, double epsilon, double gapTolerance) {
        return fitLibrary(method, lib, x, y, cValue, relative, epsilon, gapTolerance, null);
    }

    /** As {@link #fitLibrary(Method, KernelLibrary, Matrix, double[], double, boolean, double, double)}, reporting. */
    static Fitted fitLibrary(Method method, KernelLibrary lib, Matrix x, double[] y, double cValue,
                             boolean relative, double epsilon, double gapTolerance, ProgressListener listener) {
        long t0 = System.nanoTime();
        double c = relative ? cValue * x.rows() : cValue;
        SimpleMkl.Result r = SimpleMkl.fit(lib, y, new SimpleMkl.Options(c, gapTolerance,
                SimpleMkl.DEFAULT_MAX_ITERATIONS, Smo.DEFAULT_TOLERANCE), listener);
        String summary = String.format(Locale.ROOT, "%d of %d kernels with non-zero weight", r.active(), lib.size());
        return new Fitted(r.kernel(), r.svm(), c, method.usesEpsilon() ? epsilon : Double.NaN, r.iterations(),
                r.gap(), r.relativeGap(), r.stop(), summary, (System.nanoTime() - t0) * 1e-9, weights(lib, r.mu()));
    }

    /** Eigenvalues above this fraction of tr P count towards the reported rank of P. */
    static final double RANK_REPORT = 1e-6;

    /** The library of a SimpleMKL method on scaled data x. */
    public static KernelLibrary library(Method method, Matrix x, double epsilon, Settings s) {
        return switch (method) {
            case SIMPLEMKL -> s.gaussPoly(x);
            case SIMPLEMKL_TK -> new TkRandomLibrary(new TkGram(x, s.degree(), -epsilon, 1 + epsilon, s.orthant()),
                    s.librarySize(), s.seed());
            case COMBINED -> new CombinedLibrary(s.gaussPoly(x),
                    new TkRandomLibrary(new TkGram(x, s.degree(), -epsilon,
                    1 + epsilon, s.orthant()), s.librarySize(), s.seed()));
            case TK -> throw new IllegalArgumentException("TK is not a library method");
        };
    }

    /**
     * The library of a SimpleMKL method on scaled data x with every Gram matrix computed (the tessellated ones in
     * one batch), for reuse by the folds of a cross-validation and the final fit.
     */
    public static LibraryGrams libraryGrams(Method method, Matrix x, double epsilon, Settings s) {
        return switch (method) {
            case SIMPLEMKL -> LibraryGrams.of(s.gaussPoly(x));
            case SIMPLEMKL_TK -> LibraryGrams.of(new TkRandomLibrary(new TkGram(x, s.degree(), -epsilon,
                    1 + epsilon, s.orthant()), s.librarySize(), s.seed()));
            case COMBINED -> LibraryGrams.concat(libraryGrams(Method.SIMPLEMKL, x, epsilon, s),
                    libraryGrams(Method.SIMPLEMKL_TK, x, epsilon, s));
            case TK -> throw new IllegalArgumentException("TK is not a library method");
        };
    }

    /**
     * Cross-validation choice and the classifier trained with it on all of x.
     *
     * @param choice the CV choice
     * @param fitted the final fit (its {@code seconds} include building the chosen library)
     */
    public record CvFit(Choice choice, Fitted fitted) {
    }

    /**
     * The cross-validated fit of one method on features already scaled (the protocol of Colbert &amp; Peet 2020,
     * Sec. VIII, Table 1): k-fold CV over the C and ε grids, then the method fitted on all rows with the choice. For
     * the SimpleMKL methods the library of each ε is built once on the rows and the folds use its submatrices
     * ({@link LibraryGrams}); the final fit reuses the chosen ε's library. {@link TkSvmTrainer.Search} and
     * {@link SimpleMklTrainer.Search} fit raw data into a model; this search returns the choice and the fit itself
     * for experiments that compare the methods on the same scaled splits.
     *
     * <pre>{@code
     * KernelLearning.CvFit r = new KernelLearning.ScaledSearch(KernelLearning.Method.SIMPLEMKL_TK,
     *         KernelLearning.DEFAULT_C_GRID, true, KernelLearning.DEFAULT_EPSILON_GRID, 5, 42, settings, 0.01)
     *         .fit(x, y);
     * }</pre>
     *
     * @param method       the method
     * @param cGrid        C values (relative when {@code relative})
     * @param relative     whether C is relative to the kernel's scale (see {@link #tkScale})
     * @param epsilonGrid  ε values (methods that use ε)
     * @param folds        the number of folds (checked against the rows when fitting)
     * @param seed         seed of the folds
     * @param settings     degree, orthant, library size and seed, Gaussian bandwidths and scaling
     * @param gapTolerance the stopping gap of the kernel learning
     */
    public record ScaledSearch(Method method, double[] cGrid, boolean relative, double[] epsilonGrid, int folds,
                               long seed, Settings settings, double gapTolerance) {
        public ScaledSearch {
            org.psdkit.model.ParameterException.required("method", method);
            cGrid = org.psdkit.model.ParameterException.required("cGrid", cGrid).clone();
            epsilonGrid = org.psdkit.model.ParameterException.required("epsilonGrid", epsilonGrid).clone();
            org.psdkit.model.ParameterException.required("settings", settings);
        }

        /** Cross-validates and fits on scaled rows {@code x} with labels ±1 {@code y}. */
        public CvFit fit(Matrix x, double[] y) {
            return crossValidateAndFit(method, x, y, cGrid, relative, epsilonGrid, folds, seed, settings,
                    gapTolerance);
        }
    }

    /**
     * k-fold CV over the grid, then the fit with the chosen parameters on all of x. For the SimpleMKL methods the
     * library of each ε is built once on x; folds use its submatrices (see {@link LibraryGrams}) and the final fit
     * reuses the chosen ε's library. Callers outside this package use {@link ScaledSearch}.
     */
    static CvFit crossValidateAndFit(Method method, Matrix x, double[] y, double[] cGrid, boolean relative,
                                            double[] epsGrid, int folds, long seed, Settings s,
                                            double gapTolerance) {
        if (method == Method.TK) {
            Choice ch = crossValidate(method, x, y, cGrid, relative, epsGrid, folds, seed, s, gapTolerance);
            Fitted f = fit(method, x, y, ch.cRel(), relative, Double.isNaN(ch.epsilon()) ? 0 : ch.epsilon(), s,
                    gapTolerance);
            return new CvFit(ch, f);
        }
        LibraryCv cv = crossValidateLibrary(method, x, y, cGrid, relative, epsGrid, folds, seed, s, gapTolerance);
        long t0 = System.nanoTime();
        double eps = Double.isNaN(cv.choice().epsilon()) ? 0 : cv.choice().epsilon();
        Fitted f = fitLibrary(method, cv.best().full(), x, y, cv.choice().cRel(), relative, eps, gapTolerance);
        // (the best library was built with the chosen Gaussian scaling, so f's kernel carries it)
        double secs = cv.bestSeconds() + (System.nanoTime() - t0) * 1e-9;
        return new CvFit(cv.choice(), f.withSeconds(secs));
    }

    private record LibraryCv(Choice choice, LibraryGrams best, double bestSeconds) {
    }

    private static LibraryCv crossValidateLibrary(Method method, Matrix x, double[] y, double[] cGrid,
                                                  boolean relative, double[] epsGrid, int folds, long seed,
                                                  Settings s, double gapTolerance) {
        checkFolds(folds, x.rows());
        double[] eps = method.usesEpsilon() ? epsGrid : new double[] {Double.NaN};
        GaussScaling[] scalings = !method.usesGaussLibrary() ? new GaussScaling[] {null}
                : s.gaussScaling() == GaussScaling.CV ? new GaussScaling[] {GaussScaling.MINMAX, GaussScaling.ZSCORE}
                : new GaussScaling[] {s.gaussScaling()};
        boolean tagged = scalings.length > 1;
        Tally[] tallies = new Tally[scalings.length];
        LibraryGrams[] bestLib = new LibraryGrams[scalings.length];
        double[] bestSecs = new double[scalings.length];
        for (int g = 0; g < scalings.length; g++) {
            tallies[g] = new Tally(cGrid[0], eps[0]);
        }
        List<String> skipped = new ArrayList<>();
        TkGram.TooLarge firstFailure = null;
        for (double e : eps) {
            double epsUse = Double.isNaN(e) ? 0 : e;
            // the tessellated half of the combined library does not depend on the Gaussian scaling: built once per ε
            long tkStart = System.nanoTime();
            LibraryGrams tkPart;
            try {
                tkPart = method == Method.COMBINED ? libraryGrams(Method.SIMPLEMKL_TK, x, epsUse, s)
                        : method == Method.SIMPLEMKL_TK ? libraryGrams(method, x, epsUse, s) : null;
            } catch (TkGram.TooLarge ex) {
                // an ε whose tessellated kernels overflow (or exceed the library's single precision) is left out
                firstFailure = firstFailure == null ? ex : firstFailure;
                skipped.add(skipNote(e, ex));
                continue;
            }
            double tkSecs = (System.nanoTime() - tkStart) * 1e-9;
            for (int g = 0; g < scalings.length; g++) {
                long t0 = System.nanoTime();
                Settings sg = scalings[g] == null ? s : s.withGaussScaling(scalings[g]);
                LibraryGrams lg = method == Method.SIMPLEMKL_TK ? tkPart : tkPart == null
                        ? libraryGrams(method, x, epsUse, sg)
                        : LibraryGrams.concat(libraryGrams(Method.SIMPLEMKL, x, epsUse, sg), tkPart);
                double buildSecs = tkSecs + (System.nanoTime() - t0) * 1e-9;
                int[] correct = cvLibrary(lg, x.rows(), y, cGrid, relative, folds, seed, gapTolerance);
                int total = correct[cGrid.length];
                if (tallies[g].add(cGrid, e, correct, total) || bestLib[g] == null) {
                    bestLib[g] = lg;
                    bestSecs[g] = buildSecs;
                }
            }
        }
        if (skipped.size() == eps.length) {
            throw everyEpsilonFails(firstFailure, eps.length);
        }
        int win = 0;
        for (int g = 1; g < scalings.length; g++) {
            if (tallies[g].choice().accuracy() > tallies[win].choice().accuracy()) {
                win = g;
            }
        }
        Choice c = tallies[win].choice();
        List<double[]> grid = c.grid();
        if (tagged) {
            grid = new ArrayList<>();
            for (int g = 0; g < scalings.length; g++) {
                for (double[] row : tallies[g].choice().grid()) {
                    grid.add(new double[] {row[0], row[1], row[2], scalings[g].ordinal()});
                }
            }
        }
        return new LibraryCv(new Choice(c.cRel(), c.epsilon(), c.accuracy(), grid, scalings[win], skipped),
                bestLib[win], bestSecs[win]);
    }

    /**
     * Validation hits of SimpleMKL on one library for every C of the grid, summed over the folds; the last entry
     * is the number of validation points counted.
     */
    private static int[] cvLibrary(LibraryGrams lg, int rows, double[] y, double[] cGrid, boolean relative,
                                   int folds, long seed, double gapTolerance) {
        int[] correct = new int[cGrid.length + 1];
        Splits.TrainTest[] parts = Splits.kFold(rows, folds, seed);
        for (int f = 0; f < folds; f++) {
            int[][] tv = {parts[f].train(), parts[f].test()};
            double[] yt = select(y, tv[0]);
            double[] yv = select(y, tv[1]);
            if (!bothClasses(yt)) {
                continue;
            }
            LibraryGrams.Subset lib = lg.subset(tv[0]);
            SimpleMkl.Result prev = null;
            double[] prevGram = null;
            double prevC = 0;
            for (int ci = 0; ci < cGrid.length; ci++) {
                double c = relative ? cGrid[ci] * tv[0].length : cGrid[ci];
                // warm start from the previous C on the grid: its weights, and its α scaled by the ratio
                // of the C values (an interior α stays interior)
                double[] alpha0 = null;
                if (prev != null) {
                    alpha0 = prev.svm().alpha().clone();
                    for (int i = 0; i < alpha0.length; i++) {
                        alpha0[i] *= c / prevC;
                    }
                }
                double[][] gramOut = new double[1][];
                SimpleMkl.Result r = SimpleMkl.fit(lib, yt, new SimpleMkl.Options(c, gapTolerance,
                        SimpleMkl.DEFAULT_MAX_ITERATIONS, Smo.DEFAULT_TOLERANCE), prev == null ? null
                        : prev.mu(), alpha0, prevGram, gramOut);
                prevGram = gramOut[0];
                prev = r;
                prevC = c;
                double[] coef = new double[yt.length];
                for (int i = 0; i < coef.length; i++) {
                    coef[i] = r.svm().alpha()[i] * yt[i];
                }
                correct[ci] += correct(lib.decision(r.mu(), coef, r.svm().bias(), tv[1]), yv);
            }
            correct[cGrid.length] += yv.length;
        }
        return correct;
    }

    /**
     * Cross-validation choice.
     *
     * @param cRel     chosen relative C
     * @param epsilon  chosen ε (NaN when unused)
     * @param accuracy mean validation accuracy of the choice
     * @param grid     rows {cRel, ε, mean accuracy}, plus the {@link GaussScaling} ordinal as a fourth entry when
     *                 the Gaussian scaling was cross-validated too
     * @param gaussScaling the Gaussian/polynomial library's preparation that was used (chosen, when the settings
     *                 asked for {@link GaussScaling#CV}); null for the tessellated-only methods
     * @param skipped  the ε of the grid left out, each with the reason (their tessellated kernels overflow on
     *                 these data, or lose them in double precision); empty when every grid point was evaluated
     */
    public record Choice(double cRel, double epsilon, double accuracy, List<double[]> grid,
                         GaussScaling gaussScaling, List<String> skipped) {

        public Choice {
            skipped = skipped == null ? List.of() : List.copyOf(skipped);
        }

        /** A choice with every grid point evaluated. */
        public Choice(double cRel, double epsilon, double accuracy, List<double[]> grid, GaussScaling gaussScaling) {
            this(cRel, epsilon, accuracy, grid, gaussScaling, List.of());
        }

        /** A choice without a Gaussian library, every grid point evaluated. */
        public Choice(double cRel, double epsilon, double accuracy, List<double[]> grid) {
            this(cRel, epsilon, accuracy, grid, null);
        }

        /** The settings with the Gaussian scaling this choice used. */
        public Settings resolve(Settings s) {
            return gaussScaling == null ? s : s.withGaussScaling(gaussScaling);
        }
    }

    /** k-fold CV over the grid (ties go to the earlier grid point: smaller C, then smaller ε). */
    public static Choice crossValidate(Method method, Matrix x, double[] y, double[] cGrid, double[] epsGrid,
                                       int folds, long seed, Settings s, double gapTolerance) {
        return crossValidate(method, x, y, cGrid, true, epsGrid, folds, seed, s, gapTolerance);
    }

    /** k-fold CV; C values relative (C = c/κ) or absolute. */
    public static Choice crossValidate(Method method, Matrix x, double[] y, double[] cGrid, boolean relative,
                                       double[] epsGrid, int folds, long seed, Settings s, double gapTolerance) {
        return crossValidate(method, x, y, cGrid, relative, epsGrid, folds, seed, s, gapTolerance,
                ProgressListener.NONE);
    }

    /**
     * k-fold CV (folds {@link Splits#kFold}; a fold whose training part lacks a class is skipped); the direct TK
     * method's folds run through {@link CrossValidation#evaluate}, reporting one {@code "cv"} event per fit (step
     * the fits done, total the fits of the whole grid) and, in between, the {@value TkLearner#TASK} events of the
     * running fit.
     */
    public static Choice crossValidate(Method method, Matrix x, double[] y, double[] cGrid, boolean relative,
                                       double[] epsGrid, int folds, long seed, Settings s, double gapTolerance,
                                       ProgressListener listener) {
        if (method != Method.TK) {
            return crossValidateLibrary(method, x, y, cGrid, relative, epsGrid, folds, seed, s, gapTolerance)
                    .choice();
        }
        checkFolds(folds, x.rows());
        double[] eps = method.usesEpsilon() ? epsGrid : new double[] {Double.NaN};
        Tally tally = new Tally(cGrid[0], eps[0]);
        Dataset data = Dataset.of(x, y);
        Splits.TrainTest[] parts = SvmTrainer.bothClassParts(Splits.kFold(x.rows(), folds, seed), y);
        int total = 0;
        for (Splits.TrainTest p : parts) {
            total += p.test().length;
        }
        // on all rows, before any fold: an ε whose kernels overflow or lose the data is left out, and when every ε
        // is, the message of the first names the reason
        List<String> skipped = new ArrayList<>();
        TkGram.TooLarge firstFailure = null;
        List<Double> usable = new ArrayList<>();
        for (double e : eps) {
            TkGram.TooLarge ex = Double.isNaN(e) ? null : refusal(x, e, s.degree(), s.orthant());
            if (ex == null) {
                usable.add(e);
            } else {
                firstFailure = firstFailure == null ? ex : firstFailure;
                skipped.add(skipNote(e, ex));
            }
        }
        if (usable.isEmpty()) {
            throw everyEpsilonFails(firstFailure, eps.length);
        }
        ProgressListener lis = ProgressListener.orNone(listener);
        long fitsPerEpsilon = (long) cGrid.length * parts.length;
        long fits = fitsPerEpsilon * usable.size();
        long start = System.nanoTime();
        for (int ei = 0; ei < usable.size(); ei++) {
            double e = usable.get(ei);
            double epsUse = Double.isNaN(e) ? 0 : e;
            List<Double> cs = new ArrayList<>();
            for (double c : cGrid) {
                cs.add(c);
            }
            // the fits of every ε counted together; the running fit's Frank–Wolfe events passed on in between
            long before = ei * fitsPerEpsilon;
            ProgressListener counted = ev -> lis.onProgress(ProgressListener.Event.of(ev.task(), before + ev.step(),
                    fits, (System.nanoTime() - start) * 1e-9));
            List<CrossValidation.Result<Double>> table = CrossValidation.evaluate(data, parts, cs,
                    c -> scaledTrainer(method, c, relative, epsUse, s, gapTolerance, lis), SvmTrainer::hits,
                    lis == ProgressListener.NONE ? lis : counted);
            int[] correct = new int[cGrid.length];
            for (int ci = 0; ci < cGrid.length; ci++) {
                correct[ci] = (int) Math.round(SvmTrainer.pooledAccuracy(table.get(ci)) * total);
            }
            tally.add(cGrid, e, correct, total);
        }
        Choice c = tally.choice();
        return new Choice(c.cRel(), c.epsilon(), c.accuracy(), c.grid(), null, skipped);
    }

    /** The key under which {@link #scaledTrainer}'s classifiers keep their {@link Fitted} in the fit report. */
    static final String FITTED = "fitted";

    /**
     * A grid point of the direct TK method's cross-validation.
     *
     * @param c       C, relative (C = c/κ) or absolute as the search says
     * @param epsilon the box margin ε
     */
    public record Point(double c, double epsilon) {
    }

    /**
     * The direct TK method's k-fold cross-validation over the (C, ε) points as a {@link GridSearch} on scaled data x,
     * and its refit of the best point on all of x: the folds, the points (ε outer, C inner; an ε whose tessellated
     * kernels double precision cannot hold left out beforehand), the choice (most correct validation labels, the
     * first on ties, a fold whose training part holds one class left out) and the progress events of
     * {@link #crossValidate}, followed by the final fit's, with one fit on all of x.
     */
    static CvFit tkGridSearch(Matrix x, double[] y, double[] cGrid, boolean relative, double[] epsGrid, int folds,
                              long seed, Settings s, double gapTolerance, ProgressListener listener) {
        checkFolds(folds, x.rows());
        Splits.TrainTest[] parts = SvmTrainer.bothClassParts(Splits.kFold(x.rows(), folds, seed), y);
        int total = 0;
        for (Splits.TrainTest p : parts) {
            total += p.test().length;
        }
        List<String> skipped = new ArrayList<>();
        TkGram.TooLarge firstFailure = null;
        List<Point> points = new ArrayList<>();
        for (double e : epsGrid) {
            TkGram.TooLarge ex = refusal(x, e, s.degree(), s.orthant());
            if (ex == null) {
                for (double c : cGrid) {
                    points.add(new Point(c, e));
                }
            } else {
                firstFailure = firstFailure == null ? ex : firstFailure;
                skipped.add(skipNote(e, ex));
            }
        }
        if (points.isEmpty()) {
            throw everyEpsilonFails(firstFailure, epsGrid.length);
        }
        ProgressListener lis = ProgressListener.orNone(listener);
        GridSearch.Search<Point, Model> search = GridSearch.over(points, p -> SvmTrainer.twoClassFolds(
                scaledTrainer(Method.TK, p.c(), relative, p.epsilon(), s, gapTolerance, lis)),
                SvmTrainer.HITS, folds, seed).search(Dataset.of(x, y), lis);
        List<double[]> grid = new ArrayList<>();
        double accuracy = 0;
        for (CrossValidation.Result<Point> r : search.table()) {
            int correct = (int) Math.round(SvmTrainer.pooledAccuracy(r) * total);
            double acc = total == 0 ? 0 : (double) correct / total;
            grid.add(new double[] {r.params().c(), r.params().epsilon(), acc});
            if (r.params() == search.best()) {
                accuracy = acc;
            }
        }
        Point best = search.best();
        Fitted f = (Fitted) ((SvmClassifier) search.model()).fitReport().get(FITTED);
        return new CvFit(new Choice(best.c(), best.epsilon(), accuracy, grid, null, skipped), f);
    }

    /**
     * The ε of {@code grid} that the direct TK method's cross-validation evaluates on x (scaled to [0, 1]): those whose
     * tessellated kernels double precision holds ({@link TkGram#requireUsable}), in grid order.
     */
    public static double[] usableEpsilons(Matrix x, double[] grid, int degree, Orthant orthant) {
        return java.util.Arrays.stream(grid).filter(e -> refusal(x, e, degree, orthant) == null).toArray();
    }

    /** Why the direct TK method refuses ε on x ({@link TkGram#requireUsable}), or null when it is usable. */
    private static TkGram.TooLarge refusal(Matrix x, double e, int degree, Orthant orthant) {
        try {
            new TkGram(x, degree, -e, 1 + e, orthant).requireUsable("tk-svm");
            return null;
        } catch (TkGram.TooLarge ex) {
            return ex;
        }
    }

    /** "epsilon = 10: " and the reason, for {@link Choice#skipped}. */
    private static String skipNote(double e, TkGram.TooLarge ex) {
        return "epsilon = " + e + ": " + ex.getMessage();
    }

    /** The first ε's refusal, when every ε of a grid longer than one is refused. */
    private static IllegalArgumentException everyEpsilonFails(TkGram.TooLarge first, int gridSize) {
        return gridSize == 1 ? first : new IllegalArgumentException(first.getMessage() + " (all " + gridSize
                + " epsilons of the grid are refused; this is the first)", first);
    }

    /**
     * A trainer of one method on data already scaled to [0, 1] (no scaling of its own), labels ±1: what the
     * cross-validation of the direct TK method fits on every fold. Its iterations are reported to {@code inner}
     * (cross-validation fits without a listener of their own).
     */
    static Trainer<SvmClassifier> scaledTrainer(Method method, double cValue, boolean relative, double epsilon,
                                                Settings s, double gapTolerance, ProgressListener inner) {
        return (train, l) -> {
            SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(train);
            Fitted f = fit(method, train.x(), lab.y(), cValue, relative, epsilon, s, gapTolerance,
                    l == null || l == ProgressListener.NONE ? inner : l);
            return new SvmClassifier(ModelHeader.of("tk-svm", train, Scaler.identity(train.d()), null, java.util.Map.of()),
                    f.decisionFunction(train.x(), lab.y()), lab.labels(), java.util.Map.of(),
                    java.util.Map.of(FITTED, f));
        };
    }

    static double[] select(double[] v, int[] idx) {
        double[] o = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            o[i] = v[idx[i]];
        }
        return o;
    }

    private static void checkFolds(int folds, int rows) {
        Splits.checkFolds(rows, folds);
    }

    /** Number of decision values whose sign matches the ±1 label. */
    private static int correct(double[] dv, double[] y) {
        return SvmDecision.correct(dv, y);
    }

    /** The CV table and its best point; ties go to the earlier grid point. */
    private static final class Tally {
        private final List<double[]> table = new ArrayList<>();
        private double best = -1;
        private double bestC;
        private double bestE;

        Tally(double firstC, double firstE) {
            bestC = firstC;
            bestE = firstE;
        }

        /** Adds one ε's row of the grid; true when it holds a new best point. */
        boolean add(double[] cGrid, double e, int[] correct, int total) {
            boolean improved = false;
            for (int ci = 0; ci < cGrid.length; ci++) {
                double acc = total == 0 ? 0 : (double) correct[ci] / total;
                table.add(new double[] {cGrid[ci], e, acc});
                if (acc > best) {
                    best = acc;
                    bestC = cGrid[ci];
                    bestE = e;
                    improved = true;
                }
            }
            return improved;
        }

        Choice choice() {
            return new Choice(bestC, bestE, best, table);
        }
    }

    static boolean bothClasses(double[] y) {
        boolean p = false;
        boolean n = false;
        for (double v : y) {
            p |= v > 0;
            n |= v < 0;
        }
        return p && n;
    }
}
