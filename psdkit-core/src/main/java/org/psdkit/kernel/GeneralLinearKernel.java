package org.psdkit.kernel;

import java.util.Optional;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * General linear kernel k(x, t) = xᵀ A t for a symmetric positive semidefinite d×d matrix A (Herbster's slides "Kernels and Regularization"). With
 * A = R Rᵀ (here R = V √Λ₊ from the eigen-decomposition) it is the linear kernel composed with φ(x) = Rᵀx, which is
 * also its explicit feature map. Kernel string {@code linear(A=[[2,1],[1,2]])}.
 */
public final class GeneralLinearKernel implements Kernel {

    /**
     * Relative asymmetry allowed in A: |a_ij − a_ji| ≤ 1e-12 · max|a|, room for the rounding of a product such as
     * R Rᵀ computed by a general GEMM (a few ulps), nothing more.
     */
    public static final double SYMMETRY_TOLERANCE = 1e-12;
    /**
     * Smallest eigenvalue allowed: −1e-10 · Σ|λ_i|, the same relative floor the kernel tests use for Gram matrices
     * (−1e-10 · trace); eigen-solver rounding on a PSD matrix is ~n·ε·‖A‖, orders of magnitude smaller.
     */
    public static final double PSD_TOLERANCE = 1e-10;

    private final Matrix a;
    private final Matrix r;

    public GeneralLinearKernel(Matrix a) {
        if (a == null || !a.isSquare() || a.rows() == 0) {
            throw new IllegalArgumentException("general linear kernel: A must be a non-empty square matrix, got "
                    + (a == null ? "none" : a.rows() + "x" + a.cols()));
        }
        int d = a.rows();
        double scale = a.maxAbs();
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d; i++) {
                double v = a.get(i, j);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("general linear kernel: A(" + i + "," + j + ") = " + v);
                }
                if (Math.abs(v - a.get(j, i)) > SYMMETRY_TOLERANCE * scale) {
                    throw new IllegalArgumentException("general linear kernel: A is not symmetric: A(" + i + ","
                            + j + ") = " + v + " but A(" + j + "," + i + ") = " + a.get(j, i));
                }
            }
        }
        this.a = a.copy();
        this.a.symmetrizeInPlace();
        Eigen e = Linalg.eigh(this.a);
        double abs = 0;
        for (double v : e.values()) {
            abs += Math.abs(v);
        }
        if (e.min() < -PSD_TOLERANCE * abs) {
            throw new IllegalArgumentException("general linear kernel: A is not positive semidefinite (smallest "
                    + "eigenvalue " + e.min() + ")");
        }
        Matrix rr = e.vectors().copy();
        for (int j = 0; j < d; j++) {
            double s = Math.sqrt(Math.max(0.0, e.values()[j]));
            for (int i = 0; i < d; i++) {
                rr.set(i, j, rr.get(i, j) * s);
            }
        }
        this.r = rr;
    }

    /** A copy of A. */
    public Matrix matrix() {
        return a.copy();
    }

    private void checkDim(int d) {
        if (d != a.rows()) {
            throw new IllegalArgumentException("general linear kernel: A is " + a.rows() + "x" + a.rows()
                    + " but the points have dimension " + d);
        }
    }

    @Override
    public double eval(double[] x, double[] t) {
        checkDim(x.length);
        checkDim(t.length);
        int d = x.length;
        double s = 0;
        for (int j = 0; j < d; j++) {
            double aj = 0;
            for (int i = 0; i < d; i++) {
                aj += x[i] * a.get(i, j);
            }
            s += aj * t[j];
        }
        return s;
    }

    @Override
    public Matrix gram(Matrix x) {
        checkDim(x.cols());
        return Linalg.syrk(Linalg.gemm(1.0, x, false, r, false), false);
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        checkDim(x.cols());
        checkDim(z.cols());
        Matrix xa = Linalg.gemm(1.0, x, false, a, false);
        return Linalg.gemm(1.0, xa, false, z, true);
    }

    @Override
    public double[] diag(Matrix x) {
        checkDim(x.cols());
        Matrix xr = Linalg.gemm(1.0, x, false, r, false);
        return SquaredDistances.rowNorms2(xr);
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        checkDim(dimension);
        return Optional.of(x -> {
            checkDim(x.length);
            return r.transposeTimes(x);
        });
    }

    @Override
    public String kind() {
        return "linear";
    }

    @Override
    public String spec() {
        StringBuilder sb = new StringBuilder("linear(A=[");
        int d = a.rows();
        for (int i = 0; i < d; i++) {
            sb.append(i == 0 ? "[" : ", [");
            for (int j = 0; j < d; j++) {
                sb.append(j == 0 ? "" : ", ").append(KernelFormat.num(a.get(i, j)));
            }
            sb.append(']');
        }
        return sb.append("])").toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GeneralLinearKernel g && java.util.Arrays.equals(g.a.data(), a.data());
    }

    @Override
    public int hashCode() {
        return java.util.Arrays.hashCode(a.data());
    }

    @Override
    public String toString() {
        return spec();
    }
}
