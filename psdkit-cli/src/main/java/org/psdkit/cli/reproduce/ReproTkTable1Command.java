package org.psdkit.cli.reproduce;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.DataFiles;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.cli.fit.FitSvmCommands;
import org.psdkit.cli.fit.GaussLibraryOptions;
import org.psdkit.experiments.TkTable1;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.classify.mkl.KernelLearning.Method;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit reproduce tk-table1}: options and output of {@link TkTable1} (Colbert &amp; Peet 2020, Table I). */
@Command(name = "tk-table1", description = {"Colbert & Peet Table I: TK vs SimpleMKL accuracy on five UCI sets.",
    "Protocol: seeded 80/20 splits, features min-max scaled on the training part, C (relative: c/kappa) and "
        + "epsilon by 5-fold CV on the training part. SimpleMKL libraries: every kernel has unit trace on the rows "
        + "it is trained on (each fold, then the whole training part); Gram matrices are computed once per split "
        + "and epsilon and folds use submatrices; SimpleMKL is warm-started along the C grid.",
    "Columns: 'fit s' = training on the whole training part with the chosen parameters (building the chosen "
        + "library included); 'total s' = CV + fit per split."})
public final class ReproTkTable1Command implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "DIR", description = "Folder with the CSV files (default: the shared/data "
            + "folder above the repository or the working directory).")
    Path data;

    @Option(names = "--splits", defaultValue = "30", paramLabel = "K", description = "80/20 splits per data set "
            + "(default: ${DEFAULT-VALUE}, as the paper).")
    int splits;

    @Option(names = "--first-split", defaultValue = "1", paramLabel = "F", description = "Run only splits F..K "
            + "(1-based; default: ${DEFAULT-VALUE}). Every split's data and CV seeds depend on its index alone, so "
            + "the rows of a run resumed at F equal those of one full run.")
    int firstSplit;

    @Option(names = "--datasets", defaultValue = "liver,breast-cancer-wisconsin,heart-statlog,pima,ionosphere",
            paramLabel = "LIST", description = "Data sets (default: all five).")
    String datasets;

    @Option(names = "--methods", defaultValue = "tk,simplemkl,simplemkl-tk,combined", paramLabel = "LIST",
            description = "Columns: tk, simplemkl, simplemkl-tk, combined (default: all).")
    String methods;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Base seed (default: 1).")
    long seed;

    @Option(names = "--library-size", defaultValue = "300", paramLabel = "N",
            description = "Random TK library size (default: ${DEFAULT-VALUE}).")
    int librarySize;

    @Option(names = "--folds", defaultValue = "5", paramLabel = "K", description = "CV folds (default: 5).")
    int folds;

    @Option(names = "--gap", defaultValue = "0.01", paramLabel = "TOL",
            description = "Relative gap of the kernel learners (default: ${DEFAULT-VALUE}).")
    double gap;

    @Option(names = "--c-grid", paramLabel = "LIST", description = "Relative C grid (default "
            + "0.001,0.01,0.1,1,10,100 for tk and simplemkl-tk, 0.01,0.1,1,10,100 for simplemkl and combined).")
    String cGrid;

    @Option(names = "--epsilon-grid", paramLabel = "LIST", description = "Epsilon grid (default 0.1,1,3,10 for "
            + "tk and simplemkl-tk, 0.1,1,3 for combined).")
    String epsGrid;

    @Option(names = "--orthant", defaultValue = "lower", paramLabel = "lower|complement",
            description = "Tessellated-kernel orthant construction (default: ${DEFAULT-VALUE}).")
    String orthant;

    @Mixin
    GaussLibraryOptions gauss;

    @Option(names = "--out", paramLabel = "FILE.csv", description = "Also write one row per split and method.")
    Path out;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    static Method parseMethod(String s) {
        try {
            return TkTable1.method(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--methods: " + e.getMessage());
        }
    }

    public static Path defaultData() {
        return DataFiles.shared("pima.csv", "--data").getParent();
    }

    @Override
    public Integer call() {
        if (splits < 1) {
            throw new IllegalArgumentException("--splits must be >= 1, got " + splits);
        }
        if (firstSplit < 1 || firstSplit > splits) {
            throw new IllegalArgumentException("--first-split must be in [1, --splits = " + splits + "], got "
                    + firstSplit);
        }
        if (folds < 2) {
            throw new IllegalArgumentException("--folds must be >= 2, got " + folds);
        }
        if (librarySize < 1) {
            throw new IllegalArgumentException("--library-size must be >= 1, got " + librarySize);
        }
        if (!(gap > 0)) {
            throw new IllegalArgumentException("--gap must be positive, got " + gap);
        }
        List<Method> ms = new ArrayList<>();
        for (String s : methods.split(",")) {
            ms.add(parseMethod(s));
        }
        double[] cgGiven = cGrid == null ? null : FitSvmCommands.parseGrid(cGrid, "--c-grid");
        double[] egGiven = epsGrid == null ? null : FitSvmCommands.parseGrid(epsGrid, "--epsilon-grid");
        TessellatedKernel.Orthant orth = FitSvmCommands.parseOrthant(orthant);
        boolean beta = gauss.beta();
        for (Method m : ms) {
            gauss.scaling(m); // a bad --gauss-scaling fails before any work
        }
        Path dir = data == null ? defaultData() : data;
        List<String> sets = new ArrayList<>();
        for (String s : datasets.split(",")) {
            // the table's short names (heart, breast-cancer) read their files
            sets.add(TkTable1.dataset(dir, s.trim(), "--datasets"));
        }
        if (out != null) {
            Object[] inputs = new Object[2 * sets.size()];
            for (int k = 0; k < sets.size(); k++) {
                inputs[2 * k] = "--data";
                inputs[2 * k + 1] = dir.resolve(sets.get(k) + ".csv");
            }
            org.psdkit.cli.OutputPaths.check("--out", out, inputs);
        }
        TkTable1.Options o = new TkTable1.Options(dir, sets, ms, splits, firstSplit, seed, librarySize, folds, gap,
                cgGiven, egGiven, orth, beta, gauss::scaling);
        TkTable1.Result res;
        try (ReproProgress progress = new ReproProgress()) {
            res = TkTable1.run(o, row -> { }, progress);
        }
        List<String[]> rows = new ArrayList<>();
        for (TkTable1.SplitRow r : res.rows()) {
            rows.add(new String[] {r.dataset(), r.method().label(), Integer.toString(r.split()),
                Reports.fmt(r.accuracy()), Reports.fmt(r.cRelative()),
                (Double.isNaN(r.epsilon()) ? "" : Reports.fmt(r.epsilon())), Reports.fmt(r.c()),
                Reports.fmt(r.fitSeconds()), Reports.fmt(r.totalSeconds()), r.kernel(),
                Integer.toString(r.iterations()), Reports.fmt(r.gap()),
                r.gaussScaling() == null ? "" : r.gaussScaling().label(), Reports.fmt(r.cvAccuracy())});
        }
        List<Map<String, Object>> summary = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%-24s %-13s %16s %9s %9s | %16s %9s | %s%n", "data set", "method",
                "accuracy %", "fit s", "total s", "paper accuracy", "paper s", "vs paper"));
        for (TkTable1.Summary s : res.summary()) {
            table.append(String.format(Locale.ROOT, "%-24s %-13s %8.2f ± %5.2f %9.2f %9.2f | %8.2f ± %5.2f %9.2f | "
                    + "%s (diff %+.2f, SE %.2f)%n", s.dataset(), s.method().label(), s.accuracy(), s.accuracySd(),
                    s.fitSeconds(), s.totalSeconds(), s.paper().accuracy(), s.paper().sd(), s.paper().seconds(),
                    s.verdict(), s.accuracy() - s.paper().accuracy(), s.standardError()));
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("dataset", s.dataset());
            e.put("method", s.method().label());
            if (s.gaussScaling() != null) {
                e.put("gaussScaling", s.gaussScaling().label());
            }
            e.put("splits", s.splits());
            e.put("accuracy", s.accuracy());
            e.put("accuracySd", s.accuracySd());
            e.put("fitSeconds", s.fitSeconds());
            e.put("totalSeconds", s.totalSeconds());
            e.put("paperAccuracy", s.paper().accuracy());
            e.put("paperSd", s.paper().sd());
            e.put("paperSeconds", s.paper().seconds());
            e.put("verdict", s.verdict());
            summary.add(e);
        }
        System.err.print(table);
        if (out != null) {
            Reports.writeCsv(out, new String[] {"dataset", "method", "split", "accuracy", "c_relative", "epsilon",
                "C", "fit_seconds", "total_seconds", "kernel", "iterations", "gap", "gauss_scaling", "cv_accuracy"}, rows);
        }
        if (json) {
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("experiment", "tk-table1");
            rep.put("splits", res.splits());
            rep.put("firstSplit", res.firstSplit());
            rep.put("results", summary);
            Reports.print(rep, true);
        }
        return Main.EXIT_OK;
    }
}
