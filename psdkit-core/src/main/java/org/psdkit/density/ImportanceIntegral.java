package org.psdkit.density;

import java.util.SplittableRandom;
import java.util.function.Function;
import org.psdkit.kernel.SquaredDistances;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * ∫ g dν by defensive importance sampling from q = ½ν + ½·(1/m)Σ_i N(c_i, w² I) over centres c_i (the data or
 * expansion points), w = median nearest-neighbour distance of the centres; weights ν/q. Plain Monte Carlo from ν
 * never visits the data region of a 10-D mixture under a wide base measure (and would report ≈ 0 or ≈ 1 whatever the
 * truth); the mixture proposal puts half its draws where the model's mass is. Work in log space so that an
 * astronomically unnormalised model (GLM) gives +∞ rather than NaN. {@link #estimateWithModes} adds components at the
 * maxima of |g|·ν, for models whose mass lies between the centres.
 */
public final class ImportanceIntegral {
    private ImportanceIntegral() {
    }

    /**
     * An importance-sampling estimate of ∫ g dν.
     *
     * @param value                  the estimate, (1/N) Σ_j g(ξ_j) ν(ξ_j)/q(ξ_j) (+∞ when it overflows a double)
     * @param log                    its natural logarithm, computed in log space: finite whenever the estimate is
     *                               positive, even when {@code value} overflows (−∞ when every term is 0)
     * @param relativeStandardError  the sample standard deviation of the N terms over √N, relative to the estimate
     *                               (the usual Monte-Carlo standard error; NaN when the estimate is 0 or N = 1)
     * @param draws                  N
     */
    public record Estimate(double value, double log, double relativeStandardError, int draws) {
    }

    /**
     * @param centres  proposal centres, one per row
     * @param base     ν (must be a probability measure)
     * @param logAbsG  log |g(x)| for each row of its argument (g with respect to ν)
     * @param draws    number of draws
     */
    public static double integrate(Matrix centres, BaseMeasure base, Function<Matrix, double[]> logAbsG, long seed,
                                   int draws) {
        return estimate(centres, base, logAbsG, seed, draws).value();
    }

    /**
     * {@link #integrate} with the logarithm and the relative standard error of the estimate (the same draws, the same
     * value).
     */
    public static Estimate estimate(Matrix centres, BaseMeasure base, Function<Matrix, double[]> logAbsG, long seed,
                                    int draws) {
        requireProbability(base);
        int d = centres.cols();
        int np = centres.rows();
        SplittableRandom rng = new SplittableRandom(seed);
        double width = medianNearestNeighbour(centres);
        return sample(draws, d, base, logAbsG, (r, row) -> {
            if (r.nextBoolean()) {
                double[] z = base.sample(r);
                System.arraycopy(z, 0, row, 0, d);
            } else {
                int i = r.nextInt(np);
                for (int t = 0; t < d; t++) {
                    row[t] = centres.get(i, t) + width * r.nextGaussian();
                }
            }
        }, (xi, lnu) -> {
            double[] lmix = logCentreMixture(xi, centres, width);
            double[] lq = new double[xi.rows()];
            for (int j = 0; j < lq.length; j++) {
                double m = Math.max(lnu[j], lmix[j]);
                lq[j] = m + Math.log(0.5 * Math.exp(lnu[j] - m) + 0.5 * Math.exp(lmix[j] - m));
            }
            return lq;
        }, rng, np);
    }

    private static void requireProbability(BaseMeasure base) {
        if (!base.isProbability()) {
            throw new IllegalArgumentException("importance sampling needs a probability base measure, got "
                    + base.spec());
        }
    }

    /** Starting points of the mode search of {@link #estimateWithModes} (a seeded subset of the centres beyond). */
    static final int MAX_MODE_STARTS = 64;
    /** Iteration cap of each ascent of the mode search. */
    static final int MODE_ITERATIONS = 300;
    /** Widening of the Laplace components over the curvature at the mode (tails heavier than the target's). */
    static final double LAPLACE_WIDENING = 1.2;
    /** Points per evaluation of the mode search (its function holds a kernel matrix against the centres). */
    static final int EVALUATION_BLOCK = 256;

    /**
     * As {@link #estimate}, with a third of the draws from Laplace components at the local maxima of |g|·ν: q =
     * ⅓ν + ⅓·(1/m)Σ_i N(c_i, w² I) + ⅓·(1/K)Σ_k N(x_k, diag(s_k²)). The maxima x_k are found by ascending log |g| +
     * log ν from up to {@link #MAX_MODE_STARTS} centres (finite-difference gradients, so any kernel), s_k from the
     * diagonal curvature there (widened by {@link #LAPLACE_WIDENING}; w where the curvature is not negative). A
     * model's mass need not sit at its expansion points: exp(Σ_i α_i k(x, x_i)) with many positive α_i in 10-D peaks
     * at their centroid, nearer to every x_i than they are to each other, where draws around single centres never
     * land; such a peak held half the mass of a GLM density for which {@link #estimate} reported 1.01 instead of 2.05.
     */
    public static Estimate estimateWithModes(Matrix centres, BaseMeasure base, Function<Matrix, double[]> logAbsG,
                                             long seed, int draws) {
        requireProbability(base);
        int d = centres.cols();
        int np = centres.rows();
        SplittableRandom rng = new SplittableRandom(seed);
        double width = medianNearestNeighbour(centres);
        Function<Matrix, double[]> h = z -> {
            double[] v = logAbsG.apply(z);
            double[] ln = base.logDensity(z);
            for (int j = 0; j < v.length; j++) {
                v[j] += ln[j];
                if (Double.isNaN(v[j])) {
                    v[j] = Double.NEGATIVE_INFINITY;
                }
            }
            return v;
        };
        Matrix[] modes = modes(centres, h, width, rng);
        Matrix at = modes[0];
        Matrix sd = modes[1];
        int nm = at.rows();
        double[] logNormK = new double[nm];
        for (int k = 0; k < nm; k++) {
            double l = -0.5 * d * Math.log(2 * Math.PI) - Math.log(nm);
            for (int t = 0; t < d; t++) {
                l -= Math.log(sd.get(k, t));
            }
            logNormK[k] = l;
        }
        return sample(draws, d, base, logAbsG, (r, row) -> {
            int c = r.nextInt(3);
            if (c == 0) {
                double[] z = base.sample(r);
                System.arraycopy(z, 0, row, 0, d);
            } else if (c == 1) {
                int i = r.nextInt(np);
                for (int t = 0; t < d; t++) {
                    row[t] = centres.get(i, t) + width * r.nextGaussian();
                }
            } else {
                int k = r.nextInt(nm);
                for (int t = 0; t < d; t++) {
                    row[t] = at.get(k, t) + sd.get(k, t) * r.nextGaussian();
                }
            }
        }, (xi, lnu) -> {
            double[] lmix = logCentreMixture(xi, centres, width);
            double[] lk = new double[nm];
            double[] lq = new double[xi.rows()];
            for (int j = 0; j < lq.length; j++) {
                double mx = Double.NEGATIVE_INFINITY;
                for (int k = 0; k < nm; k++) {
                    double q = 0;
                    for (int t = 0; t < d; t++) {
                        double z = (xi.get(j, t) - at.get(k, t)) / sd.get(k, t);
                        q += z * z;
                    }
                    lk[k] = logNormK[k] - 0.5 * q;
                    mx = Math.max(mx, lk[k]);
                }
                double acc = 0;
                for (int k = 0; k < nm; k++) {
                    acc += Math.exp(lk[k] - mx);
                }
                double lmode = mx + Math.log(acc);
                double m = Math.max(lnu[j], Math.max(lmix[j], lmode));
                lq[j] = m + Math.log((Math.exp(lnu[j] - m) + Math.exp(lmix[j] - m) + Math.exp(lmode - m)) / 3);
            }
            return lq;
        }, rng, Math.max(np, nm));
    }

    /** One draw of the proposal into {@code row}. */
    private interface Sampler {
        void draw(SplittableRandom rng, double[] row);
    }

    /** log q at the rows of a block, given log ν there. */
    private interface LogProposal {
        double[] at(Matrix block, double[] logNu);
    }

    /**
     * The estimate from {@code draws} draws of the proposal, made and evaluated in blocks of
     * {@link EmpiricalFeatureMap#blockRows}({@code components}) rows (the matrices against the proposal's centres
     * stay that size whatever the number of draws); the draws and the order of the sum are those of one pass over all
     * of them.
     */
    private static Estimate sample(int draws, int d, BaseMeasure base, Function<Matrix, double[]> logAbsG,
                                   Sampler sampler, LogProposal logQ, SplittableRandom rng, int components) {
        int block = Math.min(draws, EmpiricalFeatureMap.blockRows(components));
        double[] row = new double[d];
        double s = 0;
        double[] logTerm = new double[draws];
        double maxLog = Double.NEGATIVE_INFINITY;
        for (int b0 = 0; b0 < draws; b0 += block) {
            int nb = Math.min(block, draws - b0);
            Matrix xi = Matrix.zeros(nb, d);
            for (int j = 0; j < nb; j++) {
                sampler.draw(rng, row);
                for (int t = 0; t < d; t++) {
                    xi.set(j, t, row[t]);
                }
            }
            double[] lg = logAbsG.apply(xi);
            double[] lnu = base.logDensity(xi);
            double[] lq = logQ.at(xi, lnu);
            for (int j = 0; j < nb; j++) {
                double l = Double.NEGATIVE_INFINITY;
                if (lg[j] != Double.NEGATIVE_INFINITY && lnu[j] != Double.NEGATIVE_INFINITY) {
                    l = lg[j] + lnu[j] - lq[j];
                    s += Math.exp(l);
                    maxLog = Math.max(maxLog, l);
                }
                logTerm[b0 + j] = l;
            }
        }
        return finish(s, logTerm, maxLog);
    }

    /**
     * Local maxima of h ({@code [0]}, one per row) and the widths of their Laplace components ({@code [1]}): from
     * each start (the centres, or a seeded subset of {@link #MAX_MODE_STARTS}), steps along the finite-difference
     * gradient of length L (starting at w, ×1.5 after an ascent, ½ after a failure) until L < 1e-4·w.
     */
    static Matrix[] modes(Matrix centres, Function<Matrix, double[]> h, double width, SplittableRandom rng) {
        int d = centres.cols();
        int np = centres.rows();
        int ns = Math.min(np, MAX_MODE_STARTS);
        int[] pick = new int[np];
        for (int i = 0; i < np; i++) {
            pick[i] = i;
        }
        for (int i = 0; i < ns; i++) { // partial Fisher–Yates: the first ns of a seeded permutation
            int j = i + rng.nextInt(np - i);
            int t = pick[i];
            pick[i] = pick[j];
            pick[j] = t;
        }
        double[][] x = new double[ns][];
        for (int s = 0; s < ns; s++) {
            x[s] = centres.row(pick[s]);
        }
        double delta = 1e-4 * width;
        double[] hx = evaluate(h, x);
        double[][] grad = gradients(h, x, hx, delta);
        double[] step = new double[ns];
        java.util.Arrays.fill(step, width);
        boolean[] active = new boolean[ns];
        java.util.Arrays.fill(active, true);
        for (int it = 0; it < MODE_ITERATIONS; it++) {
            java.util.List<Integer> moving = new java.util.ArrayList<>();
            java.util.List<double[]> trial = new java.util.ArrayList<>();
            for (int s = 0; s < ns; s++) {
                double norm = Math.sqrt(Linalg.dot(grad[s], grad[s]));
                if (active[s] && !(norm > 0 && Double.isFinite(norm) && Double.isFinite(hx[s]))) {
                    active[s] = false;
                }
                if (active[s]) {
                    double[] y = x[s].clone();
                    for (int t = 0; t < d; t++) {
                        y[t] += step[s] * grad[s][t] / norm;
                    }
                    moving.add(s);
                    trial.add(y);
                }
            }
            if (moving.isEmpty()) {
                break;
            }
            double[] hy = evaluate(h, trial.toArray(new double[0][]));
            java.util.List<Integer> moved = new java.util.ArrayList<>();
            for (int q = 0; q < moving.size(); q++) {
                int s = moving.get(q);
                if (hy[q] > hx[s]) {
                    x[s] = trial.get(q);
                    hx[s] = hy[q];
                    step[s] *= 1.5;
                    moved.add(s);
                } else {
                    step[s] *= 0.5;
                    if (step[s] < 1e-4 * width) {
                        active[s] = false;
                    }
                }
            }
            if (!moved.isEmpty()) {
                double[][] xs = new double[moved.size()][];
                double[] hs = new double[moved.size()];
                for (int q = 0; q < xs.length; q++) {
                    xs[q] = x[moved.get(q)];
                    hs[q] = hx[moved.get(q)];
                }
                double[][] g = gradients(h, xs, hs, delta);
                for (int q = 0; q < xs.length; q++) {
                    grad[moved.get(q)] = g[q];
                }
            }
        }
        // the diagonal curvature at each maximum, on a coarser step than the gradient's
        double dc = 1e-2 * width;
        double[] hv = evaluate(h, stencil(x, dc));
        Matrix at = Matrix.zeros(ns, d);
        Matrix sd = Matrix.zeros(ns, d);
        for (int s = 0; s < ns; s++) {
            for (int t = 0; t < d; t++) {
                at.set(s, t, x[s][t]);
                double c = -(hv[2 * (s * d + t)] - 2 * hx[s] + hv[2 * (s * d + t) + 1]) / (dc * dc);
                double w = c > 0 && Double.isFinite(c) ? LAPLACE_WIDENING / Math.sqrt(c) : width;
                sd.set(s, t, Math.min(10 * width, Math.max(1e-6 * width, w)));
            }
        }
        return new Matrix[] {at, sd};
    }

    /**
     * The central-difference stencil of the rows of x: for row s and coordinate t, x_s + step·e_t at 2(s·d + t) and
     * x_s − step·e_t at 2(s·d + t) + 1.
     */
    private static double[][] stencil(double[][] x, double step) {
        int d = x[0].length;
        double[][] pts = new double[2 * d * x.length][];
        for (int s = 0; s < x.length; s++) {
            for (int t = 0; t < d; t++) {
                double[] up = x[s].clone();
                double[] down = x[s].clone();
                up[t] += step;
                down[t] -= step;
                pts[2 * (s * d + t)] = up;
                pts[2 * (s * d + t) + 1] = down;
            }
        }
        return pts;
    }

    /** Central differences of h at the rows of x (one-sided where h is −∞ on one side, 0 where on both). */
    private static double[][] gradients(Function<Matrix, double[]> h, double[][] x, double[] hx, double delta) {
        int n = x.length;
        int d = x[0].length;
        double[] v = evaluate(h, stencil(x, delta));
        double[][] g = new double[n][d];
        for (int s = 0; s < n; s++) {
            for (int t = 0; t < d; t++) {
                double up = v[2 * (s * d + t)];
                double down = v[2 * (s * d + t) + 1];
                boolean fu = Double.isFinite(up);
                boolean fd = Double.isFinite(down);
                g[s][t] = fu && fd ? (up - down) / (2 * delta)
                        : fu && Double.isFinite(hx[s]) ? (up - hx[s]) / delta
                        : fd && Double.isFinite(hx[s]) ? (hx[s] - down) / delta : 0;
            }
        }
        return g;
    }

    /** h at the given points, in blocks of {@link #EVALUATION_BLOCK} rows. */
    private static double[] evaluate(Function<Matrix, double[]> h, double[][] rows) {
        double[] out = new double[rows.length];
        for (int b0 = 0; b0 < rows.length; b0 += EVALUATION_BLOCK) {
            int nb = Math.min(EVALUATION_BLOCK, rows.length - b0);
            double[] v = h.apply(Matrix.of(java.util.Arrays.copyOfRange(rows, b0, b0 + nb)));
            System.arraycopy(v, 0, out, b0, nb);
        }
        return out;
    }

    /** log (1/m) Σ_i N(x_j; c_i, w² I) for each row x_j of xi. */
    private static double[] logCentreMixture(Matrix xi, Matrix centres, double width) {
        int draws = xi.rows();
        int d = centres.cols();
        int np = centres.rows();
        Matrix d2 = SquaredDistances.cross(xi, centres);
        double inv = 1.0 / (2 * width * width);
        double logNorm = -0.5 * d * Math.log(2 * Math.PI * width * width) - Math.log(np);
        double[] out = new double[draws];
        for (int j = 0; j < draws; j++) {
            double mx = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < np; i++) {
                mx = Math.max(mx, -d2.get(j, i) * inv);
            }
            double acc = 0;
            for (int i = 0; i < np; i++) {
                acc += Math.exp(-d2.get(j, i) * inv - mx);
            }
            out[j] = logNorm + mx + Math.log(acc);
        }
        return out;
    }

    /**
     * The Monte-Carlo mean of the terms e^{logTerm[j]} as an {@link Estimate} (its logarithm and relative standard
     * error computed relative to the largest term, so that nothing overflows): the same summary as the importance
     * estimates, for a plain Monte-Carlo mean such as the GLM normaliser of {@link Baselines#glm}.
     */
    static Estimate ofLogTerms(double[] logTerm) {
        double maxLog = Double.NEGATIVE_INFINITY;
        for (double l : logTerm) {
            maxLog = Math.max(maxLog, l);
        }
        double s = 0;
        for (double l : logTerm) {
            s += Math.exp(l);
        }
        return finish(s, logTerm, maxLog);
    }

    /** The estimate from the plain sum of the terms, their logarithms and the largest of these. */
    private static Estimate finish(double s, double[] logTerm, double maxLog) {
        int draws = logTerm.length;
        // mean and variance of the terms relative to the largest, so that neither overflows
        double s1 = 0;
        double s2 = 0;
        if (maxLog != Double.NEGATIVE_INFINITY) {
            for (int j = 0; j < draws; j++) {
                double t = Math.exp(logTerm[j] - maxLog);
                s1 += t;
                s2 += t * t;
            }
        }
        double mean = s1 / draws;
        // the sample variance over N − 1, divided by N: the variance of the mean
        double varMean = draws > 1 ? Math.max(0, s2 / draws - mean * mean) / (draws - 1.0) : Double.NaN;
        double rse = mean > 0 ? Math.sqrt(varMean) / mean : Double.NaN;
        double log = mean > 0 ? maxLog + Math.log(mean) : Double.NEGATIVE_INFINITY;
        return new Estimate(s / draws, log, rse, draws);
    }

    static double medianNearestNeighbour(Matrix points) {
        Matrix d2 = SquaredDistances.cross(points, points);
        int np = points.rows();
        if (np < 2) {
            return 1.0;
        }
        double[] nn = new double[np];
        for (int i = 0; i < np; i++) {
            double b = Double.POSITIVE_INFINITY;
            for (int j = 0; j < np; j++) {
                if (j != i) {
                    b = Math.min(b, d2.get(i, j));
                }
            }
            nn[i] = Math.sqrt(b);
        }
        java.util.Arrays.sort(nn);
        double med = nn[np / 2];
        return med > 0 ? med : 1.0;
    }
}
