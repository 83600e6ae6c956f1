package org.psdkit.psd;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;
import org.psdkit.model.ParameterException;

/**
 * Choice of the m expansion points ("anchors") of every Nyström model of the library — kernel ridge regression
 * (Falkon: Rudi, Carratino &amp; Rosasco 2017) and the PSD families (Marteau-Ferey, Bach &amp; Rudi 2020 App. B.5):
 * the model lives on the anchors while the loss still uses every data point. Every method is seeded (the same seed
 * gives the same anchors) and none forms the n×n Gram matrix; docs/scale.md compares them.
 *
 * <p>Each name means one algorithm ({@link Method}). Releases before this one had two samplers, and two of their
 * names meant different algorithms for KRR and for the PSD families; {@link Method#parseLegacy} reads those names
 * with each family's old meaning (model files record them; the command line still accepts them for one release).
 */
public final class Anchors {

    /** How anchors are chosen. */
    public enum Method {
        /**
         * m distinct rows uniformly at random: the first m steps of a Fisher–Yates shuffle (Knuth 1997, Alg. 3.4.2P)
         * with {@code java.util.Random(seed)}; O(n) memory, m draws. Falkon's choice.
         */
        UNIFORM("uniform"),
        /**
         * Kernel k-means++ seeding (Arthur &amp; Vassilvitskii 2007) in the feature space of k: each next anchor is
         * drawn with probability proportional to its squared feature distance k(x,x) + k(c,c) − 2k(x,c) to the
         * nearest anchor so far; spreads the anchors over the data as the kernel sees it. O(nm) kernel evaluations.
         */
        KMEANSPP("kmeans++"),
        /**
         * k-means++ seeding (Arthur &amp; Vassilvitskii 2007) in input space: the squared Euclidean distance ‖x − c‖²
         * to the nearest anchor so far, whatever the kernel (for a radial kernel the same order of distances as
         * {@link #KMEANSPP}, drawn with other weights). O(nmd) flops, no kernel evaluation. KRR's {@code kmeans++}
         * before this release.
         */
        KMEANSPP_INPUT("kmeans++-input"),
        /**
         * Approximate ridge leverage scores (Alaoui &amp; Mahoney 2015, Def. 1; Musco &amp; Musco 2017, eq. 5) from a
         * uniform pilot S of min(m, {@value #RLS_PILOT}) rows: ℓ_i ∝ k(x_i, x_i) − k_iSᵀ(K_SS + λI)⁻¹k_iS, then m
         * rows without replacement with probability ∝ ℓ_i (Efraimidis &amp; Spirakis 2006). λ is the fit's ridge
         * (KRR) or, when none is given, 10⁻⁶ of the mean diagonal. O(n·s²) flops, n·s kernel evaluations. KRR's
         * {@code leverage} before this release.
         */
        RLS("rls"),
        /**
         * Randomly pivoted Cholesky (Chen, Epperly, Tropp &amp; Webber 2023, Alg. 2.1): each next anchor is drawn
         * with probability proportional to the diagonal of the residual K − G Gᵀ of the partial Cholesky factor G
         * built on the anchors so far; it samples approximately by ridge leverage scores and concentrates on what
         * the current anchors explain least. O(nm) kernel evaluations, O(nm²) flops, n·m memory for G. The PSD
         * families' {@code leverage} before this release.
         */
        RPCHOLESKY("rpcholesky");

        private final String id;

        Method(String id) {
            this.id = id;
        }

        /** The name {@link #parse} reads and model files record. */
        public String id() {
            return id;
        }

        /** The names, as the command line lists them. */
        public static final String NAMES = "uniform, kmeans++, kmeans++-input, rls or rpcholesky";

        /** One of the names {@link #id()} gives (case-insensitive; {@code kmeanspp} for {@code kmeans++}). */
        public static Method parse(String s) {
            Method m = byName(s);
            if (m == null) {
                throw new ParameterException("anchorMethod", "must be " + NAMES + ", got '" + s + "'"
                        + ("leverage".equals(norm(s)) ? " ('leverage' is now rls or rpcholesky)" : ""));
            }
            return m;
        }

