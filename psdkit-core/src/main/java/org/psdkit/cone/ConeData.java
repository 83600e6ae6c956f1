package org.psdkit.cone;

import java.util.List;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.MemoryBudget;
import org.psdkit.psd.Nystrom;

/**
 * What every cone-family fit (quantile, heteroscedastic) shares before it builds its blocks: the check of the
 * training data and the default Frobenius weight of the PSD blocks.
 */
public final class ConeData {

    /**
     * Frobenius weight of Marteau-Ferey, Bach and Rudi 2020, App. E: Ω(A) = λ(‖A‖_* + 0.05‖A‖_F²). Their Sec. 6 writes
     * 0.01/2 = 0.005 instead.
     */
    public static final double APPENDIX_E_FROBENIUS_WEIGHT = 0.05;

    private ConeData() {
    }

    /** Checks training data: matching sizes, at least 2 rows, finite values. */
    public static void checkData(Matrix x, double[] y) {
        if (x.rows() != y.length) {
            throw new IllegalArgumentException("x has " + x.rows() + " rows but y has " + y.length + " values");
        }
        if (x.rows() < 2) {
            throw new IllegalArgumentException("need at least 2 training points, got " + x.rows());
        }
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("target value at row " + (i + 1) + " is not finite: " + y[i]);
            }
        }
        for (double v : x.data()) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("non-finite feature value in the training data");
            }
        }
    }

    /**
     * Fails with {@link org.psdkit.linalg.MemoryBudget.InsufficientMemoryException} before the blocks are built when
     * the heap cannot hold a cone fit on n rows of d columns, and tells the fit how to store its Nyström features.
     *
     * <p>The exact-arithmetic path (every feature matrix in double, each PSD block's
     * {@link org.psdkit.optim.PsdDualTerm} with its own r×n arrays) is kept whenever its estimate fits in the heap:
     * the data (n·d) and, without anchors, the n×n kernel matrix of the linear blocks (or of {@link PrimalCone}'s NCM
     * part), plus the n×n kernel matrix that the PSD block's feature map decomposes while the linear blocks hold
     * theirs (a lower bound); with m anchors, the anchors' m×m kernel matrix and its eigenvectors and the r×n matrices
     * of the fit, with the rank r at its bound m: the linear block's features ({@link NystromLinearBlock}), the PSD
     * feature map's features and the copy its {@link Features} hand out
     * ({@link org.psdkit.psd.EmpiricalFeatureMap#nystrom}), and per PSD block the three r×n arrays of its
     * {@link org.psdkit.optim.PsdDualTerm} (the features, the gathered factor, the eigen-block products).
     *
     * <p>With anchors and PSD blocks, when that does not fit, the fit holds the kernel features once, in single
     * precision ({@link org.psdkit.psd.EmpiricalFeatureMap#nystromSingle}, m·n floats), shared by the PSD blocks'
     * blocked dual terms ({@link org.psdkit.optim.PsdDualTerm#blocked}: r×b work arrays) and the linear block
     * ({@link NystromLinearBlock#large}); its estimate counts that matrix, the data, the m×m matrices, each block's
     * work arrays and the per-row vectors of the blocks and of the solver (the dual variables, outputs and gradients
     * of every output), and fails when even that does not fit.
     *
     * @param family    the family's name for the message ({@code "heteroscedastic fit"})
     * @param anchors   m, or 0 for the exact fit
     * @param psdBlocks the number of PSD blocks on the kernel features (0: none, the psd method has at least one)
     * @param outputs   the number of outputs of the dual solver (its per-row vectors)
     * @return whether the fit holds its features in single precision (shared, blocked)
     */
    public static boolean checkMemory(String family, long n, long d, long anchors, int psdBlocks, int outputs) {
        long m = Math.min(anchors, n);
        boolean psdBlock = psdBlocks > 0;
        long squares = m > 0 ? MemoryBudget.times(2, MemoryBudget.times(m, m))
                : MemoryBudget.times(psdBlock ? 2 : 1, MemoryBudget.times(n, n));
        long features = m > 0 ? MemoryBudget.times(1 + (psdBlock ? 2 + 3L * psdBlocks : 0),
                MemoryBudget.times(m, n)) : 0;
        long doubles = MemoryBudget.plus(MemoryBudget.times(n, d), MemoryBudget.plus(squares, features));
        String what = m > 0 ? family + " with " + m + " anchors on " + n + " rows x " + d + " columns ("
                + (psdBlock ? 3 + 3L * psdBlocks : 1) + " matrices of " + m + " x " + n + " features)"
                : family + " on " + n + " rows x " + d + " columns (" + (psdBlock ? "two " : "a ") + n + " x " + n
                + " kernel matri" + (psdBlock ? "ces" : "x") + ")";
        long bytes = MemoryBudget.times(doubles, MemoryBudget.DOUBLE_BYTES);
        if (m == 0 || !psdBlock || bytes <= Runtime.getRuntime().maxMemory()) {
            MemoryBudget.check(what, bytes);
            return false;
        }
        MemoryBudget.check(family + " with " + m + " anchors on " + n + " rows x " + d + " columns (one shared "
                + m + " x " + n + " feature matrix in single precision)", singleBytes(n, d, m, psdBlocks, outputs));
        return true;
    }

    /** Per-row doubles of each PSD block besides the shared features: its gradient, f_A(x_i), a constant twin. */
    static final int ROW_DOUBLES_PER_BLOCK = 12;
    /** Per-row doubles of each solver output: dual variables, outputs, gradients and FISTA's extrapolation copies. */
    static final int ROW_DOUBLES_PER_OUTPUT = 14;

    /** The estimate of the single-precision path of {@link #checkMemory}, in bytes. */
    static long singleBytes(long n, long d, long m, int psdBlocks, int outputs) {
        long doubles = MemoryBudget.plus(MemoryBudget.times(n, d + 2L + ROW_DOUBLES_PER_BLOCK * (psdBlocks + 1L)
                + (long) ROW_DOUBLES_PER_OUTPUT * outputs), MemoryBudget.times(4 + 2L * psdBlocks,
                MemoryBudget.times(m, m)));
        long bytes = MemoryBudget.plus(MemoryBudget.times(doubles, MemoryBudget.DOUBLE_BYTES),
                MemoryBudget.times(MemoryBudget.times(m, n), Float.BYTES));
        return MemoryBudget.plus(bytes, MemoryBudget.times(psdBlocks,
                org.psdkit.optim.PsdDualTerm.blockedBytes(m, n)));
    }

    /**
     * Checks the options both cone families share; errors name the parameter: the kernel and solver options must be
     * given, λ &gt; 0 and finite, the Frobenius weight &gt; 0, at least one restart.
     */
    public static void checkOptions(org.psdkit.kernel.Kernel kernel, double lambda, double frobeniusWeight,
                                    int restarts, ConeDualSolver.Options solver) {
        org.psdkit.model.ParameterException.required("kernel", kernel);
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new org.psdkit.model.ParameterException("lambda", "must be > 0, got " + lambda);
        }
        if (!(frobeniusWeight > 0)) {
            throw new org.psdkit.model.ParameterException("frobeniusWeight", "must be > 0, got " + frobeniusWeight);
        }
        org.psdkit.model.ParameterException.atLeast("restarts", restarts, 1);
        org.psdkit.model.ParameterException.required("solver", solver);
    }

    /** The Nyström setting ({@link Nystrom#exact()} when null); anchors need the psd method. */
    public static Nystrom nystrom(Nystrom nystrom, boolean psdMethod, String methodId) {
        Nystrom n = nystrom == null ? Nystrom.exact() : nystrom;
        if (n.enabled() && !psdMethod) {
            throw new org.psdkit.model.ParameterException("anchors", "are supported by the psd method only, not "
                    + methodId);
        }
        return n;
    }

    /**
     * The expansion points of fitted functions: those of the first kernel function among them, else
     * {@code fallback} (the training points of an exact model).
     */
    public static Matrix expansionPoints(List<ScalarFunction> functions, Matrix fallback) {
        for (ScalarFunction f : functions) {
            if (f instanceof KernelExpansion e) {
                return e.points();
            }
            if (f instanceof KernelSumOfSquares s) {
                return s.points();
            }
        }
        return fallback;
    }
}
