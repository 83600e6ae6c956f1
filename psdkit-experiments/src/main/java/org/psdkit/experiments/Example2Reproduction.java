package org.psdkit.experiments;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.PsdModel;
import org.psdkit.regression.psd.KernelExpansionModel;

/**
 * Example 2 of Marteau-Ferey, Bach &amp; Rudi (2020): NCM against the PSD model on g(x) = e^{−c x²} with
 * k(x, x') = e^{−(x−x')²}. Runs both the paper's printed target (c = 1/2, wider than the kernel: NCM does fine) and
 * a target narrower than the kernel (c = 2: NCM's error stays above a constant, the PSD model's goes to zero); see
 * {@link Example2}.
 */
public final class Example2Reproduction {

    static final Color NCM_COLOR = new Color(213, 94, 0);
    static final Color PSD_COLOR = new Color(0, 158, 115);

    private Example2Reproduction() {
    }

    /** Sample sizes n (each >= 2), NCM's iteration budget, and the figure file (PNG, or PDF by its name). */
    public record Options(int[] sizes, int ncmMaxIter, Path figure) {
        public Options {
            for (int n : sizes) {
                if (n < 2) {
                    throw new IllegalArgumentException("sizes must be >= 2, got " + n);
                }
            }
            if (ncmMaxIter < 1) {
                throw new IllegalArgumentException("ncmMaxIter must be >= 1, got " + ncmMaxIter);
            }
            Figure.format(figure); // an unsupported format fails before any work
            sizes = sizes.clone();
        }
    }

    /** Max-error rows by n for the narrow target (c = 2) and the paper's (c = 1/2), and the figure written. */
    public record Result(List<Example2.Row> narrow, List<Example2.Row> paper, Path figure) {
    }

    /** Runs both targets over the sample sizes and writes the figure. */
    public static Result run(Options o, ExperimentListener listener) throws IOException {
        listener = ExperimentListener.orNone(listener);
        double[] cs = {Example2.NARROW, Example2.PAPER};
        long start = System.nanoTime();
        List<Example2.Row> narrow = new ArrayList<>();
        List<Example2.Row> paper = new ArrayList<>();
        int[] sizes = o.sizes();
        Figure fig = new Figure("Marteau-Ferey, Bach & Rudi 2020, Example 2: NCM vs PSD model, k(x,x') = exp(-(x-x')^2)", 3);
        Matrix grid = Example2.grid(Example2.GRID);
        double[] gx = grid.col(0);
        for (double c : cs) {
            String label = c == Example2.NARROW ? "narrow target exp(-2x^2)" : "paper's target exp(-x^2/2)";
            List<Example2.Row> table = c == Example2.NARROW ? narrow : paper;
            double[] ns = new double[sizes.length];
            double[] en = new double[sizes.length];
            double[] ep = new double[sizes.length];
            Example2.Fit largest = null;
            for (int s = 0; s < sizes.length; s++) {
                Example2.Fit f;
                String task = "example2 c=" + c + " n=" + sizes[s];
                listener.step(task, 0, 1, start);
                f = Example2.fit(c, sizes[s], o.ncmMaxIter());
                listener.step(task, 1, 1, start);
                Example2.Row r = f.row();
                ns[s] = r.n();
                en[s] = r.ncmError();
                ep[s] = r.psdError();
                largest = f;
                table.add(r);
            }
            Panel p = fig.panel(label + ", n = " + largest.row().n()).xLabel("x").yLabel("f(x)").legend("upper left");
            double[] g = new double[gx.length];
            for (int i = 0; i < gx.length; i++) {
                g[i] = Example2.target(c, gx[i]);
            }
            KernelExpansionModel ncm = largest.ncm();
            PsdModel psd = largest.psd();
            p.line(gx, g, "target").color(Color.BLACK).width(2.5f);
            p.line(gx, ncm.values(grid), "NCM").dashed().color(NCM_COLOR);
            p.line(gx, psd.values(grid), "PSD model").color(PSD_COLOR);
            if (c == Example2.NARROW) {
                Panel e = fig.panel("max error on [-1,1] against n (narrow target)").xLabel("n")
                        .yLabel("max |f - g|").logX().logY().legend("lower left");
                e.line(ns, en, "NCM").color(NCM_COLOR);
                e.line(ns, ep, "PSD model").color(PSD_COLOR);
            }
        }
        fig.save(o.figure());
        return new Result(narrow, paper, o.figure());
    }
}