        /**
         * A name as this release or an earlier one wrote it, with the meaning it had for {@code family}:
         * {@code leverage} is {@link #RLS} for KRR and {@link #RPCHOLESKY} for the PSD families, and KRR's
         * {@code kmeans++} is {@link #KMEANSPP_INPUT}. For reading model files and, for one release, the command line
         * ({@link #deprecation} says what such a name now means).
         */
        public static Method parseLegacy(String s, Family family) {
            String t = norm(s);
            if (t.equals("leverage")) {
                return family == Family.KRR ? RLS : RPCHOLESKY;
            }
            if (family == Family.KRR && byName(s) == KMEANSPP) {
                return KMEANSPP_INPUT;
            }
            return parse(s);
        }

        /**
         * For a name whose meaning for {@code family} is an old one ({@link #parseLegacy} differs from or has no
         * {@link #parse}), one line saying which method it runs and which name to use; null for a current name. The
         * line names the parameter as {@link ParameterException} does ({@code anchorMethod}).
         */
        public static String deprecation(String s, Family family) {
            return deprecation(s, family, p -> p);
        }

        /**
         * {@link #deprecation(String, Family)} with the parameter named by {@code name} (a front end passes its own
         * spelling, e.g. the command line's flag), as {@link org.psdkit.data.InputException#describe} does.
         */
        public static String deprecation(String s, Family family, java.util.function.UnaryOperator<String> name) {
            String t = norm(s);
            String say = "say " + name.apply("anchorMethod") + " ";
            if (t.equals("leverage")) {
                Method m = parseLegacy(s, family);
                return "anchor method 'leverage' is deprecated: for " + family.label + " it runs '" + m.id() + "' ("
                        + m.summary() + "), as before; " + say + m.id();
            }
            if (family == Family.KRR && byName(s) == KMEANSPP) {
                return "anchor method 'kmeans++' for krr is deprecated: it runs 'kmeans++-input' (k-means++ seeding "
                        + "in input space), as before; " + say + "kmeans++-input (a later release makes "
                        + "kmeans++ the feature-space seeding of the other families)";
            }
            return null;
        }

        private String summary() {
            return switch (this) {
                case UNIFORM -> "uniform sampling";
                case KMEANSPP -> "k-means++ seeding in feature space";
                case KMEANSPP_INPUT -> "k-means++ seeding in input space";
                case RLS -> "pilot ridge-leverage-score sampling";
                case RPCHOLESKY -> "randomly pivoted Cholesky";
            };
        }

        private static Method byName(String s) {
            return switch (norm(s)) {
                case "uniform" -> UNIFORM;
                case "kmeans++", "kmeanspp", "k-means++" -> KMEANSPP;
                case "kmeans++-input", "kmeanspp-input" -> KMEANSPP_INPUT;
                case "rls" -> RLS;
                case "rpcholesky" -> RPCHOLESKY;
                default -> null;
            };
        }

        private static String norm(String s) {
            return s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
        }
    }

    /** Whose old names {@link Method#parseLegacy} reads. */
    public enum Family {
        /** Nyström kernel ridge regression ({@code fit krr --anchors}). */
        KRR("krr"),
        /** The PSD families: density, PSD regression, heteroscedastic and quantile regression, baselines. */
        PSD("the PSD families");

        private final String label;

        Family(String label) {
            this.label = label;
        }
    }

    /** Size of the uniform pilot of {@link Method#RLS}: its cost is O(n·pilot²). */
    public static final int RLS_PILOT = 256;

    /** Row-block size of the pilot's kernel blocks: about 2²⁰ numbers (8 MB). */
    private static final int BLOCK_ENTRIES = 1 << 20;

    private Anchors() {
    }

    /**
     * Row indices of m anchors among the rows of x, in the order chosen; m ≤ 0 or m ≥ n gives all rows 0…n−1 (the
     * exact model). {@link Method#RLS} with ridge 10⁻⁶ of the mean diagonal.
     */
    public static int[] select(Kernel kernel, Matrix x, int m, Method method, long seed) {
        return select(kernel, x, m, method, seed, 0);
    }

