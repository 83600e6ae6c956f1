package org.psdkit.kernel;

import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The linear map P ↦ K(P) of the tessellated kernel on a fixed training set, and its adjoint
 * W ↦ Σ_ij W_ij ∂K_ij/∂P, specialised for kernel learning. K(P) is linear in P, so for P = s sᵀ the Gram matrix
 * costs O(m² n) (for d ≤ 1), and the gradient of βᵀK(P)β with respect to P is
 * H(β) = ∫ w(z) w(z)ᵀ dz with w(z) = Σ_i β_i N(z, x_i), a PSD 2q×2q matrix.
 *
 * <p>Degrees 0 and 1 use the expectation form of {@link TessellatedKernel} (vol · (u vᵀ + diag var)); degree 2
 * falls back to entry-wise evaluation of the kernel class, which is exact but O(m² q²).
 */
public final class TkGram {

    private final double[][] x;
    private final int m;
    private final int n;
    private final int degree;
    private final int q;
    private final double a;
    private final double b;
    private final Orthant orthant;

    public TkGram(Matrix x, int degree, double a, double b, Orthant orthant) {
        this.x = x.toRowArrays();
        this.m = x.rows();
        this.n = x.cols();
        this.degree = degree;
        this.q = TessellatedKernel.monomialCount(n, degree);
        this.a = a;
        this.b = b;
        this.orthant = orthant;
        // validates the arguments
        new TessellatedKernel(n, degree, a, b, Matrix.zeros(2 * q, 2 * q), orthant);
    }

    /** Monomial degree d. */
    public int degree() {
        return degree;
    }

    /** The geometry in words, for messages: "box [-10, 11]^30 (epsilon = 10), degree 1". */
    public String describe() {
        return "box [" + KernelFormat.num(a) + ", " + KernelFormat.num(b) + "]^" + n + " (epsilon = "
                + KernelFormat.num(-a) + "), degree " + degree;
    }

    /**
     * tr G(i, i) = ∫ ‖N(z, x_i)‖² dz = K_I(x_i, x_i) per training point i, the kernel with P = I. It bounds every
     * kernel this engine forms from a P ⪰ 0 with tr P ≤ 1: K(P)_ii = ⟨P, G(i, i)⟩ ≤ λ_max(G(i, i)) ≤ tr G(i, i)
     * (G(i, i) ⪰ 0), and |K(P)_ij| ≤ √(K(P)_ii K(P)_jj). Closed form for d ≤ 1 (O(n) per point), the kernel class
     * for d = 2.
     */
    public double[] traceBounds() {
        double[] out = new double[m];
        if (degree >= 2) {
            TessellatedKernel id = kernel(Matrix.identity(2 * q));
            for (int i = 0; i < m; i++) {
                out[i] = id.eval(x[i], x[i]);
            }
            return out;
        }
        for (int i = 0; i < m; i++) {
            out[i] = traceBound(i);
        }
        return out;
    }

    /**
     * ‖N(z, x)‖² = ‖Z(z, x)‖² (I₁ + I₂): integrated over the upper and the lower orthant box of x for the lower
     * orthant, over the whole box for the complement (I₂ = 1 − I₁); a sum of non-negative terms, so an overflow
     * shows as +∞. For d ≤ 1, E‖Z‖² over a box is 1 + Σ_c (E z_c² + x_c²) (d = 1) or 1 (d = 0).
     */
    private double traceBound(int i) {
        double[] xi = x[i];
        if (orthant == Orthant.COMPLEMENT) {
            return boxIntegral(xi, null);
        }
        return boxIntegral(xi, Boolean.TRUE) + boxIntegral(xi, Boolean.FALSE);
    }

