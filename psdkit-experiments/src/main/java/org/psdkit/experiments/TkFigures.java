package org.psdkit.experiments;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.psdkit.classify.mkl.KernelLearning.Method;
import org.psdkit.classify.mkl.KernelLearning;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;

/** Decision surfaces (Fig. 4) and scaling (Figs. 2–3) of Colbert &amp; Peet (2020). */
public final class TkFigures {

    /** Grid resolution of the decision-surface plots. */
    static final int GRID = 120;
    /** Relative C grid and ε grid for the 2-D problems. */
    static final double[] C_GRID = {0.1, 1, 10, 100};
    static final double[] EPS_GRID = {0.1, 1};

    private TkFigures() {
    }

    /** Circle: label +1 inside the circle of radius 0.5 centred in [0,1]² (noise-free). */
    static double[][] circle(int m, Random r) {
        double[][] out = new double[m][3];
        for (int i = 0; i < m; i++) {
            double u = r.nextDouble();
            double v = r.nextDouble();
            double d = (u - 0.5) * (u - 0.5) + (v - 0.5) * (v - 0.5);
            out[i] = new double[] {u, v, d < 0.1 ? 1 : -1};
        }
        return out;
    }

    /**
     * Two spirals (Lang &amp; Witbrock): arms r = θ/(4π), θ ∈ [π/2, 4π], the second arm rotated by π, mapped into
     * [0, 1]²; points drawn uniformly along the arms with Gaussian jitter of 0.02.
     */
    static double[][] spiral(int m, Random r) {
        double[][] out = new double[m][3];
        for (int i = 0; i < m; i++) {
            double th = Math.PI / 2 + r.nextDouble() * 3.5 * Math.PI;
            double rad = th / (4 * Math.PI);
            double s = i % 2 == 0 ? 1 : -1;
            double u = 0.5 + 0.45 * s * rad * Math.cos(th) + 0.02 * r.nextGaussian();
            double v = 0.5 + 0.45 * s * rad * Math.sin(th) + 0.02 * r.nextGaussian();
            out[i] = new double[] {u, v, s};
        }
        return out;
    }

    static Matrix xs(double[][] d) {
        Matrix x = Matrix.zeros(d.length, 2);
        for (int i = 0; i < d.length; i++) {
            x.set(i, 0, d[i][0]);
            x.set(i, 1, d[i][1]);
        }
        return x;
    }

    static double[] ys(double[][] d) {
        double[] y = new double[d.length];
        for (int i = 0; i < d.length; i++) {
            y[i] = d[i][2];
        }
        return y;
    }

    static double accuracy(double[] f, double[] y) {
        int ok = 0;
        for (int i = 0; i < f.length; i++) {
            if ((f[i] >= 0 ? 1 : -1) == y[i]) {
                ok++;
            }
        }
        return (double) ok / f.length;
    }

    static KernelLearning.Fitted train(Method m, Matrix x, double[] y, long seed) {
        KernelLearning.Settings st = new KernelLearning.Settings(1, TessellatedKernel.Orthant.LOWER, 100, seed);
        KernelLearning.Choice ch = KernelLearning.crossValidate(m, x, y, C_GRID, EPS_GRID, 5, seed, st, 1e-2);
        return KernelLearning.fit(x, y, KernelLearning.FitOptions.relative(m, ch.cRel(),
                Double.isNaN(ch.epsilon()) ? 0 : ch.epsilon(), st, 1e-2), null);
    }

    /** Training points m (at least 10), seed and the figure file (PNG, or PDF by its name). */
    public record SurfacesOptions(int m, long seed, Path figure) {
        public SurfacesOptions {
            if (m < 10) {
                throw new IllegalArgumentException("m must be >= 10, got " + m);
            }
            Figure.format(figure); // an unsupported format fails before any work
        }
    }

    /** Test accuracy by key {@code <problem>_<method>_accuracy} (circle/spiral, tk/simplemkl), and the figure. */
    public record SurfacesResult(Map<String, Double> accuracies, Path figure) {
    }

