package org.psdkit.classify;

/**
 * Probabilities of the SVM's classes from decision values.
 *
 * <p>Two classes: Platt's sigmoid P(y = +1 | f) = 1 / (1 + exp(A f + B)) (Platt 2000), fitted by maximum likelihood on
 * out-of-fold decision values with Platt's regularised targets (N₊ + 1)/(N₊ + 2) and 1/(N₋ + 2), by the Newton method
 * with backtracking of Lin, Lin &amp; Weng 2007 (Algorithm 1: Hessian + σI with σ = 10⁻¹², the log-likelihood written
 * so that neither branch overflows, stopping when both gradient components are below 10⁻⁵). This is LIBSVM's
 * {@code sigmoid_train}, extended to weighted points: each point's term is multiplied by its weight and N₊, N₋ are the
 * weight sums (with unit weights the two are identical).
 *
 * <p>More classes: the pairwise probabilities r_ij = P(y = i | y ∈ {i, j}) are coupled by Wu, Lin &amp; Weng 2004,
 * method 2: p minimises Σ_i Σ_{j≠i} (r_ji p_i − r_ij p_j)² subject to Σ p_i = 1, i.e. ½pᵀQp with Q_ii = Σ_{j≠i}
 * r_ji², Q_ij = −r_ji r_ij. Its solution solves Q p = b e, eᵀp = 1 (their eq. 21), and is non-negative (their
 * Theorem 3); it is computed here directly by a Cholesky factorisation of Q (positive definite when every r_ij is in
 * (0, 1), which the clipping to [10⁻⁷, 1 − 10⁻⁷] ensures, as LIBSVM's {@code min_prob}), where LIBSVM iterates to a
 * tolerance of 0.005/k.
 */
public final class Platt {

    /** LIBSVM's clipping of pairwise probabilities, {@code min_prob}. */
    public static final double MIN_PROB = 1e-7;
    static final int MAX_ITERATIONS = 100;
    static final double MIN_STEP = 1e-10;
    static final double SIGMA = 1e-12;
    static final double EPS = 1e-5;

    private Platt() {
    }

    /** A fitted sigmoid P(+1 | f) = 1 / (1 + exp(a f + b)). */
    public record Sigmoid(double a, double b) {
        /** P(+1 | f), evaluated without overflow (LIBSVM's {@code sigmoid_predict}). */
        public double probability(double f) {
            double fApB = f * a + b;
            if (fApB >= 0) {
                return Math.exp(-fApB) / (1.0 + Math.exp(-fApB));
            }
            return 1.0 / (1 + Math.exp(fApB));
        }
    }

    /**
     * Fits the sigmoid to decision values {@code f} with labels {@code y} (±1) and weights {@code w} (null: all 1).
     */
    public static Sigmoid fit(double[] f, double[] y, double[] w) {
        int l = f.length;
        double prior1 = 0;
        double prior0 = 0;
        for (int i = 0; i < l; i++) {
            double wi = w == null ? 1 : w[i];
            if (y[i] > 0) {
                prior1 += wi;
            } else {
                prior0 += wi;
            }
        }
        double hiTarget = (prior1 + 1.0) / (prior1 + 2.0);
        double loTarget = 1 / (prior0 + 2.0);
        double[] t = new double[l];
        double a = 0.0;
        double b = Math.log((prior0 + 1.0) / (prior1 + 1.0));
        for (int i = 0; i < l; i++) {
            t[i] = y[i] > 0 ? hiTarget : loTarget;
        }
        double fval = objective(f, t, w, a, b);
        for (int iter = 0; iter < MAX_ITERATIONS; iter++) {
            double h11 = SIGMA;
            double h22 = SIGMA;
            double h21 = 0;
            double g1 = 0;
            double g2 = 0;
            for (int i = 0; i < l; i++) {
                double wi = w == null ? 1 : w[i];
                double fApB = f[i] * a + b;
                double p;
                double q;
                if (fApB >= 0) {
                    p = Math.exp(-fApB) / (1.0 + Math.exp(-fApB));
                    q = 1.0 / (1.0 + Math.exp(-fApB));
                } else {
                    p = 1.0 / (1.0 + Math.exp(fApB));
                    q = Math.exp(fApB) / (1.0 + Math.exp(fApB));
                }
                double d2 = wi * p * q;
                h11 += f[i] * f[i] * d2;
                h22 += d2;
                h21 += f[i] * d2;
                double d1 = wi * (t[i] - p);
                g1 += f[i] * d1;
                g2 += d1;
            }
            if (Math.abs(g1) < EPS && Math.abs(g2) < EPS) {
                break;
            }
            double det = h11 * h22 - h21 * h21;
            double dA = -(h22 * g1 - h21 * g2) / det;
            double dB = -(-h21 * g1 + h11 * g2) / det;
            double gd = g1 * dA + g2 * dB;
            double step = 1;
            while (step >= MIN_STEP) {
                double na = a + step * dA;
                double nb = b + step * dB;
                double nf = objective(f, t, w, na, nb);
                if (nf < fval + 0.0001 * step * gd) {
                    a = na;
                    b = nb;
                    fval = nf;
                    break;
                }
                step /= 2.0;
            }
            if (step < MIN_STEP) {
                break; // the line search cannot decrease the objective further
            }
        }
        return new Sigmoid(a, b);
    }

