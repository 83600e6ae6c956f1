package org.psdkit.optim.smo;

import java.util.Arrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelValues;
import org.psdkit.kernel.ParallelColumns;

/**
 * Q rows computed from a kernel on demand and kept in a least-recently-used cache of at most a given number of bytes,
 * LIBSVM's design (Chang &amp; Lin 2011, Sec. 5.1 and 7.1): a row of position a is stored for the positions
 * 0 &le; b &lt; len only (the active set when it was asked for) and extended when a longer row is needed; when the
 * solver swaps two positions, every cached row swaps its two entries, or is dropped when it covers only one of them.
 *
 * <p>Rows are stored in double precision when all m full rows fit the budget (then nothing is rounded: the same
 * values as the dense Gram matrix, computed only where needed), otherwise in single precision. The solver then works exactly (in double precision: gradient, α, bias) on
 * the rounded matrix Q̃ with |Q̃_ab − Q_ab| &le; 2⁻²⁴ |Q_ab|: the rounding is deterministic and symmetric (k(x, t)
 * evaluates (x − t)² termwise, so Q̃_ab = Q̃_ba) and the maintained gradient is Q̃α + p for the same Q̃ at every
 * step; this is LIBSVM's {@code Qfloat}. The decision values are later computed from α in double precision, and
 * {@code SmoCacheTest} checks them against the double-precision dense path. Twice as many rows fit the budget.
 */
final class RowCache extends QRows {

    /** Bytes charged per cached row besides its entries: a float[] header on HotSpot with compressed oops. */
    static final long ROW_OVERHEAD = 16;
    /**
     * Elementwise cost of one kernel entry relative to a multiply-add, for {@link ParallelColumns}' threading
     * threshold: an exponential costs roughly 20 multiply-adds (docs/benchmarks/linalg.md).
     */
    private static final int ENTRY_COST = 20;

    /**
     * Largest number of features for which a radial kernel's points are also kept feature-major in working order
     * ({@link #cols}); beyond it each point's own array is long enough to be read as one stream.
     */
    static final int FEATURE_MAJOR_MAX_DIM = 64;
    /** Largest feature-major copy of the points, in doubles (256 MB). */
    static final long FEATURE_MAJOR_MAX_DOUBLES = 1L << 25;

    /**
     * A row given up to make room is reused for the new one when it is at least as long and longer by at most
     * 1/REUSE_SLACK of it (the unused entries are charged to the budget all the same): no allocation, no zeroing, no
     * garbage for the collector, at a bounded loss of room. Which rows are kept changes only which entries are
     * computed again, not their values.
     */
    static final int REUSE_SLACK = 8;

    /** Per-thread double scratch of the single-precision rows (kernel values before rounding). */
    private static final ThreadLocal<double[][]> SCRATCH = ThreadLocal.withInitial(() -> new double[1][]);

    private final Kernel kernel;
    private final double[][] pts;
    /**
     * For a radial kernel with few features: feature j of the point at position b is cols[j·m + b], swapped with
     * the positions, so that a row's squared distances read contiguous runs (KernelValues.radialValues, the same
     * values bit for bit) instead of one small array per point in permuted order; null otherwise.
     */
    private final double[] cols;
    private final int m;
    private final long budget;
    /** Whether rows are stored in double precision (all m full rows fit the budget). */
    private final boolean exact;
    private final float[][] data;
    private final double[][] ddata;
    private final int[] len;
    /** LRU list over positions with a cached row; sentinel m; next[m] is the least recently used. */
    private final int[] prev;
    private final int[] next;
    private long used;
    private long peak;
    private long computed;
    private long reused;

    RowCache(Kernel kernel, double[][] pts, long budgetBytes, int[] perm, double[] y) {
        super(perm, y);
        this.kernel = kernel;
        this.pts = pts;
        this.m = pts.length;
        int d = m == 0 ? 0 : pts[0].length;
        this.cols = KernelValues.radial(kernel) && d <= FEATURE_MAJOR_MAX_DIM
                && (long) d * m <= FEATURE_MAJOR_MAX_DOUBLES ? featureMajor(pts, perm, d) : null;
        // LIBSVM keeps room for at least two full rows (the working pair), whatever the budget
        this.exact = m * bytes(m, 8) <= budgetBytes;
        this.budget = Math.max(budgetBytes, 2 * bytes(m, exact ? 8 : 4));
        this.data = exact ? null : new float[m][];
        this.ddata = exact ? new double[m][] : null;
        this.len = new int[m];
        this.prev = new int[m + 1];
        this.next = new int[m + 1];
        prev[m] = m;
        next[m] = m;
    }

