package org.psdkit.optim.sdp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.linalg.Matrix;

/**
 * A small modelling layer over {@link SdpSolver}: state an SDP with scalar variables, PSD matrix variables, linear
 * equalities and inequalities and linear matrix inequalities (LMIs) in the scalar variables, then
 * {@link #minimize}/{@link #maximize} a linear objective.
 *
 * <pre>{@code
 * SdpModel model = new SdpModel();
 * SdpModel.Var t = model.scalar("t");
 * SdpModel.Lmi lmi = model.lmi(2);                 // [[1, t], [t, 1]] ⪰ 0
 * lmi.constant(0, 0, 1).constant(1, 1, 1).add(t, 0, 1, 1.0);
 * SdpModel.Solution s = model.maximize(LinExpr.of(t));
 * s.value(t);                                      // 1
 * }</pre>
 *
 * <p>How it compiles: the scalar variables become the free vector y of the dual form (D) of {@link SdpProblem}.
 * Each LMI F₀ + Σ v_k F_k ⪰ 0 becomes one block (C = F₀, A_k = −F_k); all linear inequalities share one diagonal
 * block; a PSD matrix variable P (k×k) introduces k(k+1)/2 scalars P_ij and the LMI P ⪰ 0. Linear equalities are
 * eliminated before solving (Gauss–Jordan with pivoting: y_B = e − R y_N), so they never leave the interior-point
 * method without a strictly feasible point. The multiplier of an LMI (the block of X) is returned by
 * {@link Solution#multiplier(Lmi)}.
 *
 * <p>Not thread-safe; build and solve from one thread.
 */
public final class SdpModel {

    /**
     * Pivots of magnitude below 1e-10 × (largest coefficient of the equality system) are treated as zero when the
     * equalities are eliminated: well above the rounding level of the elimination (~1e-13 relative for the
     * dozens of rows we expect) and well below any coefficient a model states on purpose.
     */
    static final double PIVOT_TOLERANCE = 1e-10;

    /** A scalar decision variable. */
    public record Var(int index, String name) {
    }

    /** A symmetric k×k matrix variable constrained to be PSD; entry(i,j) is a scalar {@link Var}. */
    public static final class MatrixVar {
        private final String name;
        private final Var[][] entries;

        MatrixVar(String name, Var[][] entries) {
            this.name = name;
            this.entries = entries;
        }

        public int size() {
            return entries.length;
        }

        public String name() {
            return name;
        }

        /** The scalar variable P_ij (= P_ji). */
        public Var entry(int i, int j) {
            return entries[Math.min(i, j)][Math.max(i, j)];
        }

        /** trace(W P) as a linear expression, for a symmetric W. */
        public LinExpr inner(Matrix w) {
            int k = size();
            if (w.rows() != k || w.cols() != k) {
                throw new IllegalArgumentException("inner product of " + name + " (" + k + "x" + k + ") with a "
                        + w.rows() + "x" + w.cols() + " matrix");
            }
            LinExpr e = new LinExpr();
            for (int j = 0; j < k; j++) {
                for (int i = 0; i <= j; i++) {
                    double c = i == j ? w.get(i, i) : w.get(i, j) + w.get(j, i);
                    if (c != 0) {
                        e.plus(c, entries[i][j]);
                    }
                }
            }
            return e;
        }
    }

    /**
     * A linear matrix inequality F₀ + Σ v_k F_k ⪰ 0 of a fixed size. Entries are added (summed) with
     * {@link #constant}, {@link #add}, or whole matrices with {@link #addMatrix}/{@link #addLowRank}; every matrix is
     * symmetric, an off-diagonal entry (i,j) stands for both (i,j) and (j,i).
     */
    public final class Lmi {
        final int size;
        final int id;
        /** var index (−1 = constant) → pieces. */
        final Map<Integer, List<Object>> pieces = new LinkedHashMap<>();

        Lmi(int size, int id) {
            this.size = size;
            this.id = id;
        }

        public int size() {
            return size;
        }

        private void check(int i, int j, double v) {
            if (i < 0 || j < 0 || i >= size || j >= size) {
                throw new IllegalArgumentException("LMI entry (" + i + "," + j + ") outside size " + size);
            }
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("LMI entry (" + i + "," + j + ") is not finite: " + v);
            }
        }

        @SuppressWarnings("unchecked")
        private Map<Long, Double> sparse(int var) {
            List<Object> l = pieces.computeIfAbsent(var, k -> new ArrayList<>());
            for (Object o : l) {
                if (o instanceof Map) {
                    return (Map<Long, Double>) o;
                }
            }
            Map<Long, Double> map = new HashMap<>();
            l.add(map);
            return map;
        }

