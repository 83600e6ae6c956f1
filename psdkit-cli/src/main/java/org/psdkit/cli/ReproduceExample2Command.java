package org.psdkit.cli;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.Example2;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.KernelExpansionModel;
import org.psdkit.cli.plot.Figure;
import org.psdkit.cli.plot.Panel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit reproduce example2}: seed 002's Example 2, NCM against the PSD model on g(x) = e^{−c x²} with
 * k(x, x') = e^{−(x−x')²}. Runs both the paper's printed target (c = 1/2, wider than the kernel: NCM does fine) and
 * a target narrower than the kernel (c = 2: NCM's error stays above a constant, the PSD model's goes to zero).
 */
@Command(name = "example2", description = "Seed 002 Example 2: NCM vs PSD model approximating exp(-c x^2) on [-1,1] "
        + "with k = exp(-(x-x')^2); writes a PNG and prints the max-error table by n.")
public final class ReproduceExample2Command implements Callable<Integer> {

    static final Color NCM_COLOR = new Color(213, 94, 0);
    static final Color PSD_COLOR = new Color(0, 158, 115);

    @Option(names = "--out", defaultValue = "example2.png", paramLabel = "PNG",
            description = "Figure file (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--n", split = ",", defaultValue = "10,20,50,100,200,400", paramLabel = "N,N,...",
            description = "Sample sizes (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--ncm-max-iter", defaultValue = "20000", paramLabel = "N",
            description = "NCM iteration budget (its error bound holds for every iterate; default: ${DEFAULT-VALUE}).")
    int ncmMaxIter;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        for (int n : sizes) {
            if (n < 2) {
                throw new IllegalArgumentException("--n: sample sizes must be >= 2, got " + n);
            }
        }
        if (ncmMaxIter < 1) {
            throw new IllegalArgumentException("--ncm-max-iter must be >= 1, got " + ncmMaxIter);
        }
        Reports.checkOutputFolder(out, "--out");
        double[] cs = {Example2.NARROW, Example2.PAPER};
        Map<String, Object> rep = new LinkedHashMap<>();
        Figure fig = new Figure("Seed 002 Example 2: NCM vs PSD model, k(x,x') = exp(-(x-x')^2)", 3);
        Matrix grid = Example2.grid(Example2.GRID);
        double[] gx = grid.col(0);
        for (double c : cs) {
            String label = c == Example2.NARROW ? "narrow target exp(-2x^2)" : "paper's target exp(-x^2/2)";
            List<Map<String, Object>> table = new ArrayList<>();
            double[] ns = new double[sizes.length];
            double[] en = new double[sizes.length];
            double[] ep = new double[sizes.length];
            Example2.Fit largest = null;
            if (!json) {
                System.err.println();
                System.err.println(label + ":   n   NCM max error   PSD max error   (iterations NCM / PSD)");
            }
            for (int s = 0; s < sizes.length; s++) {
                Example2.Fit f;
                try (Progress p = Progress.start("example2 c=" + c + " n=" + sizes[s], 1)) {
                    f = Example2.fit(c, sizes[s], ncmMaxIter);
                    p.set(1);
                }
                Example2.Row r = f.row();
                ns[s] = r.n();
                en[s] = r.ncmError();
                ep[s] = r.psdError();
                largest = f;
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("n", r.n());
                row.put("ncm_max_error", r.ncmError());
                row.put("psd_max_error", r.psdError());
                row.put("ncm_iterations", r.ncmIterations());
                row.put("psd_iterations", r.psdIterations());
                row.put("ncm_status", r.ncmStatus());
                row.put("psd_status", r.psdStatus());
                table.add(row);
                if (!json) {
                    System.err.printf(Locale.ROOT, "  %6d   %13.4e   %13.4e   (%d / %d)%n", r.n(), r.ncmError(),
                            r.psdError(), r.ncmIterations(), r.psdIterations());
                }
            }
            rep.put(c == Example2.NARROW ? "narrow" : "paper", table);
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
        fig.save(out);
        rep.put("png", out.toString());
        if (!json) {
            System.err.println("wrote " + out);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
