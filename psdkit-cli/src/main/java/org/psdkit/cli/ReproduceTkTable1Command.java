package org.psdkit.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.mkl.KernelLearning;
import org.psdkit.mkl.KernelLearning.Method;
import org.psdkit.svm.BinaryLabels;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code psdkit reproduce tk-table1}: Table I of Colbert &amp; Peet — test-set accuracy of the tessellated kernel
 * (direct method), SimpleMKL (Gaussian + polynomial), SimpleMKL over random TKs and the combined library on five UCI
 * sets. Protocol of Sec. VIII: features scaled to [0, 1] on the training part, 80/20 splits (seeded), C and ε by
 * 5-fold CV on the training part, d = 1 (ionosphere d = 0). Breast-cancer rows with a missing value are dropped.
 *
 * <p>SimpleMKL columns: every library kernel is normalised to unit trace on the rows it is trained on (each CV
 * fold, then the whole training part), as SimpleMKL does. The Gram matrices of a library are computed once per
 * training part and ε, and each fold uses their submatrices, renormalised on the fold (the same matrices as a
 * library built on the fold, up to single-precision rounding); along the C grid SimpleMKL is warm-started from the
 * previous C's weights and SVM solution (same problem and stopping rule: relative duality gap 0.01).
 */
@Command(name = "tk-table1", description = {"Colbert & Peet Table I: TK vs SimpleMKL accuracy on five UCI sets.",
    "Protocol: seeded 80/20 splits, features min-max scaled on the training part, C (relative: c/kappa) and "
        + "epsilon by 5-fold CV on the training part. SimpleMKL libraries: every kernel has unit trace on the rows "
        + "it is trained on (each fold, then the whole training part); Gram matrices are computed once per split "
        + "and epsilon and folds use submatrices; SimpleMKL is warm-started along the C grid.",
    "Columns: 'fit s' = training on the whole training part with the chosen parameters (building the chosen "
        + "library included); 'total s' = CV + fit per split."})
public final class ReproduceTkTable1Command implements Callable<Integer> {

