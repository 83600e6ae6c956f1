package org.psdkit.classify.mkl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.optim.ProgressListener;

/**
 * The fit shared by {@link TkSvmTrainer} and {@link SimpleMklTrainer}: features scaled to [0, 1] on the training
 * data (the tessellated kernels live on a box around it), C (relative to the kernel's scale, see
 * {@link KernelLearning}) and ε chosen by 5-fold cross-validation when not given, then the kernel learned on all
 * rows (Colbert &amp; Peet 2020, Sec. VII–VIII). Progress: the events of the cross-validation
 * ({@link KernelLearning#crossValidate}), then those of the final fit ({@value TkLearner#TASK} or
 * {@value SimpleMkl#TASK}).
 */
final class LearnedSvm {
    private LearnedSvm() {
    }

    /** Options common to both trainers; errors name the parameter. */
    static void check(double c, double epsilon, int degree, double gap) {
        ParameterException.positive("c", c);
        ParameterException.nonNegative("epsilon", epsilon);
        if (degree < 0 || degree > TessellatedKernel.MAX_DEGREE) {
            throw new ParameterException("degree", "must be 0, 1 or 2, got " + degree);
        }
        if (!(gap > 0)) {
            throw new ParameterException("gap", "must be positive, got " + gap);
        }
        if (gap < KernelLearning.MIN_GAP_TOLERANCE) {
            throw new ParameterException("gap", String.format(Locale.ROOT, "must be at least %.0e (below it the "
                    + "stop is decided by rounding errors), got %s", KernelLearning.MIN_GAP_TOLERANCE, gap));
        }
    }

    /** A cross-validation grid: null (the parameter is not searched) or values positive and finite. */
    static double[] grid(double[] g, String name) {
        if (g == null) {
            return null;
        }
        if (g.length == 0) {
            throw new ParameterException(name, "must hold at least one value");
        }
        for (double v : g) {
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new ParameterException(name, "values must be positive and finite, got " + v);
            }
        }
        return g.clone();
    }

    static SvmClassifier fit(String type, KernelLearning.Method method, KernelLearning.Settings settings, Double c,
                             double[] cGrid, Double epsilon, double[] epsGrid, double gap, Dataset raw,
                             ProgressListener listener) {
        SvmClassifier.Encoded lab = SvmClassifier.Encoded.of(raw);
        Scaler scaler = Scaler.fit(Scaler.Kind.MINMAX, raw.x());
        Matrix x = scaler.apply(raw.x());
        KernelLearning.Settings st = settings;
        long t0 = System.nanoTime();
        Map<String, Object> report = new LinkedHashMap<>();
        double cValue = c == null ? Double.NaN : c;
        boolean relative = false;
        double eps = epsilon == null ? 0 : epsilon;
        boolean needEps = method.usesEpsilon() && epsilon == null;
        boolean needScaling = method.usesGaussLibrary() && st.gaussScaling() == KernelLearning.GaussScaling.CV;
        KernelLearning.Fitted searched = null;
        if (c == null || needEps || needScaling) {
            double[] cgUse = c == null ? cGrid : new double[] {c};
            boolean rel = c == null;
            double[] egUse = needEps ? epsGrid : new double[] {eps};
            // the direct TK method's search is a GridSearch whose refit is the final fit; the libraries' search
            // warm-starts SimpleMKL along the C grid on shared Gram matrices, then the chosen point is fitted below
            KernelLearning.CvFit tk = method == KernelLearning.Method.TK ? KernelLearning.tkGridSearch(x, lab.y(),
                    cgUse, rel, egUse, KernelLearning.DEFAULT_FOLDS, st.seed(), st, gap, listener) : null;
            searched = tk == null ? null : tk.fitted();
            KernelLearning.Choice ch = tk != null ? tk.choice() : KernelLearning.crossValidate(method, x, lab.y(),
                    cgUse, rel, egUse, KernelLearning.DEFAULT_FOLDS, st.seed(), st, gap, listener);
            cValue = ch.cRel();
            relative = rel;
            if (method.usesEpsilon()) {
                eps = ch.epsilon();
            }
            st = ch.resolve(st);
            Map<String, Object> cv = new LinkedHashMap<>();
            cv.put("folds", KernelLearning.DEFAULT_FOLDS);
            cv.put("accuracy", ch.accuracy());
            cv.put("cRelative", rel);
            if (needScaling) {
                cv.put("gaussScaling", st.gaussScaling().label());
            }
            cv.put("grid", gridTable(ch));
            if (!ch.skipped().isEmpty()) {
                cv.put("skipped", ch.skipped());
            }
            report.put("cv", cv);
            StringBuilder left = new StringBuilder();
            for (String note : ch.skipped()) {
                left.append(left.length() == 0 ? "; left out of the grid: " : ", ")
                        .append(note, 0, note.indexOf(':'));
            }
            if (left.length() > 0) {
                left.append(" (their tessellated kernels overflow on these data or lose them in double precision: "
                        + "cv.skipped)");
            }
            report.put("cvChoice", String.format(Locale.ROOT, "CV chose %s = %s%s%s (mean accuracy %.4f)%s",
                    rel ? "c (relative)" : "C", cValue, method.usesEpsilon() ? ", epsilon = " + eps : "",
                    needScaling ? ", gauss scaling " + st.gaussScaling().label() : "", ch.accuracy(), left));
        }
        KernelLearning.Fitted f = searched != null ? searched
                : KernelLearning.fit(method, x, lab.y(), cValue, relative, eps, st, gap, listener);
        double secs = (System.nanoTime() - t0) * 1e-9;
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("degree", st.degree());
        h.put("orthant", st.orthant().name().toLowerCase(Locale.ROOT));
        h.put("gap", gap);
        if (method.usesEpsilon()) {
            h.put("epsilon", eps);
        }
        h.put("C", f.c());
        h.put("epsilon", eps);
        LearnedKernelFit d = new LearnedKernelFit(f.iterations(), f.gap(), f.converged(), f.svm().iterations(), secs,
                f.seconds(), f.relativeGap(), f.stop());
        report.put("epsilon", eps);
        report.put("degree", st.degree());
        report.put("gaussBandwidth", st.betaBandwidths() ? "beta" : "sigma");
        report.put("gaussScaling", st.gaussScaling().label());
        report.put("kernel", f.summary());
        if (!f.weights().isEmpty()) {
            List<Map<String, Object>> ws = new ArrayList<>();
            for (KernelLearning.Weight w : f.weights()) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("kernel", w.kernel());
                e.put("mu", w.mu());
                ws.add(e);
            }
            report.put("weights", ws);
        }
        return new SvmClassifier(ModelHeader.of(type, raw, scaler, null, h), f.decisionFunction(x, lab.y()),
                lab.labels(), LearnedKernelHyperParameters.of(h), d, report);
    }

    /** The CV table as reported: {@code c} (relative unless cRelative is false), {@code epsilon}, {@code accuracy}. */
    static List<Map<String, Object>> gridTable(KernelLearning.Choice ch) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (double[] g : ch.grid()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("c", g[0]);
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
}
