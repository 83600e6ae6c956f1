package org.psdkit.sos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.optim.sdp.SdpResult;
import org.psdkit.optim.sdp.SdpStatus;

class KernelSosSolverTest {

    static KernelSos fit(int n, KernelSos.Route route) {
        KernelSosExample.Sample s = KernelSosTest.data(n);
        return KernelSos.fit(KernelSosTest.KERNEL, s.x(), s.y(),
                new KernelSos.Options(KernelSosTest.LAMBDA, SdpOptions.defaults(), route));
    }

    @Test
    void specialisedSolverGivesTheSameAlphaAsTheGeneralSolver() {
        for (int n : new int[] {15, 40}) {
            KernelSos fast = fit(n, KernelSos.Route.SPECIALISED);
            KernelSos general = fit(n, KernelSos.Route.RANK_TWO);
            assertTrue(fast.sdpResult().message().startsWith("Kernel SoS solver"), fast.sdpResult().message());
            assertEquals(SdpStatus.OPTIMAL, fast.sdpResult().status());
            KernelSosTest.assertSameSolution(general, fast, "n=" + n + ": specialised vs general solver");
        }
    }

    /**
     * The certificate of the specialised solver's answer, recomputed from the data: the LMI F₀ + t F_t + Σ α_l F_l
     * built densely from (t, α) is PSD, X ⪰ 0, ⟨F_l, X⟩ = 0, ⟨F_t, X⟩ = 1, and the true gap t + ⟨F₀, X⟩ — all within
     * 1e-6 relative. The SDP solved is (2) on the balanced data of {@code KernelSos.sdpData}, whose β times the power
     * of two {@code alphaScale()} is α; its G̃, M̂ and ĝ are checked against the unscaled data here too.
     */
    @Test
    void certificateRecomputedFromTheDataHolds() {
        int n = 25;
        KernelSosExample.Sample s = KernelSosTest.data(n);
        KernelSos fit = KernelSos.fit(KernelSosTest.KERNEL, s.x(), s.y(), KernelSos.Options.of(KernelSosTest.LAMBDA));
        SdpResult r = fit.sdpResult();
        assertTrue(r.message().startsWith("Kernel SoS solver"), r.message());
        KernelSos.SdpData d = KernelSos.sdpData(KernelSosTest.KERNEL, s.x(), s.y(), KernelSosTest.LAMBDA);
        // the balanced data are the unscaled data times powers of two
        Matrix g0 = KernelSosTest.KERNEL.gram(s.x());
        g0.symmetrizeInPlace();
        Matrix kp0 = KernelSos.hadamardSquare(g0);
        Matrix mm0 = Linalg.gemm(1.0, kp0, false, kp0, false).plus(kp0.scale(KernelSosTest.LAMBDA));
        double[] ky0 = kp0.times(s.y());
        double gs = g0.get(0, 0) / d.gram().get(0, 0);
        double ms = mm0.get(0, 0) / d.quadratic().get(0, 0);
        double ks = ky0[0] / d.linear()[0];
        for (double f : new double[] {gs, ms, ks}) {
            assertEquals(Math.scalb(1.0, Math.getExponent(f)), f, 0.0, "a power of two");
        }
        assertEquals(0, g0.minus(d.gram().scale(gs)).maxAbs(), 0.0);
        assertEquals(0, mm0.minus(d.quadratic().scale(ms)).maxAbs(), 1e-15 * mm0.maxAbs());
        // K'Y = s_G² s_y s_g ĝ and M = s_G⁴ s_M M̂, so α = (s_g s_y / (s_M s_G²)) β = (ks / ms) β
        assertEquals(ks / ms, fit.alphaScale(), 0.0);
        Matrix g = d.gram();
        double[] ky = d.linear();
        Matrix l = Linalg.cholesky(d.quadratic()).lower(); // M̂ = L Lᵀ
        double t = r.y()[0];
        double[] alpha = fit.alpha();
        assertEquals(alpha[3], r.y()[4] * fit.alphaScale(), 0.0);
        // F's, densely
        Matrix[] f0 = {Matrix.zeros(n + 1, n + 1), Matrix.zeros(n, n)};
        for (int i = 0; i < n; i++) {
            f0[0].set(i, i, 1.0);
        }
        Matrix[][] f = new Matrix[n + 1][];
        f[0] = new Matrix[] {Matrix.zeros(n + 1, n + 1), Matrix.zeros(n, n)};
        f[0][0].set(n, n, 1.0);
        for (int q = 0; q < n; q++) {
            Matrix b1 = Matrix.zeros(n + 1, n + 1);
            for (int i = 0; i < n; i++) {
                b1.set(i, n, l.get(q, i));
                b1.set(n, i, l.get(q, i));
            }
            b1.set(n, n, 2 * ky[q]);
            Matrix b2 = Matrix.zeros(n, n);
            for (int i = 0; i < n; i++) {
                b2.set(i, q, b2.get(i, q) + g.get(i, q));
                b2.set(q, i, b2.get(q, i) + g.get(i, q));
            }
            f[q + 1] = new Matrix[] {b1, b2};
        }
        double[] v = r.y();
        for (int b = 0; b < 2; b++) {
            Matrix z = f0[b].copy();
            for (int i = 0; i <= n; i++) {
                z = z.plus(f[i][b].scale(v[i]));
            }
            double zmin = Linalg.eigvalsh(z)[0];
            assertTrue(zmin >= -1e-6 * (1 + z.normF()), "block " + b + ": lambda_min(Z) = " + zmin);
            Matrix x = r.x()[b];
            double xmin = Linalg.eigvalsh(x)[0];
            assertTrue(xmin >= -1e-6 * (1 + x.normF()), "block " + b + ": lambda_min(X) = " + xmin);
        }
        double xNorm = r.x()[0].normF() + r.x()[1].normF();
        for (int i = 0; i <= n; i++) {
            double dot = 0;
            for (int b = 0; b < 2; b++) {
                dot += inner(f[i][b], r.x()[b]);
            }
            double want = i == 0 ? 1.0 : 0.0;
            assertEquals(want, dot, 1e-6 * (1 + xNorm), "constraint " + i);
        }
        double dualObjective = -(inner(f0[0], r.x()[0]));
        assertEquals(t, dualObjective, 1e-6 * (1 + Math.abs(t)), "gap");
        // t is the balanced objective βᵀM̂β − 2βᵀĝ, and the paper's objective is that of α on the unscaled data
        double[] beta = java.util.Arrays.copyOfRange(r.y(), 1, n + 1);
        assertEquals(t, Linalg.dot(beta, d.quadratic().times(beta)) - 2 * Linalg.dot(beta, ky),
                1e-6 * (1 + Math.abs(t)));
        assertEquals(KernelSos.objective(kp0, s.y(), alpha, KernelSosTest.LAMBDA), fit.objective(),
                1e-12 * fit.objective());
    }

