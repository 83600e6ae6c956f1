package org.psdkit.onnx;

import java.util.List;
import org.psdkit.kernel.ConstantKernel;
import org.psdkit.kernel.ExponentialKernel;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.LaplacianKernel;
import org.psdkit.kernel.LibraryKernel;
import org.psdkit.kernel.LinearKernel;
import org.psdkit.kernel.PolynomialKernel;
import org.psdkit.kernel.ProductKernel;
import org.psdkit.kernel.ScaledKernel;
import org.psdkit.kernel.SumKernel;
import org.psdkit.kernel.WeightedSumKernel;
import org.psdkit.linalg.Matrix;

/**
 * The cross matrix K(x, X) of a kernel as ONNX operators: for an [N, d] tensor of (scaled) points and m fixed
 * points X, an [N, m] tensor. The kernels with a form here are those of docs/kernels.md that are elementwise
 * functions of ‖x − t‖² or xᵀt — gaussian, laplacian, linear, polynomial, exponential, constant — and their sums,
 * products, scalings and weighted sums. Any other kernel (tessellated, delta, min, anova, a general linear kernel,
 * …) is refused with an {@link IllegalArgumentException} that names it.
 *
 * <p>Squared distances are Σ_k (x_k − t_k)², the direct formula (an [N, m, d] intermediate): the expanded
 * ‖x‖² + ‖t‖² − 2xᵀt would cancel at x ≈ t, where the Laplacian kernel's square root turns an absolute error of
 * ε(‖x‖² + ‖t‖²) into an error of order √ε.
 */
final class KernelGraph {
    private final OnnxGraph g;
    private final String x;
    private final Matrix points;
    private String squaredDistances;
    private String dots;

    private KernelGraph(OnnxGraph g, String x, Matrix points) {
        this.g = g;
        this.x = x;
        this.points = points;
    }

    /** K(x, points) as an [N, m] tensor, for x an [N, d] tensor. */
    static String cross(OnnxGraph g, Kernel kernel, String x, Matrix points) {
        requireExportable(kernel);
        return new KernelGraph(g, x, points).of(kernel);
    }

    /** Throws, naming the first kernel of the tree that has no ONNX form. */
    static void requireExportable(Kernel k) {
        if (k instanceof SumKernel s) {
            s.terms().forEach(KernelGraph::requireExportable);
        } else if (k instanceof ProductKernel p) {
            p.factors().forEach(KernelGraph::requireExportable);
        } else if (k instanceof ScaledKernel s) {
            requireExportable(s.kernel());
        } else if (k instanceof WeightedSumKernel w) {
            w.parts().forEach(KernelGraph::requireExportable);
        } else if (!(k instanceof GaussianKernel || k instanceof LaplacianKernel || k instanceof LinearKernel
                || k instanceof PolynomialKernel || k instanceof ExponentialKernel || k instanceof ConstantKernel
                || k instanceof LibraryKernel)) {
            throw new IllegalArgumentException("the " + name(k) + " kernel (" + k.spec() + ") has no ONNX form; "
                    + "exportable kernels: gaussian, laplacian, linear, polynomial, exponential, constant and "
                    + "their sums, products and scalings");
        }
    }

    /** The kernel's name as the kernel string writes it: the spec up to its first parenthesis. */
    static String name(Kernel k) {
        String s = k.spec();
        int p = s.indexOf('(');
        return p > 0 ? s.substring(0, p).trim() : s;
    }

    private String of(Kernel k) {
        if (k instanceof GaussianKernel gk) {
            // exp(−r²/(2σ²)), as GaussianKernel.g: r² times the negated 1/(2σ²)
            return g.op("Exp", g.op("Mul", squaredDistances(), g.scalar("minus_inv_two_sigma2",
                    -(1.0 / (2 * gk.sigma() * gk.sigma())))));
        }
        if (k instanceof LaplacianKernel lk) {
            // exp(−r/σ), as LaplacianKernel.g
            return g.op("Exp", g.op("Mul", g.op("Sqrt", squaredDistances()), g.scalar("minus_inv_sigma",
                    -(1.0 / lk.sigma()))));
        }
        if (k instanceof LinearKernel) {
            return dots();
        }
        if (k instanceof ExponentialKernel ek) {
            return g.op("Exp", g.op("Mul", dots(), g.scalar("a", ek.a())));
        }
        if (k instanceof PolynomialKernel pk) {
            return power(g.op("Add", dots(), g.scalar("offset", pk.offset())), pk.degree());
        }
        if (k instanceof ConstantKernel) {
            // ones of shape [N, m]: ConstantOfShape over (N from x's shape, m)
            String n = g.op("Shape", x, OnnxGraph.Attr.i("end", 1));
            String shape = g.op("Concat", List.of(n, g.int64("m", new long[] {points.rows()}, 1)),
                    OnnxGraph.Attr.i("axis", 0));
            return g.op("ConstantOfShape", shape, OnnxGraph.Attr.tensor("value", g.tensor(new double[] {1.0}, 1)));
        }
        if (k instanceof LibraryKernel lib) {
            return library(lib);
        }
        if (k instanceof SumKernel s) {
            String acc = of(s.terms().get(0));
            for (int i = 1; i < s.terms().size(); i++) {
                acc = g.op("Add", acc, of(s.terms().get(i)));
            }
            return acc;
        }
        if (k instanceof ProductKernel p) {
            String acc = of(p.factors().get(0));
            for (int i = 1; i < p.factors().size(); i++) {
                acc = g.op("Mul", acc, of(p.factors().get(i)));
            }
            return acc;
        }
        if (k instanceof ScaledKernel s) {
            return g.op("Mul", of(s.kernel()), g.scalar("weight", s.weight()));
        }
        if (k instanceof WeightedSumKernel w) {
            double[] weights = w.weights();
            String acc = null;
            for (int i = 0; i < weights.length; i++) {
                String term = g.op("Mul", of(w.parts().get(i)), g.scalar("weight", weights[i]));
                acc = acc == null ? term : g.op("Add", acc, term);
            }
            return acc;
        }
        throw new IllegalStateException("unchecked kernel " + k.spec());
    }

