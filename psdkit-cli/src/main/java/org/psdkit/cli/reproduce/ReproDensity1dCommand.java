package org.psdkit.cli.reproduce;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.experiments.Density1d;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit reproduce density-1d}: options and output of {@link Density1d}. */
@Command(name = "density-1d", description = "Marteau-Ferey, Bach & Rudi 2020 Fig. 1 top row: PNM, NCM, GLM and PSD-model densities in 1-D "
        + "(plus KDE); PNG + table of test log-likelihood and integral.")
public final class ReproDensity1dCommand implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "results/density-1d", paramLabel = "DIR",
            description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path out;
    @Option(names = "--seed", defaultValue = "1", description = "Data seed (default: ${DEFAULT-VALUE}).")
    long seed;
    @Option(names = "--folds", defaultValue = "7", description = "CV folds (default: ${DEFAULT-VALUE}, App. E).")
    int folds;
    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (folds < 2 || folds > Density1d.N) {
            throw new IllegalArgumentException("--folds must be in [2, " + Density1d.N + "] (the training points), got "
                    + folds);
        }
        org.psdkit.cli.OutputPaths.folder("--out", out);
        Density1d.Result res;
        try (ReproProgress progress = new ReproProgress()) {
            res = Density1d.run(new Density1d.Options(seed, folds, out), progress);
        }
        List<Map<String, Object>> table = res.table();
        String[] cols = Density1d.COLUMNS.toArray(new String[0]);
        List<String[]> rows = new ArrayList<>();
        for (Map<String, Object> r : table) {
            String[] cells = new String[cols.length];
            for (int c = 0; c < cols.length; c++) {
                cells[c] = Reports.format(r.getOrDefault(cols[c], ""));
            }
            rows.add(cells);
        }
        Path png = res.png();
        Path csv = out.resolve("density-1d.csv");
        Reports.writeCsv(csv, cols, rows);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("experiment", "density-1d");
        rep.put("seconds", res.seconds());
        rep.put("png", png.toString());
        rep.put("table_csv", csv.toString());
        rep.put("table", table);
        if (!json) {
            System.err.println(String.format("%-6s %-9s %-12s %-14s %-13s %-10s %-10s", "model", "lambda",
                    "test_loglik", "integral", "min_density", "neg_frac", "|f| int"));
            for (String[] r : rows) {
                // test_loglik, or "undefined" with the count of test points where the model is not positive
                String ll = r[3].isEmpty() ? r[2] : "undefined";
                String line = String.format("%-6s %-9s %-12s %-14s %-13s %-10s %-10s", r[0], r[1], ll, r[4], r[5],
                        r[6], r[7]);
                if (!r[3].isEmpty()) {
                    line += " (not positive at " + r[3] + " test points)";
                }
                System.err.println(r[8].isEmpty() ? line : line + " " + r[8]);
            }
        }
        Reports.print(json ? rep : Map.of("png", png.toString(), "table_csv", csv.toString(),
                "seconds", rep.get("seconds")), json);
        return Main.EXIT_OK;
    }
}
