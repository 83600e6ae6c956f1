package org.psdkit.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class RidgeRegressionTest {

    /**
     * Explicit feature map of the kernel (1 + xᵀt)² in 2-D: (1, √2 x₁, √2 x₂, x₁², x₂², √2 x₁x₂), so that
     * φ(x)·φ(t) = (1 + xᵀt)² (Herbster's slides' polynomial feature map).
     */
    static final UnaryOperator<Matrix> PHI = x -> {
        Matrix f = Matrix.zeros(x.rows(), 6);
        double r2 = Math.sqrt(2);
        for (int i = 0; i < x.rows(); i++) {
            double a = x.get(i, 0);
            double b = x.get(i, 1);
            f.set(i, 0, 1);
            f.set(i, 1, r2 * a);
            f.set(i, 2, r2 * b);
            f.set(i, 3, a * a);
            f.set(i, 4, b * b);
            f.set(i, 5, r2 * a * b);
        }
        return f;
    };

    static final Kernel POLY2 = new Kernel() {
        @Override
        public double eval(double[] x, double[] t) {
            double s = 1 + Linalg.dot(x, t);
            return s * s;
        }

        @Override
        public String spec() {
            return "polynomial(degree=2, offset=1)";
        }
    };

    static final Kernel LINEAR = new Kernel() {
        @Override
        public double eval(double[] x, double[] t) {
            return Linalg.dot(x, t);
        }

        @Override
        public String spec() {
            return "linear";
        }
    };

    @Test
    void primalWithFeatureMapEqualsDualWithItsKernel() {
        Matrix x = KernelRidgeTest.points(40, 2, 1);
        double[] y = KernelRidgeTest.target(x, 2);
        Matrix test = KernelRidgeTest.points(15, 2, 3);
        for (boolean intercept : new boolean[] {false, true}) {
            RidgeRegression primal = RidgeRegression.fitPrimal(PHI, x, y, 0.3, intercept);
            RidgeRegression.Dual dual = RidgeRegression.fitDual(POLY2, x, y, 0.3, intercept);
            double[] a = primal.predictVector(test);
            double[] b = dual.predictVector(test);
            assertTrue(KernelRidgeTest.maxRelDiff(a, b) < 1e-9, "intercept=" + intercept);
        }
    }

    @Test
    void linearPrimalSatisfiesNormalEquations() {
        Matrix x = KernelRidgeTest.points(30, 4, 4);
        double[] y = KernelRidgeTest.target(x, 5);
        double lambda = 2.5;
        RidgeRegression m = RidgeRegression.fitPrimal(x, y, lambda, false);
        double[] w = m.weights();
        // (XᵀX + λI) w = Xᵀy, checked entry by entry with plain loops
        for (int j = 0; j < 4; j++) {
            double lhs = lambda * w[j];
            double rhs = 0;
            for (int i = 0; i < 30; i++) {
                double xw = 0;
                for (int k = 0; k < 4; k++) {
                    xw += x.get(i, k) * w[k];
                }
                lhs += x.get(i, j) * xw;
                rhs += x.get(i, j) * y[i];
            }
            assertEquals(rhs, lhs, 1e-10 * Math.max(1, Math.abs(rhs)));
        }
        assertEquals(0.0, m.bias());
        RidgeRegression.Dual d = RidgeRegression.fitDual(LINEAR, x, y, lambda, false);
        assertTrue(KernelRidgeTest.maxRelDiff(d.predictVector(x), m.predictVector(x)) < 1e-10);
    }

    @Test
    void interceptIsNotPenalised() {
        // y = 100 + x: with a huge λ the slope vanishes but the intercept stays at mean(y)
        Matrix x = Matrix.of(new double[][] {{-1}, {0}, {1}});
        double[] y = {99, 100, 101};
        RidgeRegression m = RidgeRegression.fitPrimal(x, y, 1e12, true);
        assertEquals(100, m.predictVector(Matrix.of(new double[][] {{5}}))[0], 1e-9);
    }
}