    /** Fig. 4: decision surfaces of TK and SimpleMKL on the circle and spiral problems. */
    public static SurfacesResult surfaces(SurfacesOptions o, ExperimentListener listener) throws IOException {
        listener = ExperimentListener.orNone(listener);
        int m = o.m();
        long seed = o.seed();
            Figure fig = new Figure("Decision surfaces (" + m + " training points)", 2);
            Map<String, Double> rep = new LinkedHashMap<>();
            for (String problem : new String[] {"circle", "spiral"}) {
                Random r = new Random(seed);
                double[][] tr = problem.equals("circle") ? circle(m, r) : spiral(m, r);
                double[][] te = problem.equals("circle") ? circle(2000, r) : spiral(2000, r);
                Matrix x = xs(tr);
                double[] y = ys(tr);
                for (Method meth : new Method[] {Method.TK, Method.SIMPLEMKL}) {
                    KernelLearning.Fitted f = train(meth, x, y, seed);
                    double acc = accuracy(f.decision(x, y, xs(te)), ys(te));
                    Matrix grid = Matrix.zeros(GRID * GRID, 2);
                    for (int a = 0; a < GRID; a++) {
                        for (int b = 0; b < GRID; b++) {
                            grid.set(a * GRID + b, 0, (a + 0.5) / GRID);
                            grid.set(a * GRID + b, 1, (b + 0.5) / GRID);
                        }
                    }
                    double[] g = f.decision(x, y, grid);
                    List<double[]> pos = new ArrayList<>();
                    List<double[]> zero = new ArrayList<>();
                    for (int a = 0; a < GRID; a++) {
                        for (int b = 0; b < GRID; b++) {
                            double v = g[a * GRID + b];
                            double[] pt = {(a + 0.5) / GRID, (b + 0.5) / GRID};
                            if (v >= 0 && (a + b) % 3 == 0) {
                                pos.add(pt);
                            }
                            boolean edge = (a + 1 < GRID && (g[(a + 1) * GRID + b] >= 0) != (v >= 0))
                                    || (b + 1 < GRID && (g[a * GRID + b + 1] >= 0) != (v >= 0));
                            if (edge) {
                                zero.add(pt);
                            }
                        }
                    }
                    Panel p = fig.panel(String.format(Locale.ROOT, "%s — %s (test accuracy %.1f%%)", problem,
                            meth.label(), 100 * acc)).xLabel("x1").yLabel("x2").xRange(0, 1).yRange(0, 1);
                    p.scatter(col(pos, 0), col(pos, 1), "f(x) >= 0").color(new java.awt.Color(200, 220, 240))
                            .size(2);
                    p.scatter(col(zero, 0), col(zero, 1), "f(x) = 0").color(java.awt.Color.BLACK).size(2);
                    List<double[]> cp = new ArrayList<>();
                    List<double[]> cn = new ArrayList<>();
                    for (double[] t : tr) {
                        (t[2] > 0 ? cp : cn).add(t);
                    }
                    p.scatter(col(cp, 0), col(cp, 1), "+1").color(Panel.PALETTE[0]).size(5);
                    p.scatter(col(cn, 0), col(cn, 1), "-1").color(Panel.PALETTE[1]).size(5);
                    rep.put(problem + "_" + meth.name().toLowerCase(Locale.ROOT) + "_accuracy", acc);
                    listener.note(String.format(Locale.ROOT, "%s %s: test accuracy %.4f, %s", problem,
                            meth.label(), acc, f.summary()));
                }
            }
            fig.save(o.figure());
            return new SurfacesResult(rep, o.figure());
    }

    static double[] col(List<double[]> pts, int j) {
        double[] v = new double[pts.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = pts.get(i)[j];
        }
        return v;
    }

