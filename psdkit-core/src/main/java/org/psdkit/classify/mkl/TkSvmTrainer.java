package org.psdkit.classify.mkl;

import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits an SVM with a learned tessellated kernel (model type {@code tk-svm}): the direct Frank–Wolfe method over
 * {P ⪰ 0, tr P = 1} alternating with warm-started SMO (Colbert &amp; Peet 2020, Sec. VII, eq. 11), features scaled to
 * [0, 1] on the training data. C and ε chosen by 5-fold cross-validation are a {@link Search}: a
 * {@link org.psdkit.select.GridSearch} over (C, ε) points.
 *
 * <pre>{@code
 * SvmClassifier m = new TkSvmTrainer(TkSvmTrainer.Options.of(20.0, 0.1, 1)).fit(train);
 * SvmClassifier cv = TkSvmTrainer.Search.of(TkSvmTrainer.Options.of(1, 0.1, 1), TkSvmTrainer.Options.C_GRID,
 *         TkSvmTrainer.Options.EPSILON_GRID).fit(train);
 * }</pre>
 *
 * @param options C, ε, degree, orthant, gap and seed (validated by their record)
 */
public record TkSvmTrainer(Options options) implements Trainer<SvmClassifier> {

    /** The model type written in model files. */
    public static final String TYPE = "tk-svm";

    /**
     * Everything a tk-svm fit takes; the constructor checks every field.
     *
     * @param c       absolute penalty C &gt; 0 (finite)
     * @param epsilon box margin ε ≥ 0 (X = [−ε, 1+ε]ⁿ, finite)
     * @param degree  monomial degree 0, 1 or 2
     * @param orthant the second indicator of the kernel ({@code null}: {@link #DEFAULT_ORTHANT})
     * @param gap     relative duality gap at which learning stops, at least {@link KernelLearning#MIN_GAP_TOLERANCE}
     * @param seed    seed of the cross-validation folds of a {@link Search}
     */
    public record Options(double c, double epsilon, int degree, TessellatedKernel.Orthant orthant, double gap,
                          long seed) {
        /** The lower orthant by default. */
        public static final TessellatedKernel.Orthant DEFAULT_ORTHANT = TessellatedKernel.Orthant.LOWER;
        /** Learning stops at a relative gap of 1 % by default (the command line's {@code --gap}). */
        public static final double DEFAULT_GAP = 0.01;
        /** The folds' seed by default (the command line's {@code --seed}). */
        public static final long DEFAULT_SEED = 42;
        /** The relative C grid (C = c/κ) of the cross-validation by default. */
        public static final double[] C_GRID = KernelLearning.Method.TK.defaultCGrid();
        /** The ε grid of the cross-validation by default. */
        public static final double[] EPSILON_GRID = KernelLearning.Method.TK.defaultEpsilonGrid();

        public Options {
            if (orthant == null) {
                orthant = DEFAULT_ORTHANT;
            }
            LearnedSvm.check(c, epsilon, degree, gap);
        }

        /** C, ε and degree; lower orthant, gap {@value #DEFAULT_GAP}, seed {@value #DEFAULT_SEED}. */
        public static Options of(double c, double epsilon, int degree) {
            return new Options(c, epsilon, degree, DEFAULT_ORTHANT, DEFAULT_GAP, DEFAULT_SEED);
        }

        public Options withC(double value) {
            return new Options(value, epsilon, degree, orthant, gap, seed);
        }

        public Options withEpsilon(double e) {
            return new Options(c, e, degree, orthant, gap, seed);
        }

        public Options withDegree(int d) {
            return new Options(c, epsilon, d, orthant, gap, seed);
        }

        public Options withOrthant(TessellatedKernel.Orthant o) {
            return new Options(c, epsilon, degree, o, gap, seed);
        }

        public Options withGap(double g) {
            return new Options(c, epsilon, degree, orthant, g, seed);
        }

        public Options withSeed(long s) {
            return new Options(c, epsilon, degree, orthant, gap, s);
        }

        KernelLearning.Settings settings() {
            return new KernelLearning.Settings(degree, orthant, TkRandomLibrary.PAPER_SIZE, seed, false,
                    KernelLearning.GaussScaling.MINMAX);
        }
    }

    public TkSvmTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public SvmClassifier fit(Dataset train, ProgressListener listener) {
        return LearnedSvm.fit(TYPE, KernelLearning.Method.TK, options.settings(), options.c(), Options.C_GRID,
                options.epsilon(), Options.EPSILON_GRID, options.gap(), train, ProgressListener.orNone(listener));
    }

    /**
     * C and/or ε chosen by {@value KernelLearning#DEFAULT_FOLDS}-fold cross-validation ({@code options.seed()} seeds
     * the folds), then the learned kernel fitted on all rows: a {@link org.psdkit.select.GridSearch} over the (C, ε)
     * points on the features scaled to [0, 1] once ({@link KernelLearning#tkGridSearch}). A searched C is relative
     * (C = c/κ, κ the mean diagonal of the initial kernel); a C that is not searched is {@code options.c()},
     * absolute. The model's report holds the grid and the choice ({@code cv}, {@code cvChoice}).
     *
     * @param options     the fixed options (and C or ε where they are not searched)
     * @param cGrid       relative C values to search, or null to keep {@code options.c()}
     * @param epsilonGrid ε values to search, or null to keep {@code options.epsilon()}
     */
    public record Search(Options options, double[] cGrid, double[] epsilonGrid) implements Trainer<SvmClassifier> {
        public Search {
            ParameterException.required("options", options);
            cGrid = LearnedSvm.grid(cGrid, "cGrid");
            epsilonGrid = LearnedSvm.grid(epsilonGrid, "epsilonGrid");
            if (cGrid == null && epsilonGrid == null) {
                throw new ParameterException("cGrid", "or epsilonGrid must be given: a search needs a grid");
            }
        }

        /** A search over both C (relative) and ε. */
        public static Search of(Options options, double[] cGrid, double[] epsilonGrid) {
            ParameterException.required("cGrid", cGrid);
            ParameterException.required("epsilonGrid", epsilonGrid);
            return new Search(options, cGrid, epsilonGrid);
        }

        @Override
        public SvmClassifier fit(Dataset train, ProgressListener listener) {
            return LearnedSvm.fit(TYPE, KernelLearning.Method.TK, options.settings(),
                    cGrid == null ? options.c() : null, cGrid == null ? Options.C_GRID : cGrid,
                    epsilonGrid == null ? options.epsilon() : null,
                    epsilonGrid == null ? Options.EPSILON_GRID : epsilonGrid, options.gap(), train,
                    ProgressListener.orNone(listener));
        }
    }
}
