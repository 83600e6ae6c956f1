package org.psdkit.optim.sdp;

import java.util.List;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/** The low-rank terms of one block side by side: U_all = [U_1 … U_k], D = blockdiag(D_1 … D_k). */
final class LowRankBatch {
    final int n;
    final int[] cons;
    final int[] off;
    final Matrix u;
    final double[] d; // R×R block diagonal
    final int rr;

    LowRankBatch(int n, List<SdpProblem.Term> terms) {
        this.n = n;
        int k = terms.size();
        cons = new int[k];
        off = new int[k + 1];
        for (int a = 0; a < k; a++) {
            cons[a] = terms.get(a).constraint();
            off[a + 1] = off[a] + ((Coefficient.LowRank) terms.get(a).coefficient()).rank();
        }
        rr = off[k];
        double[] ud = new double[n * rr];
        d = new double[rr * rr];
        for (int a = 0; a < k; a++) {
            Coefficient.LowRank c = (Coefficient.LowRank) terms.get(a).coefficient();
            int r = c.rank();
            System.arraycopy(c.u.data(), 0, ud, off[a] * n, n * r);
            for (int q = 0; q < r; q++) {
                for (int t = 0; t < r; t++) {
                    d[(off[a] + t) + (off[a] + q) * rr] = c.d[t + q * r];
                }
            }
        }
        u = Matrix.wrap(n, rr, ud);
    }

    /** out[cons_a] += ⟨U_a D_a U_aᵀ, S⟩ for every term. */
    void dot(double[] s, double[] out) {
        double[] su = SdpSolver.blas(2.0 * n * n * rr,
                () -> Linalg.gemm(1.0, Matrix.wrap(n, n, s), false, u, false)).data();
        double[] ud = u.data();
        for (int a = 0; a < cons.length; a++) {
            double sum = 0;
            for (int q = off[a]; q < off[a + 1]; q++) {
                for (int t = off[a]; t < off[a + 1]; t++) {
                    double dtq = d[t + q * rr];
                    if (dtq == 0) {
                        continue;
                    }
                    double w = 0; // (Uᵀ S U)(q, t)
                    for (int i = 0; i < n; i++) {
                        w += ud[i + q * n] * su[i + t * n];
                    }
                    sum += dtq * w;
                }
            }
            out[cons[a]] += sum;
        }
    }

    /** out += scale · Σ_a y_a U_a D_a U_aᵀ. */
    void addAdjoint(double[] y, double scale, double[] out) {
        double[] dy = new double[rr * rr];
        boolean any = false;
        for (int a = 0; a < cons.length; a++) {
            double w = scale * y[cons[a]];
            any |= w != 0;
            for (int q = off[a]; q < off[a + 1]; q++) {
                for (int t = off[a]; t < off[a + 1]; t++) {
                    dy[t + q * rr] = w * d[t + q * rr];
                }
            }
        }
        if (!any) {
            return;
        }
        Matrix ud = Matrix.wrap(n, rr, timesBlockDiag(n, u.data(), off, dy, rr));
        SdpSolver.blas(2.0 * n * n * rr, () -> {
            Linalg.gemmInPlace(1.0, ud, false, u, true, 1.0, Matrix.wrap(n, n, out));
            return null;
        });
    }

    /** D·W for a block-diagonal R×R D (blocks [off[a], off[a+1])) and an R×c W, without touching D's zeros. */
    static double[] blockDiagTimes(int[] off, double[] d, int rr, double[] w, int c) {
        double[] out = new double[rr * c];
        for (int a = 0; a + 1 < off.length; a++) {
            for (int col = 0; col < c; col++) {
                for (int r = off[a]; r < off[a + 1]; r++) {
                    double v = 0;
                    for (int t = off[a]; t < off[a + 1]; t++) {
                        v += d[r + t * rr] * w[t + col * rr];
                    }
                    out[r + col * rr] = v;
                }
            }
        }
        return out;
    }

    /** U·D for an n×R U and a block-diagonal R×R D. */
    static double[] timesBlockDiag(int n, double[] u, int[] off, double[] d, int rr) {
        double[] out = new double[n * rr];
        for (int a = 0; a + 1 < off.length; a++) {
            for (int q = off[a]; q < off[a + 1]; q++) {
                for (int t = off[a]; t < off[a + 1]; t++) {
                    double dtq = d[t + q * rr];
                    if (dtq == 0) {
                        continue;
                    }
                    for (int i = 0; i < n; i++) {
                        out[i + q * n] += u[i + t * n] * dtq;
                    }
                }
            }
        }
        return out;
    }
}
