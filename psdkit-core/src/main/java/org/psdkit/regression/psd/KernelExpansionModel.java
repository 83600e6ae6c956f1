package org.psdkit.regression.psd;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.SolverDiagnostics;

/**
 * A linear kernel model g(x) = Σ α_i k(x, x_i), or its exponential exp(g(x)): the baselines NCM (α ≥ 0), PNM
 * (g(x_i) ≥ 0 at the training points only) and GLM (exp link) of Marteau-Ferey, Bach and Rudi 2020, App. D.
 * Immutable.
 */
public final class KernelExpansionModel implements Predictor {
    private final String type;
    private final Kernel kernel;
    private final Matrix points;
    private final double[] alpha;
    private final boolean exponential;
    private final SolverDiagnostics diagnostics;

    public KernelExpansionModel(String type, Kernel kernel, Matrix points, double[] alpha, boolean exponential,
                                SolverDiagnostics diagnostics) {
        if (points.rows() != alpha.length) {
            throw new IllegalArgumentException(type + " model: " + points.rows() + " points but " + alpha.length
                    + " coefficients");
        }
        for (double a : alpha) {
            if (!Double.isFinite(a)) {
                throw new IllegalArgumentException(type + " model: a coefficient is not finite");
            }
        }
        this.type = type;
        this.kernel = kernel;
        this.points = points.copy();
        this.alpha = alpha.clone();
        this.exponential = exponential;
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

    public Matrix points() {
        return points.copy();
    }

    public double[] coefficients() {
        return alpha.clone();
    }

    public boolean exponential() {
        return exponential;
    }

    public SolverDiagnostics diagnostics() {
        return diagnostics;
    }

    @Override
    public Matrix predict(Matrix x) {
        return Matrix.column(values(x));
    }

    public double[] values(Matrix x) {
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException(type + " model expects points of dimension " + points.cols()
                    + ", got " + x.cols());
        }
        int m = x.rows();
        if ((long) m * points.rows() > KernelProducts.DGEMV_ENTRIES) {
            // in row blocks, without the full cross matrix (KernelProducts)
            return link(KernelProducts.times(kernel, x, points, alpha));
        }
        // up to 2^17 entries the blocks of PsdModel's evaluation, as recorded
        double[] g = new double[m];
        for (int start = 0; start < m; start += PsdModel.EVAL_BLOCK_ROWS) {
            int len = Math.min(PsdModel.EVAL_BLOCK_ROWS, m - start);
            int[] idx = new int[len];
            for (int i = 0; i < len; i++) {
                idx[i] = start + i;
            }
            double[] part = Linalg.gemv(kernel.cross(len == m ? x : x.selectRows(idx), points), false, alpha);
            System.arraycopy(part, 0, g, start, len);
        }
        return link(g);
    }

    /** g, or exp(g) in place for the exponential model. */
    private double[] link(double[] g) {
        if (exponential) {
            for (int i = 0; i < g.length; i++) {
                g[i] = Math.exp(g[i]);
            }
        }
        return g;
    }
}
