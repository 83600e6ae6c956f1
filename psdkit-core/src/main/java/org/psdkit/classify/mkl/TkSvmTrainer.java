package org.psdkit.classify.mkl;

import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.optim.ProgressListener;

/**
 * Fits an SVM with a learned tessellated kernel (model type {@code tk-svm}): the direct Frank–Wolfe method over
 * {P ⪰ 0, tr P = 1} alternating with warm-started SMO (Colbert &amp; Peet 2020, Sec. VII, eq. 11), features scaled to
 * [0, 1] on the training data. C (relative, C = c/κ) and ε are chosen by 5-fold cross-validation when null.
 *
 * <pre>{@code
 * SvmClassifier m = TkSvmTrainer.of(20.0, 0.1, 1).fit(train);
 * }</pre>
 *
 * @param c           absolute penalty C, or null to choose c/κ from {@code cGrid} by CV
 * @param cGrid       relative C grid of the CV
 * @param epsilon     box margin ε (X = [−ε, 1+ε]ⁿ), or null to choose it from {@code epsilonGrid} by CV
 * @param epsilonGrid ε grid of the CV
 * @param degree      monomial degree 0, 1 or 2
 * @param orthant     the second indicator of the kernel
 * @param gap         relative duality gap at which learning stops
 * @param seed        seed of the CV folds
 */
public record TkSvmTrainer(Double c, double[] cGrid, Double epsilon, double[] epsilonGrid, int degree,
                           TessellatedKernel.Orthant orthant, double gap, long seed)
        implements org.psdkit.model.Trainer<SvmClassifier> {

    /** The model type written in model files. */
    public static final String TYPE = "tk-svm";

    public TkSvmTrainer {
        if (cGrid == null) {
            cGrid = KernelLearning.Method.TK.defaultCGrid();
        }
        if (epsilonGrid == null) {
            epsilonGrid = KernelLearning.Method.TK.defaultEpsilonGrid();
        }
        if (orthant == null) {
            orthant = TessellatedKernel.Orthant.LOWER;
        }
        LearnedSvm.check(c, cGrid, epsilon, epsilonGrid, degree, gap);
        cGrid = cGrid.clone();
        epsilonGrid = epsilonGrid.clone();
    }

    /** Given C, ε and degree; lower orthant, gap 0.01, default grids. */
    public static TkSvmTrainer of(double c, double epsilon, int degree) {
        return new TkSvmTrainer(c, null, epsilon, null, degree, TessellatedKernel.Orthant.LOWER, 0.01, 42);
    }

    @Override
    public SvmClassifier fit(Dataset train, ProgressListener listener) {
        KernelLearning.Settings st = new KernelLearning.Settings(degree, orthant, TkRandomLibrary.PAPER_SIZE, seed,
                false, KernelLearning.GaussScaling.MINMAX);
        return LearnedSvm.fit(TYPE, KernelLearning.Method.TK, st, c, cGrid, epsilon, epsilonGrid, gap, train,
                ProgressListener.orNone(listener));
    }
}