    private static double inner(Matrix a, Matrix b) {
        double s = 0;
        for (int i = 0; i < a.rows(); i++) {
            for (int j = 0; j < a.cols(); j++) {
                s += a.get(i, j) * b.get(i, j);
            }
        }
        return s;
    }

    @Test
    void lanczosFindsTheSmallestEigenvalueOfTheCongruence() {
        Random rnd = new Random(3);
        int s = 40;
        double[] a = new double[s * s];
        double[] d = new double[s * s];
        for (int j = 0; j < s; j++) {
            for (int i = 0; i < s; i++) {
                a[i + j * s] = rnd.nextGaussian();
                double v = rnd.nextGaussian();
                d[i + j * s] += v;
                d[j + i * s] += v;
            }
        }
        Matrix am = Matrix.wrap(s, s, a);
        Matrix x = Linalg.gemm(1.0, am, false, am, true).plus(Matrix.identity(s));
        Matrix l = Linalg.cholesky(x).lower();
        // reference: eigenvalues of L⁻¹ D L⁻ᵀ formed densely
        Matrix w = Matrix.wrap(s, s, d.clone());
        Linalg.solveLowerInPlace(l, false, w);
        Matrix wt = w.transpose();
        Linalg.solveLowerInPlace(l, false, wt);
        wt.symmetrizeInPlace();
        double want = Linalg.eigvalsh(wt)[0];
        double got = org.psdkit.optim.sdp.StepLength.ritzMinimum(s, l.data(), d);
        assertEquals(want, got, 1e-6 * Math.abs(want));
    }
}
