package org.psdkit.classify.mkl;

import java.util.ArrayList;
import java.util.List;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.LibraryKernel;
import org.psdkit.kernel.WeightedSumKernel;
import org.psdkit.linalg.Matrix;

/**
 * The standard SimpleMKL library: Gaussian kernels exp(−‖x−y‖²/(2σ²)) for the given bandwidths σ and polynomial
 * kernels (1 + xᵀy)^p for the given degrees, each on all features and on every single feature:
 * (|σ| + |p|)(n + 1) kernels. Colbert &amp; Peet (Sec. VIII b) use bandwidths between 0.5 and 10 and degrees 1–3,
 * "approximately 13(n+1) kernels"; the default {@link #PAPER_BANDWIDTHS} has 10 bandwidths (SimpleMKL's own list
 * truncated to [0.5, 10] and filled in) and degrees 1, 2, 3, giving exactly 13(n+1). Gram matrices are stored in
 * single precision (m² floats per kernel).
 *
 * <p>With {@link LibraryKernel.Standardization} the members see every feature standardised (minus its mean on the training part,
 * divided by its standard deviation there), as SimpleMKL's own examples prepare the data before building this
 * library; the transformation is part of each member, so training and test points go through the same function.
 *
 * <p>No input overflows this library, so its trainers need no {@code Kernels.requireFinite}: they scale the features to
 * [0, 1] first, and standardised columns have Σ_i z_ij² = m − 1 (|z| ≤ 1 for a constant column), so on the training
 * points every member is at most (1 + n(m − 1))³ before its unit-trace normalisation (Gaussians at most 1); even
 * single precision would need n(m − 1) &gt; 7e12 values ({@code LibraryGramsTest}).
 */
public final class GaussPolyLibrary implements KernelLibrary {

    /** Ten bandwidths spread over [0.5, 10] (Colbert &amp; Peet: "arbitrarily chosen between .5 and 10"). */
    public static final double[] PAPER_BANDWIDTHS = {0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 7, 10};
    /** σ = 1/√(2β): the widths for which exp(−‖x−y‖²/(2σ²)) = exp(−β‖x−y‖²). */
    public static double[] sigmasOfBetas(double[] betas) {
        double[] s = new double[betas.length];
        for (int i = 0; i < betas.length; i++) {
            if (!(betas[i] > 0)) {
                throw new IllegalArgumentException("bandwidth must be positive, got " + betas[i]);
            }
            s[i] = 1 / Math.sqrt(2 * betas[i]);
        }
        return s;
    }

    /** Polynomial degrees 1–3. */
    public static final int[] PAPER_DEGREES = {1, 2, 3};

    private final List<LibraryKernel> members = new ArrayList<>();
    private final LibraryKernel.Standardization std;
    private final float[][] grams;
    private final List<double[]> diags = new ArrayList<>();
    private final int m;

    public GaussPolyLibrary(Matrix x, double[] bandwidths, int[] degrees) {
        this(x, bandwidths, degrees, null);
    }

    /**
     * The library on x, its members on the features standardised by {@code std} (null: as given; see
     * {@link LibraryKernel.Standardization#of} for the training part's own).
     */
    public GaussPolyLibrary(Matrix x, double[] bandwidths, int[] degrees, LibraryKernel.Standardization std) {
        this.m = x.rows();
        this.std = std;
        if (std != null && std.center().length != x.cols()) {
            throw new IllegalArgumentException("standardisation of " + std.center().length + " features for data with "
                    + x.cols());
        }
        int n = x.cols();
        double[][] pts = x.toRowArrays();
        List<float[]> gs = new ArrayList<>();
        for (int f = -1; f < n; f++) {
            for (double s : bandwidths) {
                if (!(s > 0)) {
                    throw new IllegalArgumentException("bandwidth must be positive, got " + s);
                }
                add(new LibraryKernel(s, 0, f, 1.0, std), pts, gs);
            }
            for (int d : degrees) {
                if (d < 1) {
                    throw new IllegalArgumentException("polynomial degree must be >= 1, got " + d);
                }
                add(new LibraryKernel(0, d, f, 1.0, std), pts, gs);
            }
        }
        grams = gs.toArray(new float[0][]);
    }

    private void add(LibraryKernel raw, double[][] pts, List<float[]> gs) {
        double tr = 0;
        for (double[] p : pts) {
            tr += raw.eval(p, p);
        }
        LibraryKernel mem = new LibraryKernel(raw.sigma(), raw.degree(), raw.feature(), 1.0 / tr, raw.std());
        float[] g = new float[m * m];
        double[] dg = new double[m];
        for (int i = 0; i < m; i++) {
            dg[i] = mem.eval(pts[i], pts[i]);
        }
        diags.add(dg);
        for (int j = 0; j < m; j++) {
            for (int i = j; i < m; i++) {
                float v = (float) mem.eval(pts[i], pts[j]);
                g[i + j * m] = v;
                g[j + i * m] = v;
            }
        }
        members.add(mem);
        gs.add(g);
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public int points() {
        return m;
    }

    @Override
    public String describe(int k) {
        return members.get(k).describe();
    }

    @Override
    public double[] quadForms(double[] beta) {
        double[] out = new double[grams.length];
        int[] nz = nonZero(beta);
        for (int k = 0; k < grams.length; k++) {
            float[] g = grams[k];
            double s = 0;
            for (int jj : nz) {
                double r = 0;
                int base = jj * m;
                for (int ii : nz) {
                    r += g[base + ii] * beta[ii];
                }
                s += r * beta[jj];
            }
            out[k] = s;
        }
        return out;
    }

    static int[] nonZero(double[] beta) {
        int c = 0;
        for (double b : beta) {
            if (b != 0) {
                c++;
            }
        }
        int[] idx = new int[c];
        c = 0;
        for (int i = 0; i < beta.length; i++) {
            if (beta[i] != 0) {
                idx[c++] = i;
            }
        }
        return idx;
    }

    @Override
    public void addCombination(double[] w, double[] out) {
        for (int k = 0; k < grams.length; k++) {
            double wk = w[k];
            if (wk == 0) {
                continue;
            }
            float[] g = grams[k];
            for (int i = 0; i < g.length; i++) {
                out[i] += wk * g[i];
            }
        }
    }

    @Override
    public Kernel combined(double[] w) {
        List<Kernel> parts = new ArrayList<>();
        List<Double> ws = new ArrayList<>();
        for (int k = 0; k < members.size(); k++) {
            if (w[k] != 0) {
                parts.add(members.get(k));
                ws.add(w[k]);
            }
        }
        return new WeightedSumKernel(parts, ws.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Gram matrix of kernel k (unit trace, single precision, m×m column-major); not to be modified. */
    float[] gram(int k) {
        return grams[k];
    }

    /** Diagonal of kernel k's (unit-trace) Gram matrix in double precision. */
    double[] diagonal(int k) {
        return diags.get(k).clone();
    }

    public LibraryKernel member(int k) {
        return members.get(k);
    }
}
