package org.psdkit.cone;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * The baselines of Marteau-Ferey, Bach and Rudi 2020 App. D as vector-valued models fitted in the primal: outputs z_t =
 * Σ_b D_{t,b} f_b with
 * components
 * <ul>
 *   <li>{@code LINEAR}: f = w·Ψ(x), Ψ = (Φ(x), 1) (empirical features of k plus a constant: the RKHS of k + 1),
 *       penalty (λ/2)‖w‖² — the same model as {@link LinearBlock}, parametrised in features for conditioning;</li>
 *   <li>{@code NCM}: f = Σ γ_i k(x, x_i), γ ≥ 0, penalty (λ/2)γᵀKγ (projected gradient);</li>
 *   <li>{@code GLM}: f = exp(w·Ψ(x)), penalty (λ/2)‖w‖² (not convex).</li>
 * </ul>
 * The loss must be smooth on its domain (callers pass Moreau envelopes of non-smooth losses). Minimised by
 * {@link SmoothPrimalSolver} from {@code restarts} seeded starting points; the best objective is kept.
 */
public final class PrimalCone {

    /** Component kinds. */
    public enum Kind { LINEAR, NCM, GLM }

    /** A smooth loss of the outputs (m×n); writes ∂/∂z into grad; +∞ outside its domain. */
    @FunctionalInterface
    public interface SmoothLoss {
        double valueAndGradient(double[][] z, double[][] grad);
    }

    /** Fitted components, objective value, iterations over all restarts, and whether the best run converged. */
    public record Result(List<ScalarFunction> functions, double objective, int iterations, boolean converged) {
    }

    private final Kind[] kinds;
    private final double[][] d;
    private final double lambda;
    private final Kernel kernel;
    private final Matrix x;
    private final int n;
    private final Matrix w;      // (r+1)×n linear features
    private final Matrix gram;   // K for NCM components
    private final EmpiricalFeatureMap map;
    private final int[] offsets;

    public PrimalCone(Kernel kernel, Matrix x, Kind[] kinds, double[][] directions, double lambda) {
        this.kinds = kinds.clone();
        this.d = directions;
        this.lambda = lambda;
        this.kernel = kernel;
        this.x = x;
        this.n = x.rows();
        this.map = EmpiricalFeatureMap.of(kernel, x);
        Matrix v = map.trainingFeatures();
        int r = v.rows();
        this.w = Matrix.zeros(r + 1, n);
        for (int j = 0; j < n; j++) {
            for (int a = 0; a < r; a++) {
                w.set(a, j, v.get(a, j));
            }
            w.set(r, j, 1.0);
        }
        boolean anyNcm = Arrays.asList(kinds).contains(Kind.NCM);
        this.gram = anyNcm ? kernel.gram(x) : null;
        this.offsets = new int[kinds.length + 1];
        for (int b = 0; b < kinds.length; b++) {
            offsets[b + 1] = offsets[b] + (kinds[b] == Kind.NCM ? n : r + 1);
        }
    }

    /** Parameter length of component b. */
    public int size(int b) {
        return offsets[b + 1] - offsets[b];
    }