    /** cols[j·m + a] = pts[perm[a]][j]; null when a point's dimension differs (the row-wise path reports it). */
    private static double[] featureMajor(double[][] pts, int[] perm, int d) {
        int m = pts.length;
        double[] c = new double[d * m];
        for (int a = 0; a < m; a++) {
            double[] p = pts[perm[a]];
            if (p.length != d) {
                return null;
            }
            for (int j = 0; j < d; j++) {
                c[j * m + a] = p[j];
            }
        }
        return c;
    }

    /** k(point at a, point at b) for from ≤ b &lt; to into out[from..to), before the labels. */
    private void kernelValues(double[] xa, int from, int to, double[] out) {
        if (cols != null) {
            KernelValues.radialValues(kernel, xa, cols, m, from, to, out);
        } else {
            KernelValues.values(kernel, xa, pts, perm, from, to, out);
        }
    }

    /** Bytes charged for a cached row of {@code len} entries of {@code width} bytes. */
    static long bytes(int len, int width) {
        return (long) width * len + ROW_OVERHEAD;
    }

    private long bytes(int len) {
        return bytes(len, exact ? 8 : 4);
    }

    /** Whether rows are kept in double precision (all full rows fit the budget). */
    boolean exact() {
        return exact;
    }

    /** The budget in bytes (at least two full rows). */
    long budget() {
        return budget;
    }

    /** Bytes of cached rows now. */
    long used() {
        return used;
    }

    /** Largest number of bytes the cached rows ever took. */
    long peak() {
        return peak;
    }

    /** Rows stored in the array of a row given up ({@link #REUSE_SLACK}) instead of a new one. */
    long reusedRows() {
        return reused;
    }

    /** Kernel entries computed so far (cache misses, counted by entry). */
    long computedEntries() {
        return computed;
    }

    @Override
    void row(int a, int need, double[] out) {
        get(a, need);
        if (exact) {
            System.arraycopy(ddata[a], 0, out, 0, need);
        } else {
            float[] r = data[a];
            for (int b = 0; b < need; b++) {
                out[b] = r[b];
            }
        }
    }

    @Override
    boolean floatRows() {
        return !exact;
    }

    @Override
    float[] floatRow(int a, int need) {
        if (exact) {
            return null;
        }
        get(a, need);
        return data[a];
    }

    @Override
    double[] doubleRow(int a, int need, double[] buf) {
        if (!exact) {
            row(a, need, buf);
            return buf;
        }
        get(a, need);
        return ddata[a];
    }

    /** Makes the cached row of position a valid at least for 0 &le; b &lt; need (computed where missing). */
    void get(int a, int need) {
        int have = len[a];
        if (have > 0) {
            unlink(a);
        }
        if (need > have) {
            int cap = capacity(a);
            if (cap < need) {
                // a new array: an evicted one of at most REUSE_SLACK more entries when there is one, else a fresh one
                long charged = have > 0 ? bytes(cap) : 0;
                Object reuse = null;
                while (used + bytes(reuse == null ? need : length(reuse)) - charged > budget && next[m] != m) {
                    Object freed = evict(next[m]);
                    if (reuse == null && length(freed) >= need && length(freed) - need <= need / REUSE_SLACK) {
                        reuse = freed;
                    }
                }
                if (reuse != null) {
                    reused++;
                }
                if (exact) {
                    double[] r = reuse != null ? (double[]) reuse : new double[need];
                    if (have > 0) {
                        System.arraycopy(ddata[a], 0, r, 0, have);
                    }
                    ddata[a] = r;
                } else {
                    float[] r = reuse != null ? (float[]) reuse : new float[need];
                    if (have > 0) {
                        System.arraycopy(data[a], 0, r, 0, have);
                    }
                    data[a] = r;
                }
                used += bytes(capacity(a)) - charged;
            }
            if (exact) {
                fill(a, ddata[a], have, need);
            } else {
                fill(a, data[a], have, need);
            }
            len[a] = need;
            peak = Math.max(peak, used);
        }
        link(a);
    }

    /** Entries the array of position a holds (0 when none); entries from len[a] on are not valid. */
    private int capacity(int a) {
        return exact ? (ddata[a] == null ? 0 : ddata[a].length) : (data[a] == null ? 0 : data[a].length);
    }

    private static int length(Object row) {
        return row instanceof double[] d ? d.length : ((float[]) row).length;
    }

    private void fill(int a, double[] r, int from, int to) {
        double[] xa = pts[perm[a]];
        double ya = y[a];
        long work = (long) (to - from) * (xa.length + ENTRY_COST);
        ParallelColumns.forColumns(to - from, work, (lo, hi) -> {
            kernelValues(xa, from + lo, from + hi, r);
            for (int b = from + lo; b < from + hi; b++) {
                r[b] = ya * y[b] * r[b];
            }
        });
        computed += to - from;
    }

