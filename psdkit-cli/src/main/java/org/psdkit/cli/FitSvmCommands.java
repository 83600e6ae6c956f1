package org.psdkit.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.mkl.KernelLearning;
import org.psdkit.mkl.KernelLearning.Method;
import org.psdkit.mkl.TkLearner;
import org.psdkit.mkl.TkRandomLibrary;
import org.psdkit.svm.BinaryLabels;
import org.psdkit.svm.KernelRows;
import org.psdkit.svm.Smo;
import org.psdkit.svm.Splits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit svm | tk-svm | simplemkl}: soft-margin SVMs with a fixed, a tessellated or an MKL kernel. */
final class FitSvmCommands {

    /** Relative C grid (C = c / mean diag K) for {@code fit svm} when -C is not given. */
    static final double[] SVM_C_GRID = {0.1, 1, 10, 100};

    private FitSvmCommands() {
    }

    /** Parses {@code --orthant lower|complement} (case-insensitive). */
    static TessellatedKernel.Orthant parseOrthant(String s) {
        try {
            return TessellatedKernel.Orthant.valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--orthant: '" + s + "' is not lower or complement");
        }
    }

    static double[] parseGrid(String s, String option) {
        String[] parts = s.split(",");
        double[] v = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                v[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": '" + parts[i] + "' is not a number");
            }
            if (!(v[i] > 0) || Double.isInfinite(v[i])) {
                throw new IllegalArgumentException(option + ": values must be positive and finite, got " + parts[i]);
            }
        }
        return v;
    }

    static Double positiveOrNull(String v, String option) {
        if (v == null) {
            return null;
        }
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + v + "' is not a number");
        }
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new IllegalArgumentException(option + " must be positive and finite, got " + v);
        }
        return d;
    }

    /** Labels and ±1 codes of a training set. */
    record Labeled(BinaryLabels labels, double[] y) {
        static Labeled of(Dataset raw) {
            String[] t = SvmModels.labelTokens(raw);
            BinaryLabels l = BinaryLabels.of(t, raw.source());
            return new Labeled(l, l.encode(t, raw.source()));
        }
    }

    static double trainAccuracy(Kernel k, Matrix x, double[] y, Smo.Result r) {
        KernelLearning.Fitted f = new KernelLearning.Fitted(k, r, 0, 0, 0, 0, true, "", 0);
        double[] dv = f.decision(x, y, x);
        int ok = 0;
        for (int i = 0; i < dv.length; i++) {
            if ((dv[i] >= 0 ? 1 : -1) == y[i]) {
                ok++;
            }
        }
        return (double) ok / dv.length;
    }

    static Scaler minmaxScaler(CommonFitOptions common, Dataset raw, String model) {
        Scaler.Kind kind = Scaler.Kind.parse(common.scale);
        if (kind == Scaler.Kind.ZSCORE) {
            throw new IllegalArgumentException("--scale zscore: " + model + " needs features scaled to [0, 1] "
                    + "(minmax, applied by default); fit simplemkl --gauss-scaling zscore gives the Gaussian/polynomial "
                    + "library standardised features");
        }
        return Scaler.fit(Scaler.Kind.MINMAX, raw.x());
    }

    static List<Map<String, Object>> gridTable(KernelLearning.Choice ch) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (double[] g : ch.grid()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("c", g[0]); // relative (C = c/kappa) unless cRelative is false
            if (!Double.isNaN(g[1])) {
                r.put("epsilon", g[1]);
            }
            r.put("accuracy", g[2]);
            if (g.length > 3) {
                r.put("gaussScaling", KernelLearning.GaussScaling.values()[(int) g[3]].label());
            }
            rows.add(r);
        }
        return rows;
    }

    /** {@code fit svm}. */
    @Command(name = "svm", description = "Soft-margin SVM (SMO, second-order working sets) with a fixed kernel.")
    static final class Svm implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;

        @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
                description = "Kernel string (default: ${DEFAULT-VALUE}).")
        String kernel;

        @Option(names = "-C", paramLabel = "C", description = "Penalty C > 0; chosen by 5-fold CV over "
                + "C = c / mean(diag K), c in {0.1, 1, 10, 100}, when not given.")
        String c;

        @Option(names = "--tolerance", defaultValue = "1e-3", paramLabel = "TOL",
                description = "SMO stopping tolerance on the KKT violation (default: ${DEFAULT-VALUE}).")
        double tolerance;

        @Override
        public Integer call() {
            Double cGiven = positiveOrNull(c, "-C");
            if (!(tolerance > 0)) {
                throw new IllegalArgumentException("--tolerance must be positive, got " + tolerance);
            }
            Kernel k = KernelSpecs.parse(kernel);
            common.checkOutWritable();
            Dataset raw = common.loadSupervised(true);
            Labeled lab = Labeled.of(raw);
            Scaler scaler = common.fitScaler(raw);
            Matrix x = scaler.apply(raw.x());
            long t0 = System.nanoTime();
            Matrix g = k.gram(x);
            Map<String, Object> cv = null;
            double cUsed;
            if (cGiven != null) {
                cUsed = cGiven;
            } else {
                double kappa = g.trace() / g.rows();
                double best = -1;
                cUsed = SVM_C_GRID[0] / kappa;
                List<Map<String, Object>> rows = new ArrayList<>();
                for (double cr : SVM_C_GRID) {
                    double cc = cr / kappa;
                    int ok = 0;
                    for (int f = 0; f < KernelLearning.DEFAULT_FOLDS; f++) {
                        int[][] tv = Splits.fold(x.rows(), KernelLearning.DEFAULT_FOLDS, f, common.seed);
                        Matrix gt = g.selectRows(tv[0]).selectCols(tv[0]);
                        double[] yt = Splits.select(lab.y(), tv[0]);
                        Smo.Result r = Smo.solve(KernelRows.dense(gt), yt, cc, tolerance, null);
                        Matrix gv = g.selectRows(tv[1]).selectCols(tv[0]);
                        double[] beta = new double[yt.length];
                        for (int i = 0; i < yt.length; i++) {
                            beta[i] = r.alpha()[i] * yt[i];
                        }
                        double[] dv = gv.times(beta);
                        for (int i = 0; i < dv.length; i++) {
                            if ((dv[i] + r.bias() >= 0 ? 1 : -1) == lab.y()[tv[1][i]]) {
                                ok++;
                            }
                        }
                    }
                    double acc = (double) ok / x.rows();
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("C", cc);
                    row.put("accuracy", acc);
                    rows.add(row);
                    if (acc > best) {
                        best = acc;
                        cUsed = cc;
                    }
                }
                cv = new LinkedHashMap<>();
                cv.put("folds", KernelLearning.DEFAULT_FOLDS);
                cv.put("accuracy", best);
                cv.put("grid", rows);
            }
            Smo.Result r = Smo.solve(KernelRows.dense(g), lab.y(), cUsed, tolerance, null);
            double secs = (System.nanoTime() - t0) * 1e-9;
            ObjectNode doc = common.newModelDocument("svm", raw, scaler, k.spec());
            SvmModels.storeSvm(doc, x, lab.y(), r.alpha(), r.bias(), lab.labels(), cUsed);
            doc.putObject("diagnostics").put("iterations", r.iterations()).put("violation", r.violation())
                    .put("dual", r.dual()).put("converged", r.converged()).put("seconds", secs);
            common.save(doc);
            Map<String, Object> rep = common.baseReport("svm", raw, secs);
            rep.put("kernel", k.spec());
            rep.put("C", cUsed);
            if (cv != null) {
                rep.put("cv", cv);
            }
            rep.put("iterations", r.iterations());
            rep.put("violation", r.violation());
            rep.put("converged", r.converged());
            rep.put("trainAccuracy", trainAccuracy(k, x, lab.y(), r));
            common.report(rep);
            return Main.EXIT_OK;
        }
    }

    /** Options shared by the kernel-learning fits. */
    abstract static class Learning implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;

        @Option(names = "-C", paramLabel = "C", description = "Penalty C > 0; when not given, chosen by 5-fold CV "
                + "over C = c / kappa, c in --c-grid (kappa: mean Gram diagonal of the starting kernel).")
        String c;

        @Option(names = "--degree", defaultValue = "1", paramLabel = "D",
                description = "Tessellated-kernel monomial degree 0, 1 or 2 (default: ${DEFAULT-VALUE}).")
        int degree;

        @Option(names = "--epsilon", paramLabel = "EPS", description = "Box margin: X = [-eps, 1+eps]^n; chosen "
                + "by 5-fold CV over --epsilon-grid when not given.")
        String epsilon;

        @Option(names = "--orthant", defaultValue = "lower", paramLabel = "lower|complement",
                description = "Second indicator of the tessellated kernel (default: ${DEFAULT-VALUE}).")
        String orthant;

        @Option(names = "--gap", defaultValue = "0.01", paramLabel = "TOL",
                description = "Relative gap at which kernel learning stops (default: ${DEFAULT-VALUE}).")
        double gap;

        @Option(names = "--c-grid", paramLabel = "LIST", description = "Relative C grid for CV (comma list; default "
                + "0.001,0.01,0.1,1,10,100 for tk-svm and simplemkl --library tk-random, 0.01,0.1,1,10,100 for the "
                + "gauss-poly and combined libraries).")
        String cGrid;

        @Option(names = "--epsilon-grid", paramLabel = "LIST", description = "Epsilon grid for CV (comma list; default "
                + "0.1,1,3,10 for tk-svm and tk-random, 0.1,1,3 for combined).")
        String epsGrid;

        abstract Method method();

        abstract String type();

        int librarySize() {
            return TkRandomLibrary.PAPER_SIZE;
        }

        /** Whether the Gaussian library's bandwidths are read as β (only SimpleMKL has Gaussians). */
        boolean betaBandwidths() {
            return false;
        }

        /** Which features the Gaussian/polynomial library sees (only SimpleMKL has it). */
        KernelLearning.GaussScaling gaussScaling() {
            return KernelLearning.GaussScaling.MINMAX;
        }

        @Override
        public Integer call() {
            Double cGiven = positiveOrNull(c, "-C");
            Double eGiven = null;
            if (epsilon != null) {
                try {
                    eGiven = Double.parseDouble(epsilon);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--epsilon: '" + epsilon + "' is not a number");
                }
                if (!(eGiven >= 0) || eGiven.isInfinite()) {
                    throw new IllegalArgumentException("--epsilon must be >= 0 and finite, got " + epsilon);
                }
            }
            if (degree < 0 || degree > TessellatedKernel.MAX_DEGREE) {
                throw new IllegalArgumentException("--degree must be 0, 1 or 2, got " + degree);
            }
            if (!(gap > 0)) {
                throw new IllegalArgumentException("--gap must be positive, got " + gap);
            }
            TessellatedKernel.Orthant orth = parseOrthant(orthant);
            double[] cg = cGrid == null ? method().defaultCGrid() : parseGrid(cGrid, "--c-grid");
            double[] eg = epsGrid == null ? method().defaultEpsilonGrid() : parseGrid(epsGrid, "--epsilon-grid");
            common.checkOutWritable();
            Dataset raw = common.loadSupervised(true);
            Labeled lab = Labeled.of(raw);
            Scaler scaler = minmaxScaler(common, raw, type());
            Matrix x = scaler.apply(raw.x());
            KernelLearning.Settings st = new KernelLearning.Settings(degree, orth, librarySize(), common.seed,
                    betaBandwidths(), gaussScaling());
            long t0 = System.nanoTime();
            Map<String, Object> cv = null;
            double cValue = cGiven == null ? Double.NaN : cGiven;
            boolean relative = false;
            double eps = eGiven == null ? 0 : eGiven;
            boolean needEps = method().usesEpsilon() && eGiven == null;
            boolean needScaling = method().usesGaussLibrary() && st.gaussScaling() == KernelLearning.GaussScaling.CV;
            if (cGiven == null || needEps || needScaling) {
                double[] cgUse = cGiven == null ? cg : new double[] {cGiven};
                boolean rel = cGiven == null;
                double[] egUse = needEps ? eg : new double[] {eps};
                KernelLearning.Choice ch = KernelLearning.crossValidate(method(), x, lab.y(), cgUse, rel, egUse,
                        KernelLearning.DEFAULT_FOLDS, common.seed, st, gap);
                cValue = ch.cRel();
                relative = rel;
                if (method().usesEpsilon()) {
                    eps = ch.epsilon();
                }
                st = ch.resolve(st);
                cv = new LinkedHashMap<>();
                cv.put("folds", KernelLearning.DEFAULT_FOLDS);
                cv.put("accuracy", ch.accuracy());
                cv.put("cRelative", rel);
                if (needScaling) {
                    cv.put("gaussScaling", st.gaussScaling().label());
                }
                cv.put("grid", gridTable(ch));
                if (!common.json) {
                    Progress.info(String.format(Locale.ROOT, "CV chose %s = %s%s%s (mean accuracy %.4f)",
                            rel ? "c (relative)" : "C", cValue, method().usesEpsilon() ? ", epsilon = " + eps : "",
                            needScaling ? ", gauss scaling " + st.gaussScaling().label() : "", ch.accuracy()));
                }
            }
            KernelLearning.Fitted f = KernelLearning.fit(method(), x, lab.y(), cValue, relative, eps, st, gap);
            double secs = (System.nanoTime() - t0) * 1e-9;
            ObjectNode doc = common.newModelDocument(type(), raw, scaler, null);
            ObjectNode opts = (ObjectNode) doc.get("options");
            opts.put("degree", degree).put("orthant", orth.name().toLowerCase(Locale.ROOT)).put("gap", gap);
            if (method().usesEpsilon()) {
                opts.put("epsilon", eps);
            }
            SvmModels.storeSvm(doc, x, lab.y(), f.svm().alpha(), f.svm().bias(), lab.labels(), f.c());
            opts.put("epsilon", eps);
            ((ObjectNode) doc.get("numbers")).set("learnedKernel", SvmModels.kernelJson(f.kernel()));
            doc.putObject("diagnostics").put("iterations", f.iterations()).put("gap", f.gap())
                    .put("converged", f.converged()).put("smoIterations", f.svm().iterations())
                    .put("seconds", secs).put("fitSeconds", f.seconds());
            common.save(doc);
            Map<String, Object> rep = common.baseReport(type(), raw, secs);
            rep.put("C", f.c());
            if (method().usesEpsilon()) {
                rep.put("epsilon", eps);
                rep.put("degree", degree);
            }
            if (method().usesGaussLibrary()) {
                rep.put("gaussBandwidth", st.betaBandwidths() ? "beta" : "sigma");
                rep.put("gaussScaling", st.gaussScaling().label());
            }
            if (cv != null) {
                rep.put("cv", cv);
            }
            rep.put("kernel", f.summary());
            if (!f.weights().isEmpty()) {
                List<Map<String, Object>> ws = new ArrayList<>();
                for (KernelLearning.Weight w : f.weights()) {
                    Map<String, Object> e = new LinkedHashMap<>();
                    e.put("kernel", w.kernel());
                    e.put("mu", w.mu());
                    ws.add(e);
                }
                rep.put("weights", ws);
            }
            rep.put("iterations", f.iterations());
            rep.put("gap", f.gap());
            rep.put("converged", f.converged());
            rep.put("fitSeconds", f.seconds());
            rep.put("trainAccuracy", trainAccuracy(f.kernel(), x, lab.y(), f.svm()));
            common.report(rep);
            return Main.EXIT_OK;
        }
    }

    /** {@code fit tk-svm}. */
    @Command(name = "tk-svm", description = "SVM with a learned tessellated kernel (direct Frank-Wolfe method over "
            + "{P psd, tr P = 1}, alternating with warm-started SMO).")
    static final class TkSvm extends Learning {
        @Override
        Method method() {
            return Method.TK;
        }

        @Override
        String type() {
            return "tk-svm";
        }
    }

    /** {@code fit simplemkl}. */
    @Command(name = "simplemkl", description = "SimpleMKL over a kernel library: gauss-poly (Gaussian + polynomial, "
            + "13(n+1) kernels), tk-random (random tessellated kernels) or combined.")
    static final class SimpleMkl extends Learning {
        @Option(names = "--library", defaultValue = "gauss-poly", paramLabel = "gauss-poly|tk-random|combined",
                description = "Kernel library (default: ${DEFAULT-VALUE}).")
        String library;

        @Option(names = "--library-size", defaultValue = "300", paramLabel = "N",
                description = "Number of random tessellated kernels (default: ${DEFAULT-VALUE}).")
        int size;

        @Mixin
        GaussLibraryOptions gauss;

        @Override
        boolean betaBandwidths() {
            return gauss.beta();
        }

        @Override
        KernelLearning.GaussScaling gaussScaling() {
            return gauss.scaling(method());
        }

        @Override
        Method method() {
            return switch (library.trim().toLowerCase(Locale.ROOT)) {
                case "gauss-poly" -> Method.SIMPLEMKL;
                case "tk-random" -> Method.SIMPLEMKL_TK;
                case "combined" -> Method.COMBINED;
                default -> throw new IllegalArgumentException("--library: '" + library
                        + "' is not gauss-poly, tk-random or combined");
            };
        }

        @Override
        int librarySize() {
            if (size < 1) {
                throw new IllegalArgumentException("--library-size must be >= 1, got " + size);
            }
            return size;
        }

        @Override
        public Integer call() {
            method();
            librarySize();
            betaBandwidths();
            gaussScaling();
            return super.call();
        }

        @Override
        String type() {
            return "simplemkl";
        }
    }
}
