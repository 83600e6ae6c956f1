package org.psdkit.classify.mkl;

import java.util.Arrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TkGram;
import org.psdkit.linalg.Matrix;

/**
 * The Gram matrices of every kernel of a library on a whole training part, computed once and reused by the
 * cross-validation folds and the final fit.
 *
 * <p>Library kernels depend on the training data only through their unit-trace normalisation (the data are
 * scaled on the whole training part before CV, and each kernel function k_k itself does not depend on which
 * points are trained on). So the library of a fold with training rows I is exactly
 * K_k[I, I] / tr(K_k[I, I]) built from the whole part's K_k: {@link #subset} materialises those matrices
 * (single precision, like the libraries themselves) instead of evaluating the kernels again, and
 * {@link Subset#decision} evaluates the SVM on held-out rows of the same part from the stored cross blocks.
 *
 * <p>Storage: R base matrices B_r and, per kernel, K_k = Σ_r c_kr B_r. Explicit libraries have one base matrix
 * per kernel (c = identity). A tessellated library whose matrices P_k span fewer dimensions than it has kernels
 * (d = 0: P is 2×2, so 300 kernels live in a 3-dimensional space) keeps the Gram matrices of a basis only, and
 * all sums and quadratic forms cost R instead of M matrix passes.
 */
public final class LibraryGrams {

    private final KernelLibrary base;
    private final float[][] grams;   // base matrices B_r, m×m column-major
    private final double[][] diag;   // their diagonals
    private final int[][] terms;     // kernel k = Σ_t coefs[k][t] · B_{terms[k][t]}
    private final double[][] coefs;
    private final int m;

    private LibraryGrams(KernelLibrary base, float[][] grams, double[][] diag, int[][] terms, double[][] coefs) {
        this.base = base;
        this.grams = grams;
        this.diag = diag;
        this.terms = terms;
        this.coefs = coefs;
        this.m = base.points();
        if (terms.length != base.size() || coefs.length != base.size()) {
            throw new IllegalArgumentException("library of " + base.size() + " kernels got " + terms.length
                    + " kernel expansions");
        }
        for (int r = 0; r < grams.length; r++) {
            if (grams[r].length != m * m || diag[r].length != m) {
                throw new IllegalArgumentException("Gram matrix " + r + " does not match " + m + " points");
            }
        }
    }

    /**
     * @param base  the library on the whole part, normalised to unit trace there (gives the kernel functions)
     * @param grams its Gram matrices (m×m column-major, single precision), in the base library's order
     * @param diag  their diagonals in double precision
     */
    public LibraryGrams(KernelLibrary base, float[][] grams, double[][] diag) {
        this(base, grams, diag, identityTerms(grams.length), identityCoefs(grams.length));
        if (grams.length != base.size() || diag.length != base.size()) {
            throw new IllegalArgumentException("library of " + base.size() + " kernels got " + grams.length
                    + " Gram matrices and " + diag.length + " diagonals");
        }
    }

    private static int[][] identityTerms(int n) {
        int[][] t = new int[n][];
        for (int k = 0; k < n; k++) {
            t[k] = new int[] {k};
        }
        return t;
    }

    private static double[][] identityCoefs(int n) {
        double[][] c = new double[n][];
        for (int k = 0; k < n; k++) {
            c[k] = new double[] {1.0};
        }
        return c;
    }

    /** The Gaussian/polynomial library on x with its stored Gram matrices. */
    public static LibraryGrams of(GaussPolyLibrary lib) {
        float[][] g = new float[lib.size()][];
        double[][] d = new double[lib.size()][];
        for (int k = 0; k < lib.size(); k++) {
            g[k] = lib.gram(k);
            d[k] = lib.diagonal(k);
        }
        return new LibraryGrams(lib, g, d);
    }

