package org.psdkit.cone;

import java.util.function.BiFunction;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * A primal solver for tiny instances of the cone problem, independent of the dual: variables are the block parameters
 * themselves (w ∈ ℝ^r for a linear block with features W, WᵀW = G; A ⪰ 0 for a PSD block), the non-smooth scalar
 * losses are replaced by their Moreau envelopes with a parameter μ driven to zero by continuation, and accelerated
 * projected gradient (projection onto the PSD cone by eigenvalue clipping) minimises the result.
 */
final class BruteForcePrimal {

    /** Smoothed per-output loss: value and derivative of the Moreau envelope (or of the loss itself if smooth). */
    interface Smoothed {
        double[] valueAndGradient(int i, double[] z, double mu); // returns {value, g_1..g_m}
    }

    static final class Spec {
        Matrix[] feats;      // per block: r_b × n features (W for linear blocks, V for PSD blocks)
        boolean[] psd;
        double[] lambda1;    // PSD: nuclear weight; linear: unused
        double[] lambda2;    // PSD: Frobenius weight (λ₂/2‖A‖²); linear: ridge λ (λ/2‖w‖²)
        double[][] d;        // m × B
    }

    static double objective(Spec s, Object[] params, Smoothed loss, double mu, int n, double[][] gradZ) {
        int m = s.d.length;
        double[][] z = outputs(s, params, n);
        double val = 0;
        for (int i = 0; i < n; i++) {
            double[] zi = new double[m];
            for (int t = 0; t < m; t++) {
                zi[t] = z[t][i];
            }
            double[] vg = loss.valueAndGradient(i, zi, mu);
            val += vg[0];
            if (gradZ != null) {
                for (int t = 0; t < m; t++) {
                    gradZ[t][i] = vg[1 + t];
                }
            }
        }
        return val + regulariser(s, params);
    }

    static double regulariser(Spec s, Object[] params) {
        double r = 0;
        for (int b = 0; b < params.length; b++) {
            if (s.psd[b]) {
                Matrix a = (Matrix) params[b];
                r += s.lambda1[b] * a.trace() + 0.5 * s.lambda2[b] * Math.pow(a.normF(), 2);
            } else {
                double[] w = (double[]) params[b];
                r += 0.5 * s.lambda2[b] * Linalg.dot(w, w);
            }
        }
        return r;
    }

    static double[][] outputs(Spec s, Object[] params, int n) {
        int m = s.d.length;
        double[][] z = new double[m][n];
        for (int b = 0; b < params.length; b++) {
            Matrix f = s.feats[b];
            double[] fb = new double[n];
            if (s.psd[b]) {
                Matrix af = ((Matrix) params[b]).times(f);
                for (int i = 0; i < n; i++) {
                    double v = 0;
                    for (int k = 0; k < f.rows(); k++) {
                        v += f.get(k, i) * af.get(k, i);
                    }
                    fb[i] = v;
                }
            } else {
                fb = f.transposeTimes((double[]) params[b]);
            }
            for (int t = 0; t < m; t++) {
                for (int i = 0; i < n; i++) {
                    z[t][i] += s.d[t][b] * fb[i];
                }
            }
        }
        return z;
    }

    /** Minimises with continuation μ = mu0, mu0/10, … down to muMin; returns the parameters. */
    static Object[] solve(Spec s, Smoothed loss, int n, double mu0, double muMin, int itersPerStage) {
        int nb = s.psd.length;
        int m = s.d.length;
        Object[] x = new Object[nb];
        for (int b = 0; b < nb; b++) {
            int r = s.feats[b].rows();
            x[b] = s.psd[b] ? Matrix.identity(r).scale(0.1) : new double[r];
        }
        for (double mu = mu0; mu >= muMin * 0.999; mu /= 10) {
            x = stage(s, loss, n, mu, x, itersPerStage, m);
        }
        return x;
    }

