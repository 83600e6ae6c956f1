package org.psdkit.optim.smo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

/**
 * The ν rule of {@link Smo#solveNu} and the exact start of {@link Smo#solveFrom} against the optimum found by
 * enumerating every active set of a tiny QP (each variable at 0, at C or free; the free ones from the KKT linear
 * system), and the KKT conditions checked directly on the solver's answer.
 */
class SmoNuTest {

    /** The brute-force optimum: α and the multipliers λ of the equality rows (∇ + Aᵀλ = 0 on the free set). */
    record Brute(double[] alpha, double[] lambda, double objective) {
    }

    /** min ½αᵀQα + pᵀα s.t. Aα = b, 0 ≤ α ≤ C by enumeration of the 3^m active sets. */
    static Brute brute(double[][] q, double[] p, double[][] a, double[] b, double c) {
        int m = p.length;
        int e = a.length;
        Brute best = null;
        int total = (int) Math.pow(3, m);
        for (int code = 0; code < total; code++) {
            int[] st = new int[m];
            int cc = code;
            int nf = 0;
            for (int t = 0; t < m; t++) {
                st[t] = cc % 3;
                cc /= 3;
                if (st[t] == 2) {
                    nf++;
                }
            }
            double[] alpha = new double[m];
            int[] f = new int[nf];
            int k = 0;
            for (int t = 0; t < m; t++) {
                if (st[t] == 1) {
                    alpha[t] = c;
                } else if (st[t] == 2) {
                    f[k++] = t;
                }
            }
            int size = nf + e;
            double[][] sys = new double[size][size + 1];
            for (int u = 0; u < nf; u++) {
                double rhs = -p[f[u]];
                for (int t = 0; t < m; t++) {
                    if (st[t] == 1) {
                        rhs -= q[f[u]][t] * c;
                    }
                }
                for (int v = 0; v < nf; v++) {
                    sys[u][v] = q[f[u]][f[v]];
                }
                for (int r = 0; r < e; r++) {
                    sys[u][nf + r] = a[r][f[u]];
                }
                sys[u][size] = rhs;
            }
            for (int r = 0; r < e; r++) {
                double rhs = b[r];
                for (int t = 0; t < m; t++) {
                    if (st[t] == 1) {
                        rhs -= a[r][t] * c;
                    }
                }
                for (int v = 0; v < nf; v++) {
                    sys[nf + r][v] = a[r][f[v]];
                }
                sys[nf + r][size] = rhs;
            }
            double[] sol = gauss(sys);
            if (sol == null) {
                continue;
            }
            boolean ok = true;
            for (int v = 0; v < nf; v++) {
                alpha[f[v]] = sol[v];
                ok &= sol[v] >= -1e-12 && sol[v] <= c + 1e-12;
            }
            for (int r = 0; r < e && ok; r++) {
                double s = 0;
                for (int t = 0; t < m; t++) {
                    s += a[r][t] * alpha[t];
                }
                ok = Math.abs(s - b[r]) < 1e-9;
            }
            if (!ok) {
                continue;
            }
            double obj = objective(q, p, alpha);
            if (best == null || obj < best.objective() - 1e-15) {
                double[] lambda = new double[e];
                for (int r = 0; r < e; r++) {
                    lambda[r] = nf > 0 ? sol[nf + r] : Double.NaN;
                }
                best = new Brute(alpha, lambda, obj);
            }
        }
        return best;
    }