    /** ∫ ‖Z(z, x)‖² dz over [x, b] (upper), [a, x] (lower) or [a, b] (null), clipped to [a, b]. */
    private double boxIntegral(double[] xi, Boolean upper) {
        double vol = 1;
        double sq = 1;
        for (int c = 0; c < n; c++) {
            double lo = upper == null || !upper ? a : Math.max(xi[c], a);
            double hi = upper == null || upper ? b : Math.min(xi[c], b);
            if (!(hi > lo)) {
                return 0;
            }
            double len = hi - lo;
            vol *= len;
            if (degree == 1) {
                double mid = 0.5 * (lo + hi);
                sq += mid * mid + len * len / 12.0 + xi[c] * xi[c];
            }
        }
        return vol * sq;
    }

    /**
     * The box edge magnitude 2<sup>52</sup> from which the tessellated kernels computed in double precision no longer
     * depend on where the data lie (see {@link #requireUsable}); the box [−ε, 1 + ε] is refused from
     * ε = 2<sup>52</sup> − 1 ≈ 4.5e15 on.
     */
    public static final double EDGE_RESOLUTION_LIMIT = 0x1p52;

    /**
     * Refuses a geometry (box and degree) on which the kernels overflow double precision at the training points:
     * every K(P) with P ⪰ 0, tr P ≤ 1 is bounded by {@link #traceBounds}, so the check covers every kernel the
     * learners form. O(m n) for d ≤ 1.
     *
     * @param who the learner, first word of the message
     * @throws IllegalArgumentException naming the box, the value and the training point
     */
    public void requireFinite(String who) {
        double[] bound = traceBounds();
        for (int i = 0; i < m; i++) {
            double v = bound[i];
            if (!(v <= Double.MAX_VALUE)) {
                throw new TooLarge(who + ": the tessellated kernels on the " + describe()
                        + ", overflow double precision at training point " + (i + 1) + " (the features are scaled "
                        + "to [0, 1]); choose a smaller epsilon");
            }
        }
    }

    /**
     * Refuses a geometry whose kernels double precision cannot hold on the training points: an overflow
     * ({@link #requireFinite}), or a box so large that the Gram matrices computed in double no longer depend on the
     * data.
     *
     * <p><b>Loss of the data.</b> Every term of k(x, y) (Colbert &amp; Peet 2020, eq. 5, evaluated per orthant as in
     * Lemma 4) is an integral over a box whose sides, per feature c, are [max(x_c, y_c), b] or [a, min(x_c, y_c)]
     * (the two mixed terms' sides [x_c, y_c] give volumes at most 1, against about (b − a)ⁿ for the others). The
     * data enter through the edges b − max(x_c, y_c) and min(x_c, y_c) − a: numbers of size up to
     * E = max(|a|, |b|) = 1 + ε that the features, scaled to [0, 1], move by at most 1. Double precision stores
     * numbers near E on a grid of spacing ulp(E) = 2<sup>⌊log₂ E⌋ − 52</sup>, between 2<sup>−53</sup> E and
     * 2<sup>−52</sup> E, so the centred Gram matrix J K J (J = I − 11ᵀ/m; the SVM dual sees K only through it, as
     * yᵀα = 0) carries a relative rounding error of about 2<sup>−52</sup> E. Once ulp(E) ≥ 1, i.e.
     * E ≥ 2<sup>52</sup> ({@link #EDGE_RESOLUTION_LIMIT}), an edge takes at most two values over the whole range of
     * the data: the Gram matrix computed in double no longer depends on the data (beyond one bit per feature), the
     * starting kernel of the kernel learner ({@code classify.mkl.TkLearner}) is a constant (its SVM predicts one
     * class) and its gradient is rounding noise. Such a box is refused like an overflow. ({@code TkGramTest} checks this against an exact evaluation:
     * the centred relative error grows as 2<sup>−52</sup> E and reaches 100 % at the limit.)
     *
     * @param who the learner, first word of the message
     * @throws TooLarge naming the box, and the training point for an overflow
     */
    public void requireUsable(String who) {
        requireFinite(who);
        double edge = Math.max(Math.abs(a), Math.abs(b));
        if (!(edge < EDGE_RESOLUTION_LIMIT)) {
            throw new TooLarge(who + ": the tessellated kernels on the " + describe() + ", lose the data in double "
                    + "precision: the box edges (about 1 + epsilon) are rounded to multiples of "
                    + KernelFormat.num(Math.ulp(edge)) + ", at least the width 1 of the scaled features, so the Gram "
                    + "matrix no longer depends on the data; choose an epsilon below 4.5e15 (2^52 - 1)");
        }
    }

