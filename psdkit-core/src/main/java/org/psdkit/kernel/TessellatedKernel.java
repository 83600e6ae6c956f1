package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.psdkit.linalg.Matrix;

/**
 * The tessellated kernel (TK) of Colbert &amp; Peet, eq. (5)–(6):
 * <pre>  k(x, y) = ∫_X N(z, x)ᵀ P N(z, y) dz,   N(z, x) = [ Z_d(z, x) I₁(z, x) ; Z_d(z, x) I₂(z, x) ],</pre>
 * on the box X = [a, b]ⁿ (Lebesgue measure), where Z_d(z, x) is the vector of the q = C(2n+d, d) monomials of
 * total degree ≤ d in the 2n variables (z, x), and P ⪰ 0 is 2q×2q.
 *
 * <p><b>Orthant construction.</b> I₁(z, x) = 1 iff z ≥ x componentwise (the upper orthant S₁). The second indicator
 * differs between the paper's text and its published code:
 * <ul>
 *   <li>{@link Orthant#LOWER} (default, the paper's text and the proof of its Theorem 7): I₂(z, x) = 1 iff z ≤ x
 *       (the lower orthant S₂). Each block then integrates over one box: P₁₁ over [max(x,y), b], P₁₂ over [x, y],
 *       P₂₁ over [y, x], P₂₂ over [a, min(x,y)] (coordinate-wise; an empty interval gives 0). With d = 0 the P₂₂
 *       block is Π_j (min(x_j, y_j) − a), the kernel used in the universality proof.</li>
 *   <li>{@link Orthant#COMPLEMENT} (the paper's Lemma 4 / eq. (8) and its code): I₂ = 1 − I₁. Expanding gives
 *       ∫_{[max,b]} Zᵀ(P₁₁ − P₁₂ − P₂₁ + P₂₂)Z + ∫_{[x,b]} Zᵀ(P₁₂ − P₂₂)Z + ∫_{[y,b]} Zᵀ(P₂₁ − P₂₂)Z
 *       + ∫_{[a,b]} Zᵀ P₂₂ Z. Note the sign of P₂₂ in the first term: eq. (8) prints −P₂₂, which is wrong
 *       (checked against quadrature of the definition in the tests).</li>
 * </ul>
 * In one dimension both agree up to the measure-zero boundary. Both are positive kernels for P ⪰ 0 (Theorem 3).
 *
 * <p><b>Closed form.</b> Every term is ∫_box Z(z,x)ᵀ Q Z(z,y) dz over a box; with z uniform on the box this is
 * vol · E[Z(z,x)ᵀ Q Z(z,y)], a polynomial in the box ends, x and y. For d ≤ 1, Z = [1; z; x] and
 * E[Z(z,x) Z(z,y)ᵀ] = u vᵀ + diag(0, var(z), 0) with u = [1; E z; x], v = [1; E z; y]. For d = 2 the moments
 * E z_j^e (e ≤ 4) are combined monomial by monomial. Box intervals are clipped to [a, b], so points outside the
 * box (test data beyond the training range) are handled by the same formula. Training and test use the same
 * function: {@link #gram}, {@link #cross} and {@link #eval} share one implementation.
 */
public final class TessellatedKernel implements Kernel {

    /** Which second indicator the kernel uses; see the class comment. */
    public enum Orthant { LOWER, COMPLEMENT }

    /** Largest supported monomial degree. */
    public static final int MAX_DEGREE = 2;

    private final int n;
    private final int degree;
    private final double a;
    private final double b;
    private final Orthant orthant;
    private final Matrix p;
    private final int q;
    private final double[][] termQ; // 4 term matrices, q×q row-major
    private final int[][] zExp;     // monomial k: exponents of z
    private final int[][] xExp;     // monomial k: exponents of x
    private final int[][] pairCoord; // (k,l) -> coordinates with non-zero exponent in γ_k + γ_l
    private final int[][] pairPow;