    /**
     * A SimpleMKL library member ({@link LibraryKernel#eval}): on one feature or all, on standardised features
     * u = (x − center)/scale, a Gaussian exp(−Σ((x_j − t_j)/scale_j)²/(2σ²)) or a polynomial (1 + uᵀv)^degree
     * (successive products), times traceScale.
     */
    private String library(LibraryKernel lib) {
        LibraryKernel.Standardization std = lib.std();
        int d = points.cols();
        int[] cols = lib.feature() >= 0 ? new int[] {lib.feature()} : java.util.stream.IntStream.range(0, d).toArray();
        String xs = lib.feature() >= 0
                ? g.op("Gather", x, g.int64("feature", new long[] {lib.feature()}, 1), OnnxGraph.Attr.i("axis", 1))
                : x;
        int m = points.rows();
        int c = cols.length;
        String v;
        if (lib.sigma() > 0) {
            double[] t = new double[m * c];
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < c; j++) {
                    t[i * c + j] = points.get(i, cols[j]);
                }
            }
            String diff = g.op("Sub", g.op("Unsqueeze", xs, g.int64("axes", new long[] {1}, 1)),
                    g.constant("points", t, 1, m, c));
            if (std != null) {
                double[] sc = new double[c];
                for (int j = 0; j < c; j++) {
                    sc[j] = std.scale()[cols[j]];
                }
                diff = g.op("Div", diff, g.constant("scale", sc, 1, 1, c));
            }
            String s = g.op("ReduceSum", g.op("Mul", diff, diff), g.int64("axes", new long[] {2}, 1),
                    OnnxGraph.Attr.i("keepdims", 0));
            v = g.op("Exp", g.op("Div", g.op("Neg", s), g.scalar("two_sigma2", 2 * lib.sigma() * lib.sigma())));
        } else {
            double[] tt = new double[c * m];   // standardised points, transposed: [c, m]
            double[] center = new double[c];
            double[] scale = new double[c];
            for (int j = 0; j < c; j++) {
                center[j] = std == null ? 0 : std.center()[cols[j]];
                scale[j] = std == null ? 1 : std.scale()[cols[j]];
                for (int i = 0; i < m; i++) {
                    double p = points.get(i, cols[j]);
                    tt[j * m + i] = std == null ? p : (p - center[j]) / scale[j];
                }
            }
            String u = std == null ? xs : g.op("Div", g.op("Sub", xs, g.constant("center", center, 1, c)),
                    g.constant("scale", scale, 1, c));
            String base = g.op("Add", g.scalar("one", 1.0), g.op("MatMul", u, g.constant("points_t", tt, c, m)));
            v = base;
            for (int e = 1; e < lib.degree(); e++) {
                v = g.op("Mul", v, base);
            }
        }
        return g.op("Mul", v, g.scalar("trace_scale", lib.traceScale()));
    }

    /**
     * b^e by repeated squaring in PolynomialKernel.powInt's order of multiplications (r starts at 1; the first
     * factor taken is p itself).
     */
    private String power(String b, int e) {
        String r = null;
        String p = b;
        for (int k = e; k > 0; k >>= 1) {
            if ((k & 1) != 0) {
                r = r == null ? p : g.op("Mul", r, p);
            }
            if ((k >> 1) > 0) {
                p = g.op("Mul", p, p);
            }
        }
        return r;
    }

    /** Σ_k (x_k − t_k)² for every pair, [N, m]. */
    private String squaredDistances() {
        if (squaredDistances == null) {
            int m = points.rows();
            int d = points.cols();
            String t = g.constant("points", rowMajor(points), 1, m, d);
            String x3 = g.op("Unsqueeze", x, g.int64("axes", new long[] {1}, 1));       // [N, 1, d]
            String diff = g.op("Sub", x3, t);                                             // [N, m, d]
            String sq = g.op("Mul", diff, diff);
            squaredDistances = g.op("ReduceSum", sq, g.int64("axes", new long[] {2}, 1),
                    OnnxGraph.Attr.i("keepdims", 0));
        }
        return squaredDistances;
    }

    /** Σ_k (x_k − t_k)² for every row of x and every point, [N, m]. */
    static String squaredDistances(OnnxGraph g, String x, Matrix points) {
        return new KernelGraph(g, x, points).squaredDistances();
    }

    /** xᵀt for every pair, [N, m]: x times the transposed points. */
    private String dots() {
        if (dots == null) {
            dots = g.op("MatMul", x, g.constant("points_t", rowMajor(points.transpose()), points.cols(),
                    points.rows()));
        }
        return dots;
    }

    /** The entries of a matrix row by row (psdkit's Matrix is column-major; ONNX tensors are row-major). */
    static double[] rowMajor(Matrix a) {
        int r = a.rows();
        int c = a.cols();
        double[] out = new double[r * c];
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < c; j++) {
                out[i * c + j] = a.get(i, j);
            }
        }
        return out;
    }
}