    /**
     * The refusal of a box (ε) whose tessellated kernels the arithmetic cannot hold on the data: cross-validation
     * leaves such an ε out of its grid instead of failing.
     */
    public static final class TooLarge extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public TooLarge(String message) {
            super(message);
        }
    }

    public int q() {
        return q;
    }

    public int size() {
        return m;
    }

    /** The kernel with matrix P on this engine's geometry. */
    public TessellatedKernel kernel(Matrix p) {
        return new TessellatedKernel(n, degree, a, b, p, orthant);
    }

    /** K(P) for a symmetric P, through its eigen-decomposition (sum of rank-one Gram matrices). */
    public Matrix gram(Matrix p) {
        if (degree >= 2) {
            return kernel(p).gram(Matrix.wrap(m, n, columnMajor()));
        }
        Eigen e = Linalg.eigh(p);
        double scale = Math.max(Math.abs(e.min()), Math.abs(e.max()));
        int rank = 0;
        for (double v : e.values()) {
            if (Math.abs(v) > RANK_TOLERANCE * scale) {
                rank++;
            }
        }
        // a rank-one Gram costs ~4·4n per pair and term; the direct bilinear form ~q² per pair and term
        if (rank * 4L * n > (long) q * q) {
            return kernel(p).gram(Matrix.wrap(m, n, columnMajor()));
        }
        Matrix k = Matrix.zeros(m, m);
        for (int r = 0; r < e.size(); r++) {
            double lam = e.values()[r];
            if (Math.abs(lam) <= RANK_TOLERANCE * scale) {
                continue;
            }
            addRankOne(k, e.vectors().col(r), lam);
        }
        return k;
    }

    /** Pairs per block of the batched Gram computation (feature block D × PAIR_BLOCK doubles, ~10 MB at q = 17). */
    static final int PAIR_BLOCK = 2048;

    /**
     * The Gram matrices K(P_1), …, K(P_M) of many symmetric P at once, in single precision (m×m column-major each),
     * with their diagonals in double precision ({@code diagOut[k][i] = K(P_k)_ii}, pass {@code null} to skip).
     *
     * <p>For d ≤ 1 every entry is linear in P: K(P)_ij = ⟨P, G(i, j)⟩ with G(i, j) the 2q×2q matrix whose block
     * (r, c) is Σ_t c_t,blk · vol_t (u vᵀ + diag(0, var, 0)) over the four term boxes of the pair (see
     * {@link TessellatedKernel}). Packing the upper triangle of the symmetrised G(i, j) per pair into the columns
     * of a D×pairs matrix (D = q'(q'+1)/2, q' = 2q) and the upper triangles of the P_k into a D×M matrix turns
     * all M Gram matrices into one matrix product, done in blocks of pairs. Degree 2 falls back to one
     * {@link #gram} per matrix.
     */
    public float[][] grams(Matrix[] ps, double[][] diagOut) {
        int count = ps.length;
        int dim = 2 * q;
        for (Matrix p : ps) {
            if (p.rows() != dim || p.cols() != dim) {
                throw new IllegalArgumentException("P must be " + dim + "x" + dim + ", got " + p.rows() + "x"
                        + p.cols());
            }
        }
        float[][] out = new float[count][m * m];
        if (degree >= 2) {
            for (int k = 0; k < count; k++) {
                double[] g = gram(ps[k]).data();
                for (int i = 0; i < g.length; i++) {
                    out[k][i] = (float) g[i];
                }
                if (diagOut != null) {
                    for (int i = 0; i < m; i++) {
                        diagOut[k][i] = g[i + i * m];
                    }
                }
            }
            return out;
        }
        int packed = dim * (dim + 1) / 2;
        Matrix w = Matrix.zeros(packed, count);
        for (int k = 0; k < count; k++) {
            Matrix p = ps[k];
            int r0 = k * packed;
            int t = 0;
            for (int c = 0; c < dim; c++) {
                for (int r = 0; r <= c; r++) {
                    w.data()[r0 + t++] = 0.5 * (p.get(r, c) + p.get(c, r));
                }
            }
        }
        double[][] coef = TessellatedKernel.termCoefficients(orthant);
        long pairs = (long) m * (m + 1) / 2;
        int block = (int) Math.min(PAIR_BLOCK, pairs);
        Matrix feat = Matrix.zeros(packed, block);
        int[] pi = new int[block];
        int[] pj = new int[block];
        double[] g = new double[dim * dim];
        double[] u = new double[q];
        double[] v = new double[q];
        double[] var = new double[n];
        double[] lo = new double[n];
        double[] hi = new double[n];
        int filled = 0;
        for (int j = 0; j < m; j++) {
            for (int i = j; i < m; i++) {
                java.util.Arrays.fill(g, 0);
                for (int t = 0; t < 4; t++) {
                    if (!TessellatedKernel.termBox(orthant, t, x[i], x[j], a, b, lo, hi)) {
                        continue;
                    }
                    double vol = 1;
                    for (int c = 0; c < n; c++) {
                        vol *= hi[c] - lo[c];
                    }
                    u[0] = 1;
                    v[0] = 1;
                    if (degree == 1) {
                        for (int c = 0; c < n; c++) {
                            double mid = 0.5 * (lo[c] + hi[c]);
                            double len = hi[c] - lo[c];
                            u[1 + c] = mid;
                            v[1 + c] = mid;
                            u[1 + n + c] = x[i][c];
                            v[1 + n + c] = x[j][c];
                            var[c] = len * len / 12.0;
                        }
                    }
                    for (int blk = 0; blk < 4; blk++) {
                        double cv = coef[t][blk] * vol;
                        if (cv == 0) {
                            continue;
                        }
                        int ro = (blk == 2 || blk == 3) ? q : 0;
                        int co = (blk == 1 || blk == 3) ? q : 0;
                        for (int k = 0; k < q; k++) {
                            double uk = cv * u[k];
                            int base = (ro + k) * dim + co;
                            for (int l = 0; l < q; l++) {
                                g[base + l] += uk * v[l];
                            }
                        }
                        if (degree == 1) {
                            for (int c = 0; c < n; c++) {
                                g[(ro + 1 + c) * dim + co + 1 + c] += cv * var[c];
                            }
                        }
                    }
                }
                // pack the upper triangle of g + gᵀ (diagonal once): ⟨P, g⟩ = Σ_{r≤c} P_rc · packed_rc
                int f0 = filled * packed;
                double[] fd = feat.data();
                int t = 0;
                for (int c = 0; c < dim; c++) {
                    for (int r = 0; r < c; r++) {
                        fd[f0 + t++] = g[r * dim + c] + g[c * dim + r];
                    }
                    fd[f0 + t++] = g[c * dim + c];
                }
                pi[filled] = i;
                pj[filled] = j;
                filled++;
                if (filled == block) {
                    flushPairs(feat, w, filled, pi, pj, out, diagOut);
                    filled = 0;
                }
            }
        }
        if (filled > 0) {
            flushPairs(feat, w, filled, pi, pj, out, diagOut);
        }
        return out;
    }

    private void flushPairs(Matrix feat, Matrix w, int filled, int[] pi, int[] pj, float[][] out,
                            double[][] diagOut) {
        Matrix f = feat;
        if (filled < feat.cols()) {
            f = Matrix.wrap(feat.rows(), filled, java.util.Arrays.copyOf(feat.data(), feat.rows() * filled));
        }
        Matrix vals = Linalg.gemm(1.0, f, true, w, false); // filled × count
        double[] vd = vals.data();
        for (int k = 0; k < out.length; k++) {
            float[] o = out[k];
            int c0 = k * filled;
            for (int p = 0; p < filled; p++) {
                double val = vd[c0 + p];
                int i = pi[p];
                int j = pj[p];
                o[i + j * m] = (float) val;
                o[j + i * m] = (float) val;
                if (i == j && diagOut != null) {
                    diagOut[k][i] = val;
                }
            }
        }
    }

    /** Relative eigenvalue threshold below which a component of P is dropped (double precision noise). */
    static final double RANK_TOLERANCE = 1e-13;

    /** K(s sᵀ). */
    public Matrix rankOne(double[] s) {
        Matrix k = Matrix.zeros(m, m);
        if (degree >= 2) {
            Matrix p = Matrix.zeros(2 * q, 2 * q);
            for (int i = 0; i < 2 * q; i++) {
                for (int j = 0; j < 2 * q; j++) {
                    p.set(i, j, s[i] * s[j]);
                }
            }
            return gram(p);
        }
        addRankOne(k, s, 1.0);
        return k;
    }

    /** k += c · K(s sᵀ) for d ≤ 1. */
    void addRankOne(Matrix k, double[] s, double c) {
        // term t has Q_t = l_t r_tᵀ
        double[][] l = new double[4][q];
        double[][] r = new double[4][q];
        double[] s1 = new double[q];
        double[] s2 = new double[q];
        System.arraycopy(s, 0, s1, 0, q);
        System.arraycopy(s, q, s2, 0, q);
        if (orthant == Orthant.LOWER) {
            l[0] = s1;
            r[0] = s1;
            l[1] = s1;
            r[1] = s2;
            l[2] = s2;
            r[2] = s1;
            l[3] = s2;
            r[3] = s2;
        } else {
            double[] d = new double[q];
            for (int i = 0; i < q; i++) {
                d[i] = s1[i] - s2[i];
            }
            l[0] = d;
            r[0] = d;
            l[1] = d;
            r[1] = s2;
            l[2] = s2;
            r[2] = d;
            l[3] = s2;
            r[3] = s2;
        }
        double[] kd = k.data();
        double[] lo = new double[n];
        double[] hi = new double[n];
        double[][] px = new double[4][m];
        double[][] py = new double[4][m];
        for (int t = 0; t < 4; t++) {
            for (int i = 0; i < m; i++) {
                double u = l[t][0];
                double v = r[t][0];
                if (degree == 1) {
                    for (int j = 0; j < n; j++) {
                        u += l[t][1 + n + j] * x[i][j];
                        v += r[t][1 + n + j] * x[i][j];
                    }
                }
                px[t][i] = u;
                py[t][i] = v;
            }
        }
        for (int j = 0; j < m; j++) {
            for (int i = j; i < m; i++) {
                double sum = 0;
                for (int t = 0; t < 4; t++) {
                    sum += pairTerm(t, i, j, l[t], r[t], px[t][i], py[t][j], lo, hi);
                }
                sum *= c;
                kd[i + j * m] += sum;
                if (i != j) {
                    kd[j + i * m] += sum;
                }
            }
        }
    }

    private double pairTerm(int t, int i, int j, double[] l, double[] r, double pxi, double pyj, double[] lo,
                            double[] hi) {
        if (!TessellatedKernel.termBox(orthant, t, x[i], x[j], a, b, lo, hi)) {
            return 0;
        }
        double vol = 1;
        for (int c = 0; c < n; c++) {
            vol *= hi[c] - lo[c];
        }
        if (degree == 0) {
            return vol * pxi * pyj;
        }
        double lu = pxi;
        double rv = pyj;
        double var = 0;
        for (int c = 0; c < n; c++) {
            double mu = 0.5 * (lo[c] + hi[c]);
            double w = hi[c] - lo[c];
            lu += l[1 + c] * mu;
            rv += r[1 + c] * mu;
            var += l[1 + c] * r[1 + c] * w * w / 12.0;
        }
        return vol * (lu * rv + var);
    }

    /**
     * H(β) = Σ_ij β_i β_j ∂K_ij/∂P, symmetric PSD 2q×2q; ⟨H(β), P⟩ = βᵀ K(P) β.
     */
    public Matrix gradient(double[] beta) {
        return gradient(beta, false);
    }

    /** D = Σ_i ∂k(x_i, x_i)/∂P, so that tr K(P) = ⟨D, P⟩. */
    public Matrix traceGradient() {
        double[] ones = new double[m];
        java.util.Arrays.fill(ones, 1.0);
        return gradient(ones, true);
    }

    private Matrix gradient(double[] beta, boolean diagonalOnly) {
        if (beta.length != m) {
            throw new IllegalArgumentException("weights of length " + beta.length + ", expected " + m);
        }
        if (degree >= 2) {
            return gradientGeneric(beta, diagonalOnly);
        }
        double[][] ht = new double[4][];
        for (int t = 0; t < 3; t++) {
            if (t == 2) {
                ht[2] = transpose(ht[1]);
                continue;
            }
            ht[t] = termGradient(t, beta, diagonalOnly);
        }
        ht[3] = termGradient(3, beta, diagonalOnly);
        double[][] coef = TessellatedKernel.termCoefficients(orthant);
        Matrix h = Matrix.zeros(2 * q, 2 * q);
        for (int blk = 0; blk < 4; blk++) {
            int ro = (blk == 2 || blk == 3) ? q : 0;
            int co = (blk == 1 || blk == 3) ? q : 0;
            for (int t = 0; t < 4; t++) {
                double c = coef[t][blk];
                if (c == 0) {
                    continue;
                }
                for (int k = 0; k < q; k++) {
                    for (int l = 0; l < q; l++) {
                        h.add(ro + k, co + l, c * ht[t][k * q + l]);
                    }
                }
            }
        }
        h.symmetrizeInPlace();
        return h;
    }

    private double[] transpose(double[] g) {
        double[] o = new double[q * q];
        for (int k = 0; k < q; k++) {
            for (int l = 0; l < q; l++) {
                o[l * q + k] = g[k * q + l];
            }
        }
        return o;
    }

    /** Σ_ij β_iβ_j F^t_ij with F^t_ij = ∂/∂Q_t of term t at (x_i, x_j), row-major q×q. */
    private double[] termGradient(int t, double[] beta, boolean diagonalOnly) {
        boolean sym = TessellatedKernel.symmetricTerm(t);
        double[] g = new double[q * q];
        double[] lo = new double[n];
        double[] hi = new double[n];
        double[] mu = new double[n];
        double[] var = new double[n];
        // accumulators for d = 1 (indices: 0 constant, 1..n z, n+1..2n x)
        double cc = 0;
        double[] cz = new double[n];   // Σ ω μ  (u_c v_z and u_z v_c)
        double[] cx = new double[n];   // Σ ω x_j (u_c v_x)
        double[] xc = new double[n];   // Σ ω x_i (u_x v_c)
        double[] zz = new double[n * n];
        double[] zx = new double[n * n]; // Σ ω μ x_jᵀ
        double[] xz = new double[n * n]; // Σ ω x_i μᵀ
        double[] xx = new double[n * n];
        double[] rowX = new double[n];
        for (int i = 0; i < m; i++) {
            if (beta[i] == 0) {
                continue;
            }
            java.util.Arrays.fill(rowX, 0);
            double rowW = 0;
            int jStart = sym || diagonalOnly ? i : 0;
            int jEnd = diagonalOnly ? i + 1 : m;
            for (int j = jStart; j < jEnd; j++) {
                if (beta[j] == 0) {
                    continue;
                }
                if (!TessellatedKernel.termBox(orthant, t, x[i], x[j], a, b, lo, hi)) {
                    continue;
                }
                double vol = 1;
                for (int c = 0; c < n; c++) {
                    vol *= hi[c] - lo[c];
                }
                double w = beta[i] * beta[j] * vol;
                if (sym && i == j) {
                    w *= 0.5;
                }
                cc += w;
                rowW += w;
                if (degree == 0) {
                    continue;
                }
                double[] xj = x[j];
                for (int c = 0; c < n; c++) {
                    double len = hi[c] - lo[c];
                    mu[c] = 0.5 * (lo[c] + hi[c]);
                    var[c] = len * len / 12.0;
                }
                for (int c = 0; c < n; c++) {
                    double wm = w * mu[c];
                    cz[c] += wm;
                    cx[c] += w * xj[c];
                    rowX[c] += w * xj[c];
                    zz[c * n + c] += w * var[c];
                    int base = c * n;
                    for (int e = 0; e < n; e++) {
                        zz[base + e] += wm * mu[e];
                        zx[base + e] += wm * xj[e];
                        xz[e * n + c] += wm * x[i][e];
                    }
                }
            }
            if (degree == 1) {
                double[] xi = x[i];
                for (int c = 0; c < n; c++) {
                    xc[c] += rowW * xi[c];
                    for (int e = 0; e < n; e++) {
                        xx[c * n + e] += xi[c] * rowX[e];
                    }
                }
            }
        }
        g[0] = cc;
        if (degree == 1) {
            for (int c = 0; c < n; c++) {
                g[1 + c] += cz[c];          // u_c v_z
                g[(1 + c) * q] += cz[c];    // u_z v_c
                g[1 + n + c] += cx[c];      // u_c v_x
                g[(1 + n + c) * q] += xc[c]; // u_x v_c
                for (int e = 0; e < n; e++) {
                    g[(1 + c) * q + 1 + e] += zz[c * n + e];
                    g[(1 + c) * q + 1 + n + e] += zx[c * n + e];
                    g[(1 + n + c) * q + 1 + e] += xz[c * n + e];
                    g[(1 + n + c) * q + 1 + n + e] += xx[c * n + e];
                }
            }
        }
        if (sym) {
            double[] tr = transpose(g);
            for (int k = 0; k < g.length; k++) {
                g[k] += tr[k];
            }
        }
        return g;
    }

    private Matrix gradientGeneric(double[] beta, boolean diagonalOnly) {
        int dim = 2 * q;
        Matrix h = Matrix.zeros(dim, dim);
        Matrix xm = Matrix.wrap(m, n, columnMajor());
        for (int k = 0; k < dim; k++) {
            for (int l = k; l < dim; l++) {
                Matrix e = Matrix.zeros(dim, dim);
                e.set(k, l, k == l ? 1 : 0.5);
                e.set(l, k, k == l ? 1 : 0.5);
                Matrix g = kernel(e).gram(xm);
                double v = 0;
                for (int i = 0; i < m; i++) {
                    if (diagonalOnly) {
                        v += beta[i] * beta[i] * g.get(i, i);
                        continue;
                    }
                    for (int j = 0; j < m; j++) {
                        v += beta[i] * beta[j] * g.get(i, j);
                    }
                }
                h.set(k, l, v);
                h.set(l, k, v);
            }
        }
        return h;
    }

    private double[] columnMajor() {
        double[] d = new double[m * n];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                d[i + j * m] = x[i][j];
            }
        }
        return d;
    }
}
