package org.psdkit.classify.mkl;

import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.optim.ProgressListener;

/**
 * Fits an SVM whose kernel is a SimpleMKL combination (Rakotomamonjy, Bach, Canu &amp; Grandvalet 2008) of a library
 * (model type {@code simplemkl}): the Gaussian/polynomial library ({@link KernelLearning.Method#SIMPLEMKL}), random
 * tessellated kernels ({@link KernelLearning.Method#SIMPLEMKL_TK}) or both ({@link KernelLearning.Method#COMBINED}),
 * as in Colbert &amp; Peet 2020, Table I. Features are scaled to [0, 1] on the training data.
 *
 * @param library        SIMPLEMKL, SIMPLEMKL_TK or COMBINED
 * @param librarySize    number of random tessellated kernels
 * @param betaBandwidths read the Gaussian bandwidths as β in exp(−β‖x−y‖²) instead of σ
 * @param gaussScaling   features the Gaussian/polynomial library sees (CV: chosen with C and ε)
 * @param c              absolute penalty C, or null to choose c/κ from {@code cGrid} by CV
 * @param cGrid          relative C grid of the CV
 * @param epsilon        box margin ε of the tessellated kernels, or null to choose it by CV
 * @param epsilonGrid    ε grid of the CV
 * @param degree         tessellated monomial degree 0, 1 or 2
 * @param orthant        the tessellated kernels' second indicator
 * @param gap            relative duality gap at which SimpleMKL stops
 * @param seed           seed of the CV folds and the random library
 */
public record SimpleMklTrainer(KernelLearning.Method library, int librarySize, boolean betaBandwidths,
                               KernelLearning.GaussScaling gaussScaling, Double c, double[] cGrid, Double epsilon,
                               double[] epsilonGrid, int degree, TessellatedKernel.Orthant orthant, double gap,
                               long seed) implements org.psdkit.model.Trainer<SvmClassifier> {

    /** The model type written in model files. */
    public static final String TYPE = "simplemkl";

    public SimpleMklTrainer {
        if (library == null || library == KernelLearning.Method.TK) {
            throw new IllegalArgumentException("library must be SIMPLEMKL, SIMPLEMKL_TK or COMBINED, got " + library);
        }
        if (librarySize < 1) {
            throw new IllegalArgumentException("librarySize must be >= 1, got " + librarySize);
        }
        if (gaussScaling == null) {
            gaussScaling = library == KernelLearning.Method.COMBINED ? KernelLearning.GaussScaling.CV
                    : library == KernelLearning.Method.SIMPLEMKL ? KernelLearning.GaussScaling.ZSCORE
                    : KernelLearning.GaussScaling.MINMAX;
        }
        if (cGrid == null) {
            cGrid = library.defaultCGrid();
        }
        if (epsilonGrid == null) {
            epsilonGrid = library.defaultEpsilonGrid();
        }
        if (orthant == null) {
            orthant = TessellatedKernel.Orthant.LOWER;
        }
        LearnedSvm.check(c, cGrid, epsilon, epsilonGrid, degree, gap);
        cGrid = cGrid.clone();
        epsilonGrid = epsilonGrid.clone();
    }

    /** The Gaussian/polynomial library with standardised features and a given C. */
    public static SimpleMklTrainer gaussPoly(double c) {
        return new SimpleMklTrainer(KernelLearning.Method.SIMPLEMKL, TkRandomLibrary.PAPER_SIZE, false, null, c, null,
                null, null, 1, TessellatedKernel.Orthant.LOWER, 0.01, 42);
    }

    @Override
    public SvmClassifier fit(Dataset train, ProgressListener listener) {
        KernelLearning.Settings st = new KernelLearning.Settings(degree, orthant, librarySize, seed, betaBandwidths,
                gaussScaling);
        return LearnedSvm.fit(TYPE, library, st, c, cGrid, epsilon, epsilonGrid, gap, train,
                ProgressListener.orNone(listener));
    }
}
