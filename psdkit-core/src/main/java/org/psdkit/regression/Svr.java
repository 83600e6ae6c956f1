package org.psdkit.regression;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.optim.smo.CachedKernelRows;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

/**
 * ε-insensitive support vector regression, f(x) = Σ_i β_i k(s_i, x) + b, fitted by the {@link Smo} solver.
 *
 * <p>The dual (LIBSVM's ε-SVR) over α, α* ∈ [0, C]^m is
 * <pre>  min ½ (α − α*)ᵀ K (α − α*) + ε Σ (α_i + α*_i) − Σ y_i (α_i − α*_i)   s.t.  Σ (α_i − α*_i) = 0,</pre>
 * i.e. the SMO problem on 2m variables with labels z = (+1…, −1…), Q_st = z_s z_t K_{s mod m, t mod m} and linear
 * term p = (ε − y, ε + y). Then β = α − α* and b = −ρ from the free variables, as for classification. The primal
 * is min ½‖w‖² + C Σ max(0, |y_i − f(x_i)| − ε); {@link Diagnostics#primal()} and {@link Diagnostics#dual()} give
 * both objectives so that the duality gap can be checked.
 *
 * @param kernel         the kernel
 * @param supportVectors points with β_i ≠ 0 (rows)
 * @param coef           β_i per support vector
 * @param bias           b
 * @param c              penalty C
 * @param epsilon        half-width ε of the insensitive tube
 * @param diagnostics    solver diagnostics
 */
