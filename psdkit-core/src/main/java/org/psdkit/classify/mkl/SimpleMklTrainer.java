package org.psdkit.classify.mkl;

import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits an SVM whose kernel is a SimpleMKL combination (Rakotomamonjy, Bach, Canu &amp; Grandvalet 2008) of a library
 * (model type {@code simplemkl}): the Gaussian/polynomial library ({@link KernelLearning.Method#SIMPLEMKL}), random
 * tessellated kernels ({@link KernelLearning.Method#SIMPLEMKL_TK}) or both ({@link KernelLearning.Method#COMBINED}),
 * as in Colbert &amp; Peet 2020, Table I. Features are scaled to [0, 1] on the training data.
 *
 * <pre>{@code
 * SvmClassifier m = new SimpleMklTrainer(SimpleMklTrainer.Options.builder(KernelLearning.Method.SIMPLEMKL_TK)
 *         .c(100).epsilon(1).librarySize(50).build()).fit(train);
 * }</pre>
 *
 * C and ε chosen by cross-validation are a {@link Search}.
 *
 * @param options the library, its size and Gaussian settings, C, ε, degree, orthant, gap and seed
 */
public record SimpleMklTrainer(Options options) implements Trainer<SvmClassifier> {

    /** The model type written in model files. */
    public static final String TYPE = "simplemkl";

    /**
     * Everything a simplemkl fit takes; the constructor checks every field. Built by {@link #builder} or
     * {@link #gaussPoly}.
     *
     * @param library        SIMPLEMKL, SIMPLEMKL_TK or COMBINED
     * @param librarySize    number of random tessellated kernels, ≥ 1
     * @param betaBandwidths read the Gaussian bandwidths as β in exp(−β‖x−y‖²) instead of σ
     * @param gaussScaling   features the Gaussian/polynomial library sees ({@code CV}: chosen by cross-validation;
     *                       {@code null}: the library's default, see {@link #defaultGaussScaling})
     * @param c              absolute penalty C &gt; 0 (finite)
     * @param epsilon        box margin ε ≥ 0 of the tessellated kernels (finite; unused by the Gaussian library)
     * @param degree         tessellated monomial degree 0, 1 or 2
     * @param orthant        the tessellated kernels' second indicator ({@code null}: lower)
     * @param gap            relative duality gap at which SimpleMKL stops
     * @param seed           seed of the cross-validation folds and of the random library
     */
    public record Options(KernelLearning.Method library, int librarySize, boolean betaBandwidths,
                          KernelLearning.GaussScaling gaussScaling, double c, double epsilon, int degree,
                          TessellatedKernel.Orthant orthant, double gap, long seed) {
        /** The random tessellated library's size of the paper ({@link TkRandomLibrary#PAPER_SIZE}). */
        public static final int DEFAULT_LIBRARY_SIZE = TkRandomLibrary.PAPER_SIZE;
        /** Degree 1 by default. */
        public static final int DEFAULT_DEGREE = 1;
        /** Learning stops at a relative gap of 1 % by default. */
        public static final double DEFAULT_GAP = 0.01;
        /** The seed by default. */
        public static final long DEFAULT_SEED = 42;

        public Options {
            if (library == null || library == KernelLearning.Method.TK) {
                throw new ParameterException("library", "must be SIMPLEMKL, SIMPLEMKL_TK or COMBINED, got " + library);
            }
            ParameterException.atLeast("librarySize", librarySize, 1);
            if (gaussScaling == null) {
                gaussScaling = defaultGaussScaling(library);
            }
            if (orthant == null) {
                orthant = TessellatedKernel.Orthant.LOWER;
            }
            LearnedSvm.check(c, epsilon, degree, gap);
        }

        /** CV for the combined library, z-scores for the Gaussian one, [0, 1] for the tessellated one. */
        public static KernelLearning.GaussScaling defaultGaussScaling(KernelLearning.Method library) {
            return library == KernelLearning.Method.COMBINED ? KernelLearning.GaussScaling.CV
                    : library == KernelLearning.Method.SIMPLEMKL ? KernelLearning.GaussScaling.ZSCORE
                    : KernelLearning.GaussScaling.MINMAX;
        }

        /** The Gaussian/polynomial library with standardised features and a given C. */
        public static Options gaussPoly(double c) {
            return builder(KernelLearning.Method.SIMPLEMKL).c(c).build();
        }

        /** A builder of {@code library}'s options with the defaults (C = 1, ε = 0). */
        public static Builder builder(KernelLearning.Method library) {
            return new Builder(library);
        }

        /** A builder holding these options. */
        public Builder toBuilder() {
            Builder b = new Builder(library);
            b.librarySize = librarySize;
            b.betaBandwidths = betaBandwidths;
            b.gaussScaling = gaussScaling;
            b.c = c;
            b.epsilon = epsilon;
            b.degree = degree;
            b.orthant = orthant;
            b.gap = gap;
            b.seed = seed;
            return b;
        }

        public Options withC(double value) {
            return toBuilder().c(value).build();
        }

        public Options withEpsilon(double e) {
            return toBuilder().epsilon(e).build();
        }

        KernelLearning.Settings settings() {
            return new KernelLearning.Settings(degree, orthant, librarySize, seed, betaBandwidths, gaussScaling);
        }
    }

    /** Builds {@link Options}; {@link #build} validates. */
    public static final class Builder {
        private final KernelLearning.Method library;
        private int librarySize = Options.DEFAULT_LIBRARY_SIZE;
        private boolean betaBandwidths;
        private KernelLearning.GaussScaling gaussScaling;
        private double c = 1;
        private double epsilon;
        private int degree = Options.DEFAULT_DEGREE;
        private TessellatedKernel.Orthant orthant = TessellatedKernel.Orthant.LOWER;
        private double gap = Options.DEFAULT_GAP;
        private long seed = Options.DEFAULT_SEED;

        private Builder(KernelLearning.Method library) {
            this.library = library;
        }

        public Builder librarySize(int v) {
            librarySize = v;
            return this;
        }

        public Builder betaBandwidths(boolean v) {
            betaBandwidths = v;
            return this;
        }

        public Builder gaussScaling(KernelLearning.GaussScaling v) {
            gaussScaling = v;
            return this;
        }

        public Builder c(double v) {
            c = v;
            return this;
        }

        public Builder epsilon(double v) {
            epsilon = v;
            return this;
        }

        public Builder degree(int v) {
            degree = v;
            return this;
        }

        public Builder orthant(TessellatedKernel.Orthant v) {
            orthant = v;
            return this;
        }

        public Builder gap(double v) {
            gap = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Options build() {
            return new Options(library, librarySize, betaBandwidths, gaussScaling, c, epsilon, degree, orthant, gap,
                    seed);
        }
    }

    public SimpleMklTrainer {
        ParameterException.required("options", options);
    }

    /** The Gaussian/polynomial library with standardised features and a given C. */
    public static SimpleMklTrainer gaussPoly(double c) {
        return new SimpleMklTrainer(Options.gaussPoly(c));
    }

    /** Fits with the given C and ε; with {@code gaussScaling} CV, the scaling is chosen by cross-validation. */
    @Override
    public SvmClassifier fit(Dataset train, ProgressListener listener) {
        return LearnedSvm.fit(TYPE, options.library(), options.settings(), options.c(),
                options.library().defaultCGrid(), options.epsilon(), options.library().defaultEpsilonGrid(),
                options.gap(), train, ProgressListener.orNone(listener));
    }

    /**
     * C and/or ε chosen by {@value KernelLearning#DEFAULT_FOLDS}-fold cross-validation ({@code options.seed()} seeds
     * the folds), then the combination fitted on all rows. Each ε's library is built once and SimpleMKL is
     * warm-started along the C grid on its Gram matrices ({@link KernelLearning#crossValidate}), so the points are
     * not independent trainers. A searched C is relative (C = c·n); a C that is not searched is
     * {@code options.c()}, absolute. The model's report holds the grid and the choice.
     *
     * @param options     the fixed options (and C or ε where they are not searched)
     * @param cGrid       relative C values to search, or null to keep {@code options.c()}
     * @param epsilonGrid ε values to search (tessellated libraries), or null to keep {@code options.epsilon()}
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

        @Override
        public SvmClassifier fit(Dataset train, ProgressListener listener) {
            KernelLearning.Method m = options.library();
            return LearnedSvm.fit(TYPE, m, options.settings(), cGrid == null ? options.c() : null,
                    cGrid == null ? m.defaultCGrid() : cGrid, epsilonGrid == null ? options.epsilon() : null,
                    epsilonGrid == null ? m.defaultEpsilonGrid() : epsilonGrid, options.gap(), train,
                    ProgressListener.orNone(listener));
        }
    }
}
