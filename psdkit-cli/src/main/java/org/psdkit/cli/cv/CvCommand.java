package org.psdkit.cli.cv;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Params;
import org.psdkit.cli.Progress;
import org.psdkit.cli.Reports;
import org.psdkit.cli.TrainingOptions;
import org.psdkit.cli.fit.FitCommands;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.select.CrossValidation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code psdkit cv <model> --train F [--folds K | --splits R] [--grid 'sigma=..;lambda=..'] [--json]}: k-fold CV (or
 * repeated random train/test splits) over a parameter grid for any model type with cv support in {@link FitCommands}.
 * The scaler is fitted on each training part only.
 */
@Command(name = "cv", description = "Cross-validate a model type over a parameter grid and report the best point.")
public final class CvCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "MODEL", description = "Model type (listed below), e.g. krr, ridge.")
    String type;

    @Mixin
    TrainingOptions common;

    @Option(names = "--folds", defaultValue = "5", paramLabel = "K", description = "Number of folds (default: ${DEFAULT-VALUE}).")
    int folds;

    @Option(names = "--splits", paramLabel = "R",
            description = "Use R repeated random train/test splits instead of k folds (e.g. 30 for the 80/20 x 30 protocol).")
    Integer splits;

    @Option(names = "--test-fraction", defaultValue = "0.2", paramLabel = "F",
            description = "Test fraction with --splits (default: ${DEFAULT-VALUE}).")
    double testFraction;

    @Option(names = "--grid", paramLabel = "GRID",
            description = "Parameter grid, e.g. 'sigma=0.1,0.3,1;lambda=1e-3,1e-2'.")
    String grid;

    @Option(names = "--kernel", paramLabel = "SPEC", description = "Base kernel string (grid parameters such as sigma are substituted into it).")
    String kernel;

    @Option(names = "--lambda", paramLabel = "X", description = "Fixed regularisation lambda (when not in the grid).")
    String lambda;

    @Option(names = "--anchors", paramLabel = "M",
            description = "krr: Nystrom KRR with M anchors (the anchors and their factorisations are shared across the "
                    + "lambda grid of each fold); the densities: M anchors; same as -P anchors=M.")
    String anchors;

    @Option(names = "--anchor-method", paramLabel = "uniform|kmeans++|kmeans++-input|rls|rpcholesky",
            description = "krr and the densities with --anchors: how anchors are chosen (drawn with --seed); same as "
                    + "-P anchorMethod=...")
    String anchorMethod;

    @Option(names = "--loo",
            description = "krr: exact leave-one-out over the lambda grid from one eigendecomposition per kernel "
                    + "(scikit-learn's RidgeCV shortcut; with --anchors on the M-dimensional system); reports the "
                    + "leave-one-out RMSE and GCV of every point, best by leave-one-out. Replaces --folds/--splits.")
    boolean loo;

    @Option(names = {"-P", "--param"}, paramLabel = "NAME=VALUE", description = "Fix another model parameter (repeatable).")
    Map<String, String> fixed = new LinkedHashMap<>();

    @Override
    public Integer call() {
        FitCommands.Entry entry = FitCommands.get(type);
        if (entry.cv() == null) {
            throw new IllegalArgumentException("cv: model type '" + type + "' does not support cross-validation");
        }
        CvSupport cv = entry.cv().get();
        if (common.weight != null) {
            requireWeights(cv);
        }
        Map<String, String> base = new LinkedHashMap<>(cv.defaults());
        if (kernel != null) {
            requireKnown(base, "kernel", "--kernel");
            base.put("kernel", kernel);
        }
        if (lambda != null) {
            requireKnown(base, "lambda", "--lambda");
            base.put("lambda", lambda);
        }
        if (anchors != null) {
            requireKnown(base, "anchors", "--anchors");
            base.put("anchors", anchors);
        }
        if (anchorMethod != null) {
            requireKnown(base, "anchorMethod", "--anchor-method");
            base.put("anchorMethod", anchorMethod);
        }
        if (base.containsKey("anchorSeed")) {
            base.put("anchorSeed", Long.toString(common.seed));
        }
        if (cv.unsupervised()) {
            base.put("scale", common.scaleKind().name().toLowerCase(java.util.Locale.ROOT)); // the trainer scales
        }
        for (Map.Entry<String, String> e : fixed.entrySet()) {
            requireName(base, e.getKey(), "--param");
            base.put(e.getKey(), e.getValue());
        }
        LinkedHashMap<String, List<String>> g = Grid.parse(grid, "--grid");
        for (String name : g.keySet()) {
            requireName(base, name, "--grid");
        }
        List<Map<String, String>> points = Grid.points(g);
        // validate every grid point's parameters before reading data
        for (Map<String, String> p : points) {
            try {
                cv.validate(new Params(base).with(p));
            } catch (IllegalArgumentException e) {
                String m = e instanceof org.psdkit.data.InputException pe ? org.psdkit.cli.Flags.message(pe)
                        : e.getMessage();
                throw new IllegalArgumentException((p.isEmpty() ? "" : "--grid point " + p + ": ") + m, e);
            }
        }

        if (loo) {
            return leaveOneOut(base, points);
        }
        Dataset raw = cv.unsupervised() ? common.loadUnsupervised("a density model")
                : common.loadSupervised(cv.classifier());
        Scaler.Kind scaleKind = cv.unsupervised() ? Scaler.Kind.NONE : common.scaleKind();
        Splits.TrainTest[] parts;
        String protocol;
        if (splits != null) {
            if (splits < 1) {
                throw new IllegalArgumentException("--splits must be >= 1, got " + splits);
            }
            parts = CrossValidation.repeatedSplits(raw.n(), testFraction, splits, common.seed);
            protocol = splits + " random splits, test fraction " + testFraction;
        } else {
            parts = Splits.kFold(raw.n(), folds, common.seed);
            protocol = folds + "-fold";
        }
        long t0 = System.nanoTime();
        long cpu0 = processCpuNanos();
        List<CrossValidation.Result<Map<String, String>>> rows;
        try (Progress pr = Progress.start("cv " + type + " (" + protocol + ", " + points.size() + " grid points)",
                (long) points.size() * parts.length)) {
            rows = pr.run(() -> CrossValidation.grid(raw, parts, scaleKind, points,
                    (train, p) -> cv.fit(train, new Params(base).with(p)), cv::score, pr::step));
        }
        double secs = (System.nanoTime() - t0) * 1e-9;
        double cpuSecs = (processCpuNanos() - cpu0) * 1e-9;

        String key = cv.selectBy();
        CrossValidation.Result<Map<String, String>> best = CrossValidation.best(rows, key, cv.lowerIsBetter());
        if (best == null) {
            throw new IllegalStateException("cv " + type + ": every grid point failed; first error: "
                    + rows.get(0).error());
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("model", type);
        rep.put("n", raw.n());
        rep.put("d", raw.d());
        rep.put("seconds", secs);
        rep.put("cpuSeconds", cpuSecs);
        rep.put("fits", rows.size() * parts.length);
        rep.put("protocol", protocol);
        if (common.weight != null) {
            rep.put("weight", common.weight); // fits weighted by this column, scores weighted means over held-out rows
        }
        Params bestParams = new Params(base).with(best.params());
        Map<String, String> bestMap = new LinkedHashMap<>(best.params());
        if (bestParams.has("kernel")) {
            bestMap.put("kernel", bestParams.kernelSpec());
        }
        rep.put("best", bestMap);
        for (String k : best.scores().keySet()) {
            rep.put(k, best.mean(k));
            rep.put(k + "_sd", best.sd(k));
        }
        List<Map<String, Object>> table = new ArrayList<>();
        for (CrossValidation.Result<Map<String, String>> r : rows) {
            Map<String, Object> t = new LinkedHashMap<>(r.params());
            if (r.error() != null) {
                t.put("error", r.error());
            } else {
                for (String k : r.scores().keySet()) {
                    t.put(k, r.mean(k));
                }
            }
            table.add(t);
        }
        if (!common.json) {
            System.err.println("psdkit cv " + type + ": " + protocol + " on " + raw.source() + ", best by " + key
                    + (common.weight != null ? " (fits and scores weighted by column " + common.weight + ")" : ""));
            for (Map<String, Object> t : table) {
                StringBuilder sb = new StringBuilder("   ");
                for (Map.Entry<String, Object> e : t.entrySet()) {
                    sb.append(' ').append(e.getKey()).append('=').append(Reports.format(e.getValue()));
                }
                System.err.println(sb);
            }
        } else {
            rep.put("grid", table);
        }
        common.report(rep);
        return Main.EXIT_OK;
    }

    /** {@code cv krr --loo}: the leave-one-out shortcut ({@link org.psdkit.cli.fit.KrrKind#loo}). */
    private Integer leaveOneOut(Map<String, String> base, List<Map<String, String>> points) {
        if (!type.equals("krr")) {
            throw new IllegalArgumentException("--loo: applies to cv krr only");
        }
        if (splits != null) {
            throw new IllegalArgumentException("--loo: leave-one-out replaces --splits");
        }
        Dataset raw = common.loadSupervised(false);
        long t0 = System.nanoTime();
        long cpu0 = processCpuNanos();
        List<org.psdkit.cli.fit.KrrKind.LooRow> rows;
        try (Progress pr = Progress.start("cv krr (leave-one-out, " + points.size() + " grid points)",
                points.size())) {
            rows = org.psdkit.cli.fit.KrrKind.loo(raw, common.scaleKind(), base, points, pr::step);
        }
        double secs = (System.nanoTime() - t0) * 1e-9;
        org.psdkit.cli.fit.KrrKind.LooRow best = rows.get(0);
        org.psdkit.cli.fit.KrrKind.LooRow bestGcv = rows.get(0);
        for (org.psdkit.cli.fit.KrrKind.LooRow r : rows) {
            best = r.rmse() < best.rmse() ? r : best;
            bestGcv = r.gcv() < bestGcv.gcv() ? r : bestGcv;
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("model", type);
        rep.put("n", raw.n());
        rep.put("d", raw.d());
        rep.put("seconds", secs);
        rep.put("cpuSeconds", (processCpuNanos() - cpu0) * 1e-9);
        rep.put("protocol", "leave-one-out");
        Map<String, String> bestMap = new LinkedHashMap<>(best.params());
        Params bp = new Params(base).with(best.params());
        if (bp.has("kernel")) {
            bestMap.put("kernel", bp.kernelSpec());
        }
        rep.put("best", bestMap);
        rep.put("rmse", best.rmse());
        rep.put("gcv", best.gcv());
        rep.put("bestByGcv", new LinkedHashMap<>(bestGcv.params()));
        List<Map<String, Object>> table = new ArrayList<>();
        for (org.psdkit.cli.fit.KrrKind.LooRow r : rows) {
            Map<String, Object> t = new LinkedHashMap<>(r.params());
            t.put("rmse", r.rmse());
            t.put("gcv", r.gcv());
            table.add(t);
        }
        if (!common.json) {
            System.err.println("psdkit cv krr: leave-one-out on " + raw.source() + ", best by rmse");
            for (Map<String, Object> t : table) {
                StringBuilder sb = new StringBuilder("   ");
                for (Map.Entry<String, Object> e : t.entrySet()) {
                    sb.append(' ').append(e.getKey()).append('=').append(Reports.format(e.getValue()));
                }
                System.err.println(sb);
            }
        } else {
            rep.put("grid", table);
        }
        common.report(rep);
        return Main.EXIT_OK;
    }

    /** Lists the model types with cv support and their descriptions ({@link FitCommands}) at the end of the help. */
    public static void listModelTypes(CommandLine cv) {
        int width = cv.getCommandSpec().usageMessage().width();
        CommandLine.Help.TextTable table = CommandLine.Help.TextTable.forColumns(cv.getColorScheme(),
                new CommandLine.Help.Column(17, 2, CommandLine.Help.Column.Overflow.SPAN),
                new CommandLine.Help.Column(width - 17, 1, CommandLine.Help.Column.Overflow.WRAP));
        for (FitCommands.Entry e : FitCommands.withCv()) {
            table.addRowValues(e.type(), e.description());
        }
        cv.getCommandSpec().usageMessage().footer("", "Model types:", table.toString().replace("%", "%%"));
    }

    /** CPU time of the whole process (all threads), or 0 if the JVM does not report it. */
    static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return Math.max(0, sun.getProcessCpuTime());
        }
        return 0;
    }

    /**
     * {@code --weight COLUMN}: accepted for the types whose trainers fit sample weights ({@link CvSupport#takesWeights}),
     * not with {@code --loo} (the unweighted shortcut); otherwise refused naming the type and those that take them.
     */
    private void requireWeights(CvSupport cv) {
        if (!cv.takesWeights()) {
            List<String> weighted = new ArrayList<>();
            for (FitCommands.Entry e : FitCommands.withCv()) {
                if (e.cv().get().takesWeights()) {
                    weighted.add(e.type());
                }
            }
            throw new IllegalArgumentException("--weight " + common.weight + ": cv " + type + " takes no sample "
                    + "weights (cv takes them for " + String.join(", ", weighted) + ")");
        }
        if (loo) {
            throw new IllegalArgumentException("--weight " + common.weight + ": --loo is the unweighted "
                    + "leave-one-out shortcut; use --folds or --splits with --weight");
        }
        common.acceptWeights();
    }

    private static void requireKnown(Map<String, String> base, String name, String option) {
        if (!base.containsKey(name)) {
            throw new IllegalArgumentException(option + ": this model type has no parameter '" + name + "'; it has "
                    + base.keySet());
        }
    }

    private static void requireName(Map<String, String> base, String name, String option) {
        if (base.containsKey(name) || Params.isKernelParameter(base.get("kernel"), name)) {
            return;
        }
        throw new IllegalArgumentException(option + ": unknown parameter '" + name + "'; this model type has "
                + base.keySet() + (base.containsKey("kernel") ? " and the parameters of its kernel " + base.get("kernel")
                : ""));
    }
}
