package org.psdkit.sos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.sdp.LinExpr;
import org.psdkit.optim.sdp.SdpModel;

class KernelSosTest {

    static final Kernel KERNEL = Kernels.parse("gaussian(sigma=0.75) + 0.01*delta");
    static final double LAMBDA = 0.01;

    static KernelSosExample.Sample data(int n) {
        return KernelSosExample.sample(n, 0.5, 42);
    }

    @Test
    void spectrumOfGDiagAlphaIsNonNegativeExactlyWhenAlphaIs() {
        // App. F: G ≻ 0 (distinct points, universal kernel), so G diag(α) has as many negative eigenvalues as α
        // has negative entries (Sylvester): "G diag(α) ⪰ 0" in the spectral sense is α ≥ 0
        Matrix g = KERNEL.gram(data(20).x());
        Random r = new Random(7);
        for (int trial = 0; trial < 20; trial++) {
            double[] a = new double[20];
            int negatives = trial % 4; // 0..3 negative entries
            for (int i = 0; i < 20; i++) {
                a[i] = 0.1 + r.nextDouble();
            }
            for (int k = 0; k < negatives; k++) {
                a[r.nextInt(20)] = -0.1 - r.nextDouble();
            }
            boolean nonNegative = true;
            for (double v : a) {
                nonNegative &= v >= 0;
            }
            double smin = KernelSos.spectrumMinEigenvalue(g, a);
            assertEquals(nonNegative, smin >= 0, "trial " + trial + ": min eigenvalue " + smin);
        }
    }

    @Test
    void symmetrisedLmiIsStricterThanTheSpectralConstraint() {
        Matrix g = KERNEL.gram(data(20).x());
        // α = e_1: f = κ²(·, X_1) ≥ 0 and G diag(α) has spectrum {G_11, 0, ...} ≥ 0, yet the symmetrised LMI fails
        double[] e1 = new double[20];
        e1[0] = 1;
        assertTrue(KernelSos.spectrumMinEigenvalue(g, e1) >= -1e-12);
        assertTrue(KernelSos.symmetrizedMinEigenvalue(g, e1) < -1e-3);
        // and an α with a negative entry fails it (its diagonal is 2 G_ii α_i)
        double[] a = new double[20];
        Arrays.fill(a, 1.0);
        a[3] = -1e-3;
        assertTrue(KernelSos.symmetrizedMinEigenvalue(g, a) < 0);
    }

    @Test
    void sdpSolutionIsANonNegativeCoefficientModelNoBetterThanNcm() {
        KernelSosExample.Sample s = data(30);
        KernelSos sos = KernelSos.fit(KERNEL, s.x(), s.y(), KernelSos.Options.of(LAMBDA));
        Matrix g = KERNEL.gram(s.x());
        Matrix kp = KernelSos.hadamardSquare(g);
        // feasibility of (2): the LMI holds and α ≥ 0 follows
        assertTrue(sos.lmiMinEigenvalue() > -1e-6, "lmi " + sos.lmiMinEigenvalue());
        assertTrue(sos.alphaMin() > -1e-6, "alpha_min " + sos.alphaMin());
        // NCM with kernel κ² (independent active-set solver) is a relaxation of (2)
        double[] ncm = KernelSos.fitNcm(KERNEL, s.x(), s.y(), LAMBDA);
        double objNcm = KernelSos.objective(kp, s.y(), ncm, LAMBDA);
        assertTrue(sos.objective() >= objNcm * (1 - 1e-7), sos.objective() + " vs NCM " + objNcm);
        // the NCM optimum has exact zeros, so it violates the symmetrised LMI: the two constraints disagree there
        double ncmMin = Double.POSITIVE_INFINITY;
        for (double v : ncm) {
            ncmMin = Math.min(ncmMin, v);
        }
        assertEquals(0.0, ncmMin, 0.0);
        assertTrue(KernelSos.symmetrizedMinEigenvalue(g, ncm) < -1e-6);
        assertTrue(sos.objective() > objNcm * (1 + 1e-4), "(2) is strictly more constrained here");
        // predictions are non-negative everywhere, as for any α ≥ 0
        Matrix grid = Matrix.zeros(201, 1);
        for (int i = 0; i <= 200; i++) {
            grid.set(i, 0, -5 + 0.05 * i);
        }
        for (double v : sos.values(grid)) {
            assertTrue(v >= -1e-9);
        }
    }

