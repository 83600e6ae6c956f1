package org.psdkit.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import org.psdkit.classify.BinaryLabels;
import org.psdkit.classify.mkl.KernelLearning.Method;
import org.psdkit.classify.mkl.KernelLearning;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;

/**
 * Table I of Colbert &amp; Peet — test-set accuracy of the tessellated kernel
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
public final class TkTable1 {

    /** Number of splits behind the paper's means. */
    public static final int PAPER_SPLITS = 30;
    /** The five UCI data sets of the table, in its order. */
    public static final List<String> DATASETS = List.of("liver", "breast-cancer-wisconsin", "heart-statlog", "pima",
            "ionosphere");

    /**
     * The table's short names (those of docs/reproductions/README.md and of the paper's Table I) for the files of
     * {@link #DATASETS}: a short name is read as its file when no {@code <short name>.csv} exists.
     */
    public static final java.util.Map<String, String> SHORT_NAMES = java.util.Map.of("heart", "heart-statlog",
            "breast-cancer", "breast-cancer-wisconsin");

    private TkTable1() {
    }

    /**
     * The data set {@code name} of {@code dir}: {@code name} when {@code <name>.csv} exists, else the file of a
     * {@link #SHORT_NAMES short name}; an {@link IllegalArgumentException} naming {@code parameter}, the missing file
     * and the available sets otherwise.
     */
    public static String dataset(Path dir, String name, String parameter) {
        String file = !Files.isRegularFile(dir.resolve(name + ".csv")) && SHORT_NAMES.containsKey(name)
                ? SHORT_NAMES.get(name) : name;
        if (!Files.isRegularFile(dir.resolve(file + ".csv"))) {
            throw new IllegalArgumentException(parameter + ": " + dir.resolve(name + ".csv") + " not found"
                    + available(dir));
        }
        return file;
    }

    /** "; available: a, b, …" for the {@code .csv} files of {@code dir} (empty when it cannot be listed). */
    static String available(Path dir) {
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            List<String> names = s.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(".csv"))
                    .map(f -> f.substring(0, f.length() - 4)).sorted().toList();
            return names.isEmpty() ? "" : "; available: " + String.join(", ", names) + " (or heart, breast-cancer)";
        } catch (java.io.IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * What to run.
     *
     * @param dataDir        folder holding {@code <dataset>.csv} (label in the last column)
     * @param datasets       data set names (file names without {@code .csv})
     * @param methods        the table's columns
     * @param splits         80/20 splits K; splits {@code firstSplit..K} (1-based) are run
     * @param gaussScaling   preparation of the Gaussian/polynomial library for each method
     * @param cGrid          relative C grid, or null for each method's default
     * @param epsilonGrid    ε grid, or null for each method's default
     */
    public record Options(Path dataDir, List<String> datasets, List<Method> methods, int splits, int firstSplit,
                          long seed, int librarySize, int folds, double gap, double[] cGrid, double[] epsilonGrid,
                          TessellatedKernel.Orthant orthant, boolean betaBandwidths,
                          Function<Method, KernelLearning.GaussScaling> gaussScaling) {
        public Options {
            if (splits < 1) {
                throw new IllegalArgumentException("splits must be >= 1, got " + splits);
            }
            if (firstSplit < 1 || firstSplit > splits) {
                throw new IllegalArgumentException("firstSplit must be in [1, splits = " + splits + "], got "
                        + firstSplit);
            }
            if (folds < 2) {
                throw new org.psdkit.model.ParameterException("folds", "must be >= 2, got " + folds);
            }
            if (librarySize < 1) {
                throw new IllegalArgumentException("librarySize must be >= 1, got " + librarySize);
            }
            if (!(gap > 0)) {
                throw new IllegalArgumentException("gap must be positive, got " + gap);
            }
            List<String> resolved = new java.util.ArrayList<>();
            for (String name : datasets) {
                resolved.add(dataset(dataDir, name, "datasets"));
            }
            datasets = List.copyOf(resolved);
            methods = List.copyOf(methods);
        }
    }

    /** One split of one method: test accuracy (%), the CV choice and the final fit. */
    public record SplitRow(String dataset, Method method, int split, double accuracy, double cRelative, double epsilon,
                           double c, double fitSeconds, double totalSeconds, String kernel, int iterations, double gap,
                           KernelLearning.GaussScaling gaussScaling, double cvAccuracy) {
    }

    /** Accuracy (%), its standard deviation and the training seconds that the paper publishes. */
    public record Paper(double accuracy, double sd, double seconds) {
    }

    /**
     * Mean and standard deviation over the splits of one method on one data set, against the paper; the verdict is
     * "above", "within 1 SE" or "BELOW by > 1 SE" (one standard error of the difference of the two means).
     */
    public record Summary(String dataset, Method method, KernelLearning.GaussScaling gaussScaling, int splits,
                          double accuracy, double accuracySd, double fitSeconds, double totalSeconds, Paper paper,
                          String verdict, double standardError) {
    }

    /** Every split row, and one summary per data set and method. */
    public record Result(int splits, int firstSplit, List<SplitRow> rows, List<Summary> summary) {
    }

    /** The table's column for a method name: tk, simplemkl, simplemkl-tk or combined. */
    public static Method method(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "tk" -> Method.TK;
            case "simplemkl" -> Method.SIMPLEMKL;
            case "simplemkl-tk" -> Method.SIMPLEMKL_TK;
            case "combined" -> Method.COMBINED;
            default -> throw new IllegalArgumentException("unknown method '" + s
                    + "' (tk, simplemkl, simplemkl-tk, combined)");
        };
    }

    /** The table's name of a method (inverse of {@link #method(String)}). */
    public static String methodName(Method m) {
        return m.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The paper's numbers (Colbert &amp; Peet 2020, Table I) for a data set and method, NaN where it has none. */
    public static Paper paper(String dataset, Method m) {
        for (Map<String, String> r : Reference.rows("colbert-peet-2020-table1")) {
            if (r.get("dataset").equals(dataset) && method(r.get("method")) == m) {
                return new Paper(Double.parseDouble(r.get("accuracy")), Double.parseDouble(r.get("sd")),
                        Double.parseDouble(r.get("seconds")));
            }
        }
        return new Paper(Double.NaN, Double.NaN, Double.NaN);
    }

    /** Runs the table; {@code onSplit} receives each split row as soon as it is done. */
    public static Result run(Options o, Consumer<SplitRow> onSplit, ExperimentListener listener) {
        listener = ExperimentListener.orNone(listener);
        int splits = o.splits();
        int firstSplit = o.firstSplit();
        int runs = splits - firstSplit + 1;
        int folds = o.folds();
        long seed = o.seed();
        List<Method> ms = o.methods();
        long start = System.nanoTime();
        long work = (long) o.datasets().size() * runs * ms.size();
        long done = 0;
        List<SplitRow> rows = new ArrayList<>();
        List<Summary> summary = new ArrayList<>();
        for (String name : o.datasets()) {
            Labeled d = Labeled.read(o.dataDir().resolve(name + ".csv"));
            int degree = name.equals("ionosphere") ? 0 : 1;
            KernelLearning.Settings st = new KernelLearning.Settings(degree, o.orthant(),
                    o.librarySize(), seed, o.betaBandwidths(), KernelLearning.GaussScaling.MINMAX);
            Map<Method, double[][]> res = new LinkedHashMap<>();
            for (Method m : ms) {
                res.put(m, new double[runs][]);
            }
            for (int s = firstSplit - 1; s < splits; s++) {
                Split part = d.split(seed * 1000 + s);
                Matrix xtr = part.xtr();
                Matrix xte = part.xte();
                double[] ytr = part.ytr();
                double[] yte = part.yte();
                for (Method m : ms) {
                    long t0 = System.nanoTime();
                    double[] cg = o.cGrid() != null ? o.cGrid() : m.defaultCGrid();
                    double[] eg = o.epsilonGrid() != null ? o.epsilonGrid() : m.defaultEpsilonGrid();
                    KernelLearning.CvFit cvf = new KernelLearning.ScaledSearch(m, cg, true, eg, folds,
                            seed * 7919 + s, st.withGaussScaling(o.gaussScaling().apply(m)), o.gap()).fit(xtr, ytr);
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
                    SplitRow row = new SplitRow(name, m, s, acc, ch.cRel(), ch.epsilon(), f.c(), f.seconds(), total,
                            f.summary(), f.iterations(), f.gap(), ch.gaussScaling(), ch.accuracy());
                    rows.add(row);
                    onSplit.accept(row);
                    // SimpleMKL has no ε (its choice holds NaN): its line leaves eps out
                    listener.note(String.format(Locale.ROOT, "%s split %d/%d %s: accuracy %.2f%%, c=%s%s, "
                            + "%sfit %.2fs, with CV %.1fs, %s", name, s + 1, splits, m.label(), acc, ch.cRel(),
                            Double.isNaN(ch.epsilon()) ? "" : " eps=" + ch.epsilon(),
                            ch.gaussScaling() == null ? "" : "gauss " + ch.gaussScaling().label() + ", ",
                            f.seconds(), total, f.summary()));
                    listener.step("tk-table1", ++done, work, start);
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
                Paper p = paper(name, m);
                double pm = p.accuracy();
                double psd = p.sd();
                // one standard error of the difference of the two means
                double se = Math.sqrt(sd * sd / runs + psd * psd / PAPER_SPLITS);
                String verdict = mean >= pm ? "above" : (mean >= pm - se ? "within 1 SE" : "BELOW by > 1 SE");
                summary.add(new Summary(name, m, m.usesGaussLibrary() ? o.gaussScaling().apply(m) : null, runs, mean,
                        sd, fit, tot, p, verdict, se));
            }
        }
        return new Result(runs, firstSplit, rows, summary);
    }

    /**
     * A data set of Table I: its features and its two classes encoded ±1 (rows with a missing value dropped, as the
     * paper's protocol does).
     */
    public record Labeled(Matrix x, double[] y) {

        /** Reads a CSV whose last column holds the class labels. */
        public static Labeled read(Path csv) {
            org.psdkit.data.Dataset d = org.psdkit.data.CsvReader.readDroppingIncomplete(csv,
                    new org.psdkit.data.CsvReader.Options(null, false, true)).data();
            BinaryLabels lab = BinaryLabels.of(d.labels(), d.source());
            return new Labeled(d.x(), lab.encode(d.labels(), d.source()));
        }

        /** The seeded 80/20 split, features min-max scaled on its training part. */
        public Split split(long seed) {
            org.psdkit.data.Splits.TrainTest part = org.psdkit.data.Splits.trainTest(y.length, 0.2, seed);
            Matrix train = x.selectRows(part.train());
            org.psdkit.data.Scaler sc = org.psdkit.data.Scaler.fit(org.psdkit.data.Scaler.Kind.MINMAX, train);
            return new Split(sc.apply(train), sc.apply(x.selectRows(part.test())), select(part.train()),
                    select(part.test()));
        }

        private double[] select(int[] rows) {
            double[] out = new double[rows.length];
            for (int i = 0; i < rows.length; i++) {
                out[i] = y[rows[i]];
            }
            return out;
        }
    }

    /** Scaled training and test features with their ±1 classes. */
    public record Split(Matrix xtr, Matrix xte, double[] ytr, double[] yte) {
    }
}