    /** Least-squares slope of log y on log x. */
    static double logLogSlope(double[] x, double[] y) {
        double mx = 0;
        double my = 0;
        int n = x.length;
        for (int i = 0; i < n; i++) {
            mx += Math.log(x[i]) / n;
            my += Math.log(y[i]) / n;
        }
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < n; i++) {
            double dx = Math.log(x[i]) - mx;
            sxy += dx * (Math.log(y[i]) - my);
            sxx += dx * dx;
        }
        return sxy / sxx;
    }

    /** Training sizes (at least two), relative C, box margin ε, seed and the figure file. */
    public record ScalingOptions(double[] sizes, double cRel, double eps, long seed, Path figure) {
        public ScalingOptions {
            if (sizes.length < 2) {
                throw new IllegalArgumentException("sizes needs at least two sizes");
            }
            Figure.format(figure); // an unsupported format fails before any work
            sizes = sizes.clone();
        }
    }

    /**
     * Training seconds and residual error 1 − TSA per size for TK and SimpleMKL, with the log-log slopes, and the
     * figure.
     */
    public record ScalingResult(double[] sizes, double[] tkSeconds, double[] simpleMklSeconds, double tkTimeExponent,
                                double simpleMklTimeExponent, double[] tkError, double[] simpleMklError,
                                double tkErrorExponent, Path figure) {
    }

    /** Figs. 2–3: training time of the direct TK method against m and residual error on the spiral. */
    public static ScalingResult scaling(ScalingOptions o, ExperimentListener listener) throws IOException {
        listener = ExperimentListener.orNone(listener);
        double[] ms = o.sizes();
        long seed = o.seed();
        double cRel = o.cRel();
        double eps = o.eps();
            KernelLearning.Settings st = new KernelLearning.Settings(1, TessellatedKernel.Orthant.LOWER, 100, seed);
            double[][] test = spiral(2000, new Random(seed + 99));
            Figure fig = new Figure("Tessellated kernel scaling (spiral, d = 1)", 2);
            double[] tTk = new double[ms.length];
            double[] tMkl = new double[ms.length];
            double[] eTk = new double[ms.length];
            double[] eMkl = new double[ms.length];
            // warm-up (JIT, native libraries) so the smallest size is not dominated by start-up
            double[][] warm = spiral(100, new Random(seed));
            KernelLearning.fit(xs(warm), ys(warm), KernelLearning.FitOptions.relative(Method.TK, cRel, eps, st, 1e-2),
                    null);
            for (int i = 0; i < ms.length; i++) {
                double[][] tr = spiral((int) ms[i], new Random(seed + i));
                Matrix x = xs(tr);
                double[] y = ys(tr);
                KernelLearning.Fitted tk = KernelLearning.fit(x, y,
                        KernelLearning.FitOptions.relative(Method.TK, cRel, eps, st, 1e-2), null);
                KernelLearning.Fitted mk = KernelLearning.fit(x, y,
                        KernelLearning.FitOptions.relative(Method.SIMPLEMKL, cRel, 0, st, 1e-2), null);
                tTk[i] = tk.seconds();
                tMkl[i] = mk.seconds();
                eTk[i] = Math.max(1.0 / test.length, 1 - accuracy(tk.decision(x, y, xs(test)), ys(test)));
                eMkl[i] = Math.max(1.0 / test.length, 1 - accuracy(mk.decision(x, y, xs(test)), ys(test)));
                listener.note(String.format(Locale.ROOT, "m=%d: TK %.3fs error %.4f | SimpleMKL %.3fs error %.4f",
                        (int) ms[i], tTk[i], eTk[i], tMkl[i], eMkl[i]));
            }
            double sTk = logLogSlope(ms, tTk);
            double sMkl = logLogSlope(ms, tMkl);
            Panel a = fig.panel(String.format(Locale.ROOT, "training time (slopes: TK %.2f, SimpleMKL %.2f)", sTk,
                    sMkl)).xLabel("training points m").yLabel("seconds").logX().logY().legend("upper left");
            a.line(ms, tTk, "TK (direct)");
            a.scatter(ms, tTk, null);
            a.line(ms, tMkl, "SimpleMKL").dashed();
            a.scatter(ms, tMkl, null);
            Panel b = fig.panel("residual error 1 - TSA (spiral)").xLabel("training points m")
                    .yLabel("1 - test accuracy").logX().logY().legend("upper right");
            b.line(ms, eTk, "TK (direct)");
            b.scatter(ms, eTk, null);
            b.line(ms, eMkl, "SimpleMKL").dashed();
            b.scatter(ms, eMkl, null);
            fig.save(o.figure());
            return new ScalingResult(ms, tTk, tMkl, sTk, sMkl, eTk, eMkl, logLogSlope(ms, eTk), o.figure());
    }
}