    @Test
    void sdpWithTheSpectralConstraintInsteadIsExactlyNcm() {
        // replacing the LMI of (2) by α ≥ 0 (the spectral reading, by the first test) reproduces the NCM solution:
        // the SDP machinery and the active-set QP agree
        KernelSosExample.Sample s = data(25);
        Matrix g = KERNEL.gram(s.x());
        Matrix kp = KernelSos.hadamardSquare(g);
        int n = 25;
        Matrix m = kp.times(kp).plus(kp.scale(LAMBDA));
        m.symmetrizeInPlace();
        double[] ky = kp.times(s.y());
        SdpModel model = new SdpModel();
        SdpModel.Var t = model.scalar("t");
        SdpModel.Var[] a = model.scalars("alpha", n);
        SdpModel.Lmi lmi = model.lmi(n + 1);
        Matrix r = Linalg.cholesky(m).lower();
        for (int i = 0; i < n; i++) {
            lmi.constant(i, i, 1.0);
            model.greaterEqual(LinExpr.of(a[i]), 0);
            for (int l = 0; l < n; l++) {
                lmi.add(a[l], i, n, r.get(l, i));
            }
        }
        lmi.add(t, n, n, 1.0);
        for (int l = 0; l < n; l++) {
            lmi.add(a[l], n, n, 2 * ky[l]);
        }
        SdpModel.Solution sol = model.minimize(LinExpr.of(t));
        assertTrue(sol.isOptimal(), sol.result().message());
        double[] alpha = new double[n];
        for (int l = 0; l < n; l++) {
            alpha[l] = sol.value(a[l]);
        }
        double[] ncm = KernelSos.fitNcm(KERNEL, s.x(), s.y(), LAMBDA);
        double objSdp = KernelSos.objective(kp, s.y(), alpha, LAMBDA);
        double objNcm = KernelSos.objective(kp, s.y(), ncm, LAMBDA);
        assertEquals(objNcm, objSdp, 1e-6 * objNcm);
        // t + YᵀY is the objective
        assertEquals(objNcm, sol.value(t) + Linalg.dot(s.y(), s.y()), 1e-6 * objNcm);
    }

    /**
     * The rank-2 coefficient path (what {@code fit kernel-sos} uses) and the dense-coefficient path (the baseline of
     * {@code psdkit bench kernel-sos}) solve the same SDP (2): the same α to 1e-6 relative.
     */
    @Test
    void rankTwoCoefficientsGiveTheSameAlphaAsDenseCoefficients() {
        KernelSosExample.Sample s = data(15);
        KernelSos fast = KernelSos.fit(KERNEL, s.x(), s.y(), KernelSos.Options.of(LAMBDA));
        KernelSos dense = KernelSos.fit(KERNEL, s.x(), s.y(),
                new KernelSos.Options(LAMBDA, org.psdkit.optim.sdp.SdpOptions.defaults(), false));
        assertSameSolution(dense, fast, "rank-2 vs dense coefficients");
    }

    /**
     * Fails unless {@code actual} has the α of {@code expected} to 1e-6 relative (max norm over α, against a nonzero
     * α) and its objective to 1e-8 relative.
     */
    static void assertSameSolution(KernelSos expected, KernelSos actual, String what) {
        double[] a = actual.alpha();
        double[] b = expected.alpha();
        double diff = 0;
        double scale = 0;
        for (int i = 0; i < a.length; i++) {
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
            scale = Math.max(scale, Math.abs(b[i]));
        }
        assertTrue(scale > 0, what + ": alpha is zero");
        assertTrue(diff <= 1e-6 * scale, what + ": max |alpha - alpha_expected| = " + diff + ", max |alpha| = "
                + scale);
        assertEquals(expected.objective(), actual.objective(), 1e-8 * Math.abs(expected.objective()), what);
    }