    /** The negative log-likelihood Σ w_i (t_i (Af_i+B) + log(1 + exp(−(Af_i+B)))), written without overflow. */
    static double objective(double[] f, double[] t, double[] w, double a, double b) {
        double s = 0;
        for (int i = 0; i < f.length; i++) {
            double wi = w == null ? 1 : w[i];
            double fApB = f[i] * a + b;
            if (fApB >= 0) {
                s += wi * (t[i] * fApB + Math.log(1 + Math.exp(-fApB)));
            } else {
                s += wi * ((t[i] - 1) * fApB + Math.log(1 + Math.exp(fApB)));
            }
        }
        return s;
    }

    /**
     * The class probabilities of pairwise probabilities r[i][j] = P(i | i or j) (r[j][i] = 1 − r[i][j]; the diagonal
     * is not read), by Wu, Lin &amp; Weng 2004, method 2; they sum to one. Two classes: (r01, r10).
     */
    public static double[] couple(double[][] r) {
        int k = r.length;
        if (k == 2) {
            return new double[] {r[0][1], r[1][0]};
        }
        double[][] q = couplingMatrix(r);
        // Cholesky Q = LLᵀ, then Q z = e; p = z / Σz
        double[][] lo = new double[k][k];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j <= i; j++) {
                double s = q[i][j];
                for (int t = 0; t < j; t++) {
                    s -= lo[i][t] * lo[j][t];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        return iterative(r, q); // not numerically positive definite: LIBSVM's iteration
                    }
                    lo[i][i] = Math.sqrt(s);
                } else {
                    lo[i][j] = s / lo[j][j];
                }
            }
        }
        double[] z = new double[k];
        for (int i = 0; i < k; i++) {
            double s = 1;
            for (int t = 0; t < i; t++) {
                s -= lo[i][t] * z[t];
            }
            z[i] = s / lo[i][i];
        }
        for (int i = k - 1; i >= 0; i--) {
            double s = z[i];
            for (int t = i + 1; t < k; t++) {
                s -= lo[t][i] * z[t];
            }
            z[i] = s / lo[i][i];
        }
        return normalised(z);
    }

    /** Non-negative and summing to one (the exact solution is non-negative; this removes rounding). */
    static double[] normalised(double[] z) {
        double sum = 0;
        for (int i = 0; i < z.length; i++) {
            z[i] = Math.max(0, z[i]);
            sum += z[i];
        }
        for (int i = 0; i < z.length; i++) {
            z[i] /= sum;
        }
        return z;
    }

    /**
     * LIBSVM's {@code multiclass_probability}: Wu, Lin &amp; Weng 2004, method 2 by their fixed-point iteration
     * (eq. 29), here to a tolerance of 10⁻¹⁴·k instead of 0.005/k, and at most max(1000, k) sweeps.
     */
    static double[] iterative(double[][] r, double[][] q) {
        int k = r.length;
        double[] p = new double[k];
        double[] qp = new double[k];
        java.util.Arrays.fill(p, 1.0 / k);
        double eps = 1e-14 * k;
        for (int iter = 0; iter < Math.max(1000, k); iter++) {
            double pqp = 0;
            for (int t = 0; t < k; t++) {
                qp[t] = 0;
                for (int j = 0; j < k; j++) {
                    qp[t] += q[t][j] * p[j];
                }
                pqp += p[t] * qp[t];
            }
            double maxError = 0;
            for (int t = 0; t < k; t++) {
                maxError = Math.max(maxError, Math.abs(qp[t] - pqp));
            }
            if (maxError < eps) {
                break;
            }
            for (int t = 0; t < k; t++) {
                double diff = (-qp[t] + pqp) / q[t][t];
                p[t] += diff;
                pqp = (pqp + diff * (diff * q[t][t] + 2 * qp[t])) / (1 + diff) / (1 + diff);
                for (int j = 0; j < k; j++) {
                    qp[j] = (qp[j] + diff * q[t][j]) / (1 + diff);
                    p[j] /= (1 + diff);
                }
            }
        }
        return normalised(p);
    }

    /** The Q matrix of {@link #couple} (for tests). */
    static double[][] couplingMatrix(double[][] r) {
        int k = r.length;
        double[][] q = new double[k][k];
        for (int t = 0; t < k; t++) {
            for (int j = 0; j < k; j++) {
                if (j != t) {
                    q[t][t] += r[j][t] * r[j][t];
                    q[t][j] = -r[j][t] * r[t][j];
                }
            }
        }
        return q;
    }
}
