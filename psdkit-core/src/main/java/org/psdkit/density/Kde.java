package org.psdkit.density;

import org.psdkit.kernel.SquaredDistances;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

/**
 * Gaussian kernel density estimate p(x) = (1/n) Σ_i N(x; x_i, h² I), with h chosen by maximising the
 * leave-one-out log-likelihood (likelihood cross-validation) over a log grid around Silverman's rule, refined by
 * golden-section search. Density with respect to Lebesgue measure.
 */
public final class Kde implements DensityModel {
    public static final String TYPE = "kde";
    /** Grid of h/h_Silverman searched before refinement: 1/20 … 5, 25 log-spaced points. */
    static final double GRID_LO = 0.05;
    static final double GRID_HI = 5.0;
    static final int GRID_POINTS = 25;
    /** Golden-section refinement steps (bracket shrinks by 0.618 each: 30 steps → 1e-6 relative). */
    static final int REFINE_STEPS = 30;

    private final Matrix points;
    private final double h;
    private final double looLogLik;

    public Kde(Matrix points, double h, double looLogLik) {
        if (!(h > 0) || !Double.isFinite(h)) {
            throw new IllegalArgumentException("kde bandwidth must be > 0, got " + h);
        }
        this.points = points;
        this.h = h;
        this.looLogLik = looLogLik;
    }

    /** Bandwidth by leave-one-out likelihood CV. */
    public static Kde fit(Matrix x) {
        DensityData.check(x, "kde");
        Matrix d2 = SquaredDistances.cross(x, x);
        int n = x.rows();
        int d = x.cols();
        double sd = 0;
        for (int t = 0; t < d; t++) {
            double m = 0;
            double s = 0;
            for (int i = 0; i < n; i++) {
                m += x.get(i, t);
            }
            m /= n;
            for (int i = 0; i < n; i++) {
                s += (x.get(i, t) - m) * (x.get(i, t) - m);
            }
            sd += Math.sqrt(s / (n - 1)) / d;
        }
        if (!(sd > 0)) {
            throw new IllegalArgumentException("kde: all points are equal; no bandwidth can be chosen");
        }
        double silverman = sd * Math.pow(4.0 / ((d + 2.0) * n), 1.0 / (d + 4));
        double bestH = silverman;
        double best = Double.NEGATIVE_INFINITY;
        int bestK = 0;
        double[] hs = new double[GRID_POINTS];
        for (int k = 0; k < GRID_POINTS; k++) {
            hs[k] = silverman * GRID_LO * Math.pow(GRID_HI / GRID_LO, k / (GRID_POINTS - 1.0));
            double v = loo(d2, d, hs[k]);
            if (v > best) {
                best = v;
                bestH = hs[k];
                bestK = k;
            }
        }
        double a = Math.log(hs[Math.max(0, bestK - 1)]);
        double b = Math.log(hs[Math.min(GRID_POINTS - 1, bestK + 1)]);
        double gr = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < REFINE_STEPS; it++) {
            double c = b - gr * (b - a);
            double e = a + gr * (b - a);
            if (loo(d2, d, Math.exp(c)) > loo(d2, d, Math.exp(e))) {
                b = e;
            } else {
                a = c;
            }
        }
        double hRef = Math.exp(0.5 * (a + b));
        double vRef = loo(d2, d, hRef);
        if (vRef > best) {
            best = vRef;
            bestH = hRef;
        }
        return new Kde(x.copy(), bestH, best);
    }

    /** Mean leave-one-out log-likelihood for bandwidth h (log-sum-exp per point). */
    static double loo(Matrix d2, int d, double h) {
        int n = d2.rows();
        double logNorm = -0.5 * d * Math.log(2 * Math.PI * h * h) - Math.log(n - 1);
        double inv = 1.0 / (2 * h * h);
        double total = 0;
        for (int i = 0; i < n; i++) {
            double mx = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < n; j++) {
                if (j != i) {
                    mx = Math.max(mx, -d2.get(i, j) * inv);
                }
            }
            double s = 0;
            for (int j = 0; j < n; j++) {
                if (j != i) {
                    s += Math.exp(-d2.get(i, j) * inv - mx);
                }
            }
            total += logNorm + mx + Math.log(s);
        }
        return total / n;
    }

    public double bandwidth() {
        return h;
    }

    public double looLogLikelihood() {
        return looLogLik;
    }

    public Matrix points() {
        return points.copy();
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public int dimension() {
        return points.cols();
    }

    @Override
    public BaseMeasure base() {
        return new BaseMeasure.Lebesgue();
    }

    @Override
    public double[] logDensity(Matrix x) {
        Matrix d2 = SquaredDistances.cross(x, points);
        int n = points.rows();
        int d = points.cols();
        double logNorm = -0.5 * d * Math.log(2 * Math.PI * h * h) - Math.log(n);
        double inv = 1.0 / (2 * h * h);
        double[] out = new double[x.rows()];
        for (int i = 0; i < out.length; i++) {
            double mx = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < n; j++) {
                mx = Math.max(mx, -d2.get(i, j) * inv);
            }
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += Math.exp(-d2.get(i, j) * inv - mx);
            }
            out[i] = logNorm + mx + Math.log(s);
        }
        return out;
    }

    @Override
    public double[] density(Matrix x) {
        double[] l = logDensity(x);
        for (int i = 0; i < l.length; i++) {
            l[i] = Math.exp(l[i]);
        }
        return l;
    }

    /** Exactly 1 (a mixture of normalised Gaussians). */
    @Override
    public double integral() {
        return 1.0;
    }

    /** m draws: pick a point uniformly, add N(0, h² I). */
    public Matrix sample(int m, long seed) {
        return sample(m, seed, null);
    }

    /**
     * As {@link #sample(int, long)}, reporting one event per draw to {@code listener} (null: none), task
     * {@code "sample"}, with the total m; a listener that throws stops the sampling.
     */
    public Matrix sample(int m, long seed, ProgressListener listener) {
        long t0 = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        int n = points.rows();
        int d = points.cols();
        Matrix out = Matrix.zeros(m, d);
        for (int s = 0; s < m; s++) {
            int i = r.nextInt(n);
            for (int t = 0; t < d; t++) {
                out.set(s, t, points.get(i, t) + h * r.nextGaussian());
            }
            lis.onProgress(ProgressListener.Event.of("sample", s + 1, m, (System.nanoTime() - t0) * 1e-9));
        }
        return out;
    }
}