    /**
     * The random tessellated-kernel library with all its Gram matrices computed in one batch, or, when the
     * symmetric 2q×2q matrices have fewer dimensions than the library has kernels (and d ≤ 1, where K is linear
     * in the packed P), the Gram matrices of the basis e_r e_cᵀ + e_c e_rᵀ and each kernel's coordinates.
     */
    public static LibraryGrams of(TkRandomLibrary lib) {
        Matrix[] ps = lib.matrices();
        int dim = ps[0].rows();
        int packed = dim * (dim + 1) / 2;
        if (lib.engine().degree() <= 1 && packed < ps.length) {
            Matrix[] basis = new Matrix[packed];
            int t = 0;
            for (int c = 0; c < dim; c++) {
                for (int r = 0; r <= c; r++) {
                    Matrix e = Matrix.zeros(dim, dim);
                    e.set(r, c, 1);
                    e.set(c, r, 1);
                    basis[t++] = e;
                }
            }
            double[][] d = new double[packed][lib.points()];
            float[][] g = lib.engine().grams(basis, d);
            requireSinglePrecision(lib.engine(), d);
            int[][] terms = new int[ps.length][];
            double[][] coefs = new double[ps.length][];
            for (int k = 0; k < ps.length; k++) {
                terms[k] = new int[packed];
                coefs[k] = new double[packed];
                t = 0;
                for (int c = 0; c < dim; c++) {
                    for (int r = 0; r <= c; r++) {
                        terms[k][t] = t;
                        coefs[k][t] = 0.5 * (ps[k].get(r, c) + ps[k].get(c, r));
                        t++;
                    }
                }
            }
            return new LibraryGrams(lib, g, d, terms, coefs);
        }
        double[][] d = new double[lib.size()][lib.points()];
        float[][] g = lib.engine().grams(ps, d);
        return new LibraryGrams(lib, g, d);
    }

    /**
     * Refuses basis Gram matrices (not normalised, unlike the library's kernels) that single precision cannot hold.
     * {@code d} holds their diagonals; the basis e_r e_rᵀ gives G(i, i)_rr and, by Cauchy–Schwarz,
     * |G(i, j)_rc| ≤ √(G(i, i)_rr G(j, j)_cc), so every stored entry (G_rc + G_cr for r ≠ c) is at most twice the
     * largest diagonal.
     */
    private static void requireSinglePrecision(TkGram eng, double[][] d) {
        for (double[] dk : d) {
            for (int i = 0; i < dk.length; i++) {
                if (!(Math.abs(dk[i]) <= Float.MAX_VALUE / 2)) {
                    throw new TkGram.TooLarge("simplemkl: the tessellated kernels on the " + eng.describe()
                            + ", reach " + dk[i] + " at training point " + (i + 1) + " (the features are scaled to "
                            + "[0, 1]), beyond the single precision (" + Float.MAX_VALUE + ") of the library's Gram "
                            + "matrices; choose a smaller epsilon");
                }
            }
        }
    }

    /** The concatenation (Colbert &amp; Peet's combined library). */
    public static LibraryGrams concat(LibraryGrams first, LibraryGrams second) {
        float[][] g = Arrays.copyOf(first.grams, first.grams.length + second.grams.length);
        System.arraycopy(second.grams, 0, g, first.grams.length, second.grams.length);
        double[][] d = Arrays.copyOf(first.diag, first.diag.length + second.diag.length);
        System.arraycopy(second.diag, 0, d, first.diag.length, second.diag.length);
        int nk = first.terms.length + second.terms.length;
        int[][] terms = Arrays.copyOf(first.terms, nk);
        double[][] coefs = Arrays.copyOf(first.coefs, nk);
        int shift = first.grams.length;
        for (int k = 0; k < second.terms.length; k++) {
            int[] t = second.terms[k].clone();
            for (int i = 0; i < t.length; i++) {
                t[i] += shift;
            }
            terms[first.terms.length + k] = t;
            coefs[first.terms.length + k] = second.coefs[k];
        }
        return new LibraryGrams(new CombinedLibrary(first.base, second.base), g, d, terms, coefs);
    }

    /** Number of kernels. */
    public int size() {
        return terms.length;
    }

    /** Number of stored m×m matrices. */
    public int stored() {
        return grams.length;
    }

    /** Number of points of the whole part. */
    public int points() {
        return m;
    }