    /** Paper numbers: data set, method, accuracy mean, sd, seconds. */
    static final Object[][] PAPER = {
        {"liver", Method.TK, 72.32, 4.92, 95.75}, {"liver", Method.SIMPLEMKL, 65.51, 5.10, 2.61},
        {"liver", Method.SIMPLEMKL_TK, 70.58, 4.69, 8.37}, {"liver", Method.COMBINED, 70.53, 4.79, 14.70},
        {"breast-cancer-wisconsin", Method.TK, 97.18, 1.48, 636.17},
        {"breast-cancer-wisconsin", Method.SIMPLEMKL, 96.55, 1.34, 14.74},
        {"breast-cancer-wisconsin", Method.SIMPLEMKL_TK, 96.89, 1.43, 45.84},
        {"breast-cancer-wisconsin", Method.COMBINED, 96.89, 1.42, 65.08},
        {"heart-statlog", Method.TK, 83.46, 4.56, 221.67}, {"heart-statlog", Method.SIMPLEMKL, 83.70, 4.77, 3.09},
        {"heart-statlog", Method.SIMPLEMKL_TK, 84.38, 4.34, 55.48}, {"heart-statlog", Method.COMBINED, 83.64, 4.54, 13.23},
        {"pima", Method.TK, 76.32, 3.10, 1211.66}, {"pima", Method.SIMPLEMKL, 76.00, 3.33, 19.04},
        {"pima", Method.SIMPLEMKL_TK, 76.75, 2.81, 34.65}, {"pima", Method.COMBINED, 76.57, 2.72, 96.20},
        {"ionosphere", Method.TK, 93.24, 3.04, 6.69}, {"ionosphere", Method.SIMPLEMKL, 92.16, 2.78, 26.24},
        {"ionosphere", Method.SIMPLEMKL_TK, 87.65, 2.88, 8.28}, {"ionosphere", Method.COMBINED, 92.16, 2.78, 50.77},
    };
    /** Number of splits behind the paper's means. */
    static final int PAPER_SPLITS = 30;

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
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "tk" -> Method.TK;
            case "simplemkl" -> Method.SIMPLEMKL;
            case "simplemkl-tk" -> Method.SIMPLEMKL_TK;
            case "combined" -> Method.COMBINED;
            default -> throw new IllegalArgumentException("--methods: unknown method '" + s
                    + "' (tk, simplemkl, simplemkl-tk, combined)");
        };
    }

    static Path defaultData() {
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
        int runs = splits - firstSplit + 1;
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
            String name = s.trim();
            Path f = dir.resolve(name + ".csv");
            if (!Files.isRegularFile(f)) {
                throw new IllegalArgumentException("--datasets: " + f + " not found");
            }
            sets.add(name);
        }
        if (out != null) {
            Path parent = out.toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new IllegalArgumentException("--out " + out + ": folder does not exist");
            }
        }
        List<String[]> rows = new ArrayList<>();
        List<Map<String, Object>> summary = new ArrayList<>();
        StringBuilder table = new StringBuilder();
        table.append(String.format(Locale.ROOT, "%-24s %-13s %16s %9s %9s | %16s %9s | %s%n", "data set", "method",
                "accuracy %", "fit s", "total s", "paper accuracy", "paper s", "vs paper"));
        for (String name : sets) {
            org.psdkit.data.Dataset d = org.psdkit.data.CsvReader.readDroppingIncomplete(dir.resolve(name + ".csv"),
                    new org.psdkit.data.CsvReader.Options(null, false, true)).data();
            BinaryLabels lab = BinaryLabels.of(d.labels(), d.source());
            double[] y = lab.encode(d.labels(), d.source());
            int degree = name.equals("ionosphere") ? 0 : 1;
            KernelLearning.Settings st = new KernelLearning.Settings(degree, orth,
                    librarySize, seed, beta, KernelLearning.GaussScaling.MINMAX);
            Map<Method, double[][]> res = new LinkedHashMap<>();
            for (Method m : ms) {
                res.put(m, new double[runs][]);
            }
            for (int s = firstSplit - 1; s < splits; s++) {
                org.psdkit.data.Splits.TrainTest part = org.psdkit.data.Splits.trainTest(y.length, 0.2, seed * 1000 + s);
                int[][] tt = {part.train(), part.test()};
                org.psdkit.data.Scaler sc = org.psdkit.data.Scaler.fit(org.psdkit.data.Scaler.Kind.MINMAX, d.x().selectRows(tt[0]));
                Matrix xtr = sc.apply(d.x().selectRows(tt[0]));
                Matrix xte = sc.apply(d.x().selectRows(tt[1]));
                double[] ytr = java.util.Arrays.stream(tt[0]).mapToDouble(i -> y[i]).toArray();
                double[] yte = java.util.Arrays.stream(tt[1]).mapToDouble(i -> y[i]).toArray();
                for (Method m : ms) {
                    long t0 = System.nanoTime();
                    double[] cg = cgGiven != null ? cgGiven : m.defaultCGrid();
                    double[] eg = egGiven != null ? egGiven : m.defaultEpsilonGrid();
                    KernelLearning.CvFit cvf = KernelLearning.crossValidateAndFit(m, xtr, ytr, cg, true, eg,
                            folds, seed * 7919 + s, st.withGaussScaling(gauss.scaling(m)), gap);
                    KernelLearning.Choice ch = cvf.choice();
                    KernelLearning.Fitted f = cvf.fitted();
                    double total = (System.nanoTime() - t0) * 1e-9;
                    double[] dv = f.decision(xtr, ytr, xte);
                    int ok = 0;
                    for (int i = 0; i < dv.length; i++) {
                        if ((dv[i] >= 0 ? 1 : -1) == yte[i]) {
                            ok++;
                        }
                    }
                    double acc = 100.0 * ok / dv.length;
                    res.get(m)[s - (firstSplit - 1)] = new double[] {acc, f.seconds(), total};
                    rows.add(new String[] {name, m.label(), Integer.toString(s), Reports.fmt(acc),
                        Reports.fmt(ch.cRel()), (Double.isNaN(ch.epsilon()) ? "" : Reports.fmt(ch.epsilon())), Reports.fmt(f.c()),
                        Reports.fmt(f.seconds()), Reports.fmt(total), f.summary(),
                        Integer.toString(f.iterations()), Reports.fmt(f.gap()),
                        ch.gaussScaling() == null ? "" : ch.gaussScaling().label(), Reports.fmt(ch.accuracy())});
                    Progress.info(String.format(Locale.ROOT, "%s split %d/%d %s: accuracy %.2f%%, c=%s eps=%s, "
                            + "%sfit %.2fs, with CV %.1fs, %s", name, s + 1, splits, m.label(), acc, ch.cRel(),
                            ch.epsilon(), ch.gaussScaling() == null ? "" : "gauss " + ch.gaussScaling().label() + ", ",
                            f.seconds(), total, f.summary()));
                }
            }
            for (Method m : ms) {
                double[][] r = res.get(m);
                double mean = 0;
                double fit = 0;
                double tot = 0;
                for (double[] v : r) {
                    mean += v[0] / runs;
                    fit += v[1] / runs;
                    tot += v[2] / runs;
                }
                double var = 0;
                for (double[] v : r) {
                    var += (v[0] - mean) * (v[0] - mean);
                }
                double sd = runs > 1 ? Math.sqrt(var / (runs - 1)) : 0;
                Object[] p = paper(name, m);
                double pm = (double) p[2];
                double psd = (double) p[3];
                // one standard error of the difference of the two means
                double se = Math.sqrt(sd * sd / runs + psd * psd / PAPER_SPLITS);
                String verdict = mean >= pm ? "above" : (mean >= pm - se ? "within 1 SE" : "BELOW by > 1 SE");
                table.append(String.format(Locale.ROOT, "%-24s %-13s %8.2f ± %5.2f %9.2f %9.2f | %8.2f ± %5.2f %9.2f | "
                        + "%s (diff %+.2f, SE %.2f)%n", name, m.label(), mean, sd, fit, tot, pm, psd, (double) p[4],
                        verdict, mean - pm, se));
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("dataset", name);
                e.put("method", m.label());
                if (m.usesGaussLibrary()) {
                    e.put("gaussScaling", gauss.scaling(m).label());
                }
                e.put("splits", runs);
                e.put("accuracy", mean);
                e.put("accuracySd", sd);
                e.put("fitSeconds", fit);
                e.put("totalSeconds", tot);
                e.put("paperAccuracy", pm);
                e.put("paperSd", psd);
                e.put("paperSeconds", p[4]);
                e.put("verdict", verdict);
                summary.add(e);
            }
        }
        System.err.print(table);
        if (out != null) {
            Reports.writeCsv(out, new String[] {"dataset", "method", "split", "accuracy", "c_relative", "epsilon",
                "C", "fit_seconds", "total_seconds", "kernel", "iterations", "gap", "gauss_scaling", "cv_accuracy"}, rows);
        }
        if (json) {
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("experiment", "tk-table1");
            rep.put("splits", runs);
            rep.put("firstSplit", firstSplit);
            rep.put("results", summary);
            Reports.print(rep, true);
        }
        return Main.EXIT_OK;
    }

    static Object[] paper(String name, Method m) {
        for (Object[] r : PAPER) {
            if (r[0].equals(name) && r[1] == m) {
                return r;
            }
        }
        return new Object[] {name, m, Double.NaN, Double.NaN, Double.NaN};
    }
}