    /** Gaussian elimination with partial pivoting; null when singular. */
    static double[] gauss(double[][] s) {
        int n = s.length;
        for (int col = 0; col < n; col++) {
            int piv = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(s[r][col]) > Math.abs(s[piv][col])) {
                    piv = r;
                }
            }
            if (Math.abs(s[piv][col]) < 1e-12) {
                return null;
            }
            double[] tmp = s[piv];
            s[piv] = s[col];
            s[col] = tmp;
            for (int r = 0; r < n; r++) {
                if (r != col) {
                    double fct = s[r][col] / s[col][col];
                    for (int k = col; k <= n; k++) {
                        s[r][k] -= fct * s[col][k];
                    }
                }
            }
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = s[i][n] / s[i][i];
        }
        return x;
    }

    static double objective(double[][] q, double[] p, double[] alpha) {
        double obj = 0;
        for (int s = 0; s < alpha.length; s++) {
            obj += p[s] * alpha[s];
            for (int t = 0; t < alpha.length; t++) {
                obj += 0.5 * alpha[s] * q[s][t] * alpha[t];
            }
        }
        return obj;
    }

    static double[][] qOf(Matrix k, double[] y) {
        int m = y.length;
        double[][] q = new double[m][m];
        for (int s = 0; s < m; s++) {
            for (int t = 0; t < m; t++) {
                q[s][t] = y[s] * y[t] * k.get(s, t);
            }
        }
        return q;
    }

    static Matrix points(long seed, int m) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(m, 2);
        for (int i = 0; i < m; i++) {
            x.set(i, 0, r.nextGaussian());
            x.set(i, 1, r.nextGaussian());
        }
        return x;
    }

    /** Greedy start: per class, α = min(C, what is left of the class's share), the share spread in order. */
    static double[] greedy(double[] y, double sharePos, double shareNeg, double c) {
        double[] a = new double[y.length];
        double left0 = sharePos;
        double left1 = shareNeg;
        for (int t = 0; t < y.length; t++) {
            if (y[t] > 0) {
                a[t] = Math.min(c, left0);
                left0 -= a[t];
            } else {
                a[t] = Math.min(c, left1);
                left1 -= a[t];
            }
        }
        return a;
    }

    static final Smo.Options TIGHT = new Smo.Options(1e-10, true);

    @Test
    void oneClassDualEqualsTheEnumeratedOptimum() {
        for (long seed = 1; seed <= 4; seed++) {
            int m = 7;
            Matrix k = new GaussianKernel(0.8).gram(points(seed, m));
            double[] y = new double[m];
            java.util.Arrays.fill(y, 1);
            double nu = 0.3 + 0.1 * seed;
            double[] start = greedy(y, nu * m, 0, 1);
            Smo.Result r = Smo.solveFrom(KernelRows.dense(k), y, null, 1, TIGHT, start, ProgressListener.NONE);
            double[] ones = new double[m];
            java.util.Arrays.fill(ones, 1);
            Brute b = brute(qOf(k, y), new double[m], new double[][] {ones}, new double[] {nu * m}, 1);
            for (int t = 0; t < m; t++) {
                assertEquals(b.alpha()[t], r.alpha()[t], 1e-7, "seed " + seed + " alpha " + t);
            }
            assertEquals(-b.objective(), r.dual(), 1e-9);
            // ρ is the multiplier of Σα = νm: ∇_t = ρ on the free variables, so b = −ρ = λ
            assertEquals(b.lambda()[0], r.bias(), 1e-7, "seed " + seed);
            assertTrue(r.converged());
        }
    }

    @Test
    void nuSvcDualEqualsTheEnumeratedOptimumAndItsMultipliers() {
        for (long seed = 1; seed <= 4; seed++) {
            int m = 8;
            Matrix x = points(seed + 10, m);
            Matrix k = new GaussianKernel(1.0).gram(x);
            double[] y = new double[m];
            for (int i = 0; i < m; i++) {
                y[i] = i % 2 == 0 ? 1 : -1;
            }
            double nu = 0.4 + 0.1 * seed;
            double[] start = greedy(y, nu * m / 2, nu * m / 2, 1);
            Smo.NuResult nr = Smo.solveNu(KernelRows.dense(k), y, null, 1, TIGHT, start, ProgressListener.NONE);
            Smo.Result r = nr.result();
            double[] ones = new double[m];
            java.util.Arrays.fill(ones, 1);
            Brute b = brute(qOf(k, y), new double[m], new double[][] {y, ones}, new double[] {0, nu * m}, 1);
            for (int t = 0; t < m; t++) {
                assertEquals(b.alpha()[t], r.alpha()[t], 1e-7, "seed " + seed + " alpha " + t);
            }
            assertEquals(-b.objective(), r.dual(), 1e-9);
            // ∇_t + λ₁y_t + λ₂ = 0 on the free set: r₊ = −(λ₁ + λ₂), r₋ = λ₁ − λ₂
            double rPos = -(b.lambda()[0] + b.lambda()[1]);
            double rNeg = b.lambda()[0] - b.lambda()[1];
            assertEquals(0.5 * (rPos + rNeg), nr.r(), 1e-7, "seed " + seed);
            assertEquals(-0.5 * (rPos - rNeg), r.bias(), 1e-7, "seed " + seed);
            kkt(qOf(k, y), new double[m], y, r.alpha(), 1, rPos, rNeg, 1e-7);
        }
    }

    @Test
    void nuSvrDualEqualsTheEnumeratedOptimum() {
        for (long seed = 1; seed <= 3; seed++) {
            int m = 4;
            Matrix x = points(seed + 20, m);
            Matrix k = new GaussianKernel(1.0).gram(x);
            Random rnd = new Random(seed);
            double[] target = new double[m];
            for (int i = 0; i < m; i++) {
                target[i] = Math.sin(x.get(i, 0)) + 0.2 * rnd.nextGaussian();
            }
            double c = 2;
            double nu = 0.5;
            int n2 = 2 * m;
            double[] z = new double[n2];
            double[] p = new double[n2];
            Matrix kk = Matrix.zeros(n2, n2);
            for (int s = 0; s < n2; s++) {
                z[s] = s < m ? 1 : -1;
                p[s] = s < m ? -target[s] : target[s - m];
                for (int t = 0; t < n2; t++) {
                    kk.set(s, t, k.get(s % m, t % m));
                }
            }
            double[] start = new double[n2];
            double left = c * nu * m / 2;
            for (int i = 0; i < m; i++) {
                start[i] = start[i + m] = Math.min(left, c);
                left -= start[i];
            }
            Smo.NuResult nr = Smo.solveNu(KernelRows.dense(kk), z, p, c, TIGHT, start, ProgressListener.NONE);
            double[] ones = new double[n2];
            java.util.Arrays.fill(ones, 1);
            Brute b = brute(qOf(kk, z), p, new double[][] {z, ones}, new double[] {0, c * nu * m}, c);
            assertEquals(b.objective(), -nr.result().dual(), 1e-9, "seed " + seed);
            for (int i = 0; i < m; i++) {
                // α − α* is unique (K is positive definite); the pair itself need not be
                assertEquals(b.alpha()[i] - b.alpha()[i + m], nr.result().alpha()[i] - nr.result().alpha()[i + m],
                        1e-6, "seed " + seed + " beta " + i);
            }
        }
    }

    /** The KKT conditions of the ν dual with r₊ and r₋ (∇_t = r_s free, ≤ at C, ≥ at 0). */
    static void kkt(double[][] q, double[] p, double[] y, double[] alpha, double c, double rPos, double rNeg,
                    double tol) {
        for (int s = 0; s < alpha.length; s++) {
            double g = p[s];
            for (int t = 0; t < alpha.length; t++) {
                g += q[s][t] * alpha[t];
            }
            double r = y[s] > 0 ? rPos : rNeg;
            if (alpha[s] <= 0) {
                assertTrue(g >= r - tol, "at 0: " + s);
            } else if (alpha[s] >= c) {
                assertTrue(g <= r + tol, "at C: " + s);
            } else {
                assertEquals(r, g, tol, "free: " + s);
            }
        }
    }

    @Test
    void largerNuSvcAgreesWithAndWithoutShrinkingAndOnCachedRows() {
        int m = 300;
        Random rnd = new Random(5);
        Matrix x = Matrix.zeros(m, 2);
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            x.set(i, 0, rnd.nextGaussian());
            x.set(i, 1, rnd.nextGaussian());
            y[i] = x.get(i, 0) * x.get(i, 1) + 0.3 * rnd.nextGaussian() > 0 ? 1 : -1;
        }
        int pos = 0;
        for (double v : y) {
            pos += v > 0 ? 1 : 0;
        }
        double nu = 0.3;
        double[] start = greedy(y, nu * m / 2, nu * m / 2, 1);
        GaussianKernel kern = new GaussianKernel(0.7);
        Matrix k = kern.gram(x);
        Smo.NuResult plain = Smo.solveNu(KernelRows.dense(k), y, null, 1, new Smo.Options(1e-6, false), start, null);
        Smo.NuResult shrunk = Smo.solveNu(KernelRows.dense(k), y, null, 1, new Smo.Options(1e-6, true), start, null);
        // single-precision rows: a budget below the 8m² bytes of the Gram matrix
        Smo.NuResult cached = Smo.solveNu(kern, x, y, null, 1, new Smo.Options(1e-6, true), 8L * m * m / 3, start,
                null);
        assertTrue(plain.result().converged() && shrunk.result().converged() && cached.result().converged());
        assertEquals(plain.result().dual(), shrunk.result().dual(), 1e-6 * Math.abs(plain.result().dual()));
        // single-precision Q entries (relative rounding 2⁻²⁴ each) move the optimum slightly
        assertEquals(plain.result().dual(), cached.result().dual(), 1e-4 * Math.abs(plain.result().dual()));
        assertEquals(plain.r(), shrunk.r(), 1e-4 * Math.abs(plain.r()));
        assertEquals(plain.result().bias(), shrunk.result().bias(), 1e-4);
        double sumPos = 0;
        double sumNeg = 0;
        for (int i = 0; i < m; i++) {
            if (y[i] > 0) {
                sumPos += shrunk.result().alpha()[i];
            } else {
                sumNeg += shrunk.result().alpha()[i];
            }
        }
        // both equality constraints hold: Σ_{y=+1} α = Σ_{y=−1} α = νm/2
        assertEquals(nu * m / 2, sumPos, 1e-9);
        assertEquals(nu * m / 2, sumNeg, 1e-9);
        assertTrue(pos > 0);
    }

    @Test
    void aStartOutsideTheBoxIsRefused() {
        Matrix k = new GaussianKernel(1).gram(points(1, 3));
        double[] y = {1, 1, 1};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Smo.solveFrom(KernelRows.dense(k), y, null, 1, TIGHT, new double[] {0.5, 1.5, 0}, null));
        assertTrue(e.getMessage().contains("start value 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Smo.solveNu(KernelRows.dense(k), y, null, 1, TIGHT, new double[] {0.5}, null));
    }
}
