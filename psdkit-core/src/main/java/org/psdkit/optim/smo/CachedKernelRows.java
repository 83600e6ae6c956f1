package org.psdkit.optim.smo;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelValues;
import org.psdkit.linalg.Matrix;

/** Kernel rows computed on demand from a {@link Kernel}, kept in a least-recently-used cache of bounded size. */
public final class CachedKernelRows implements KernelRows {

    /** Default cache budget in bytes (LIBSVM's default cache is 100 MB; we use the same order of magnitude). */
    public static final long DEFAULT_CACHE_BYTES = 100L << 20;

    private final Kernel kernel;
    private final double[][] points;
    private final double[] diag;
    private final Map<Integer, double[]> cache;
    private long computedRows;

    public CachedKernelRows(Kernel kernel, Matrix x, long cacheBytes) {
        this.kernel = kernel;
        this.points = x.toRowArrays();
        int m = points.length;
        this.diag = kernel.diag(x);
        long perRow = 8L * Math.max(1, m);
        final int capacity = (int) Math.max(2, Math.min(m, cacheBytes / perRow));
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, double[]> e) {
                return size() > capacity;
            }
        };
    }

    @Override
    public int size() {
        return points.length;
    }

    @Override
    public double[] row(int i) {
        double[] r = cache.get(i);
        if (r == null) {
            int m = points.length;
            r = new double[m];
            KernelValues.values(kernel, points[i], points, null, 0, m, r);
            computedRows++;
            cache.put(i, r);
        }
        return r;
    }

    @Override
    public double diag(int i) {
        return diag[i];
    }

    /** How many rows were computed (cache misses). */
    public long computedRows() {
        return computedRows;
    }
}
