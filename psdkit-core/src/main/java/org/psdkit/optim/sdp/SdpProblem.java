package org.psdkit.optim.sdp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A block-diagonal semidefinite program in the standard primal–dual pair
 *
 * <pre>
 *   (P)  minimise ⟨C, X⟩  subject to ⟨A_i, X⟩ = b_i (i = 1..m),  X ⪰ 0
 *   (D)  maximise bᵀy    subject to Z = C − Σ_i y_i A_i ⪰ 0
 * </pre>
 *
 * <p>X, Z, C and every A_i share one block structure: dense symmetric blocks and diagonal blocks (a diagonal block of
 * size k holds k non-negative scalars, i.e. linear-programming variables). Each A_i is stored block by block,
 * sparsely ({@link Coefficient.Sparse}) or as a low-rank product ({@link Coefficient.LowRank}); blocks where A_i is
 * zero are not stored. Indices are 0-based. Immutable; build with {@link #builder(int)}.
 */
public final class SdpProblem {

    /** One stored block of one constraint matrix. */
    public record Term(int constraint, Coefficient coefficient) {
    }

    private final int m;
    private final double[] b;
    private final int[] sizes;
    private final boolean[] diagonal;
    private final Coefficient[] c;
    private final List<List<Term>> terms;

    private SdpProblem(int m, double[] b, int[] sizes, boolean[] diagonal, Coefficient[] c, List<List<Term>> terms) {
        this.m = m;
        this.b = b;
        this.sizes = sizes;
        this.diagonal = diagonal;
        this.c = c;
        this.terms = terms;
    }

    /** Number of equality constraints (length of b and y). */
    public int constraints() {
        return m;
    }

    public int blocks() {
        return sizes.length;
    }

    public int blockSize(int block) {
        return sizes[block];
    }

    /** True when the block is diagonal (an LP block of non-negative scalars). */
    public boolean isDiagonal(int block) {
        return diagonal[block];
    }

    /** Σ block sizes. */
    public int totalSize() {
        int s = 0;
        for (int k : sizes) {
            s += k;
        }
        return s;
    }

    public double[] b() {
        return b.clone();
    }

    double bAt(int i) {
        return b[i];
    }

    /** The block of C (null when zero). */
    public Coefficient c(int block) {
        return c[block];
    }

    /**
     * C of one block as a dense array: its diagonal (length n) for a diagonal block, else the n×n column-major
     * matrix; zeros where C has no entries.
     */
    public double[] denseC(int block) {
        int s = blockSize(block);
        Coefficient cb = c(block);
        if (isDiagonal(block)) {
            double[] d = new double[s];
            if (cb != null) {
                ((Coefficient.Sparse) cb).addToDiag(d, 1.0);
            }
            return d;
        }
        double[] d = new double[s * s];
        if (cb != null) {
            cb.addToDense(d, 1.0);
        }
        return d;
    }

    /** The stored constraint blocks of one block, in increasing constraint order. */
    public List<Term> terms(int block) {
        return terms.get(block);
    }

    /** The block of A_i (null when zero). */
    public Coefficient a(int constraint, int block) {
        for (Term t : terms.get(block)) {
            if (t.constraint() == constraint) {
                return t.coefficient();
            }
        }
        return null;
    }

    public static Builder builder(int m) {
        return new Builder(m);
    }

    @Override
    public String toString() {
        return "SdpProblem[m=" + m + ", blocks=" + Arrays.toString(signedSizes()) + "]";
    }

    /** Block sizes with diagonal blocks negative (the SDPA convention). */
    public int[] signedSizes() {
        int[] s = new int[sizes.length];
        for (int k = 0; k < s.length; k++) {
            s[k] = diagonal[k] ? -sizes[k] : sizes[k];
        }
        return s;
    }

    /** Assembles an {@link SdpProblem}; duplicate entries are summed. */
    public static final class Builder {
        private final int m;
        private final double[] b;
        private final List<Integer> sizes = new ArrayList<>();
        private final List<Boolean> diag = new ArrayList<>();
        /** key (constraint+1, block) -> (i,j) -> value; constraint -1 is C. */
        private final Map<Long, TreeMap<Long, Double>> entries = new HashMap<>();
        private final Map<Long, Coefficient> explicit = new HashMap<>();

        Builder(int m) {
            if (m < 0) {
                throw new IllegalArgumentException("number of constraints must be >= 0, got " + m);
            }
            this.m = m;
            this.b = new double[m];
        }

        /** Adds a dense symmetric block of size n; returns its index. */
        public int addBlock(int n) {
            return add(n, false);
        }

        /** Adds a diagonal (LP) block of n non-negative scalars; returns its index. */
        public int addDiagonalBlock(int n) {
            return add(n, true);
        }

        private int add(int n, boolean d) {
            if (n <= 0) {
                throw new IllegalArgumentException("block size must be positive, got " + n);
            }
            sizes.add(n);
            diag.add(d);
            return sizes.size() - 1;
        }

        public Builder setB(int i, double value) {
            checkConstraint(i);
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("b[" + i + "] is not finite: " + value);
            }
            b[i] = value;
            return this;
        }

        /** C(i,j) = C(j,i) += value in the given block. */
        public Builder addC(int block, int i, int j, double value) {
            return put(-1, block, i, j, value);
        }

        /** A_k(i,j) = A_k(j,i) += value in the given block. */
        public Builder addA(int k, int block, int i, int j, double value) {
            checkConstraint(k);
            return put(k, block, i, j, value);
        }

        /** Sets the whole block of A_k (replaces entries given so far for it). */
        public Builder setA(int k, int block, Coefficient coefficient) {
            checkConstraint(k);
            checkBlock(block, coefficient);
            entries.remove(key(k, block));
            explicit.put(key(k, block), coefficient);
            return this;
        }

        /** Sets the whole block of C. */
        public Builder setC(int block, Coefficient coefficient) {
            checkBlock(block, coefficient);
            entries.remove(key(-1, block));
            explicit.put(key(-1, block), coefficient);
            return this;
        }

        private void checkBlock(int block, Coefficient coefficient) {
            if (block < 0 || block >= sizes.size()) {
                throw new IllegalArgumentException("no block " + block + " (have " + sizes.size() + ")");
            }
            if (coefficient.size() != sizes.get(block)) {
                throw new IllegalArgumentException("coefficient of size " + coefficient.size() + " for block "
                        + block + " of size " + sizes.get(block));
            }
            if (diag.get(block) && !(coefficient instanceof Coefficient.Sparse s && s.isDiagonalOnly())) {
                throw new IllegalArgumentException("block " + block + " is diagonal: only diagonal sparse entries"
                        + " are allowed");
            }
        }

        private void checkConstraint(int k) {
            if (k < 0 || k >= m) {
                throw new IllegalArgumentException("constraint index " + k + " outside 0.." + (m - 1));
            }
        }

        private Builder put(int k, int block, int i, int j, double value) {
            if (block < 0 || block >= sizes.size()) {
                throw new IllegalArgumentException("no block " + block + " (have " + sizes.size() + ")");
            }
            int n = sizes.get(block);
            if (i < 0 || j < 0 || i >= n || j >= n) {
                throw new IllegalArgumentException("entry (" + i + "," + j + ") outside block " + block
                        + " of size " + n);
            }
            if (diag.get(block) && i != j) {
                throw new IllegalArgumentException("block " + block + " is diagonal but entry (" + i + "," + j
                        + ") is off the diagonal");
            }
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("entry (" + i + "," + j + ") is not finite: " + value);
            }
            if (explicit.containsKey(key(k, block))) {
                throw new IllegalArgumentException("block " + block + " of " + (k < 0 ? "C" : "A_" + k)
                        + " was already set as a whole");
            }
            int lo = Math.min(i, j);
            int hi = Math.max(i, j);
            entries.computeIfAbsent(key(k, block), x -> new TreeMap<>())
                    .merge(((long) hi << 32) | lo, value, Double::sum);
            return this;
        }

        private static long key(int k, int block) {
            return ((long) (k + 1) << 32) | block;
        }

        public SdpProblem build() {
            int nb = sizes.size();
            int[] sz = new int[nb];
            boolean[] dg = new boolean[nb];
            for (int k = 0; k < nb; k++) {
                sz[k] = sizes.get(k);
                dg[k] = diag.get(k);
            }
            Coefficient[] cc = new Coefficient[nb];
            List<List<Term>> terms = new ArrayList<>();
            for (int k = 0; k < nb; k++) {
                terms.add(new ArrayList<>());
            }
            Map<Long, Coefficient> all = new HashMap<>(explicit);
            for (var e : entries.entrySet()) {
                int blk = (int) (long) e.getKey();
                TreeMap<Long, Double> map = e.getValue();
                int cnt = 0;
                for (double v : map.values()) {
                    cnt += v != 0 ? 1 : 0;
                }
                if (cnt == 0) {
                    continue;
                }
                int[] r = new int[cnt];
                int[] c = new int[cnt];
                double[] v = new double[cnt];
                int p = 0;
                for (var x : map.entrySet()) {
                    if (x.getValue() == 0) {
                        continue;
                    }
                    r[p] = (int) (x.getKey() & 0xffffffffL);
                    c[p] = (int) (x.getKey() >>> 32);
                    v[p++] = x.getValue();
                }
                all.put(e.getKey(), Coefficient.sparse(sz[blk], r, c, v));
            }
            List<Long> keys = new ArrayList<>(all.keySet());
            keys.sort(null);
            for (long key : keys) {
                int k = (int) (key >>> 32) - 1;
                int blk = (int) (key & 0xffffffffL);
                if (k < 0) {
                    cc[blk] = all.get(key);
                } else {
                    terms.get(blk).add(new Term(k, all.get(key)));
                }
            }
            for (List<Term> t : terms) {
                t.sort((x, y) -> Integer.compare(x.constraint(), y.constraint()));
            }
            List<List<Term>> frozen = new ArrayList<>();
            for (List<Term> t : terms) {
                frozen.add(List.copyOf(t));
            }
            return new SdpProblem(m, b.clone(), sz, dg, cc, List.copyOf(frozen));
        }
    }
}
