package org.psdkit.psd;

import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

/**
 * A PSD model f(x) = Σ_ij B_ij k(x, x_i) k(x, x_j) with B = R Rᵀ ⪰ 0 (Marteau-Ferey, Bach and Rudi 2020, Thm 1),
 * evaluated as the sum of squares f(x) = ‖Rᵀ v(x)‖², v(x) = (k(x, x_i))_i, so that f(x) ≥ 0 holds in floating
 * point for every x, including far from the data.
 *
 * <p>Immutable and thread-safe. Carries the kernel, the anchor points x_i, the factor R (n×rank) and the solver
 * diagnostics.
 */
public final class PsdModel implements Predictor {
    public static final String TYPE = "psd-regression";
    /**
     * Rows evaluated per block in {@link #values}: 2048 rows × n anchors keeps the m×n cross matrix within a few MB
     * however many points are evaluated (10⁵ points against n = 1000 anchors would otherwise need 800 MB).
     */
    public static final int EVAL_BLOCK_ROWS = 2048;

    private final Kernel kernel;
    private final Matrix points;   // n×d
    private final Matrix factor;   // n×q
    private final SolverDiagnostics diagnostics;
    private final String type;

    public PsdModel(Kernel kernel, Matrix points, Matrix factor, SolverDiagnostics diagnostics) {
        this(TYPE, kernel, points, factor, diagnostics);
    }

    /** A model with another type name (density, …) for model files and the CLI. */
    public PsdModel(String type, Kernel kernel, Matrix points, Matrix factor, SolverDiagnostics diagnostics) {
        if (points.rows() != factor.rows()) {
            throw new IllegalArgumentException("PSD model: " + points.rows() + " points but a factor with "
                    + factor.rows() + " rows");
        }
        for (double d : factor.data()) {
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("PSD model: factor R has a non-finite entry");
            }
        }
        this.type = type;
        this.kernel = kernel;
        this.points = points.copy();
        this.factor = factor.copy();
        this.diagnostics = diagnostics;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public String[] outputColumns() {
        return new String[] {"prediction"};
    }

    public Kernel kernel() {
        return kernel;
    }

    /** The anchor points x_i (a copy). */
    public Matrix points() {
        return points.copy();
    }

    /** The factor R of B = R Rᵀ (a copy), n×rank. */
    public Matrix factor() {
        return factor.copy();
    }

    /** B = R Rᵀ (n×n). */
    public Matrix coefficientMatrix() {
        return Linalg.syrk(factor, false);
    }

    public SolverDiagnostics diagnostics() {
        return diagnostics;
    }

    /** Rank of B (columns of R). */
    public int rank() {
        return factor.cols();
    }

    public int dimension() {
        return points.cols();
    }

    @Override
    public Matrix predict(Matrix x) {
        return Matrix.column(values(x));
    }

    /** f(x) for each row of {@code x}. */
    public double[] values(Matrix x) {
        checkDims(x);
        int m = x.rows();
        double[] out = new double[m];
        if (factor.cols() == 0 || m == 0) {
            return out;
        }
        for (int start = 0; start < m; start += EVAL_BLOCK_ROWS) {
            int len = Math.min(EVAL_BLOCK_ROWS, m - start);
            Matrix block = x;
            if (len != m) {
                int[] idx = new int[len];
                for (int i = 0; i < len; i++) {
                    idx[i] = start + i;
                }
                block = x.selectRows(idx);
            }
            Matrix v = kernel.cross(block, points);                // len×n
            Matrix y = Linalg.gemm(1.0, v, false, factor, false);  // len×q
            double[] d = y.data();
            for (int k = 0; k < y.cols(); k++) {
                int off = k * len;
                for (int i = 0; i < len; i++) {
                    out[start + i] += d[off + i] * d[off + i];
                }
            }
        }
        return out;
    }

    /** f(x) at one point. */
    public double value(double[] x) {
        return values(Matrix.of(new double[][] {x}))[0];
    }

    /**
     * ∇f(x) in closed form for the Gaussian kernel: with c = R Rᵀ v(x),
     * ∇f(x) = 2 Σ_i c_i ∇ₓk(x, x_i) = −(2/σ²) Σ_i c_i k(x, x_i)(x − x_i).
     */
    public double[] gradient(double[] x) {
        if (!(kernel instanceof GaussianKernel g)) {
            throw new IllegalArgumentException("closed-form gradient needs a gaussian kernel, the model has "
                    + kernel.spec());
        }
        Matrix xm = Matrix.of(new double[][] {x});
        checkDims(xm);
        int n = points.rows();
        int d = points.cols();
        double[] v = kernel.cross(xm, points).data(); // 1×n → length n
        double[] t = Linalg.gemv(factor, true, v);      // Rᵀv
        double[] c = Linalg.gemv(factor, false, t);     // R Rᵀ v
        double s2 = g.sigma() * g.sigma();
        double[] grad = new double[d];
        for (int i = 0; i < n; i++) {
            double w = c[i] * v[i];
            for (int j = 0; j < d; j++) {
                grad[j] -= w * (x[j] - points.get(i, j));
            }
        }
        for (int j = 0; j < d; j++) {
            grad[j] *= 2.0 / s2;
        }
        return grad;
    }

    private void checkDims(Matrix x) {
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException("PSD model expects points of dimension " + points.cols() + ", got "
                    + x.cols());
        }
        for (double d : x.data()) {
            if (!Double.isFinite(d)) {
                throw new IllegalArgumentException("PSD model: input contains a non-finite value (" + d + ")");
            }
        }
    }
}
