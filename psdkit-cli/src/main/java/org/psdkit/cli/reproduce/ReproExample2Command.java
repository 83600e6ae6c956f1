package org.psdkit.cli.reproduce;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.experiments.Example2;
import org.psdkit.experiments.Example2Reproduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit reproduce example2}: options and output of {@link Example2Reproduction}. */
@Command(name = "example2", description = "Marteau-Ferey, Bach & Rudi 2020 Example 2: NCM vs PSD model approximating exp(-c x^2) on [-1,1] "
        + "with k = exp(-(x-x')^2); writes a PNG and prints the max-error table by n.")
public final class ReproExample2Command implements Callable<Integer> {

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
        org.psdkit.cli.OutputPaths.check("--out", out);
        Example2Reproduction.Result res;
        try (ReproProgress progress = new ReproProgress()) {
            res = Example2Reproduction.run(new Example2Reproduction.Options(sizes, ncmMaxIter, out), progress);
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("narrow", table(res.narrow(), "narrow target exp(-2x^2)"));
        rep.put("paper", table(res.paper(), "paper's target exp(-x^2/2)"));
        rep.put("png", out.toString());
        if (!json) {
            System.err.println("wrote " + out);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private List<Map<String, Object>> table(List<Example2.Row> rows, String label) {
        if (!json) {
            System.err.println();
            System.err.println(label + ":   n   NCM max error   PSD max error   (iterations NCM / PSD)");
        }
        List<Map<String, Object>> table = new ArrayList<>();
        for (Example2.Row r : rows) {
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
        return table;
    }
}