public record Svr(Kernel kernel, Matrix supportVectors, double[] coef, double bias, double c, double epsilon,
                  Diagnostics diagnostics) implements Predictor {

    /** Model type in files and on the command line. */
    public static final String TYPE = "svr";

    /**
     * Solver diagnostics.
     *
     * @param iterations SMO iterations
     * @param violation  final maximal KKT violation
     * @param converged  whether the violation reached the tolerance
     * @param dual       dual objective value (to be maximised)
     * @param primal     primal objective ½βᵀKβ + C Σ max(0, |y_i − f(x_i)| − ε) at the solution
     * @param seconds    training time
     */
    public record Diagnostics(long iterations, double violation, boolean converged, double dual, double primal,
                              double seconds) implements org.psdkit.model.Diagnostics {
        /** The model file's {@code diagnostics}: these fields in this order. */
        @Override
        public java.util.Map<String, Object> toMap() {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("iterations", iterations == (int) iterations ? (Object) (int) iterations : (Object) iterations);
            m.put("violation", violation);
            m.put("converged", converged);
            m.put("dual", dual);
            m.put("primal", primal);
            m.put("seconds", seconds);
            return m;
        }

        /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
        public static Diagnostics of(java.util.Map<String, Object> m) {
            return new Diagnostics(((Number) m.get("iterations")).longValue(), (Double) m.get("violation"),
                    (Boolean) m.get("converged"), (Double) m.get("dual"), (Double) m.get("primal"),
                    (Double) m.get("seconds"));
        }
    }

    /**
     * Fits on points x with targets y.
     *
     * @param tolerance SMO stopping tolerance on the KKT violation (LIBSVM's default 1e-3)
     */
    static Svr fit(Kernel kernel, Matrix x, double[] y, double c, double epsilon, double tolerance) {
        return fit(kernel, x, y, c, epsilon, tolerance, (long) Smo.DEFAULT_CACHE_MB << 20);
    }

    /**
     * As {@link #fit(Kernel, Matrix, double[], double, double, double)} with {@code cacheBytes} bytes for kernel
     * values (LIBSVM's {@code -m}): the m×m Gram matrix when its 8m² bytes fit, the rest (at least two rows) for
     * the rows of the doubled problem; otherwise only the row cache.
     */
    static Svr fit(Kernel kernel, Matrix x, double[] y, double c, double epsilon, double tolerance,
                   long cacheBytes) {
        return fit(kernel, x, y, c, epsilon, tolerance, cacheBytes, null);
    }

    /**
     * As {@link #fit(Kernel, Matrix, double[], double, double, double, long)} with a weight w_i &gt; 0 per point
     * (null: none): both of point i's dual variables are bounded by C·w_i (LIBSVM's instance-weight extension,
     * scikit-learn's {@code SVR.fit(sample_weight=…)}), and the primal loss term of point i is C·w_i·max(0, |r_i| − ε).
     */
    static Svr fit(Kernel kernel, Matrix x, double[] y, double c, double epsilon, double tolerance,
                   long cacheBytes, double[] weights) {
        return fitted(kernel, x, y, c, epsilon, tolerance, cacheBytes, weights).model();
    }

    /**
     * A fitted SVR and its predictions at the training points, f(x_i) = (Kβ)_i + b, which {@link #finish} has
     * from the kernel rows of the support vectors (for the primal objective): a report needs no second pass.
     */
    record Fitted(Svr model, double[] fitted) {
    }

    /** As {@link #fit(Kernel, Matrix, double[], double, double, double, long, double[])}, with the training predictions. */
    static Fitted fitted(Kernel kernel, Matrix x, double[] y, double c, double epsilon, double tolerance,
                         long cacheBytes, double[] weights) {
        if (cacheBytes <= 0) {
            throw new IllegalArgumentException("cache size must be positive, got " + cacheBytes + " bytes");
        }
        long t0 = System.nanoTime();
        int m = x.rows();
        if (y.length != m) {
            throw new IllegalArgumentException("targets length " + y.length + " differs from " + m + " points");
        }
        if (m < 2) {
            throw new IllegalArgumentException("SVR needs at least 2 training points, got " + m);
        }
        if (!(c > 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("C must be positive and finite, got " + c);
        }
        if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
            throw new IllegalArgumentException("epsilon must be >= 0 and finite, got " + epsilon);
        }
        for (int i = 0; i < m; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("target " + i + " is not finite: " + y[i]);
            }
        }
        // the doubled rows are the only row cache: the base rows are copied out of the Gram matrix, or computed
        // from the kernel (a CachedKernelRows with no budget keeps only its minimum of two rows)
        boolean dense = Smo.denseFits(m, cacheBytes);
        KernelRows base = dense ? columns(kernel.gram(x)) : new CachedKernelRows(kernel, x, 0);
        KernelRows doubled = doubled(base, dense ? cacheBytes - 8L * m * m : cacheBytes);
        double[] z = new double[2 * m];
        double[] p = new double[2 * m];
        for (int i = 0; i < m; i++) {
            z[i] = 1;
            z[i + m] = -1;
            p[i] = epsilon - y[i];
            p[i + m] = epsilon + y[i];
        }
        Smo.Result r;
        if (weights == null) {
            r = Smo.solve(doubled, z, p, c, tolerance, null);
        } else {
            double[] upper = new double[2 * m];
            for (int i = 0; i < m; i++) {
                upper[i] = c * weights[i];
                upper[i + m] = c * weights[i];
            }
            r = Smo.solve(doubled, z, p, upper, new Smo.Options(tolerance, true), null, null);
        }
        return finish(kernel, x, y, doubled, r, c, epsilon, 0, weights, t0);
    }

    /**
     * The ν-SVR (Schölkopf, Smola, Williamson &amp; Bartlett 2000, eq. 48-50, in LIBSVM's {@code -s 4} scaling): over
     * α, α* ∈ [0, C]^m
     * <pre>  min ½ (α − α*)ᵀ K (α − α*) − Σ y_i (α_i − α*_i)   s.t.  Σ (α_i − α*_i) = 0,  Σ (α_i + α*_i) = Cνm,</pre>
     * the primal min ½‖w‖² + C (νmε + Σ max(0, |y_i − f(x_i)| − ε)) over w, b and ε ≥ 0. Solved by
     * {@link Smo#solveNu} on the doubled problem (labels z = (+1…, −1…), linear term (−y, y)) from
     * α_i = α*_i = min(C, what is left of Cνm/2) in row order; b = −(r₊ − r₋)/2 and ε = −(r₊ + r₋)/2 from the two
     * multipliers. ν bounds the fraction of points outside the tube from above and that of support vectors from
     * below.
     */
    static Svr fitNu(Kernel kernel, Matrix x, double[] y, double c, double nu, double tolerance, long cacheBytes) {
        return fittedNu(kernel, x, y, c, nu, tolerance, cacheBytes).model();
    }

    /** As {@link #fitNu}, with the training predictions. */
    static Fitted fittedNu(Kernel kernel, Matrix x, double[] y, double c, double nu, double tolerance,
                           long cacheBytes) {
        if (cacheBytes <= 0) {
            throw new IllegalArgumentException("cache size must be positive, got " + cacheBytes + " bytes");
        }
        long t0 = System.nanoTime();
        int m = x.rows();
        if (y.length != m) {
            throw new IllegalArgumentException("targets length " + y.length + " differs from " + m + " points");
        }
        if (m < 2) {
            throw new IllegalArgumentException("SVR needs at least 2 training points, got " + m);
        }
        if (!(c > 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("C must be positive and finite, got " + c);
        }
        if (!(nu > 0 && nu <= 1)) {
            throw new IllegalArgumentException("nu must be in (0, 1], got " + nu);
        }
        for (int i = 0; i < m; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("target " + i + " is not finite: " + y[i]);
            }
        }
        boolean dense = Smo.denseFits(m, cacheBytes);
        KernelRows base = dense ? columns(kernel.gram(x)) : new CachedKernelRows(kernel, x, 0);
        KernelRows doubled = doubled(base, dense ? cacheBytes - 8L * m * m : cacheBytes);
        double[] z = new double[2 * m];
        double[] p = new double[2 * m];
        double[] start = new double[2 * m];
        double left = c * nu * m / 2;
        for (int i = 0; i < m; i++) {
            z[i] = 1;
            z[i + m] = -1;
            p[i] = -y[i];
            p[i + m] = y[i];
            start[i] = Math.min(c, left);
            start[i + m] = start[i];
            left -= start[i];
        }
        Smo.NuResult nr = Smo.solveNu(doubled, z, p, c, new Smo.Options(tolerance, true), start, null);
        double epsilon = Math.max(0, -nr.r());
        return finish(kernel, x, y, doubled, nr.result(), c, epsilon, nu, null, t0);
    }

    /**
     * The model of a solution α of the doubled problem: β = α − α*, the support vectors, and the primal objective
     * ½βᵀKβ + C (νmε + Σ w_i max(0, |y_i − f(x_i)| − ε)) (ν = 0 for the ε-SVR; w_i = 1 without weights).
     */
    private static Fitted finish(Kernel kernel, Matrix x, double[] y, KernelRows doubled, Smo.Result r, double c,
                              double epsilon, double nu, double[] weights, long t0) {
        int m = x.rows();
        double[] beta = new double[m];
        int count = 0;
        for (int i = 0; i < m; i++) {
            beta[i] = r.alpha()[i] - r.alpha()[i + m];
            if (beta[i] != 0) {
                count++;
            }
        }
        int[] idx = new int[count];
        double[] coef = new double[count];
        int t = 0;
        for (int i = 0; i < m; i++) {
            if (beta[i] != 0) {
                idx[t] = i;
                coef[t] = beta[i];
                t++;
            }
        }
        // primal objective from the kernel rows of the support vectors (the first half of a doubled row is K's row)
        double[] f = new double[m];
        double quad = 0;
        for (int s = 0; s < count; s++) {
            double[] row = doubled.row(idx[s]);
            for (int i = 0; i < m; i++) {
                f[i] += coef[s] * row[i];
            }
        }
        double loss = 0;
        for (int i = 0; i < m; i++) {
            quad += beta[i] * f[i];
            loss += (weights == null ? 1 : weights[i]) * Math.max(0, Math.abs(y[i] - f[i] - r.bias()) - epsilon);
        }
        double primal = 0.5 * quad + c * (nu * m * epsilon + loss);
        double secs = (System.nanoTime() - t0) * 1e-9;
        double[] fitted = new double[m];
        for (int i = 0; i < m; i++) {
            fitted[i] = f[i] + r.bias();
        }
        return new Fitted(new Svr(kernel, x.selectRows(idx), coef, r.bias(), c, epsilon,
                new Diagnostics(r.iterations(), r.violation(), r.converged(), r.dual(), primal, secs)), fitted);
    }

    /** Rows of a dense symmetric Gram matrix (column-major: row i is column i), copied out on each call. */
    private static KernelRows columns(Matrix gram) {
        int m = gram.rows();
        double[] d = gram.data();
        return new KernelRows() {
            @Override
            public int size() {
                return m;
            }

            @Override
            public double[] row(int i) {
                return java.util.Arrays.copyOfRange(d, i * m, (i + 1) * m);
            }

            @Override
            public double diag(int i) {
                return d[i + i * m];
            }
        };
    }

    /**
     * Rows of the doubled matrix [[K, K], [K, K]] of size 2m (row t is row t mod m of K, twice), kept in a
     * least-recently-used cache of at most {@code cacheBytes} (both halves share one cached row).
     */
    static KernelRows doubled(KernelRows base, long cacheBytes) {
        int m = base.size();
        int capacity = (int) Math.max(2, Math.min(m, cacheBytes / (16L * m)));
        Map<Integer, double[]> cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, double[]> e) {
                return size() > capacity;
            }
        };
        return new KernelRows() {
            @Override
            public int size() {
                return 2 * m;
            }

            @Override
            public double[] row(int t) {
                int i = t < m ? t : t - m;
                double[] r = cache.get(i);
                if (r == null) {
                    double[] k = base.row(i);
                    r = new double[2 * m];
                    System.arraycopy(k, 0, r, 0, m);
                    System.arraycopy(k, 0, r, m, m);
                    cache.put(i, r);
                }
                return r;
            }

            @Override
            public double diag(int t) {
                return base.diag(t < m ? t : t - m);
            }
        };
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String[] outputColumns() {
        return new String[] {"prediction"};
    }

    @Override
    public Matrix predict(Matrix x) {
        return Matrix.column(predictVector(x));
    }

    /** f(x) for every row of x (in the training points' scale). */
    public double[] predictVector(Matrix x) {
        if (x.cols() != supportVectors.cols()) {
            throw new IllegalArgumentException("the SVR was fitted on " + supportVectors.cols() + " features, got "
                    + x.cols());
        }
        double[] f;
        if (supportVectors.rows() == 0) {
            f = new double[x.rows()];
        } else {
            // in row blocks, without the full cross matrix beyond 2^17 entries (KernelProducts)
            f = KernelProducts.times(kernel, x, supportVectors, coef);
        }
        for (int i = 0; i < f.length; i++) {
            f[i] += bias;
        }
        return f;
    }
}