    /** The library on the whole part (every kernel renormalised to unit trace from its double diagonal). */
    public Subset full() {
        int[] all = new int[m];
        for (int i = 0; i < m; i++) {
            all[i] = i;
        }
        return subset(all);
    }

    /** The library on the rows {@code rows} of the part, each kernel normalised to unit trace on those rows. */
    public Subset subset(int[] rows) {
        return new Subset(rows);
    }

    /** A library on a subset of the part's rows, backed by the whole part's Gram matrices. */
    public final class Subset implements KernelLibrary {

        /** Matrices summed per pass over the output (fewer passes over the m² accumulator). */
        private static final int FUSE = 4;

        private final int[] rows;
        private final double[] scale;  // per kernel: 1 / its trace on the rows
        private final float[][] sub;   // base matrices restricted to the rows (not scaled)
        private final int ms;

        Subset(int[] rows) {
            for (int r : rows) {
                if (r < 0 || r >= m) {
                    throw new IllegalArgumentException("row " + r + " outside the part's " + m + " rows");
                }
            }
            this.rows = rows.clone();
            this.ms = rows.length;
            boolean identity = ms == m;
            for (int i = 0; i < ms && identity; i++) {
                identity = rows[i] == i;
            }
            double[] baseTrace = new double[grams.length];
            for (int r = 0; r < grams.length; r++) {
                double tr = 0;
                for (int i : rows) {
                    tr += diag[r][i];
                }
                baseTrace[r] = tr;
            }
            this.scale = new double[terms.length];
            for (int k = 0; k < terms.length; k++) {
                double tr = 0;
                for (int t = 0; t < terms[k].length; t++) {
                    tr += coefs[k][t] * baseTrace[terms[k][t]];
                }
                if (!(tr > 0)) {
                    throw new IllegalStateException("library kernel " + k + " (" + base.describe(k)
                            + ") has trace " + tr + " on " + ms + " rows");
                }
                scale[k] = 1.0 / tr;
            }
            this.sub = new float[grams.length][];
            for (int r = 0; r < grams.length; r++) {
                float[] full = grams[r];
                if (identity) {
                    sub[r] = full; // read only
                    continue;
                }
                float[] s = new float[ms * ms];
                for (int b = 0; b < ms; b++) {
                    int src = rows[b] * m;
                    int dst = b * ms;
                    for (int a = 0; a < ms; a++) {
                        s[dst + a] = full[src + rows[a]];
                    }
                }
                sub[r] = s;
            }
        }

        @Override
        public int size() {
            return terms.length;
        }

        @Override
        public int points() {
            return ms;
        }

        @Override
        public String describe(int k) {
            return base.describe(k);
        }

        /** Weights on the base matrices of Σ_k w_k K_k (kernels normalised on these rows). */
        private double[] baseWeights(double[] w) {
            double[] v = new double[grams.length];
            for (int k = 0; k < w.length; k++) {
                if (w[k] == 0) {
                    continue;
                }
                double wk = w[k] * scale[k];
                int[] tk = terms[k];
                double[] ck = coefs[k];
                for (int t = 0; t < tk.length; t++) {
                    v[tk[t]] += wk * ck[t];
                }
            }
            return v;
        }

        @Override
        public double[] quadForms(double[] beta) {
            double[] qb = baseQuadForms(beta);
            double[] out = new double[terms.length];
            for (int k = 0; k < terms.length; k++) {
                int[] tk = terms[k];
                double[] ck = coefs[k];
                double s = 0;
                for (int t = 0; t < tk.length; t++) {
                    s += ck[t] * qb[tk[t]];
                }
                out[k] = scale[k] * s;
            }
            return out;
        }