    /**
     * Minimises from starts made by {@code init} (called with the run index and a seeded generator, fills the
     * parameter vector, components at offsets in order).
     */
    public Result fit(SmoothLoss loss, int restarts, long seed, Initialiser init, double tol, int maxIter) {
        int m = d.length;
        int nb = kinds.length;
        SmoothPrimalSolver.Objective obj = (p, grad) -> {
            double[][] f = new double[nb][];
            double reg = 0;
            double[][] lin = new double[nb][];
            for (int b = 0; b < nb; b++) {
                double[] u = Arrays.copyOfRange(p, offsets[b], offsets[b + 1]);
                if (kinds[b] == Kind.NCM) {
                    double[] kg = Linalg.gemv(gram, false, u);
                    lin[b] = kg;
                    reg += 0.5 * lambda * Linalg.dot(u, kg);
                    f[b] = kg;
                } else {
                    double[] s = w.transposeTimes(u);
                    reg += 0.5 * lambda * Linalg.dot(u, u);
                    if (kinds[b] == Kind.GLM) {
                        for (int i = 0; i < n; i++) {
                            s[i] = Math.exp(s[i]);
                        }
                    }
                    f[b] = s;
                }
            }
            double[][] z = new double[m][n];
            for (int t = 0; t < m; t++) {
                for (int b = 0; b < nb; b++) {
                    double c = d[t][b];
                    if (c != 0) {
                        for (int i = 0; i < n; i++) {
                            z[t][i] += c * f[b][i];
                        }
                    }
                }
            }
            double[][] gz = new double[m][n];
            double val = loss.valueAndGradient(z, gz);
            if (!Double.isFinite(val)) {
                return Double.POSITIVE_INFINITY;
            }
            if (grad != null) {
                for (int b = 0; b < nb; b++) {
                    double[] gb = new double[n];
                    for (int t = 0; t < m; t++) {
                        double c = d[t][b];
                        if (c != 0) {
                            for (int i = 0; i < n; i++) {
                                gb[i] += c * gz[t][i];
                            }
                        }
                    }
                    int o = offsets[b];
                    if (kinds[b] == Kind.NCM) {
                        double[] kg = Linalg.gemv(gram, false, gb);
                        for (int i = 0; i < n; i++) {
                            grad[o + i] = kg[i] + lambda * lin[b][i];
                        }
                    } else {
                        if (kinds[b] == Kind.GLM) {
                            for (int i = 0; i < n; i++) {
                                gb[i] *= f[b][i];
                            }
                        }
                        double[] wg = w.times(gb);
                        for (int a = 0; a < wg.length; a++) {
                            grad[o + a] = wg[a] + lambda * p[o + a];
                        }
                    }
                }
            }
            return val + reg;
        };
        SmoothPrimalSolver.Projection proj = p -> {
            for (int b = 0; b < nb; b++) {
                if (kinds[b] == Kind.NCM) {
                    for (int i = offsets[b]; i < offsets[b + 1]; i++) {
                        if (p[i] < 0) {
                            p[i] = 0;
                        }
                    }
                }
            }
        };
        Random rnd = new Random(seed);
        SmoothPrimalSolver.Result best = null;
        int iters = 0;
        for (int run = 0; run < restarts; run++) {
            double[] p0 = new double[offsets[nb]];
            init.fill(run, rnd, p0);
            SmoothPrimalSolver.Result r = SmoothPrimalSolver.minimise(obj, proj, p0, tol, maxIter);
            iters += r.iterations();
            if (best == null || r.value() < best.value()) {
                best = r;
            }
        }
        List<ScalarFunction> fns = new ArrayList<>();
        int r = w.rows() - 1;
        for (int b = 0; b < nb; b++) {
            double[] u = Arrays.copyOfRange(best.x(), offsets[b], offsets[b + 1]);
            if (kinds[b] == Kind.NCM) {
                fns.add(new KernelExpansion(kernel, 0.0, x, u, 0.0, KernelExpansion.Link.IDENTITY));
            } else {
                Matrix uv = Matrix.column(Arrays.copyOf(u, r));
                double[] c = map.coefficientFactor(uv).col(0);
                fns.add(new KernelExpansion(kernel, 0.0, x, c, u[r],
                        kinds[b] == Kind.GLM ? KernelExpansion.Link.EXP : KernelExpansion.Link.IDENTITY));
            }
        }
        return new Result(fns, best.value(), iters, best.converged());
    }

    /** Fills a starting point. */
    @FunctionalInterface
    public interface Initialiser {
        void fill(int run, Random rnd, double[] p);
    }

    public int offset(int b) {
        return offsets[b];
    }

    public int n() {
        return n;
    }

    /** Index of the constant feature inside a LINEAR/GLM component. */
    public int interceptIndex() {
        return w.rows() - 1;
    }

    /** Mean of the Gram matrix (to scale NCM starting weights). */
    public double meanGram() {
        if (gram == null) {
            return 1;
        }
        double s = 0;
        for (double v : gram.data()) {
            s += v;
        }
        return s / gram.data().length;
    }
}
