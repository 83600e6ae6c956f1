package org.psdkit.cone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/** Tiny problems: the dual optimum (FISTA on the multi-block dual) equals an independent brute-force primal solve. */
class ConeDualSolverTest {

    private static final int N = 6;

    private static Matrix points(Random rnd) {
        Matrix x = Matrix.zeros(N, 1);
        for (int i = 0; i < N; i++) {
            x.set(i, 0, rnd.nextDouble());
        }
        return x;
    }

    /** W with WᵀW = G (eigen-factor, all positive eigenvalues kept). */
    private static Matrix factor(Matrix g) {
        Eigen e = Linalg.eigh(g);
        int n = g.rows();
        Matrix w = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            double s = Math.sqrt(Math.max(e.values()[j], 0));
            for (int i = 0; i < n; i++) {
                w.set(j, i, s * e.vectors().get(i, j));
            }
        }
        return w;
    }

    private static double pinballEnvelope(double u, double tau, double mu, double[] grad) {
        // Moreau envelope of ρ_τ at u = y − z with parameter μ (μ = 0: the loss itself); grad = d/du
        if (mu == 0) {
            grad[0] = u >= 0 ? tau : tau - 1;
            return u >= 0 ? tau * u : (tau - 1) * u;
        }
        if (u >= mu * tau) {
            grad[0] = tau;
            return tau * u - 0.5 * mu * tau * tau;
        }
        if (u <= -mu * (1 - tau)) {
            grad[0] = tau - 1;
            return (tau - 1) * u - 0.5 * mu * (1 - tau) * (1 - tau);
        }
        grad[0] = u / mu;
        return u * u / (2 * mu);
    }

    @Test
    void quantileConeDualMatchesBruteForcePrimal() {
        Random rnd = new Random(11);
        Matrix x = points(rnd);
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            y[i] = Math.sin(4 * x.get(i, 0)) + 0.5 * rnd.nextGaussian();
        }
        double[] w = new double[N];
        java.util.Arrays.fill(w, 1.0 / N);
        double[] taus = {0.25, 0.5, 0.75};
        GaussianKernel k = new GaussianKernel(0.3);
        org.psdkit.psd.EmpiricalFeatureMap fmap = org.psdkit.psd.EmpiricalFeatureMap.of(k, x);
        Features feats = Features.kernel(fmap);
        Matrix g = LinearBlock.gram(k, 1.0, x);
        double lam = 0.05;
        double l1 = 0.02;
        double l2 = 0.1;
        List<Block> blocks = List.of(new LinearBlock(k, 1.0, x, g, LinearBlock.largestEigenvalue(g), lam),
                new PsdBlock(feats, l1, l2), new PsdBlock(feats, l1, l2));
        double[][] d = {{1, 0, -1}, {1, 0, 0}, {1, 1, 0}};
        PointLoss loss = ScalarLoss.separable(ScalarLoss.pinball(0.25, y, w), ScalarLoss.pinball(0.5, y, w),
                ScalarLoss.pinball(0.75, y, w));
        ConeDualSolver solver = new ConeDualSolver(blocks, d, loss, N);
        ConeDualSolver.Result res = solver.solve(new ConeDualSolver.Options(1e-8, 1e-7, 200000, 10), null, null);
        assertTrue(res.converged(), "gap " + res.gap());

        BruteForcePrimal.Spec s = new BruteForcePrimal.Spec();
        s.feats = new Matrix[] {factor(g), feats.trainingFeatures(), feats.trainingFeatures()};
        s.psd = new boolean[] {false, true, true};
        s.lambda1 = new double[] {0, l1, l1};
        s.lambda2 = new double[] {lam, l2, l2};
        s.d = d;
        BruteForcePrimal.Smoothed sm = (i, z, mu) -> {
            double[] out = new double[1 + z.length];
            double[] gr = new double[1];
            for (int t = 0; t < z.length; t++) {
                out[0] += w[i] * pinballEnvelope(y[i] - z[t], taus[t], mu, gr);
                out[1 + t] = -w[i] * gr[0];
            }
            return out;
        };
        Object[] p = BruteForcePrimal.solve(s, sm, N, 1e-1, 1e-6, 1500);
        double brute = BruteForcePrimal.objective(s, p, sm, 0, N, null);
        // Both are objective values of feasible primal points; the brute force is within its smoothing bias
        // n·μ_min·max(τ,1−τ)²/2 ≈ 2e-6 plus its optimisation error of the optimum.
        assertEquals(brute, res.primal(), 1e-5);
        assertTrue(res.primal() <= brute + 1e-6, "dual-derived point worse than brute force: " + res.primal()
                + " vs " + brute);
        // and the fitted outputs at the training points agree
        double[][] zb = BruteForcePrimal.outputs(s, p, N);
        Matrix zd = res.outputs(x);
        for (int t = 0; t < 3; t++) {
            for (int i = 0; i < N; i++) {
                assertEquals(zb[t][i], zd.get(i, t), 2e-3, "output " + t + " at point " + i);
            }
        }
    }

    @Test
    void heteroscedasticDualMatchesBruteForcePrimal() {
        Random rnd = new Random(5);
        Matrix x = points(rnd);
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            y[i] = x.get(i, 0) + (0.2 + x.get(i, 0)) * rnd.nextGaussian();
        }
        double[] w = new double[N];
        java.util.Arrays.fill(w, 1.0 / N);
        GaussianKernel k = new GaussianKernel(0.4);
        org.psdkit.psd.EmpiricalFeatureMap fmap = org.psdkit.psd.EmpiricalFeatureMap.of(k, x);
        Features feats = Features.kernel(fmap);
        Features one = Features.constant(N);
        Matrix g = LinearBlock.gram(k, 1.0, x);
        double lam = 0.02;
        double l1 = 0.01;
        double l2 = 0.05;
        List<Block> blocks = List.of(new LinearBlock(k, 1.0, x, g, LinearBlock.largestEigenvalue(g), lam),
                new PsdBlock(feats, l1, l2), new PsdBlock(one, l1, l2));
        double[][] d = {{1, 0, 0}, {0, 1, 1}};
        GaussianNaturalNll nll = new GaussianNaturalNll(y, w);
        ConeDualSolver.Result res = new ConeDualSolver(blocks, d, nll, N)
                .solve(new ConeDualSolver.Options(1e-11, 1e-7, 200000, 10), null, null);
        assertTrue(res.converged(), "gap " + res.gap());

        BruteForcePrimal.Spec s = new BruteForcePrimal.Spec();
        s.feats = new Matrix[] {factor(g), feats.trainingFeatures(), one.trainingFeatures()};
        s.psd = new boolean[] {false, true, true};
        s.lambda1 = new double[] {0, l1, l1};
        s.lambda2 = new double[] {lam, l2, l2};
        s.d = d;
        BruteForcePrimal.Smoothed sm = (i, z, mu) -> {
            double eta = z[0];
            double th = z[1];
            double v = w[i] * GaussianNaturalNll.nll(y[i], eta, th);
            double ge = w[i] * (-y[i] + eta / th);
            double gt = w[i] * (-0.5 / th + 0.5 * y[i] * y[i] - 0.5 * eta * eta / (th * th));
            return new double[] {v, ge, gt};
        };
        Object[] p = BruteForcePrimal.solve(s, sm, N, 1, 1, 20000);
        double brute = BruteForcePrimal.objective(s, p, sm, 0, N, null);
        assertEquals(brute, res.primal(), 1e-7);
        assertTrue(res.primal() <= brute + 1e-9);
    }

    @Test
    void partiallyNonNegativeConstraintsMatchBruteForce() {
        Random rnd = new Random(3);
        Matrix x = points(rnd);
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            y[i] = rnd.nextGaussian();
        }
        double[] w = new double[N];
        java.util.Arrays.fill(w, 1.0 / N);
        GaussianKernel k = new GaussianKernel(0.3);
        Matrix g = LinearBlock.gram(k, 1.0, x);
        double ln = LinearBlock.largestEigenvalue(g);
        double lam = 0.05;
        List<Block> blocks = List.of(new LinearBlock(k, 1.0, x, g, ln, lam), new LinearBlock(k, 1.0, x, g, ln, lam));
        // outputs: q_0.5 = lin0, q_0.9 = lin0 + lin1, constraint lin1 ≥ 0 on the training points
        double[][] d = {{1, 0}, {1, 1}, {0, 1}};
        PointLoss loss = ScalarLoss.separable(ScalarLoss.pinball(0.5, y, w), ScalarLoss.pinball(0.9, y, w),
                ScalarLoss.nonNegative());
        ConeDualSolver.Result res = new ConeDualSolver(blocks, d, loss, N)
                .solve(new ConeDualSolver.Options(1e-10, 1e-7, 400000, 10), null, null);
        assertTrue(res.converged(), "gap " + res.gap());
        Matrix z = res.outputs(x);
        for (int i = 0; i < N; i++) {
            assertTrue(z.get(i, 2) >= -1e-6, "constraint violated at training point " + i + ": " + z.get(i, 2));
        }
        BruteForcePrimal.Spec s = new BruteForcePrimal.Spec();
        Matrix f = factor(g);
        s.feats = new Matrix[] {f, f};
        s.psd = new boolean[] {false, false};
        s.lambda1 = new double[] {0, 0};
        s.lambda2 = new double[] {lam, lam};
        s.d = d;
        double[] taus = {0.5, 0.9};
        BruteForcePrimal.Smoothed sm = (i, zz, mu) -> {
            double[] out = new double[4];
            double[] gr = new double[1];
            for (int t = 0; t < 2; t++) {
                out[0] += w[i] * pinballEnvelope(y[i] - zz[t], taus[t], mu, gr);
                out[1 + t] = -w[i] * gr[0];
            }
            // Moreau envelope of the indicator of z ≥ 0: min(z,0)²/(2μ)
            double neg = Math.min(zz[2], 0);
            out[0] += mu == 0 ? (neg < 0 ? Double.POSITIVE_INFINITY : 0) : neg * neg / (2 * mu);
            out[3] = mu == 0 ? 0 : neg / mu;
            return out;
        };
        Object[] p = BruteForcePrimal.solve(s, sm, N, 1e-1, 1e-7, 3000);
        double bruteSmoothed = BruteForcePrimal.objective(s, p, sm, 1e-7, N, null);
        assertEquals(bruteSmoothed, res.primal(), 1e-5);
    }
}
