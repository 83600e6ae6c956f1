package org.psdkit.classify.mkl;

import java.util.Random;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TkGram;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * A library of tessellated kernels with random matrices P_i = A Aᵀ (A with standard normal entries, 2q×2q),
 * each scaled so that its Gram matrix has unit trace on the training set (Colbert &amp; Peet, Sec. VI: SimpleMKL
 * over "300 randomly generated positive semidefinite matrices"). Because the TK map P ↦ K(P) is linear,
 * Σ μ_i K(P_i) = K(Σ μ_i P_i): nothing per kernel is stored but P_i, and all quadratic forms βᵀK(P_i)β come from
 * one gradient matrix H(β) as ⟨H(β), P_i⟩.
 */
public final class TkRandomLibrary implements KernelLibrary {

    /** Library size used by Colbert &amp; Peet. */
    public static final int PAPER_SIZE = 300;

    /**
     * Combinations with at most this many non-zero weights are summed from per-kernel Gram matrices (computed
     * once, kept in single precision); denser ones are evaluated directly as K(Σ w_k P_k). SimpleMKL's inner loop
     * only ever asks for two-kernel corrections.
     */
    static final int SPARSE_COMBINATION = 8;

    private final TkGram eng;
    private final Matrix[] ps;
    private final float[][] grams;

    public TkRandomLibrary(TkGram eng, int count, long seed) {
        if (count < 1) {
            throw new IllegalArgumentException("library size must be >= 1, got " + count);
        }
        eng.requireFinite("simplemkl");
        this.eng = eng;
        int dim = 2 * eng.q();
        Random rnd = new Random(seed);
        Matrix d = eng.traceGradient();
        ps = new Matrix[count];
        grams = new float[count][];
        for (int i = 0; i < count; i++) {
            Matrix a = Matrix.zeros(dim, dim);
            for (int t = 0; t < dim * dim; t++) {
                a.data()[t] = rnd.nextGaussian();
            }
            Matrix p = Linalg.gemm(1.0, a, false, a, true);
            p.symmetrizeInPlace();
            double tr = inner(d, p);
            p.scaleInPlace(1.0 / tr);
            ps[i] = p;
        }
    }

    static double inner(Matrix a, Matrix b) {
        double s = 0;
        double[] x = a.data();
        double[] y = b.data();
        for (int i = 0; i < x.length; i++) {
            s += x[i] * y[i];
        }
        return s;
    }

    @Override
    public int size() {
        return ps.length;
    }

    @Override
    public int points() {
        return eng.size();
    }

    @Override
    public String describe(int k) {
        return "tessellated kernel with random P #" + (k + 1);
    }

    @Override
    public double[] quadForms(double[] beta) {
        Matrix h = eng.gradient(beta);
        double[] out = new double[ps.length];
        for (int i = 0; i < ps.length; i++) {
            out[i] = inner(h, ps[i]);
        }
        return out;
    }

    /** The Gram engine on the training set. */
    TkGram engine() {
        return eng;
    }

    /** The (unit-trace) matrices P_k; not to be modified. */
    Matrix[] matrices() {
        return ps.clone();
    }

    /** Σ_k w_k P_k. */
    public Matrix combinedP(double[] w) {
        int dim = ps[0].rows();
        Matrix p = Matrix.zeros(dim, dim);
        for (int k = 0; k < ps.length; k++) {
            if (w[k] == 0) {
                continue;
            }
            double[] pd = p.data();
            double[] kd = ps[k].data();
            for (int i = 0; i < pd.length; i++) {
                pd[i] += w[k] * kd[i];
            }
        }
        return p;
    }

    private float[] gramOf(int k) {
        if (grams[k] == null) {
            double[] g = eng.gram(ps[k]).data();
            float[] f = new float[g.length];
            for (int i = 0; i < g.length; i++) {
                f[i] = (float) g[i];
            }
            grams[k] = f;
        }
        return grams[k];
    }

    @Override
    public void addCombination(double[] w, double[] out) {
        int nz = 0;
        boolean allCached = true;
        for (int k = 0; k < w.length; k++) {
            if (w[k] != 0) {
                nz++;
                allCached &= grams[k] != null;
            }
        }
        if (nz == 0) {
            return;
        }
        if (nz <= SPARSE_COMBINATION || allCached) {
            for (int k = 0; k < w.length; k++) {
                if (w[k] == 0) {
                    continue;
                }
                float[] g = gramOf(k);
                double wk = w[k];
                for (int i = 0; i < out.length; i++) {
                    out[i] += wk * g[i];
                }
            }
            return;
        }
        Matrix k = eng.gram(combinedP(w));
        double[] kd = k.data();
        for (int i = 0; i < out.length; i++) {
            out[i] += kd[i];
        }
    }

    @Override
    public Kernel combined(double[] w) {
        return eng.kernel(combinedP(w));
    }
}