        /** F₀(i,j) += value. */
        public Lmi constant(int i, int j, double value) {
            check(i, j, value);
            sparse(-1).merge(key(i, j), value, Double::sum);
            return this;
        }

        /** F_v(i,j) += coefficient. */
        public Lmi add(Var v, int i, int j, double coefficient) {
            own(v);
            check(i, j, coefficient);
            sparse(v.index()).merge(key(i, j), coefficient, Double::sum);
            return this;
        }

        /** F₀ += M (M symmetric, size×size). */
        public Lmi addConstant(Matrix m) {
            return addMatrixPiece(-1, m);
        }

        /** F_v += M (M symmetric, size×size; stored densely). */
        public Lmi addMatrix(Var v, Matrix m) {
            own(v);
            return addMatrixPiece(v.index(), m);
        }

        /** F_v += U D Uᵀ (U size×r, D r×r symmetric): a low-rank coefficient the solver exploits. */
        public Lmi addLowRank(Var v, Matrix u, Matrix d) {
            own(v);
            if (u.rows() != size) {
                throw new IllegalArgumentException("low-rank factor has " + u.rows() + " rows, LMI size " + size);
            }
            pieces.computeIfAbsent(v.index(), k -> new ArrayList<>()).add(Coefficient.lowRank(u, d));
            return this;
        }

        private Lmi addMatrixPiece(int var, Matrix m) {
            if (m.rows() != size || m.cols() != size) {
                throw new IllegalArgumentException("matrix " + m.rows() + "x" + m.cols() + " added to an LMI of size "
                        + size);
            }
            for (double x : m.data()) {
                if (!Double.isFinite(x)) {
                    throw new IllegalArgumentException("matrix added to an LMI has a non-finite entry");
                }
            }
            pieces.computeIfAbsent(var, k -> new ArrayList<>()).add(m.copy());
            return this;
        }