    public TessellatedKernel(int n, int degree, double a, double b, Matrix p, Orthant orthant) {
        if (n < 1) {
            throw new IllegalArgumentException("tessellated kernel: number of features must be >= 1, got " + n);
        }
        if (degree < 0 || degree > MAX_DEGREE) {
            throw new IllegalArgumentException("tessellated kernel: degree must be 0, 1 or 2, got " + degree);
        }
        if (!(a < b) || !Double.isFinite(a) || !Double.isFinite(b)) {
            throw new IllegalArgumentException("tessellated kernel: box needs finite a < b, got [" + a + ", " + b
                    + "]");
        }
        this.n = n;
        this.degree = degree;
        this.a = a;
        this.b = b;
        this.orthant = orthant == null ? Orthant.LOWER : orthant;
        this.q = monomialCount(n, degree);
        if (p.rows() != 2 * q || p.cols() != 2 * q) {
            throw new IllegalArgumentException("tessellated kernel: P must be " + (2 * q) + "x" + (2 * q)
                    + " for n=" + n + ", d=" + degree + ", got " + p.rows() + "x" + p.cols());
        }
        for (double v : p.data()) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("tessellated kernel: P has a non-finite entry");
            }
        }
        this.p = p.copy();
        this.termQ = termMatrices(this.p, q, this.orthant);
        List<int[][]> mons = monomials(n, degree);
        zExp = new int[q][];
        xExp = new int[q][];
        for (int k = 0; k < q; k++) {
            zExp[k] = mons.get(k)[0];
            xExp[k] = mons.get(k)[1];
        }
        pairCoord = new int[q * q][];
        pairPow = new int[q * q][];
        for (int k = 0; k < q; k++) {
            for (int l = 0; l < q; l++) {
                List<Integer> cs = new ArrayList<>();
                List<Integer> ps = new ArrayList<>();
                for (int j = 0; j < n; j++) {
                    int e = zExp[k][j] + zExp[l][j];
                    if (e > 0) {
                        cs.add(j);
                        ps.add(e);
                    }
                }
                pairCoord[k * q + l] = cs.stream().mapToInt(Integer::intValue).toArray();
                pairPow[k * q + l] = ps.stream().mapToInt(Integer::intValue).toArray();
            }
        }
    }

    /** q = C(2n + d, d), the number of monomials of degree ≤ d in 2n variables. */
    public static int monomialCount(int n, int degree) {
        long c = 1;
        for (int i = 1; i <= degree; i++) {
            c = c * (2L * n + i) / i;
        }
        if (c > Integer.MAX_VALUE / 4) {
            throw new IllegalArgumentException("tessellated kernel too large: q = " + c);
        }
        return (int) c;
    }

    /**
     * Monomials in the fixed order used for P: degree 0 ([1]), then degree 1 (z₁..z_n, x₁..x_n), then degree 2
     * (w_i w_j, i ≤ j, for w = (z, x)). Each entry is {zExponents, xExponents}.
     */
    static List<int[][]> monomials(int n, int degree) {
        List<int[][]> out = new ArrayList<>();
        out.add(new int[][] {new int[n], new int[n]});
        if (degree >= 1) {
            for (int v = 0; v < 2 * n; v++) {
                out.add(single(n, v, 1, null));
            }
        }
        if (degree >= 2) {
            for (int v = 0; v < 2 * n; v++) {
                for (int w = v; w < 2 * n; w++) {
                    out.add(single(n, w, 1, single(n, v, 1, null)));
                }
            }
        }
        return out;
    }

    private static int[][] single(int n, int var, int pow, int[][] base) {
        int[][] m = base == null ? new int[][] {new int[n], new int[n]} : new int[][] {base[0].clone(),
            base[1].clone()};
        if (var < n) {
            m[0][var] += pow;
        } else {
            m[1][var - n] += pow;
        }
        return m;
    }

    /**
     * The four term matrices Q_t (row-major q×q) such that k = Σ_t ∫_{box_t} Z(z,x)ᵀ Q_t Z(z,y) dz; see
     * {@link #termBox}.
     */
    static double[][] termMatrices(Matrix p, int q, Orthant orthant) {
        double[][] blocks = new double[4][q * q]; // P11, P12, P21, P22
        for (int k = 0; k < q; k++) {
            for (int l = 0; l < q; l++) {
                blocks[0][k * q + l] = p.get(k, l);
                blocks[1][k * q + l] = p.get(k, q + l);
                blocks[2][k * q + l] = p.get(q + k, l);
                blocks[3][k * q + l] = p.get(q + k, q + l);
            }
        }
        if (orthant == Orthant.LOWER) {
            return blocks;
        }
        double[][] t = new double[4][q * q];
        for (int i = 0; i < q * q; i++) {
            t[0][i] = blocks[0][i] - blocks[1][i] - blocks[2][i] + blocks[3][i];
            t[1][i] = blocks[1][i] - blocks[3][i];
            t[2][i] = blocks[2][i] - blocks[3][i];
            t[3][i] = blocks[3][i];
        }
        return t;
    }

    /**
     * Coefficients c[t][blk] with Q_t = Σ_blk c[t][blk] P_blk (blk = 0:P11, 1:P12, 2:P21, 3:P22), so that
     * ∂k/∂P_blk = Σ_t c[t][blk] ∂k/∂Q_t.
     */
    static double[][] termCoefficients(Orthant orthant) {
        if (orthant == Orthant.LOWER) {
            return new double[][] {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
        }
        return new double[][] {{1, -1, -1, 1}, {0, 1, 0, -1}, {0, 0, 1, -1}, {0, 0, 0, 1}};
    }

    /**
     * The box of term t for the pair (x, y), clipped to [a, b]: writes lo/hi per coordinate and returns false when
     * the box is empty (zero volume).
     */
    static boolean termBox(Orthant orthant, int t, double[] x, double[] y, double a, double b, double[] lo,
                                  double[] hi) {
        int n = lo.length;
        for (int j = 0; j < n; j++) {
            double xj = x[j];
            double yj = y[j];
            double l;
            double h;
            if (orthant == Orthant.LOWER) {
                switch (t) {
                    case 0 -> {
                        l = Math.max(xj, yj);
                        h = b;
                    }
                    case 1 -> {
                        l = xj;
                        h = yj;
                    }
                    case 2 -> {
                        l = yj;
                        h = xj;
                    }
                    default -> {
                        l = a;
                        h = Math.min(xj, yj);
                    }
                }
            } else {
                switch (t) {
                    case 0 -> {
                        l = Math.max(xj, yj);
                        h = b;
                    }
                    case 1 -> {
                        l = xj;
                        h = b;
                    }
                    case 2 -> {
                        l = yj;
                        h = b;
                    }
                    default -> {
                        l = a;
                        h = b;
                    }
                }
            }
            l = Math.max(l, a);
            h = Math.min(h, b);
            if (!(h > l)) {
                return false;
            }
            lo[j] = l;
            hi[j] = h;
        }
        return true;
    }

    /** Whether term t's box is symmetric in (x, y) (so that its contribution F_ji = F_ijᵀ). */
    static boolean symmetricTerm(int t) {
        return t == 0 || t == 3;
    }

    @Override
    public double eval(double[] x, double[] y) {
        if (x.length != n || y.length != n) {
            throw new IllegalArgumentException("tessellated kernel on " + n + " features got points of dimension "
                    + x.length + " and " + y.length);
        }
        double[] lo = new double[n];
        double[] hi = new double[n];
        double[] mom = new double[Math.max(2 * q, n * (2 * degree + 1))];
        double[] phiX = monomialsOf(x);
        double[] phiY = monomialsOf(y);
        return evalWith(x, y, phiX, phiY, lo, hi, mom);
    }

    private double evalWith(double[] x, double[] y, double[] phiX, double[] phiY, double[] lo, double[] hi,
                            double[] mom) {
        double s = 0;
        for (int t = 0; t < 4; t++) {
            if (!termBox(orthant, t, x, y, a, b, lo, hi)) {
                continue;
            }
            s += term(termQ[t], x, y, phiX, phiY, lo, hi, mom);
        }
        return s;
    }

    /** ∫_box Z(z,x)ᵀ Q Z(z,y) dz. */
    private double term(double[] qm, double[] x, double[] y, double[] phiX, double[] phiY, double[] lo,
                        double[] hi, double[] mom) {
        double vol = 1;
        for (int j = 0; j < n; j++) {
            vol *= hi[j] - lo[j];
        }
        if (degree == 0) {
            return vol * qm[0];
        }
        if (degree == 1) {
            // u = [1; μ; x], v = [1; μ; y]; E[Z Zᵀ] = u vᵀ + diag(0, var, 0)
            double[] u = mom; // scratch: entries [0, q) hold u, entries [q, 2q) hold v
            int qq = q;
            u[0] = 1;
            u[qq] = 1;
            double diagTerm = 0;
            for (int j = 0; j < n; j++) {
                double mu = 0.5 * (lo[j] + hi[j]);
                double w = hi[j] - lo[j];
                u[1 + j] = mu;
                u[qq + 1 + j] = mu;
                u[1 + n + j] = x[j];
                u[qq + 1 + n + j] = y[j];
                diagTerm += qm[(1 + j) * qq + 1 + j] * w * w / 12.0;
            }
            double s = 0;
            for (int k = 0; k < qq; k++) {
                double r = 0;
                int base = k * qq;
                for (int l = 0; l < qq; l++) {
                    r += qm[base + l] * u[qq + l];
                }
                s += u[k] * r;
            }
            return vol * (s + diagTerm);
        }
        int maxE = 2 * degree;
        int stride = maxE + 1;
        for (int j = 0; j < n; j++) {
            // mean of z^e over [lo, hi] = Σ_{t=0..e} hi^t lo^(e−t) / (e+1)
            double l = lo[j];
            double h = hi[j];
            mom[j * stride] = 1;
            for (int e = 1; e <= maxE; e++) {
                double sum = 0;
                double hp = 1;
                for (int t = 0; t <= e; t++) {
                    sum += hp * Math.pow(l, e - t);
                    hp *= h;
                }
                mom[j * stride + e] = sum / (e + 1);
            }
        }
        double s = 0;
        for (int k = 0; k < q; k++) {
            if (phiX[k] == 0) {
                continue;
            }
            double r = 0;
            for (int l = 0; l < q; l++) {
                double c = qm[k * q + l];
                if (c == 0) {
                    continue;
                }
                int[] cs = pairCoord[k * q + l];
                int[] ps = pairPow[k * q + l];
                double m = 1;
                for (int i = 0; i < cs.length; i++) {
                    m *= mom[cs[i] * stride + ps[i]];
                }
                r += c * m * phiY[l];
            }
            s += phiX[k] * r;
        }
        return vol * s;
    }

    /** The x-parts x^{α_k} of the monomials (k = 0..q−1). */
    private double[] monomialsOf(double[] x) {
        double[] phi = new double[q];
        for (int k = 0; k < q; k++) {
            double v = 1;
            for (int j = 0; j < n; j++) {
                for (int e = 0; e < xExp[k][j]; e++) {
                    v *= x[j];
                }
            }
            phi[k] = v;
        }
        return phi;
    }

    @Override
    public Matrix gram(Matrix x) {
        checkDim(x);
        int m = x.rows();
        double[][] pts = x.toRowArrays();
        double[][] phi = new double[m][];
        for (int i = 0; i < m; i++) {
            phi[i] = monomialsOf(pts[i]);
        }
        double[] lo = new double[n];
        double[] hi = new double[n];
        double[] mom = new double[Math.max(2 * q, n * (2 * degree + 1))];
        Matrix k = Matrix.zeros(m, m);
        for (int j = 0; j < m; j++) {
            for (int i = j; i < m; i++) {
                double v = evalWith(pts[i], pts[j], phi[i], phi[j], lo, hi, mom);
                k.set(i, j, v);
                k.set(j, i, v);
            }
        }
        return k;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        checkDim(x);
        checkDim(z);
        double[][] px = x.toRowArrays();
        double[][] pz = z.toRowArrays();
        double[][] phx = new double[px.length][];
        double[][] phz = new double[pz.length][];
        for (int i = 0; i < px.length; i++) {
            phx[i] = monomialsOf(px[i]);
        }
        for (int i = 0; i < pz.length; i++) {
            phz[i] = monomialsOf(pz[i]);
        }
        double[] lo = new double[n];
        double[] hi = new double[n];
        double[] mom = new double[Math.max(2 * q, n * (2 * degree + 1))];
        Matrix k = Matrix.zeros(px.length, pz.length);
        for (int j = 0; j < pz.length; j++) {
            for (int i = 0; i < px.length; i++) {
                k.set(i, j, evalWith(px[i], pz[j], phx[i], phz[j], lo, hi, mom));
            }
        }
        return k;
    }

    private void checkDim(Matrix x) {
        if (x.cols() != n) {
            throw new IllegalArgumentException("tessellated kernel on " + n + " features got data with " + x.cols()
                    + " columns");
        }
    }

    /**
     * The kernel string with every number exact, P included:
     * {@code tessellated(features=2, degree=1, a=-0.1, b=1.1, orthant=lower, P=[[...], ...])}.
     * {@link Kernels#parse} gives back the same kernel.
     */
    @Override
    public String spec() {
        return "tessellated(features=" + n + ", degree=" + degree + ", a=" + a + ", b=" + b + ", orthant="
                + orthant.name().toLowerCase(Locale.ROOT) + ", P=" + KernelFormat.matrix(p) + ")";
    }

    public int features() {
        return n;
    }

    public int degree() {
        return degree;
    }

    public double lower() {
        return a;
    }

    public double upper() {
        return b;
    }

    public Orthant orthant() {
        return orthant;
    }

    /** A copy of P (2q×2q). */
    public Matrix p() {
        return p.copy();
    }

    /** q, the number of monomials; P is 2q×2q. */
    public int q() {
        return q;
    }
}
