package org.psdkit.regression.psd;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * Independent reference for tiny problems: accelerated projected gradient on the primal (9),
 * min_{A⪰0} (1/(2n)) Σ (Φ_iᵀAΦ_i − y_i)² + λ₁ Tr A + (λ₂/2)‖A‖²_F, over the PSD cone, with the Cholesky
 * feature map of the distinct points (Φ(x) = L⁻¹ v(x), K = LLᵀ) — no eigen feature map, no dual.
 * Duplicated training points share their feature vector.
 */
final class BruteForce {
    final Kernel kernel;
    final Matrix distinct;
    final Matrix lower;
    final Matrix phi;   // m×n, columns Φ_i
    final double[] y;
    final double l1;
    final double l2;
    Matrix a;

    /** {@code index[i]} = which distinct point training point i is. */
    BruteForce(Kernel kernel, Matrix distinct, int[] index, double[] y, double l1, double l2) {
        this.kernel = kernel;
        this.distinct = distinct;
        Cholesky c = Linalg.choleskyStrict(kernel.gram(distinct));
        this.lower = c.lower();
        int m = distinct.rows();
        int n = index.length;
        this.phi = Matrix.zeros(m, n);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < m; k++) {
                phi.set(k, i, lower.get(index[i], k));
            }
        }
        this.y = y;
        this.l1 = l1;
        this.l2 = l2;
    }

    static int[] identity(int n) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        return idx;
    }

    double objective(Matrix aa) {
        int n = y.length;
        double loss = 0;
        for (int i = 0; i < n; i++) {
            double[] p = phi.col(i);
            double d = Linalg.dot(p, aa.times(p)) - y[i];
            loss += d * d;
        }
        double f2 = aa.normF();
        return loss / (2.0 * n) + l1 * aa.trace() + 0.5 * l2 * f2 * f2;
    }

    Matrix gradient(Matrix aa) {
        int n = y.length;
        double[] r = new double[n];
        for (int i = 0; i < n; i++) {
            double[] p = phi.col(i);
            r[i] = (Linalg.dot(p, aa.times(p)) - y[i]) / n;
        }
        Matrix g = phi.times(Matrix.diag(r)).times(phi.transpose());
        g.addToDiagonal(l1);
        g = g.plus(aa.scale(l2));
        g.symmetrizeInPlace();
        return g;
    }

    BruteForce solve(int iterations) {
        int m = phi.rows();
        Matrix h = Matrix.zeros(y.length, y.length);
        Matrix kt = phi.transpose().times(phi);
        for (int i = 0; i < y.length; i++) {
            for (int j = 0; j < y.length; j++) {
                h.set(i, j, kt.get(i, j) * kt.get(i, j));
            }
        }
        double lip = Linalg.eigvalsh(h)[y.length - 1] / y.length + l2;
        double step = 1.0 / lip;
        Matrix x = Matrix.zeros(m, m);
        Matrix yk = x.copy();
        double t = 1;
        double fx = objective(x);
        for (int it = 0; it < iterations; it++) {
            Matrix xn = project(yk.minus(gradient(yk).scale(step)));
            double fn = objective(xn);
            double tn = 0.5 * (1 + Math.sqrt(1 + 4 * t * t));
            Matrix mom = xn.minus(x).scale((t - 1) / tn);
            if (fn > fx) { // function-value restart
                tn = 1;
                mom = Matrix.zeros(m, m);
            }
            x = xn;
            fx = fn;
            yk = x.plus(mom);
            t = tn;
        }
        a = x;
        return this;
    }

    double value() {
        return objective(a);
    }

    double predict(double[] point) {
        double[] v = kernel.cross(Matrix.of(new double[][] {point}), distinct).data();
        double[] p = Linalg.solveLower(lower, false, v);
        return Linalg.dot(p, a.times(p));
    }

    static Matrix project(Matrix a) {
        Matrix s = a.copy();
        s.symmetrizeInPlace();
        Eigen e = Linalg.eigh(s);
        return e.positivePart();
    }
}
