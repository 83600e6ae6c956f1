package org.psdkit.cli.reproduce;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.experiments.Density10d;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit reproduce density-10d}: options and output of {@link Density10d}. */
@Command(name = "density-10d", description = "Marteau-Ferey, Bach & Rudi 2020 App. E: 10-D two-bump mixture, base N(0,5I); PNM, NCM, GLM, "
        + "PSD model (and KDE) with sigma and lambda by CV; projection plot + table of test log-likelihood.")
public final class ReproDensity10dCommand implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "results/density-10d", paramLabel = "DIR",
            description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path out;
    @Option(names = "--seed", defaultValue = "1", description = "Data seed (default: ${DEFAULT-VALUE}).")
    long seed;
    @Option(names = "--n", defaultValue = "1000", description = "Training points (default: ${DEFAULT-VALUE}).")
    int n;
    @Option(names = "--folds", defaultValue = "7", description = "CV folds (default: ${DEFAULT-VALUE}, App. E).")
    int folds;
    @Option(names = "--base", defaultValue = "gaussian(mu=0,sd=5)", paramLabel = "MEASURE",
            description = "Base measure (default: ${DEFAULT-VALUE}, the authors' code reading of N(0,5I)).")
    String base;
    @Option(names = "--sigmas", defaultValue = "0.5,1", split = ",", description = "Kernel widths for CV.")
    double[] sigmas;
    @Option(names = "--lambdas", defaultValue = "1e-3,1e-4", split = ",", description = "Lambdas for CV.")
    double[] lambdas;
    @Option(names = "--anchors", defaultValue = "150", description = "Nystrom anchors of the PSD model and GLM.")
    int anchors;
    @Option(names = "--cv-tol", defaultValue = "1e-2", description = "Relative gap of the CV fits.")
    double cvTol;
    @Option(names = "--cv-max-iter", defaultValue = "150", description = "Iteration cap of the CV fits.")
    int cvMaxIter;
    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (folds < 2 || n < 10 || anchors < 1 || !(cvTol > 0) || cvMaxIter < 1) {
            throw new IllegalArgumentException("need --folds >= 2, --n >= 10, --anchors >= 1, --cv-tol > 0, "
                    + "--cv-max-iter >= 1");
        }
        for (double s : sigmas) {
            if (!(s > 0)) {
                throw new IllegalArgumentException("--sigmas must be > 0, got " + s);
            }
        }
        for (double l : lambdas) {
            if (!(l > 0)) {
                throw new IllegalArgumentException("--lambdas must be > 0, got " + l);
            }
        }
        org.psdkit.density.BaseMeasure.parse(base, 10); // a bad --base is refused before the folder is made
        org.psdkit.cli.OutputPaths.folder("--out", out);
        Density10d.Result res;
        try (ReproProgress progress = new ReproProgress()) {
            res = Density10d.run(new Density10d.Options(seed, n, folds, base, sigmas, lambdas, anchors, cvTol,
                    cvMaxIter, out), progress);
        }
        List<Map<String, Object>> table = res.table();
        String[] cols = Density10d.COLUMNS.toArray(new String[0]);
        List<String[]> rows = new ArrayList<>();
        for (Map<String, Object> row : table) {
            String[] cells = new String[cols.length];
            for (int c = 0; c < cols.length; c++) {
                cells[c] = row.containsKey(cols[c]) ? Reports.format(row.get(cols[c])) : "";
            }
            rows.add(cells);
        }
        Path png = res.png();
        Path csv = out.resolve("density-10d.csv");
        Reports.writeCsv(csv, cols, rows);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("experiment", "density-10d");
        rep.put("base", res.base());
        rep.put("seconds", res.seconds());
        rep.put("png", png.toString());
        rep.put("table_csv", csv.toString());
        rep.put("table", table);
        if (!json) {
            System.err.println(String.join(" | ", cols));
            for (String[] row : rows) {
                System.err.println(String.join(" | ", row));
            }
        }
        Reports.print(json ? rep : Map.of("png", png.toString(), "table_csv", csv.toString(), "seconds",
                rep.get("seconds")), json);
        return Main.EXIT_OK;
    }
}