        private double[] baseQuadForms(double[] beta) {
            int[] nz = GaussPolyLibrary.nonZero(beta);
            int c = nz.length;
            double[] b = new double[c];
            int[] cols = new int[c];
            for (int t = 0; t < c; t++) {
                b[t] = beta[nz[t]];
                cols[t] = nz[t] * ms;
            }
            double[] out = new double[sub.length];
            // βᵀBβ = Σ_j β_j (B_jj β_j + 2 Σ_{i<j} B_ij β_i): the strict lower triangle of the support block only
            int k0 = 0;
            for (; k0 + FUSE <= sub.length; k0 += FUSE) {
                float[] g0 = sub[k0];
                float[] g1 = sub[k0 + 1];
                float[] g2 = sub[k0 + 2];
                float[] g3 = sub[k0 + 3];
                double s0 = 0;
                double s1 = 0;
                double s2 = 0;
                double s3 = 0;
                for (int u = 0; u < c; u++) {
                    int col = cols[u];
                    double r0 = 0;
                    double r1 = 0;
                    double r2 = 0;
                    double r3 = 0;
                    for (int v = 0; v < u; v++) {
                        int idx = col + nz[v];
                        double bv = b[v];
                        r0 += g0[idx] * bv;
                        r1 += g1[idx] * bv;
                        r2 += g2[idx] * bv;
                        r3 += g3[idx] * bv;
                    }
                    int d = col + nz[u];
                    double bu = b[u];
                    s0 += bu * (2 * r0 + g0[d] * bu);
                    s1 += bu * (2 * r1 + g1[d] * bu);
                    s2 += bu * (2 * r2 + g2[d] * bu);
                    s3 += bu * (2 * r3 + g3[d] * bu);
                }
                out[k0] = s0;
                out[k0 + 1] = s1;
                out[k0 + 2] = s2;
                out[k0 + 3] = s3;
            }
            for (int k = k0; k < sub.length; k++) {
                float[] g = sub[k];
                double s = 0;
                for (int u = 0; u < c; u++) {
                    int col = cols[u];
                    double r = 0;
                    for (int v = 0; v < u; v++) {
                        r += g[col + nz[v]] * b[v];
                    }
                    s += b[u] * (2 * r + g[col + nz[u]] * b[u]);
                }
                out[k] = s;
            }
            return out;
        }

        @Override
        public void addCombination(double[] w, double[] out) {
            double[] v = baseWeights(w);
            int[] act = GaussPolyLibrary.nonZero(v);
            int t = 0;
            int len = out.length;
            for (; t + FUSE <= act.length; t += FUSE) {
                float[] g0 = sub[act[t]];
                float[] g1 = sub[act[t + 1]];
                float[] g2 = sub[act[t + 2]];
                float[] g3 = sub[act[t + 3]];
                double w0 = v[act[t]];
                double w1 = v[act[t + 1]];
                double w2 = v[act[t + 2]];
                double w3 = v[act[t + 3]];
                for (int i = 0; i < len; i++) {
                    out[i] += (w0 * g0[i] + w1 * g1[i]) + (w2 * g2[i] + w3 * g3[i]);
                }
            }
            for (; t < act.length; t++) {
                float[] g = sub[act[t]];
                double wk = v[act[t]];
                for (int i = 0; i < len; i++) {
                    out[i] += wk * g[i];
                }
            }
        }

        @Override
        public Kernel combined(double[] w) {
            double[] ws = new double[w.length];
            for (int k = 0; k < w.length; k++) {
                ws[k] = w[k] * scale[k];
            }
            return base.combined(ws);
        }

        /**
         * SVM decision values Σ_s coef_s Σ_k w_k K_k(v, s) + bias on rows {@code heldOut} of the whole part, with
         * coef indexed like this subset's rows and K_k normalised on this subset.
         */
        public double[] decision(double[] w, double[] coef, double bias, int[] heldOut) {
            double[] v = baseWeights(w);
            int[] nz = GaussPolyLibrary.nonZero(coef);
            double[] f = new double[heldOut.length];
            for (int r = 0; r < v.length; r++) {
                if (v[r] == 0) {
                    continue;
                }
                float[] g = grams[r];
                for (int h = 0; h < heldOut.length; h++) {
                    int col = heldOut[h] * m; // symmetric: B(h, s) = column h, row s
                    double s = 0;
                    for (int t : nz) {
                        s += g[col + rows[t]] * coef[t];
                    }
                    f[h] += v[r] * s;
                }
            }
            for (int h = 0; h < f.length; h++) {
                f[h] += bias;
            }
            return f;
        }
    }
}