        private long key(int i, int j) {
            return ((long) Math.max(i, j) << 32) | Math.min(i, j);
        }
    }

    /** Result of {@link #minimize}/{@link #maximize}. */
    public final class Solution {
        private final SdpResult raw;
        private final double[] values;
        private final double objective;
        private final int[] lmiBlock;
        private final int ineqBlock;

        Solution(SdpResult raw, double[] values, double objective, int[] lmiBlock, int ineqBlock) {
            this.raw = raw;
            this.values = values;
            this.objective = objective;
            this.lmiBlock = lmiBlock;
            this.ineqBlock = ineqBlock;
        }

        /**
         * Solver status. {@link SdpStatus#DUAL_INFEASIBLE} means the model is infeasible, and
         * {@link SdpStatus#PRIMAL_INFEASIBLE} that it is unbounded (the model is the solver's dual).
         */
        public SdpStatus status() {
            return raw.status();
        }

        public boolean isOptimal() {
            return raw.isOptimal();
        }

        /** The model is infeasible (certificate found). */
        public boolean isInfeasible() {
            return raw.status() == SdpStatus.DUAL_INFEASIBLE;
        }

        /** The objective is unbounded (certificate found). */
        public boolean isUnbounded() {
            return raw.status() == SdpStatus.PRIMAL_INFEASIBLE;
        }

        /** Objective value at the returned point (in the direction given: min or max). */
        public double objective() {
            return objective;
        }

        public double value(Var v) {
            own(v);
            return values[v.index()];
        }

        public double value(LinExpr e) {
            return e.evaluate(values);
        }

        /** The value of a matrix variable. */
        public Matrix value(MatrixVar p) {
            int k = p.size();
            Matrix out = Matrix.zeros(k, k);
            for (int i = 0; i < k; i++) {
                for (int j = 0; j < k; j++) {
                    out.set(i, j, values[p.entry(i, j).index()]);
                }
            }
            return out;
        }

        /** The multiplier (Lagrange matrix, PSD) of an LMI: the corresponding block of the solver's X. */
        public Matrix multiplier(Lmi lmi) {
            return raw.x()[lmiBlock[lmi.id]].copy();
        }

        /** The multipliers of the linear inequalities, in the order they were added (non-negative). */
        public double[] inequalityMultipliers() {
            return ineqBlock < 0 ? new double[0] : raw.x()[ineqBlock].data().clone();
        }

        /** The underlying solver result (iterations, gap, infeasibilities, time). */
        public SdpResult result() {
            return raw;
        }
    }

    private final List<Var> vars = new ArrayList<>();
    private final List<Lmi> lmis = new ArrayList<>();
    private final List<LinExpr> inequalities = new ArrayList<>(); // expr ≥ 0
    private final List<LinExpr> equalities = new ArrayList<>(); // expr = 0
    private SdpOptions options = SdpOptions.defaults();

    /** Solver options used by {@link #minimize}/{@link #maximize}. */
    public SdpModel options(SdpOptions o) {
        this.options = o;
        return this;
    }

    /** A new free scalar variable. */
    public Var scalar(String name) {
        Var v = new Var(vars.size(), name);
        vars.add(v);
        return v;
    }

    /** n new free scalars named name[0..n-1]. */
    public Var[] scalars(String name, int n) {
        Var[] v = new Var[n];
        for (int i = 0; i < n; i++) {
            v[i] = scalar(name + "[" + i + "]");
        }
        return v;
    }

    /** A new scalar variable constrained to be ≥ 0. */
    public Var nonNegative(String name) {
        Var v = scalar(name);
        greaterEqual(LinExpr.of(v), 0);
        return v;
    }

    /** A new symmetric k×k matrix variable P with the constraint P ⪰ 0. */
    public MatrixVar psdMatrix(String name, int k) {
        if (k <= 0) {
            throw new IllegalArgumentException("PSD matrix variable " + name + " must have positive size, got " + k);
        }
        Var[][] e = new Var[k][k];
        Lmi lmi = lmi(k);
        for (int j = 0; j < k; j++) {
            for (int i = 0; i <= j; i++) {
                e[i][j] = scalar(name + "[" + i + "," + j + "]");
                lmi.add(e[i][j], i, j, 1.0);
            }
        }
        return new MatrixVar(name, e);
    }

    /** A new LMI of the given size (initially 0 ⪰ 0); fill it through the returned object. */
    public Lmi lmi(int size) {
        if (size <= 0) {
            throw new IllegalArgumentException("LMI size must be positive, got " + size);
        }
        Lmi l = new Lmi(size, lmis.size());
        lmis.add(l);
        return l;
    }

    /** lhs ≤ rhs. */
    public SdpModel lessEqual(LinExpr lhs, double rhs) {
        inequalities.add(new LinExpr().plus(-1.0, lhs).plus(rhs));
        return this;
    }

    /** lhs ≥ rhs. */
    public SdpModel greaterEqual(LinExpr lhs, double rhs) {
        inequalities.add(new LinExpr().plus(1.0, lhs).plus(-rhs));
        return this;
    }

    /** lhs = rhs. */
    public SdpModel equal(LinExpr lhs, double rhs) {
        equalities.add(new LinExpr().plus(1.0, lhs).plus(-rhs));
        return this;
    }

    public int variables() {
        return vars.size();
    }

    private void own(Var v) {
        if (v.index() >= vars.size() || vars.get(v.index()) != v) {
            throw new IllegalArgumentException("variable " + v.name() + " belongs to another model");
        }
    }

    public Solution minimize(LinExpr objective) {
        return solve(objective, 1.0);
    }

    public Solution maximize(LinExpr objective) {
        return solve(objective, -1.0);
    }

    /** The compiled standard-form problem (for inspection or writing as SDPA). */
    public SdpProblem compile(LinExpr objective) {
        return new Compiled(objective, 1.0).problem;
    }

    private Solution solve(LinExpr objective, double sense) {
        Compiled c = new Compiled(objective, sense);
        SdpResult r = SdpSolver.solve(c.problem, options);
        double[] values = c.expand(r.y());
        return new Solution(r, values, objective.evaluate(values), c.lmiBlock, c.ineqBlock);
    }

    /** Equality elimination and assembly into (D): max bᵀy s.t. C − Σ y A ⪰ 0. */
    private final class Compiled {
        final int p = vars.size();
        /** For every original variable: value = base + Σ_k coef[k] y_k (y = free variables). */
        final double[] base = new double[p];
        final double[][] coef;
        final int[] freeIndex; // original index of y_k
        final int[] yOfVar;
        final SdpProblem problem;
        final int[] lmiBlock = new int[lmis.size()];
        int ineqBlock = -1;

        Compiled(LinExpr objective, double sense) {
            // --- eliminate equalities
            int r = equalities.size();
            double[][] e = new double[r][p + 1];
            double scale = 0;
            for (int i = 0; i < r; i++) {
                for (var x : equalities.get(i).coef.entrySet()) {
                    e[i][x.getKey()] += x.getValue();
                }
                e[i][p] = -equalities.get(i).constant; // Σ a v = −c
                for (int j = 0; j < p; j++) {
                    scale = Math.max(scale, Math.abs(e[i][j]));
                }
            }
            int[] pivotOfRow = new int[r];
            boolean[] isPivot = new boolean[p];
            int rank = 0;
            for (int i = 0; i < r; i++) {
                // choose the largest entry in row i among non-pivot columns
                int best = -1;
                double bv = 0;
                for (int j = 0; j < p; j++) {
                    if (!isPivot[j] && Math.abs(e[i][j]) > bv) {
                        bv = Math.abs(e[i][j]);
                        best = j;
                    }
                }
                if (best < 0 || bv <= PIVOT_TOLERANCE * Math.max(scale, 1e-300)) {
                    if (Math.abs(e[i][p]) > PIVOT_TOLERANCE * Math.max(1.0, scale)) {
                        throw new IllegalArgumentException("linear equality constraints are inconsistent (equality "
                                + i + " contradicts the ones before it)");
                    }
                    pivotOfRow[i] = -1;
                    continue;
                }
                double pv = e[i][best];
                for (int j = 0; j <= p; j++) {
                    e[i][j] /= pv;
                }
                for (int k = 0; k < r; k++) {
                    if (k != i && e[k][best] != 0) {
                        double f = e[k][best];
                        for (int j = 0; j <= p; j++) {
                            e[k][j] -= f * e[i][j];
                        }
                    }
                }
                pivotOfRow[i] = best;
                isPivot[best] = true;
                rank++;
            }
            int nf = p - rank;
            freeIndex = new int[nf];
            int[] yOf = new int[p];
            yOfVar = yOf;
            int k = 0;
            for (int j = 0; j < p; j++) {
                yOf[j] = isPivot[j] ? -1 : k;
                if (!isPivot[j]) {
                    freeIndex[k++] = j;
                }
            }
            coef = new double[p][];
            for (int j = 0; j < p; j++) {
                coef[j] = new double[nf];
                if (!isPivot[j]) {
                    coef[j][yOf[j]] = 1.0;
                }
            }
            for (int i = 0; i < r; i++) {
                int piv = pivotOfRow[i];
                if (piv < 0) {
                    continue;
                }
                base[piv] = e[i][p];
                for (int j = 0; j < p; j++) {
                    if (!isPivot[j] && e[i][j] != 0) {
                        coef[piv][yOf[j]] = -e[i][j];
                    }
                }
            }
            // --- assemble
            SdpProblem.Builder bld = SdpProblem.builder(nf);
            for (int l = 0; l < lmis.size(); l++) {
                lmiBlock[l] = bld.addBlock(lmis.get(l).size);
            }
            if (!inequalities.isEmpty()) {
                ineqBlock = bld.addDiagonalBlock(inequalities.size());
            }
            // objective: minimise sense·(cᵀv) ⇔ maximise −sense·cᵀ(base + coef y)
            double[] bvec = new double[nf];
            for (var x : objective.coef.entrySet()) {
                double[] cj = coef[x.getKey()];
                for (int q = 0; q < nf; q++) {
                    bvec[q] -= sense * x.getValue() * cj[q];
                }
            }
            for (int q = 0; q < nf; q++) {
                bld.setB(q, bvec[q]);
            }
            for (int l = 0; l < lmis.size(); l++) {
                assembleLmi(bld, lmis.get(l), lmiBlock[l], nf, isPivot);
            }
            for (int i = 0; i < inequalities.size(); i++) {
                // expr(v) ≥ 0 with v = base + coef y: const' + Σ_q g_q y_q ≥ 0 → C = const', A_q = −g_q
                LinExpr ex = inequalities.get(i);
                double c0 = ex.constant;
                double[] g = new double[nf];
                for (var x : ex.coef.entrySet()) {
                    c0 += x.getValue() * base[x.getKey()];
                    double[] cj = coef[x.getKey()];
                    for (int q = 0; q < nf; q++) {
                        g[q] += x.getValue() * cj[q];
                    }
                }
                bld.addC(ineqBlock, i, i, c0);
                for (int q = 0; q < nf; q++) {
                    if (g[q] != 0) {
                        bld.addA(q, ineqBlock, i, i, -g[q]);
                    }
                }
            }
            problem = bld.build();
        }

        /** Adds piece·w into a dense accumulator. */
        private void accumulate(double[] acc, int n, Object piece, double w) {
            if (piece instanceof Matrix mtx) {
                double[] d = mtx.data();
                for (int t = 0; t < d.length; t++) {
                    acc[t] += w * d[t];
                }
            } else if (piece instanceof Coefficient c) {
                c.addToDense(acc, w);
            } else {
                @SuppressWarnings("unchecked")
                Map<Long, Double> map = (Map<Long, Double>) piece;
                for (var x : map.entrySet()) {
                    int i = (int) (x.getKey() >>> 32);
                    int j = (int) (x.getKey() & 0xffffffffL);
                    acc[i + j * n] += w * x.getValue();
                    if (i != j) {
                        acc[j + i * n] += w * x.getValue();
                    }
                }
            }
        }

        private void assembleLmi(SdpProblem.Builder bld, Lmi lmi, int block, int nf, boolean[] isPivot) {
            int n = lmi.size;
            // constant: F0 + Σ_j base_j F_j ; coefficient of y_q: Σ_j coef[j][q] F_j
            double[] c0 = null;
            Map<Integer, double[]> dense = new HashMap<>();
            Map<Integer, List<Object>> direct = new HashMap<>(); // y_q with exactly the pieces of a free var
            for (var en : lmi.pieces.entrySet()) {
                int var = en.getKey();
                for (Object piece : en.getValue()) {
                    if (var < 0) {
                        c0 = c0 == null ? new double[n * n] : c0;
                        accumulate(c0, n, piece, 1.0);
                        continue;
                    }
                    if (base[var] != 0) {
                        c0 = c0 == null ? new double[n * n] : c0;
                        accumulate(c0, n, piece, base[var]);
                    }
                    if (!isPivot[var]) {
                        int q = yIndex(var);
                        direct.computeIfAbsent(q, z -> new ArrayList<>()).add(piece);
                    } else {
                        double[] cj = coef[var];
                        for (int q = 0; q < nf; q++) {
                            if (cj[q] != 0) {
                                double[] acc = dense.computeIfAbsent(q, z -> new double[n * n]);
                                accumulate(acc, n, piece, cj[q]);
                            }
                        }
                    }
                }
            }
            if (c0 != null) {
                bld.setC(block, toSparse(n, c0, 1.0));
            }
            for (var en : direct.entrySet()) {
                int q = en.getKey();
                List<Object> ps = en.getValue();
                if (ps.size() == 1 && !dense.containsKey(q) && ps.get(0) instanceof Coefficient.LowRank lr) {
                    // A_q = −U D Uᵀ
                    bld.setA(q, block, Coefficient.lowRank(lr.u, Matrix.wrap(lr.rank(), lr.rank(), lr.d).scale(-1)));
                    continue;
                }
                double[] acc = dense.computeIfAbsent(q, z -> new double[n * n]);
                for (Object piece : ps) {
                    accumulate(acc, n, piece, 1.0);
                }
            }
            for (var en : dense.entrySet()) {
                Coefficient.Sparse s = toSparse(n, en.getValue(), -1.0);
                if (s.entries() > 0) {
                    bld.setA(en.getKey(), block, s);
                }
            }
        }

        private int yIndex(int var) {
            return yOfVar[var];
        }

        private Coefficient.Sparse toSparse(int n, double[] acc, double sign) {
            int cnt = 0;
            for (int j = 0; j < n; j++) {
                for (int i = 0; i <= j; i++) {
                    cnt += acc[i + j * n] != 0 || acc[j + i * n] != 0 ? 1 : 0;
                }
            }
            int[] rr = new int[cnt];
            int[] cc = new int[cnt];
            double[] vv = new double[cnt];
            int t = 0;
            for (int j = 0; j < n; j++) {
                for (int i = 0; i <= j; i++) {
                    double v = 0.5 * (acc[i + j * n] + acc[j + i * n]);
                    if (acc[i + j * n] != 0 || acc[j + i * n] != 0) {
                        rr[t] = i;
                        cc[t] = j;
                        vv[t++] = sign * v;
                    }
                }
            }
            return Coefficient.sparse(n, rr, cc, vv);
        }

        double[] expand(double[] y) {
            double[] v = new double[p];
            for (int j = 0; j < p; j++) {
                double s = base[j];
                for (int q = 0; q < y.length; q++) {
                    s += coef[j][q] * y[q];
                }
                v[j] = s;
            }
            return v;
        }
    }
}
