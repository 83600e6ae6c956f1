package org.psdkit.cone;

import org.psdkit.linalg.FeatureColumns;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * The kernel features of a Nyström map held once as single-precision columns
 * ({@link EmpiricalFeatureMap#nystromSingle}) and shared by every block built on them: each PSD block's
 * {@link org.psdkit.optim.PsdDualTerm#blocked} term and the Nyström linear block ({@link NystromLinearBlock#shared}).
 * The quantities every block needs from the whole matrix (‖Φ_i‖², V 1, V Vᵀ and its largest eigenvalue) are
 * computed once, on first use.
 */
final class SharedFeatures implements Features {

    private final EmpiricalFeatureMap map;
    private final FeatureColumns columns;
    private double[] norms2;
    private double[] rowSums;
    private Matrix gram;
    private double gramMax = Double.NaN;

    SharedFeatures(EmpiricalFeatureMap map) {
        this.map = map;
        this.columns = map.trainingColumns();
    }

    EmpiricalFeatureMap map() {
        return map;
    }

    FeatureColumns columns() {
        return columns;
    }

    /** ‖Φ_i‖², i = 1..n. */
    synchronized double[] norms2() {
        if (norms2 == null) {
            norms2 = columns.columnNorms2();
        }
        return norms2;
    }

    /** V 1 (the sum of the columns). */
    synchronized double[] rowSums() {
        if (rowSums == null) {
            double[] ones = new double[columns.cols()];
            java.util.Arrays.fill(ones, 1.0);
            rowSums = columns.times(ones);
        }
        return rowSums;
    }

    /** V Vᵀ (r×r). */
    synchronized Matrix gram() {
        if (gram == null) {
            gram = columns.gram();
        }
        return gram;
    }

    /** λ_max(V Vᵀ). */
    synchronized double gramMax() {
        if (Double.isNaN(gramMax)) {
            gramMax = LinearBlock.largestEigenvalue(gram());
        }
        return gramMax;
    }

    /** The widened r×n double matrix (not used by the blocks; r×n doubles). */
    @Override
    public Matrix trainingFeatures() {
        return map.trainingFeatures();
    }

    @Override
    public ScalarFunction sumOfSquares(Matrix factor) {
        return new KernelSumOfSquares(map.kernel(), map.points(), map.coefficientFactor(factor));
    }
}