    @Test
    void twoPointProblemAgreesWithBruteForce() {
        // n = 2: grid search over α in a box containing the optimum, keeping the grid points that satisfy the LMI
        Matrix x = Matrix.of(new double[][] {{-0.3}, {0.4}});
        double[] y = {1.0, 2.0};
        KernelSos sos = KernelSos.fit(KERNEL, x, y, KernelSos.Options.of(LAMBDA));
        Matrix g = KERNEL.gram(x);
        Matrix kp = KernelSos.hadamardSquare(g);
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= 400; i++) {
            for (int j = 0; j <= 400; j++) {
                double[] a = {i * 0.01, j * 0.01};
                if (minEigenvalue2x2(2 * g.get(0, 0) * a[0], g.get(0, 1) * (a[0] + a[1]),
                        2 * g.get(1, 1) * a[1]) >= 0) {
                    best = Math.min(best, KernelSos.objective(kp, y, a, LAMBDA));
                }
            }
        }
        assertTrue(sos.objective() <= best + 1e-9, sos.objective() + " vs grid " + best);
        assertTrue(sos.objective() >= best - 0.05, "grid spacing 0.01 bounds the gap");
    }

    /** λ_min of [[p, q], [q, r]] in closed form. */
    static double minEigenvalue2x2(double p, double q, double r) {
        return 0.5 * (p + r) - Math.hypot(0.5 * (p - r), q);
    }

    /**
     * (2) is homogeneous in the targets, and the fit is too: targets times c give α times c and the objective times
     * c² (to the solver's accuracy), from c = 1e-300 to 1e149. Before the targets were rescaled for the solver,
     * 1e149 ended ill-posed, 1e8 primal-infeasible, and 1e-6 'optimal' with a model of the solver's noise; the NCM's
     * active-set method kept every α at 0 for tiny targets.
     */
    @Test
    void fitIsHomogeneousInTheTargetsOverTheWholeDataRange() {
        KernelSosExample.Sample s = data(12);
        KernelSos base = KernelSos.fit(KERNEL, s.x(), s.y(), KernelSos.Options.of(LAMBDA));
        double[] ncm = KernelSos.fitNcm(KERNEL, s.x(), s.y(), LAMBDA);
        for (double c : new double[] {1e-149, 1e-6, 1e8, 1e149, 1e-300}) {
            double[] y = s.y().clone();
            for (int i = 0; i < y.length; i++) {
                y[i] *= c;
            }
            KernelSos m = KernelSos.fit(KERNEL, s.x(), y, KernelSos.Options.of(LAMBDA));
            double[] a = m.alpha();
            double[] b = base.alpha();
            double[] n = KernelSos.fitNcm(KERNEL, s.x(), y, LAMBDA);
            double amax = 0;
            for (double v : b) {
                amax = Math.max(amax, Math.abs(v));
            }
            for (int i = 0; i < a.length; i++) {
                assertEquals(b[i], a[i] / c, 1e-4 * amax, "c=" + c + ": alpha " + i);
                assertEquals(ncm[i], n[i] / c, 1e-12 * amax, "c=" + c + ": NCM alpha " + i);
            }
            if (c > 1e-150) { // below, the objective (~c²) underflows
                assertEquals(base.objective(), m.objective() / c / c, 1e-7 * base.objective(), "c=" + c);
            }
            double[] p = m.values(s.x());
            double[] q = base.values(s.x());
            for (int i = 0; i < p.length; i++) {
                assertEquals(q[i], p[i] / c, 1e-4 * (1 + Math.abs(q[i])), "c=" + c + ": f at point " + i);
            }
        }
    }

    /**
     * The fit is homogeneous in the kernel too: kernel c·κ with λ c² is the model with κ and λ, α divided by c².
     * Before the SDP was balanced, c = 1e6 ended "numerical problems" and c = 1e150 overflowed K'K' (exit 1
     * in the CLI); λ = 1e300 reached the iteration limit, where the fit is 0 to double precision. A kernel whose
     * square overflows (c = 1e200) had ended "numerical problems"; it is refused.
     */
    @Test
    void fitIsHomogeneousInTheKernelAndHandlesAHugeLambda() {
        KernelSosExample.Sample s = data(12);
        KernelSos base = KernelSos.fit(KERNEL, s.x(), s.y(), KernelSos.Options.of(LAMBDA));
        double amax = 0;
        for (double v : base.alpha()) {
            amax = Math.max(amax, Math.abs(v));
        }
        for (double c : new double[] {1e6, 1e150, 1e-100}) {
            Kernel scaled = Kernels.parse(c + "*(" + KERNEL.spec() + ")");
            KernelSos m = KernelSos.fit(scaled, s.x(), s.y(), KernelSos.Options.of(LAMBDA * c * c));
            double[] a = m.alpha();
            for (int i = 0; i < a.length; i++) {
                assertEquals(base.alpha()[i], a[i] * c * c, 1e-4 * amax, "c=" + c + ": alpha " + i);
            }
            assertEquals(base.objective(), m.objective(), 1e-7 * base.objective(), "c=" + c);
        }
        KernelSos zero = KernelSos.fit(KERNEL, s.x(), s.y(), KernelSos.Options.of(1e300));
        double y2 = Linalg.dot(s.y(), s.y());
        assertEquals(y2, zero.objective(), 1e-9 * y2, "lambda = 1e300: the zero function's objective Y'Y");
        for (double v : zero.values(s.x())) {
            assertTrue(Math.abs(v) < 1e-250, "f = " + v);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelSos.fit(
                Kernels.parse("1e-200*(" + KERNEL.spec() + ")"), s.x(), s.y(), KernelSos.Options.of(1e100)));
        assertTrue(e.getMessage().contains("lambda = 1.0E100 is too large for the kernel"), e.getMessage());
        // a kernel whose square (the model's kernel) overflows is refused: its model could not be evaluated
        e = assertThrows(IllegalArgumentException.class, () -> KernelSos.fit(Kernels.parse("1e200*(" + KERNEL.spec()
                + ")"), s.x(), s.y(), KernelSos.Options.of(LAMBDA)));
        assertTrue(e.getMessage().contains("its square k^2, the kernel of the model, overflows"), e.getMessage());
    }

    @Test
    void targetScaleIsThePowerOfTwoAtOrBelowTheLargestTarget() {
        assertEquals(4.0, KernelSos.targetScale(new double[] {-1, 5, 3}), 0.0);
        assertEquals(1.0, KernelSos.targetScale(new double[] {0, 0}), 0.0);
        assertEquals(0x1p-3, KernelSos.targetScale(new double[] {0.2, -0.125}), 0.0);
        assertEquals(Double.MIN_VALUE * 4, KernelSos.targetScale(new double[] {Double.MIN_VALUE * 5}), 0.0);
        assertEquals(0x1p1023, KernelSos.targetScale(new double[] {-Double.MAX_VALUE}), 0.0);
    }

    @Test
    void badInputIsRejected() {
        Matrix x = Matrix.of(new double[][] {{0}, {1}});
        assertThrows(IllegalArgumentException.class, () -> KernelSos.Options.of(-1));
        assertThrows(IllegalArgumentException.class,
                () -> KernelSos.fit(KERNEL, x, new double[] {1}, KernelSos.Options.of(0.1)));
        assertThrows(IllegalArgumentException.class,
                () -> KernelSos.fit(KERNEL, x, new double[] {1, Double.NaN}, KernelSos.Options.of(0.1)));
    }

    @Test
    void allZeroTargetsGiveTheZeroFunctionExactly() {
        Matrix x = Matrix.of(new double[][] {{0.1}, {0.4}, {0.7}, {0.9}});
        KernelSos m = KernelSos.fit(Kernels.gaussian(0.3), x, new double[4],
                new KernelSos.Options(0.01, org.psdkit.optim.sdp.SdpOptions.defaults(), KernelSos.Route.SPECIALISED));
        for (double a : m.alpha()) {
            assertEquals(0.0, a, 0.0);
        }
        assertEquals(0.0, m.objective(), 0.0);
        assertEquals(org.psdkit.optim.sdp.SdpStatus.OPTIMAL, m.sdpResult().status());
        assertEquals(0.0, m.values(Matrix.of(new double[][] {{0.5}}))[0], 0.0);
    }
}
