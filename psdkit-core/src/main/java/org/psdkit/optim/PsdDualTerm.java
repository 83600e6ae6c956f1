package org.psdkit.optim;

import org.psdkit.linalg.FeatureColumns;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.SymmetricWorkspace;

/**
 * The smooth part of the dual of a PSD-model problem (Marteau-Ferey, Bach and Rudi 2020, Thm 2 / Thm 8, eq. 10),
 * written as a minimisation over the dual variable α ∈ ℝⁿ:
 *
 * <pre>
 *   h(α) = Ω₊*(M(α)) = (1/(2λ₂)) ‖[M(α)]₊‖²_F,   M(α) = −V Diag(α) Vᵀ − λ₁ I + Σ_l β_l C_l,
 *   ∇h(α)_i = −Φ_iᵀ A Φ_i = −f_A(x_i),            A(α) = [M(α)]₊ / λ₂ ⪰ 0   (eq. 11, the primal point),
 * </pre>
 *
 * where the columns Φ_i of V (r×n) are the empirical features of the training points (K ≈ VᵀV), [·]₊ keeps the
 * positive eigenvalues, and the optional fixed symmetric matrices C_l with coefficients β_l (set per evaluation
 * through {@link #setOffsetCoefficients}) carry extra linear constraints such as the integral constraint
 * Tr(A W) = 1 of density estimation. The dual of min_{A⪰0} L(f_A(x_i)) + λ₁Tr A + (λ₂/2)‖A‖²_F is
 * max_α −L*(α) − h(α). The paper's (10) writes the same term as ‖[V Diag(α)Vᵀ + λ₁I]₋‖²_F; we checked the sign
 * against a brute-force primal solution (see the tests): the primal point is the positive part of
 * −V Diag(α) Vᵀ − λ₁ I, so α_i &gt; 0 pushes f(x_i) down.
 *
 * <p>Cost of one evaluation: two rank-k updates forming M (r²n flops), one r×r dsyevd, and f_A(x_i) through the
 * smaller of the positive and the non-positive eigenspaces (2 r n min(r₊, r − r₊) flops; the complement uses
 * diag(VᵀMV) = −(K̃∘K̃)α − λ₁ diag K̃ in O(n²)). Buffers are reused between evaluations. Not thread-safe.
 *
 * <p>{@link #blocked} builds the same term on features held as {@link FeatureColumns} (for example single-precision
 * column blocks shared by several terms) without any r×n array of its own: M is accumulated by rank-k updates over
 * column blocks of {@link #blockColumns} columns, and f_A(x_i) is computed block by block from the positive
 * eigen-block, so its memory is O(r·b + r² + n) for blocks of b columns. The same sums in another grouping: its
 * results equal those of the dense constructor on the same (widened) features up to rounding.
 */
public final class PsdDualTerm implements SmoothFunction, AutoCloseable {
    private final int r;
    private final int n;
    private final double lambda1;
    private final double lambda2;
    private final double[] v;          // r×n column-major; null when blocked
    private final FeatureColumns columns; // the features of a blocked term; null otherwise
    private final int blockCols;       // columns per block of a blocked term (n otherwise)
    private final double[] hadamard;   // (K̃∘K̃), n×n, K̃ = VᵀV; null above HADAMARD_MAX_N points
    private final double kMax;         // λ_max(K̃) = λ_max(VVᵀ), when hadamard is null
    private final double[] kDiag;      // diag K̃
    private final SymmetricWorkspace ws;
    private final double[] factor;     // r×n gather buffer
    private final double[] eig;        // eigenvalues of M (ascending)
    private final double[] block;      // up to r×n eigen-block products
    private final double[] z;          // f_A(x_i)
    private Matrix[] offsets = new Matrix[0];
    private double[][] offsetDiag = new double[0][];
    private double[] offsetCoef = new double[0];
    private int firstPositive;
    private double value;
    private long evaluations;
    private long eighNanos;
    private long totalNanos;