    private static Object[] stage(Spec s, Smoothed loss, int n, double mu, Object[] x0, int iters, int m) {
        int nb = x0.length;
        Object[] x = x0;
        Object[] y = x0;
        double tk = 1;
        double lip = 1.0;
        double[][] gz = new double[m][n];
        for (int it = 0; it < iters; it++) {
            double fy = objective(s, y, loss, mu, n, gz);
            Object[] grad = gradient(s, y, gz, n);
            Object[] xn;
            while (true) {
                xn = step(s, y, grad, 1.0 / lip);
                double fx = objective(s, xn, loss, mu, n, null);
                double lin = fy + inner(s, grad, diff(s, xn, y)) + 0.5 * lip * inner(s, diff(s, xn, y), diff(s, xn, y));
                if (fx <= lin + 1e-14 * Math.abs(fy)) {
                    break;
                }
                lip *= 2;
                if (lip > 1e16) {
                    break;
                }
            }
            double tn = 0.5 * (1 + Math.sqrt(1 + 4 * tk * tk));
            Object[] dxx = diff(s, xn, x);
            if (inner(s, diff(s, y, xn), dxx) > 0) {
                tn = 1;
                y = xn;
            } else {
                y = axpy(s, xn, (tk - 1) / tn, dxx);
            }
            tk = tn;
            x = xn;
            lip *= 0.9;
        }
        return x;
    }

    private static Object[] gradient(Spec s, Object[] p, double[][] gz, int n) {
        Object[] g = new Object[p.length];
        for (int b = 0; b < p.length; b++) {
            Matrix f = s.feats[b];
            double[] gb = new double[n];
            for (int t = 0; t < s.d.length; t++) {
                for (int i = 0; i < n; i++) {
                    gb[i] += s.d[t][b] * gz[t][i];
                }
            }
            if (s.psd[b]) {
                Matrix a = (Matrix) p[b];
                Matrix fd = Matrix.zeros(f.rows(), n);
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < f.rows(); k++) {
                        fd.set(k, i, f.get(k, i) * gb[i]);
                    }
                }
                Matrix ga = fd.times(f.transpose());
                ga = ga.plus(a.scale(s.lambda2[b]));
                ga.addToDiagonal(s.lambda1[b]);
                g[b] = ga;
            } else {
                double[] w = (double[]) p[b];
                double[] gw = f.times(gb);
                for (int k = 0; k < w.length; k++) {
                    gw[k] += s.lambda2[b] * w[k];
                }
                g[b] = gw;
            }
        }
        return g;
    }

    private static Object[] step(Spec s, Object[] p, Object[] g, double h) {
        Object[] out = new Object[p.length];
        for (int b = 0; b < p.length; b++) {
            if (s.psd[b]) {
                Matrix a = ((Matrix) p[b]).minus(((Matrix) g[b]).scale(h));
                a.symmetrizeInPlace();
                Eigen e = Linalg.eigh(a);
                out[b] = e.positivePart();
            } else {
                double[] w = ((double[]) p[b]).clone();
                double[] gw = (double[]) g[b];
                for (int k = 0; k < w.length; k++) {
                    w[k] -= h * gw[k];
                }
                out[b] = w;
            }
        }
        return out;
    }

    private static Object[] diff(Spec s, Object[] a, Object[] b) {
        return combine(s, a, b, (u, v) -> u - v);
    }

    private static Object[] axpy(Spec s, Object[] a, double c, Object[] b) {
        return combine(s, a, b, (u, v) -> u + c * v);
    }

    private static Object[] combine(Spec s, Object[] a, Object[] b, BiFunction<Double, Double, Double> op) {
        Object[] out = new Object[a.length];
        for (int k = 0; k < a.length; k++) {
            double[] x = s.psd[k] ? ((Matrix) a[k]).data() : (double[]) a[k];
            double[] y = s.psd[k] ? ((Matrix) b[k]).data() : (double[]) b[k];
            double[] r = new double[x.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = op.apply(x[i], y[i]);
            }
            out[k] = s.psd[k] ? Matrix.wrap(((Matrix) a[k]).rows(), ((Matrix) a[k]).cols(), r) : r;
        }
        return out;
    }

    private static double inner(Spec s, Object[] a, Object[] b) {
        double r = 0;
        for (int k = 0; k < a.length; k++) {
            double[] x = s.psd[k] ? ((Matrix) a[k]).data() : (double[]) a[k];
            double[] y = s.psd[k] ? ((Matrix) b[k]).data() : (double[]) b[k];
            r += Linalg.dot(x, y);
        }
        return r;
    }
}