    private void fill(int a, float[] r, int from, int to) {
        double[] xa = pts[perm[a]];
        double ya = y[a];
        long work = (long) (to - from) * (xa.length + ENTRY_COST);
        ParallelColumns.forColumns(to - from, work, (lo, hi) -> {
            double[][] holder = SCRATCH.get();
            if (holder[0] == null || holder[0].length < to) {
                holder[0] = new double[Math.max(to, m)];
            }
            double[] v = holder[0];
            kernelValues(xa, from + lo, from + hi, v);
            for (int b = from + lo; b < from + hi; b++) {
                r[b] = (float) (ya * y[b] * v[b]);
            }
        });
        computed += to - from;
    }

    @Override
    void swap(int a, int b) {
        if (a == b) {
            return;
        }
        swapSlots(a, b);
        int lo = Math.min(a, b);
        int hi = Math.max(a, b);
        for (int h = next[m]; h != m; ) {
            int nx = next[h];
            if (len[h] > lo) {
                if (len[h] > hi) {
                    if (exact) {
                        double[] r = ddata[h];
                        double t = r[lo];
                        r[lo] = r[hi];
                        r[hi] = t;
                    } else {
                        float[] r = data[h];
                        float t = r[lo];
                        r[lo] = r[hi];
                        r[hi] = t;
                    }
                } else {
                    evict(h); // covers lo but not hi: LIBSVM gives the row up
                }
            }
            h = nx;
        }
    }

    /**
     * The swaps of one shrinking pass at once: the same rows, entries and LRU order as {@link #swap} for each pair in
     * turn, but each cached row takes all its entry swaps in one visit (entry swaps commute with moving rows between
     * positions, and a row given up part-way would be given up at the end all the same), so that a row is read in
     * two ascending streams instead of once per swap at random.
     */
    @Override
    void swapAll(int[] pairs, int count) {
        int n = 0;
        for (int k = 0; k < count; k++) {
            int a = pairs[2 * k];
            int b = pairs[2 * k + 1];
            if (a != b) {
                pairs[2 * n] = Math.min(a, b);
                pairs[2 * n + 1] = Math.max(a, b);
                swapSlots(a, b);
                n++;
            }
        }
        if (n == 0) {
            return;
        }
        for (int h = next[m]; h != m; ) {
            int nx = next[h];
            if (!(exact ? swapEntries(ddata[h], len[h], pairs, n) : swapEntries(data[h], len[h], pairs, n))) {
                evict(h);
            }
            h = nx;
        }
    }

    /**
     * Applies the entry swaps (pairs[2k], pairs[2k+1]), lo &lt; hi, k &lt; n, in order to a row valid for b &lt; l;
     * false (the row is to be given up) at the first swap that covers lo but not hi. (A loop of its own: the JIT
     * compiles it apart from the list walk around it.)
     */
    private static boolean swapEntries(double[] r, int l, int[] pairs, int n) {
        for (int k = 0; k < n; k++) {
            int lo = pairs[2 * k];
            if (l > lo) {
                int hi = pairs[2 * k + 1];
                if (l > hi) {
                    double t = r[lo];
                    r[lo] = r[hi];
                    r[hi] = t;
                } else {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean swapEntries(float[] r, int l, int[] pairs, int n) {
        for (int k = 0; k < n; k++) {
            int lo = pairs[2 * k];
            if (l > lo) {
                int hi = pairs[2 * k + 1];
                if (l > hi) {
                    float t = r[lo];
                    r[lo] = r[hi];
                    r[hi] = t;
                } else {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Exchanges the rows kept for positions a and b (both become the most recently used, as in LIBSVM) and their
     * points' feature-major copies.
     */
    private void swapSlots(int a, int b) {
        if (cols != null) {
            for (int off = 0; off < cols.length; off += m) {
                double t = cols[off + a];
                cols[off + a] = cols[off + b];
                cols[off + b] = t;
            }
        }
        if (len[a] > 0) {
            unlink(a);
        }
        if (len[b] > 0) {
            unlink(b);
        }
        if (exact) {
            double[] td = ddata[a];
            ddata[a] = ddata[b];
            ddata[b] = td;
        } else {
            float[] td = data[a];
            data[a] = data[b];
            data[b] = td;
        }
        int tl = len[a];
        len[a] = len[b];
        len[b] = tl;
        if (len[a] > 0) {
            link(a);
        }
        if (len[b] > 0) {
            link(b);
        }
    }

    /** Gives up the row of position h and returns its array (charged by its length, as it was allocated). */
    private Object evict(int h) {
        unlink(h);
        used -= bytes(capacity(h));
        Object r;
        if (exact) {
            r = ddata[h];
            ddata[h] = null;
        } else {
            r = data[h];
            data[h] = null;
        }
        len[h] = 0;
        return r;
    }

    private void unlink(int h) {
        next[prev[h]] = next[h];
        prev[next[h]] = prev[h];
    }

    /** Appends h as the most recently used. */
    private void link(int h) {
        int last = prev[m];
        next[last] = h;
        prev[h] = last;
        next[h] = m;
        prev[m] = h;
    }
}