    /**
     * Largest n for which K̃∘K̃ (n×n doubles, 800 MB at 10,000; the Lipschitz constant's eigenvalue call needs a
     * second copy) is formed. Above it (Nyström models with many data points) memory stays O(nr): the Lipschitz
     * constant uses Schur's bound and f_A(x_i) is always computed from the positive eigen-block.
     */
    public static final int HADAMARD_MAX_N = 10_000;

    /**
     * @param v       the r×n empirical features of the training points as columns (K ≈ VᵀV)
     * @param lambda1 trace (nuclear-norm) weight λ₁ ≥ 0
     * @param lambda2 Frobenius weight λ₂ &gt; 0
     */
    public PsdDualTerm(Matrix v, double lambda1, double lambda2) {
        check(v.rows(), v.cols(), lambda1, lambda2);
        this.r = v.rows();
        this.n = v.cols();
        this.lambda1 = lambda1;
        this.lambda2 = lambda2;
        this.v = v.data().clone();
        if (n <= HADAMARD_MAX_N) {
            Matrix kt = Linalg.gemm(1.0, v, true, v, false);
            this.hadamard = kt.data();
            this.kDiag = kt.diagonal();
            for (int k = 0; k < hadamard.length; k++) {
                hadamard[k] *= hadamard[k];
            }
            this.kMax = Double.NaN;
        } else {
            this.hadamard = null;
            this.kDiag = new double[n];
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int a = 0; a < r; a++) {
                    double q = this.v[a + i * r];
                    s += q * q;
                }
                kDiag[i] = s;
            }
            double[] ev = Linalg.eigvalsh(Linalg.gemm(1.0, v, false, v, true));
            this.kMax = Math.max(ev[r - 1], 0.0);
        }
        this.ws = new SymmetricWorkspace(r, n);
        ws.setRight(v);
        this.factor = new double[r * n];
        this.eig = new double[r];
        this.block = new double[r * n];
        this.z = new double[n];
        this.columns = null;
        this.blockCols = n;
    }

    /**
     * Doubles per column block of a blocked term (2 MiB): the r×b buffers it holds instead of r×n ones; at r = 1,000
     * a block of 262 columns keeps the rank-k update a level-3 call.
     */
    public static final int BLOCK_DOUBLES = 1 << 18;

    /** Columns per block of a blocked term on r features. */
    public static int blockColumns(int r, int n) {
        return Math.max(1, Math.min(n, BLOCK_DOUBLES / Math.max(1, r)));
    }

    /**
     * Bytes a blocked term holds besides the shared features: its r×b gather and product buffers on the heap and in
     * native memory, the r×r workspace and the n-vector of f_A(x_i).
     */
    public static long blockedBytes(long r, long n) {
        long b = blockColumns((int) Math.min(Integer.MAX_VALUE, r), (int) Math.min(Integer.MAX_VALUE, n));
        return org.psdkit.linalg.MemoryBudget.times(Double.BYTES, 4 * r * b + 6 * r * r + 2 * n);
    }

    /**
     * The term on features held as {@link FeatureColumns} (see the class comment), with the columns' squared norms
     * diag K̃ and λ_max(VVᵀ) computed once by the caller (several terms may share them).
     *
     * @param norms2  ‖Φ_i‖², length n
     * @param gramMax λ_max(V Vᵀ) ≥ 0
     */
    public static PsdDualTerm blocked(FeatureColumns v, double[] norms2, double gramMax, double lambda1,
                                      double lambda2) {
        return new PsdDualTerm(v, norms2, gramMax, lambda1, lambda2);
    }

    private PsdDualTerm(FeatureColumns v, double[] norms2, double gramMax, double lambda1, double lambda2) {
        check(v.rows(), v.cols(), lambda1, lambda2);
        this.r = v.rows();
        this.n = v.cols();
        if (norms2.length != n) {
            throw new IllegalArgumentException(norms2.length + " column norms for " + n + " columns");
        }
        this.lambda1 = lambda1;
        this.lambda2 = lambda2;
        this.v = null;
        this.columns = v;
        this.blockCols = blockColumns(r, n);
        this.hadamard = null;
        this.kDiag = norms2;
        this.kMax = Math.max(gramMax, 0.0);
        this.ws = new SymmetricWorkspace(r, blockCols);
        this.factor = new double[r * blockCols];
        this.eig = new double[r];
        this.block = new double[r * blockCols];
        this.z = new double[n];
    }

    /** Fixed symmetric r×r matrices C_l entering M(α) as + Σ β_l C_l. */
    public void setOffsets(Matrix... c) {
        offsets = c.clone();
        offsetDiag = new double[c.length][];
        for (int l = 0; l < c.length; l++) {
            if (c[l].rows() != r || c[l].cols() != r) {
                throw new IllegalArgumentException("offset " + l + " must be " + r + "x" + r);
            }
            // diag(Vᵀ C V)
            double[] d = new double[n];
            if (columns != null) {
                for (int from = 0; from < n; from += blockCols) {
                    int cnt = Math.min(blockCols, n - from);
                    for (int j = 0; j < cnt; j++) {
                        columns.columnInto(from + j, 1.0, factor, j * r);
                    }
                    double[] cv = Linalg.gemm(1.0, c[l], false, Matrix.wrap(r, cnt, java.util.Arrays.copyOf(factor,
                            r * cnt)), false).data();
                    for (int j = 0; j < cnt; j++) {
                        double s = 0;
                        for (int a = 0; a < r; a++) {
                            s += factor[a + j * r] * cv[a + j * r];
                        }
                        d[from + j] = s;
                    }
                }
                offsetDiag[l] = d;
                continue;
            }
            Matrix cv = Linalg.gemm(1.0, c[l], false, Matrix.wrap(r, n, v), false);
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int a = 0; a < r; a++) {
                    s += v[a + i * r] * cv.data()[a + i * r];
                }
                d[i] = s;
            }
            offsetDiag[l] = d;
        }
        offsetCoef = new double[c.length];
    }

    /** Coefficients β_l of the offsets for the following evaluations. */
    public void setOffsetCoefficients(double... beta) {
        if (beta.length != offsets.length) {
            throw new IllegalArgumentException(beta.length + " offset coefficients for " + offsets.length + " offsets");
        }
        offsetCoef = beta.clone();
    }

    @Override
    public int dimension() {
        return n;
    }

    public int rank() {
        return r;
    }

    /**
     * A Lipschitz constant of ∇h: ‖R‖²/λ₂ with R(A) = (Φ_iᵀAΦ_i)_i, ‖R‖² = λ_max(K̃∘K̃) (computed once, O(n³) with
     * eigenvalues only). Above {@link #HADAMARD_MAX_N} points Schur's bound λ_max(K̃∘K̃) ≤ max_i K̃_ii · λ_max(K̃)
     * (Schur 1911; Horn &amp; Johnson, Topics in Matrix Analysis, Thm. 5.3.4), an upper bound as FISTA needs, O(nr).
     */
    public double lipschitz() {
        if (hadamard == null) {
            double dmax = 0;
            for (double d : kDiag) {
                dmax = Math.max(dmax, d);
            }
            return Math.max(dmax * kMax, Double.MIN_NORMAL) / lambda2;
        }
        double[] w = Linalg.eigvalsh(Matrix.wrap(n, n, hadamard.clone()));
        return Math.max(w[n - 1], Double.MIN_NORMAL) / lambda2;
    }

    @Override
    public double valueAndGradient(double[] alpha, double[] gradient) {
        long t0 = System.nanoTime();
        evaluate(alpha);
        for (int i = 0; i < n; i++) {
            gradient[i] = -z[i];
        }
        totalNanos += System.nanoTime() - t0;
        return value;
    }

    /** Evaluates M(α), its eigen-decomposition, h(α) and f_A(x_i); results available through the getters. */
    public void evaluate(double[] alpha) {
        if (alpha.length != n) {
            throw new IllegalArgumentException("alpha of length " + alpha.length + ", expected " + n);
        }
        evaluations++;
        if (columns != null) {
            evaluateBlocked(alpha);
            return;
        }
        // gather: columns with α_i < 0 (added, weight |α_i|) first, then α_i > 0 (subtracted)
        int kNeg = 0;
        for (int i = 0; i < n; i++) {
            if (alpha[i] < 0) {
                scaleColumn(i, Math.sqrt(-alpha[i]), kNeg++);
            }
        }
        int kPos = 0;
        for (int i = 0; i < n; i++) {
            if (alpha[i] > 0) {
                scaleColumn(i, Math.sqrt(alpha[i]), kNeg + kPos++);
            }
        }
        ws.rankUpdate(factor, kNeg, 1.0, kPos, -1.0, 0.0);
        int fp = eigenStep();
        int rPos = r - fp;
        if (rPos == 0) {
            java.util.Arrays.fill(z, 0.0);
        } else if (rPos <= fp || hadamard == null) {
            ws.eigenvectorsTransposeTimesRight(fp, rPos, block);
            for (int i = 0; i < n; i++) {
                double s = 0;
                int off = i * rPos;
                for (int k = 0; k < rPos; k++) {
                    double q = block[off + k];
                    s += eig[fp + k] * q * q;
                }
                z[i] = s / lambda2;
            }
        } else {
            // diag(Vᵀ [M]₊ V) = diag(VᵀMV) − diag(Vᵀ [M]_{≤0} V)
            ws.eigenvectorsTransposeTimesRight(0, fp, block);
            for (int i = 0; i < n; i++) {
                double s = -lambda1 * kDiag[i];
                int row = i * n;
                for (int j = 0; j < n; j++) {
                    s -= hadamard[row + j] * alpha[j];
                }
                for (int l = 0; l < offsets.length; l++) {
                    s += offsetCoef[l] * offsetDiag[l][i];
                }
                int off = i * fp;
                for (int k = 0; k < fp; k++) {
                    double q = block[off + k];
                    s -= eig[k] * q * q;
                }
                z[i] = Math.max(s, 0.0) / lambda2;
            }
        }
    }

    /** {@link #evaluate} on the column blocks of a blocked term: the positive eigen-block route, block by block. */
    private void evaluateBlocked(double[] alpha) {
        boolean first = true;
        for (int from = 0; from < n; from += blockCols) {
            int to = Math.min(n, from + blockCols);
            int kNeg = 0;
            for (int i = from; i < to; i++) {
                if (alpha[i] < 0) {
                    columns.columnInto(i, Math.sqrt(-alpha[i]), factor, r * kNeg++);
                }
            }
            int kPos = 0;
            for (int i = from; i < to; i++) {
                if (alpha[i] > 0) {
                    columns.columnInto(i, Math.sqrt(alpha[i]), factor, r * (kNeg + kPos++));
                }
            }
            if (first || kNeg + kPos > 0) {
                ws.rankUpdate(factor, kNeg, 1.0, kPos, -1.0, first ? 0.0 : 1.0);
                first = false;
            }
        }
        int fp = eigenStep();
        int rPos = r - fp;
        if (rPos == 0) {
            java.util.Arrays.fill(z, 0.0);
            return;
        }
        for (int from = 0; from < n; from += blockCols) {
            int cnt = Math.min(blockCols, n - from);
            for (int j = 0; j < cnt; j++) {
                columns.columnInto(from + j, 1.0, factor, j * r);
            }
            ws.eigenvectorsTransposeTimes(fp, rPos, factor, cnt, block);
            for (int j = 0; j < cnt; j++) {
                double s = 0;
                int off = j * rPos;
                for (int k = 0; k < rPos; k++) {
                    double q = block[off + k];
                    s += eig[fp + k] * q * q;
                }
                z[from + j] = s / lambda2;
            }
        }
    }

    /** The checks of both constructors: λ₁ ≥ 0, λ₂ &gt; 0, both finite, and a non-empty r × n feature matrix. */
    private static void check(int r, int n, double lambda1, double lambda2) {
        if (!(lambda1 >= 0) || !Double.isFinite(lambda1)) {
            throw new IllegalArgumentException("lambda1 must be >= 0 and finite, got " + lambda1);
        }
        if (!(lambda2 > 0) || !Double.isFinite(lambda2)) {
            throw new IllegalArgumentException("lambda2 must be > 0 and finite, got " + lambda2);
        }
        if (r < 1 || n < 1) {
            throw new IllegalArgumentException("empty feature matrix " + r + "x" + n);
        }
    }

    /**
     * The step both evaluations share once the data part of M is in the workspace: adds the offsets, eigendecomposes
     * M, shifts the eigenvalues by −λ₁, and sets {@link #firstPositive} and the value h = Σ_{μ_k > 0} μ_k² / (2λ₂)
     * over the positive part. Returns the index of the first positive eigenvalue.
     */
    private int eigenStep() {
        for (int l = 0; l < offsets.length; l++) {
            if (offsetCoef[l] != 0) {
                ws.addScaled(offsetCoef[l], offsets[l]);
            }
        }
        long e0 = System.nanoTime();
        ws.eigh(eig);
        eighNanos += System.nanoTime() - e0;
        for (int k = 0; k < r; k++) {
            eig[k] -= lambda1;
        }
        int fp = r;
        while (fp > 0 && eig[fp - 1] > 0) {
            fp--;
        }
        firstPositive = fp;
        double h = 0;
        for (int k = fp; k < r; k++) {
            h += eig[k] * eig[k];
        }
        value = h / (2 * lambda2);
        return fp;
    }

    private void scaleColumn(int i, double s, int dest) {
        int src = i * r;
        int dst = dest * r;
        for (int a = 0; a < r; a++) {
            factor[dst + a] = v[src + a] * s;
        }
    }

    /** h at the last evaluation. */
    public double value() {
        return value;
    }

    /** f_A(x_i) at the last evaluation (a view; do not modify). */
    public double[] predictions() {
        return z;
    }

    /** Eigenvalues of M − already shifted by −λ₁ − at the last evaluation (ascending, a view). */
    public double[] shiftedEigenvalues() {
        return eig;
    }

    /** Number of positive eigenvalues of M at the last evaluation: the rank of A. */
    public int positiveRank() {
        return r - firstPositive;
    }

    /** Tr A at the last evaluation. */
    public double traceA() {
        double s = 0;
        for (int k = firstPositive; k < r; k++) {
            s += eig[k];
        }
        return s / lambda2;
    }

    /** ‖A‖²_F at the last evaluation. */
    public double frobenius2A() {
        return 2 * value / lambda2;
    }

    /** The primal regulariser λ₁ Tr A + (λ₂/2)‖A‖²_F at the last evaluation. */
    public double regulariser() {
        return lambda1 * traceA() + 0.5 * lambda2 * frobenius2A();
    }

    /**
     * A = F Fᵀ at the last evaluation, as the r×r₊ factor F = U₊ diag(√(μ₊/λ₂)).
     */
    public Matrix primalFactor() {
        int rPos = r - firstPositive;
        Matrix u = ws.eigenvectors(firstPositive, rPos);
        double[] d = u.data();
        for (int k = 0; k < rPos; k++) {
            double s = Math.sqrt(eig[firstPositive + k] / lambda2);
            for (int a = 0; a < r; a++) {
                d[a + k * r] *= s;
            }
        }
        return u;
    }

    /** A at the last evaluation (r×r). */
    public Matrix primalMatrix() {
        Matrix f = primalFactor();
        return Linalg.syrk(f, false);
    }

    public double lambda1() {
        return lambda1;
    }

    public double lambda2() {
        return lambda2;
    }

    /** Evaluations so far. */
    public long evaluations() {
        return evaluations;
    }

    /** Total time spent in dsyevd, in seconds. */
    public double eighSeconds() {
        return eighNanos * 1e-9;
    }

    /** Total time spent in {@link #valueAndGradient}, in seconds. */
    public double evaluationSeconds() {
        return totalNanos * 1e-9;
    }

    @Override
    public void close() {
        ws.close();
    }
}