    /**
     * As {@link #select(Kernel, Matrix, int, Method, long)}, with the ridge λ ≥ 0 of {@link Method#RLS} (0: 10⁻⁶ of
     * the mean diagonal).
     */
    public static int[] select(Kernel kernel, Matrix x, int m, Method method, long seed, double ridge) {
        int n = x.rows();
        if (n < 1) {
            throw new IllegalArgumentException("anchors: no data points");
        }
        if (m <= 0 || m >= n) {
            return IntStream.range(0, n).toArray();
        }
        if (method == null) {
            throw new IllegalArgumentException("anchor method must not be null");
        }
        if (!(ridge >= 0) || Double.isInfinite(ridge)) {
            throw new IllegalArgumentException("anchor ridge must be >= 0 and finite, got " + ridge);
        }
        return switch (method) {
            case UNIFORM -> uniform(n, m, seed);
            case KMEANSPP -> bySquaredResidual(kernel, x, m, seed, false);
            case KMEANSPP_INPUT -> kmeansPlusPlusInput(x, m, new Random(seed));
            case RLS -> ridgeLeverage(kernel, x, m, new Random(seed), ridge);
            case RPCHOLESKY -> bySquaredResidual(kernel, x, m, seed, true);
        };
    }

    /**
     * Row indices of {@link Method#UNIFORM}'s m anchors among n rows (1 ≤ m ≤ n), a function of (n, m, seed) alone:
     * an engine that holds the rows elsewhere (psdkit-spark) fetches the same rows as the single-machine fit.
     */
    public static int[] uniform(int n, int m, long seed) {
        if (m < 1 || m > n) {
            throw new IllegalArgumentException("anchors must be between 1 and the number of points " + n + ", got "
                    + m);
        }
        return uniform(n, m, new Random(seed));
    }

    /** The anchors' rows of x. */
    public static Matrix rows(Matrix x, int[] idx) {
        return x.selectRows(idx);
    }

    /** The first m steps of a Fisher–Yates shuffle of 0…n−1. */
    private static int[] uniform(int n, int m, Random rnd) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        for (int i = 0; i < m; i++) {
            int j = i + rnd.nextInt(n - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        return Arrays.copyOf(idx, m);
    }

    /** {@link Method#KMEANSPP_INPUT}: the distance updates of each new anchor run on {@link Threads#dataPool}. */
    private static int[] kmeansPlusPlusInput(Matrix x, int m, Random rnd) {
        int n = x.rows();
        int d = x.cols();
        double[] xr = rowMajor(x);
        double[] dmin = new double[n];
        Arrays.fill(dmin, Double.POSITIVE_INFINITY);
        boolean[] taken = new boolean[n];
        int[] out = new int[m];
        ForkJoinPool pool = Threads.dataPool();
        int c = rnd.nextInt(n);
        for (int k = 0; k < m; k++) {
            out[k] = c;
            taken[c] = true;
            final int cc = c;
            pool.submit(() -> IntStream.range(0, n).parallel().forEach(i -> {
                double s = 0;
                for (int t = 0; t < d; t++) {
                    double v = xr[i * d + t] - xr[cc * d + t];
                    s += v * v;
                }
                if (s < dmin[i]) {
                    dmin[i] = s;
                }
            })).join();
            if (k + 1 == m) {
                break;
            }
            double total = 0;
            for (int i = 0; i < n; i++) {
                if (!taken[i]) {
                    total += dmin[i];
                }
            }
            c = -1;
            if (total > 0) {
                double u = rnd.nextDouble() * total;
                for (int i = 0; i < n; i++) {
                    if (!taken[i]) {
                        u -= dmin[i];
                        if (u < 0) {
                            c = i;
                            break;
                        }
                    }
                }
            }
            if (c < 0) { // all remaining points coincide with anchors (or rounding): the next free one at random
                int free = rnd.nextInt(n - k - 1);
                for (int i = 0; i < n; i++) {
                    if (!taken[i] && free-- == 0) {
                        c = i;
                        break;
                    }
                }
            }
        }
        return out;
    }

    /** {@link Method#RLS}. */
    private static int[] ridgeLeverage(Kernel kernel, Matrix x, int m, Random rnd, double lambda) {
        int n = x.rows();
        int s = Math.min(n, Math.min(m, RLS_PILOT));
        Matrix pilot = x.selectRows(uniform(n, s, new Random(rnd.nextLong())));
        Matrix kss = kernel.gram(pilot);
        double mean = kss.trace() / s;
        // λ = 0 has no ridge: a relative 1e-6 of the mean diagonal keeps the scores finite and positive
        kss.addToDiagonal(lambda > 0 ? lambda : 1e-6 * Math.max(mean, 1e-300));
        Cholesky ch = Linalg.cholesky(kss);
        double[] diag = kernel.diag(x);
        double[] score = new double[n];
        int rows = Math.max(1, BLOCK_ENTRIES / s);
        for (int i0 = 0; i0 < n; i0 += rows) {
            int i1 = Math.min(n, i0 + rows);
            Matrix kbs = kernel.cross(pilot, x.rowRange(i0, i1)); // s × b
            Linalg.solveLowerInPlace(ch.lower(), false, kbs);
            double[] a = kbs.data();
            for (int j = 0; j < i1 - i0; j++) {
                double q = 0;
                for (int t = 0; t < s; t++) {
                    q += a[j * s + t] * a[j * s + t];
                }
                score[i0 + j] = diag[i0 + j] - q;
            }
        }
        double floor = 1e-12 * Math.max(mean, 1e-300); // rounding can make a score 0 or negative: keep it drawable
        Integer[] order = new Integer[n];
        double[] key = new double[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            key[i] = Math.log(rnd.nextDouble()) / Math.max(score[i], floor);
        }
        Arrays.sort(order, (p, q) -> Double.compare(key[q], key[p]));
        int[] out = new int[m];
        for (int k = 0; k < m; k++) {
            out[k] = order[k];
        }
        return out;
    }

    private static double[] rowMajor(Matrix x) {
        int n = x.rows();
        int d = x.cols();
        double[] out = new double[n * d];
        double[] a = x.data();
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < n; i++) {
                out[i * d + j] = a[j * n + i];
            }
        }
        return out;
    }

    /**
     * D²-sampling ({@link Method#KMEANSPP}, {@link Method#RPCHOLESKY}): draws each next anchor with probability
     * ∝ score_i, where score is the squared feature distance to the nearest anchor (k-means++) or the residual
     * diagonal of the partial Cholesky factor. Chosen points have score 0 and are never drawn again; if every score
     * vanishes (m above the rank of K), the remaining anchors are drawn uniformly from the points not chosen yet.
     */
    private static int[] bySquaredResidual(Kernel kernel, Matrix x, int m, long seed, boolean cholesky) {
        int n = x.rows();
        double[][] pts = x.toRowArrays();
        double[] diag = new double[n];
        for (int i = 0; i < n; i++) {
            diag[i] = kernel.eval(pts[i], pts[i]);
        }
        double[] score = cholesky ? diag.clone() : new double[n];
        if (!cholesky) {
            Arrays.fill(score, Double.POSITIVE_INFINITY);
        }
        // the partial factor G (n×m) row by row: the update of row i reads G's rows i and s contiguously
        double[] g = cholesky ? new double[n * m] : null;
        boolean[] chosen = new boolean[n];
        int[] out = new int[m];
        SplittableRandom rng = new SplittableRandom(seed);
        for (int j = 0; j < m; j++) {
            int s;
            if (j == 0 && !cholesky) {
                s = rng.nextInt(n);
            } else {
                double total = 0;
                for (int i = 0; i < n; i++) {
                    if (!chosen[i] && score[i] > 0) {
                        total += score[i];
                    }
                }
                s = -1;
                if (total > 0) {
                    double u = rng.nextDouble() * total;
                    double acc = 0;
                    for (int i = 0; i < n; i++) {
                        if (!chosen[i] && score[i] > 0) {
                            acc += score[i];
                            s = i;
                            if (acc > u) {
                                break;
                            }
                        }
                    }
                }
                if (s < 0) { // every remaining point is already explained: fill uniformly
                    int left = n - j;
                    int pick = rng.nextInt(left);
                    for (int i = 0; i < n; i++) {
                        if (!chosen[i] && pick-- == 0) {
                            s = i;
                            break;
                        }
                    }
                }
            }
            chosen[s] = true;
            out[j] = s;
            if (cholesky) {
                double piv = score[s];
                double[] col = new double[n];
                int rs = s * m;
                for (int i = 0; i < n; i++) {
                    double v = kernel.eval(pts[i], pts[s]);
                    int ri = i * m;
                    for (int l = 0; l < j; l++) {
                        v -= g[ri + l] * g[rs + l];
                    }
                    col[i] = v;
                }
                double inv = piv > 0 ? 1.0 / Math.sqrt(piv) : 0.0;
                for (int i = 0; i < n; i++) {
                    double v = col[i] * inv;
                    g[i * m + j] = v;
                    score[i] = chosen[i] ? 0 : Math.max(0, score[i] - v * v);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    double d2 = chosen[i] ? 0 : Math.max(0, diag[i] + diag[s] - 2 * kernel.eval(pts[i], pts[s]));
                    score[i] = Math.min(score[i], d2);
                }
            }
        }
        return out;
    }
}
