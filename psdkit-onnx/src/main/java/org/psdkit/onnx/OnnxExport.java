package org.psdkit.onnx;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.psdkit.classify.MulticlassSvm;
import org.psdkit.classify.OneClassSvm;
import org.psdkit.classify.OvoDecision;
import org.psdkit.classify.Platt;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.mkl.MulticlassLearnedSvm;
import org.psdkit.classify.SvmDecision;
import org.psdkit.cone.Constant;
import org.psdkit.cone.KernelExpansion;
import org.psdkit.cone.KernelSumOfSquares;
import org.psdkit.cone.ScalarFunction;
import org.psdkit.cone.TargetScaling;
import org.psdkit.cone.hetero.HeteroModel;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.data.OutputFiles;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityModel;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.GlmDensity;
import org.psdkit.density.Kde;
import org.psdkit.density.LinearDensity;
import org.psdkit.density.PsdDensity;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Predictor;
import org.psdkit.psd.PsdModel;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.RidgeRegression;
import org.psdkit.regression.Svr;
import org.psdkit.regression.psd.KernelExpansionModel;
import org.psdkit.sos.KernelSos;

/**
 * Writes a fitted psdkit model as an ONNX model (a graph of basic ONNX operators, default domain, opset 17) that any
 * ONNX runtime evaluates to the same predictions as {@link Model#predict}:
 *
 * <pre>{@code
 * Model m = ModelIO.load(Path.of("density.json"));
 * OnnxExport.write(m, Path.of("density.onnx"));                    // double precision
 * OnnxExport.write(m, Path.of("density-f32.onnx"), Precision.FLOAT);
 * }</pre>
 *
 * <p>The graph has one input per feature, named by the feature's name, of shape [N, 1], and one output per output
 * column of the model ({@link Model#outputColumns()}: {@code prediction}, {@code decision}, {@code density},
 * {@code mean}/{@code variance}, {@code q0.25}…, {@code decision(a|b)} and {@code p(a)} of a one-vs-one SVM,
 * {@code decision}/{@code inlier} of a one-class SVM), of shape [N, 1]; an SVM classifier adds {@code label}, the class
 * token as a string. The scaler the model was fitted with is the graph's first step, so the inputs are raw features.
 *
 * <p>Every model type of {@code ModelIO} is either exportable ({@link #exportableTypes()}) or listed with the reason
 * it is not ({@link #notExportable()}); a model whose kernel has no ONNX form (the tessellated kernel, …) is refused
 * with an {@link IllegalArgumentException} naming the kernel, before anything is written.
 */
public final class OnnxExport {
    private OnnxExport() {
    }

    /** The graph of one family: its output tensors ([N, 1] each, by output name) from the scaled inputs [N, d]. */
    private interface Family {
        Map<String, Output> outputs(OnnxGraph g, Pipeline<?> model, String scaled);
    }

    /** A graph output: its tensor and element type. */
    private record Output(String tensor, int elemType) {
    }

    /** Exportable model types, one line each (ModelIO's type names). */
    private static final Map<String, Family> FAMILIES = new LinkedHashMap<>();
    /** Model types that are not exportable, with the reason. */
    private static final Map<String, String> NOT_EXPORTABLE = new LinkedHashMap<>();

    /**
     * The forms of a model type whose graphs differ in kind (a binary SVM, a one-vs-one SVM, one with
     * probabilities); a type not listed has one form, its name.
     */
    private static final Map<String, List<String>> FORMS = new LinkedHashMap<>();

    static {
        FAMILIES.put("krr", OnnxExport::kernelRidge);
        FAMILIES.put("svm", OnnxExport::svm);
        FAMILIES.put("one-class-svm", OnnxExport::oneClassSvm);
        FAMILIES.put("ridge", OnnxExport::ridge);
        FAMILIES.put("simplemkl", OnnxExport::svm);
        FAMILIES.put("svr", OnnxExport::svr);
        FAMILIES.put("psd-regression", OnnxExport::nonNegativeRegression);
        FAMILIES.put("ncm", OnnxExport::nonNegativeRegression);
        FAMILIES.put("pnm", OnnxExport::nonNegativeRegression);
        FAMILIES.put("glm", OnnxExport::nonNegativeRegression);
        FAMILIES.put("kernel-sos", OnnxExport::kernelSos);
        FAMILIES.put("hetero", OnnxExport::hetero);
        FAMILIES.put("quantile", OnnxExport::quantile);
        FAMILIES.put("psd-density", OnnxExport::density);
        FAMILIES.put("ncm-density", OnnxExport::density);
        FAMILIES.put("pnm-density", OnnxExport::density);
        FAMILIES.put("glm-density", OnnxExport::density);
        FAMILIES.put("kde", OnnxExport::density);

        NOT_EXPORTABLE.put("tk-svm", "its kernel, the tessellated kernel (Colbert & Peet 2020), integrates "
                + "indicator functions of orthants over a box and has no ONNX form");

        FORMS.put("svm", List.of("svm", "svm/one-vs-one", "svm/one-vs-one-probability"));
        FORMS.put("simplemkl", List.of("simplemkl", "simplemkl/one-vs-one"));
    }

    /** Every form {@link #write} exports: each exportable type, or its forms where it has several. */
    public static Set<String> exportableForms() {
        Set<String> out = new java.util.LinkedHashSet<>();
        for (String type : FAMILIES.keySet()) {
            out.addAll(FORMS.getOrDefault(type, List.of(type)));
        }
        return Collections.unmodifiableSet(out);
    }

    /** The form of a model ({@link #exportableForms()}): its type, or for an SVM which of its graphs it takes. */
    public static String form(Model model) {
        if (model instanceof MulticlassSvm m) {
            return m.inner().probability() ? "svm/one-vs-one-probability" : "svm/one-vs-one";
        }
        if (model instanceof MulticlassLearnedSvm) {
            return model.type() + "/one-vs-one";
        }
        return model.type();
    }

    /** The model types that {@link #write} exports. */
    public static Set<String> exportableTypes() {
        return Collections.unmodifiableSet(FAMILIES.keySet());
    }

    /** The model types that cannot be exported, each with the reason. */
    public static Map<String, String> notExportable() {
        return Collections.unmodifiableMap(NOT_EXPORTABLE);
    }

    /** Writes the model as an ONNX file in double precision (atomically; nothing is written if it is refused). */
    public static void write(Model model, Path file) {
        write(model, file, Precision.DOUBLE);
    }

    /** Writes the model as an ONNX file in the given precision (atomically; nothing is written if refused). */
    public static void write(Model model, Path file, Precision precision) {
        byte[] bytes = toBytes(model, precision);
        try {
            OutputFiles.writeAtomically(file, bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot write the ONNX file (" + e.getMessage() + ")", e);
        }
    }

    /** The serialised ONNX ModelProto in double precision. */
    public static byte[] toBytes(Model model) {
        return toBytes(model, Precision.DOUBLE);
    }

    /** The serialised ONNX ModelProto. */
    public static byte[] toBytes(Model model, Precision precision) {
        String type = model.type();
        String reason = NOT_EXPORTABLE.get(type);
        if (reason != null) {
            throw new IllegalArgumentException("a " + type + " model cannot be exported to ONNX: " + reason);
        }
        Family family = FAMILIES.get(type);
        if (family != null && model instanceof MulticlassLearnedSvm learned) {
            family = (g, unused, x) -> learnedOneVsOne(g, learned, x);
        } else if (family == null || !(model instanceof Pipeline<?>)) {
            throw new IllegalArgumentException("a " + type + " model cannot be exported to ONNX: no ONNX form is "
                    + "known for it (exportable: " + String.join(", ", FAMILIES.keySet()) + ")");
        }
        OnnxGraph g = new OnnxGraph(precision);
        List<String> features = model.featureNames();
        for (String f : features) {
            g.input(f, g.real());
        }
        String x = features.size() == 1 ? features.get(0)
                : g.op("Concat", features, OnnxGraph.Attr.i("axis", 1));
        Pipeline<?> pipeline = model instanceof Pipeline<?> p ? p : null;
        ModelHeader header = pipeline != null ? pipeline.header() : ((MulticlassLearnedSvm) model).header();
        String scaled = pipeline == null ? x : scale(g, pipeline.header().scaler(), x);  // each pair scales its own
        Map<String, Output> outputs = family.outputs(g, pipeline, scaled);
        for (Map.Entry<String, Output> e : outputs.entrySet()) {
            if (features.contains(e.getKey())) {
                throw new IllegalArgumentException("cannot export to ONNX: the feature '" + e.getKey() + "' has the "
                        + "name of an output of the " + type + " model (outputs: " + outputs.keySet() + ")");
            }
            g.output(e.getKey(), e.getValue().tensor(), e.getValue().elemType());
        }
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("psdkit.model", type);
        meta.put("psdkit.features", String.join(",", features));
        meta.put("psdkit.outputs", String.join(",", outputs.keySet()));
        if (model.targetName() != null) {
            meta.put("psdkit.target", model.targetName());
        }
        if (header.kernelSpec() != null) {
            meta.put("psdkit.kernel", header.kernelSpec());
        }
        String doc = "psdkit " + type + " model: inputs " + features + " (raw features, [N, 1] each), outputs "
                + outputs.keySet() + " ([N, 1] each)";
        String version = OnnxExport.class.getPackage().getImplementationVersion();
        return g.model("psdkit_" + type, doc, version == null ? "dev" : version, meta);
    }

    /** (x − offset) / scale per column, as {@link Scaler#apply}; nothing for {@code none}. */
    private static String scale(OnnxGraph g, Scaler s, String x) {
        if (s.kind() == Scaler.Kind.NONE) {
            return x;
        }
        int d = s.dimension();
        return g.op("Div", g.op("Sub", x, g.constant("scaler_offset", s.offset(), 1, d)),
                g.constant("scaler_scale", s.scale(), 1, d));
    }

    private static Map<String, Output> single(OnnxGraph g, Pipeline<?> model, String tensor) {
        Map<String, Output> out = new LinkedHashMap<>();
        out.put(model.outputColumns().get(0), new Output(tensor, g.real()));
        return out;
    }

    /** K(x, X) α + offset ({@link KernelRidge#predictVector}); exact and Nyström KRR alike (X: points or anchors). */
    private static Map<String, Output> kernelRidge(OnnxGraph g, Pipeline<?> model, String x) {
        KernelRidge m = (KernelRidge) model.inner();
        return single(g, model, expansion(g, m.kernel(), x, m.points(), m.alpha(), m.offset()));
    }

    /** Σ_i c_i k(x, x_i) + b, [N, 1]. */
    private static String expansion(OnnxGraph g, Kernel kernel, String x, Matrix points, double[] coef, double b) {
        String k = KernelGraph.cross(g, kernel, x, points);
        String f = g.op("MatMul", k, g.constant("coefficients", coef, coef.length, 1));
        return b == 0 ? f : g.op("Add", f, g.scalar("bias", b));
    }

    /**
     * The decision value f(x) = Σ c_i k(x, sv_i) + b and the label (positive when f ≥ 0, {@code BinaryLabels}); a
     * one-vs-one model is {@link #oneVsOne}.
     */
    private static Map<String, Output> svm(OnnxGraph g, Pipeline<?> model, String x) {
        if (model instanceof MulticlassSvm ovo) {
            return oneVsOne(g, ovo, x);
        }
        SvmDecision m = (SvmDecision) model.inner();
        KernelGraph.requireExportable(m.kernel());
        String f = m.supportVectors().rows() == 0 ? filled(g, x, m.bias())
                : expansion(g, m.kernel(), x, m.supportVectors(), m.coef(), m.bias());
        Map<String, Output> out = single(g, model, f);
        if (model instanceof SvmClassifier c) {
            String positive = g.op("GreaterOrEqual", f, g.scalar("zero", 0.0));
            String label = g.op("Where", List.of(positive,
                    g.strings("positive", new String[] {c.binaryLabels().positive()}, 1),
                    g.strings("negative", new String[] {c.binaryLabels().negative()}, 1)));
            out.put("label", new Output(label, OnnxGraph.STRING));
        }
        return out;
    }

    /**
     * A one-vs-one SVM ({@link OvoDecision}, LIBSVM's layout, Chang &amp; Lin 2011, Sec. 7): per pair (i, j), i &lt; j,
     * f_ij(x) = Σ_{s in class i} coef[j−1][s] k(s, x) + Σ_{s in class j} coef[i][s] k(s, x) + bias_ij, output as
     * {@code decision(a|b)}. The label is the class with the most votes (f_ij &gt; 0 votes for i, else for j), the first
     * in class order on ties (ONNX's ArgMax returns the first maximal index), as LIBSVM's {@code svm_predict_values};
     * with probabilities, the sigmoids and the coupling of {@link #coupling} give {@code p(label)} per class and the
     * label is the most probable class, the first on ties.
     */
    private static Map<String, Output> oneVsOne(OnnxGraph g, MulticlassSvm model, String x) {
        OvoDecision m = model.inner();
        KernelGraph.requireExportable(m.kernel());
        int k = m.classes();
        int[] start = new int[k];
        for (int i = 1; i < k; i++) {
            start[i] = start[i - 1] + m.classCounts()[i - 1];
        }
        int l = m.supportVectors().rows();
        String kv = l == 0 ? null : KernelGraph.cross(g, m.kernel(), x, m.supportVectors());
        List<String> cols = model.outputColumns();
        Map<String, Output> out = new LinkedHashMap<>();
        List<String> dec = new ArrayList<>();
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                // the pair's coefficients over all support vectors: zero outside classes i and j
                double[] c = new double[l];
                for (int s = start[i]; s < start[i] + m.classCounts()[i]; s++) {
                    c[s] = m.coef()[j - 1][s];
                }
                for (int s = start[j]; s < start[j] + m.classCounts()[j]; s++) {
                    c[s] = m.coef()[i][s];
                }
                String f = l == 0 ? filled(g, x, m.bias()[p])
                        : g.op("Add", g.op("MatMul", kv, g.constant("pair_coefficients", c, l, 1)),
                        g.scalar("pair_bias", m.bias()[p]));
                dec.add(f);
                out.put(cols.get(p), new Output(f, g.real()));
                p++;
            }
        }
        String score;
        if (m.probability()) {
            List<String> prob = coupling(g, m, dec);
            for (int i = 0; i < k; i++) {
                out.put(cols.get(m.pairs() + i), new Output(prob.get(i), g.real()));
            }
            score = g.op("Concat", prob, OnnxGraph.Attr.i("axis", 1));
        } else {
            score = votes(g, dec, k);
        }
        out.put("label", new Output(winner(g, score, m.labels()), OnnxGraph.STRING));
        return out;
    }

    /** The votes [N, k] = G·V_i + (1 − G)·V_j, G [N, pairs] the indicator f_ij &gt; 0, V one-hot rows per pair. */
    private static String votes(OnnxGraph g, List<String> dec, int k) {
        int pairs = dec.size();
        double[] vi = new double[pairs * k];
        double[] vj = new double[pairs * k];
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                vi[p * k + i] = 1;
                vj[p * k + j] = 1;
                p++;
            }
        }
        String all = dec.size() == 1 ? dec.get(0) : g.op("Concat", dec, OnnxGraph.Attr.i("axis", 1));
        String pos = g.op("Cast", g.op("Greater", all, g.scalar("zero", 0.0)), OnnxGraph.Attr.i("to", g.real()));
        String neg = g.op("Sub", g.scalar("one", 1.0), pos);
        return g.op("Add", g.op("MatMul", pos, g.constant("votes_first", vi, pairs, k)),
                g.op("MatMul", neg, g.constant("votes_second", vj, pairs, k)));
    }

    /** The label of the largest score, the first in class order on ties (ArgMax's first maximal index). */
    private static String winner(OnnxGraph g, String score, List<String> labels) {
        String index = g.op("ArgMax", score, OnnxGraph.Attr.i("axis", 1), OnnxGraph.Attr.i("keepdims", 1),
                OnnxGraph.Attr.i("select_last_index", 0));
        return g.op("Gather", g.strings("labels", labels.toArray(new String[0]), labels.size()), index,
                OnnxGraph.Attr.i("axis", 0));
    }

    /**
     * A one-vs-one SimpleMKL model ({@link MulticlassLearnedSvm}): each pair a binary SVM with its own scaler and
     * learned kernel; f_ij is the pair's decision value turned toward class i, output as {@code decision(a|b)}; the
     * votes and the label as {@link #oneVsOne}. (A tk-svm's pairs have the tessellated kernel: refused by type.)
     */
    private static Map<String, Output> learnedOneVsOne(OnnxGraph g, MulticlassLearnedSvm m, String x) {
        int k = m.labels().size();
        List<String> cols = m.outputColumns();
        Map<String, Output> out = new LinkedHashMap<>();
        List<String> dec = new ArrayList<>();
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                SvmClassifier pair = m.pairs().get(p);
                SvmDecision d = pair.inner();
                KernelGraph.requireExportable(d.kernel());
                String z = scale(g, pair.header().scaler(), x);
                String f = d.supportVectors().rows() == 0 ? filled(g, x, d.bias())
                        : expansion(g, d.kernel(), z, d.supportVectors(), d.coef(), d.bias());
                if (!pair.binaryLabels().positive().equals(m.labels().get(i))) {
                    f = g.op("Neg", f);
                }
                dec.add(f);
                out.put(cols.get(p), new Output(f, g.real()));
                p++;
            }
        }
        out.put("label", new Output(winner(g, votes(g, dec, k), m.labels()), OnnxGraph.STRING));
        return out;
    }

    /**
     * The class probabilities of {@link OvoDecision#probabilities}, operation for operation: per pair the sigmoid
     * r_ij = 1/(1 + exp(A f + B)) written as LIBSVM's {@code sigmoid_predict} (one branch per sign of A f + B),
     * clipped to [{@link Platt#MIN_PROB}, 1 − MIN_PROB], r_ji = 1 − r_ij; then {@link Platt#couple}: for two classes
     * (r_01, r_10); for more, Wu, Lin &amp; Weng 2004's method 2, Q p = b e, eᵀp = 1 (their eq. 21), with Q_tt =
     * Σ_{j≠t} r_jt², Q_tj = −r_jt r_tj, solved by the Cholesky factorisation unrolled over the k classes (k is fixed
     * by the model) into element-wise operators on [N, 1] columns; and for the rows where a pivot is not positive,
     * as psdkit, their fixed-point iteration (eq. 29, LIBSVM's {@code multiclass_probability}) as an ONNX Loop whose
     * rows stop one by one when their error is below 10⁻¹⁴·k ({@link #fixedPoint}). Last, negative values are set to
     * 0 and the k values divided by their sum.
     */
    private static List<String> coupling(OnnxGraph g, OvoDecision m, List<String> dec) {
        int k = m.classes();
        String[][] r = new String[k][k];
        String lo = g.scalar("min_prob", Platt.MIN_PROB);
        String hi = g.scalar("max_prob", 1 - Platt.MIN_PROB);
        String one = g.scalar("one", 1.0);
        String zero = g.scalar("zero", 0.0);
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                String fApB = g.op("Add", g.op("Mul", dec.get(p), g.scalar("prob_a", m.probA()[p])),
                        g.scalar("prob_b", m.probB()[p]));
                String e = g.op("Exp", g.op("Neg", fApB));
                String positive = g.op("Div", e, g.op("Add", one, e));
                String negative = g.op("Div", one, g.op("Add", one, g.op("Exp", fApB)));
                String v = g.op("Where", List.of(g.op("GreaterOrEqual", fApB, zero), positive, negative));
                v = g.op("Min", g.op("Max", v, lo), hi);
                r[i][j] = v;
                r[j][i] = g.op("Sub", one, v);
                p++;
            }
        }
        if (k == 2) {
            return List.of(r[0][1], r[1][0]);
        }
        String[][] q = new String[k][k];
        for (int t = 0; t < k; t++) {
            for (int j = 0; j < k; j++) {
                if (j != t) {
                    String sq = g.op("Mul", r[j][t], r[j][t]);
                    q[t][t] = q[t][t] == null ? sq : g.op("Add", q[t][t], sq);
                    q[t][j] = g.op("Neg", g.op("Mul", r[j][t], r[t][j]));
                }
            }
        }
        // Cholesky Q = LLᵀ; ok: every pivot > 0
        String[][] l = new String[k][k];
        String ok = null;
        for (int i = 0; i < k; i++) {
            for (int j = 0; j <= i; j++) {
                String s = q[i][j];
                for (int t = 0; t < j; t++) {
                    s = g.op("Sub", s, g.op("Mul", l[i][t], l[j][t]));
                }
                if (i == j) {
                    String positive = g.op("Greater", s, zero);
                    ok = ok == null ? positive : g.op("And", ok, positive);
                    l[i][i] = g.op("Sqrt", s);
                } else {
                    l[i][j] = g.op("Div", s, l[j][j]);
                }
            }
        }
        String[] z = new String[k];
        for (int i = 0; i < k; i++) {
            String s = one;
            for (int t = 0; t < i; t++) {
                s = g.op("Sub", s, g.op("Mul", l[i][t], z[t]));
            }
            z[i] = g.op("Div", s, l[i][i]);
        }
        for (int i = k - 1; i >= 0; i--) {
            String s = z[i];
            for (int t = i + 1; t < k; t++) {
                s = g.op("Sub", s, g.op("Mul", l[t][i], z[t]));
            }
            z[i] = g.op("Div", s, l[i][i]);
        }
        List<String> direct = normalised(g, z);
        List<String> iterated = fixedPoint(g, q, ok, k);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            out.add(g.op("Where", List.of(ok, direct.get(i), iterated.get(i))));
        }
        return out;
    }

    /** max(0, z_i) / Σ_j max(0, z_j), the sum taken in class order ({@code Platt.normalised}). */
    private static List<String> normalised(OnnxGraph g, String[] z) {
        String zero = g.scalar("zero", 0.0);
        String[] c = new String[z.length];
        String sum = null;
        for (int i = 0; i < z.length; i++) {
            c[i] = g.op("Max", z[i], zero);
            sum = sum == null ? c[i] : g.op("Add", sum, c[i]);
        }
        List<String> out = new ArrayList<>();
        for (String v : c) {
            out.add(g.op("Div", v, sum));
        }
        return out;
    }

    /**
     * Wu, Lin &amp; Weng 2004's fixed-point iteration ({@code Platt.iterative}) for the rows where {@code ok} is false:
     * an ONNX Loop of at most max(1000, k) sweeps carrying p (k columns [N, 1], from 1/k) and a per-row flag
     * {@code done} (initially {@code ok}: those rows are not iterated). A sweep computes Qp and pᵀQp, marks a row
     * done when max_t |(Qp)_t − pᵀQp| &lt; 10⁻¹⁴·k (psdkit's break, taken per row), and updates the other rows'
     * p_t, pᵀQp and Qp for t = 0, …, k−1 in order, as LIBSVM's {@code multiclass_probability}. The Loop ends when
     * every row is done; none runs when the Cholesky factorisation succeeded everywhere.
     */
    private static List<String> fixedPoint(OnnxGraph g, String[][] q, String ok, int k) {
        OnnxGraph b = g.body();
        String iter = b.name("iteration");
        String condIn = b.name("condition");
        b.bodyInput(iter, OnnxGraph.INT64, true);
        b.bodyInput(condIn, OnnxGraph.BOOL, true);
        String[] pIn = new String[k];
        for (int t = 0; t < k; t++) {
            pIn[t] = b.name("p");
            b.bodyInput(pIn[t], g.real(), false);
        }
        String doneIn = b.name("done");
        b.bodyInput(doneIn, OnnxGraph.BOOL, false);

        String one = b.scalar("one", 1.0);
        String two = b.scalar("two", 2.0);
        String[] qp = new String[k];
        String pqp = null;
        for (int t = 0; t < k; t++) {
            for (int j = 0; j < k; j++) {
                String term = b.op("Mul", q[t][j], pIn[j]);
                qp[t] = qp[t] == null ? term : b.op("Add", qp[t], term);
            }
            String term = b.op("Mul", pIn[t], qp[t]);
            pqp = pqp == null ? term : b.op("Add", pqp, term);
        }
        String maxError = null;
        for (int t = 0; t < k; t++) {
            String e = b.op("Abs", b.op("Sub", qp[t], pqp));
            maxError = maxError == null ? e : b.op("Max", maxError, e);
        }
        String done = b.op("Or", doneIn, b.op("Less", maxError, b.scalar("eps", 1e-14 * k)));
        String[] p = pIn.clone();
        for (int t = 0; t < k; t++) {
            String diff = b.op("Div", b.op("Sub", pqp, qp[t]), q[t][t]);
            p[t] = b.op("Add", p[t], diff);
            String onePlus = b.op("Add", one, diff);
            pqp = b.op("Div", b.op("Div", b.op("Add", pqp, b.op("Mul", diff,
                    b.op("Add", b.op("Mul", diff, q[t][t]), b.op("Mul", two, qp[t])))), onePlus), onePlus);
            for (int j = 0; j < k; j++) {
                qp[j] = b.op("Div", b.op("Add", qp[j], b.op("Mul", diff, q[t][j])), onePlus);
                p[j] = b.op("Div", p[j], onePlus);
            }
        }
        String all = b.op("ReduceMin", b.op("Cast", done, OnnxGraph.Attr.i("to", OnnxGraph.INT64)),
                OnnxGraph.Attr.i("keepdims", 0));
        b.bodyOutput(b.name("continue"), b.op("Not", b.op("Cast", all, OnnxGraph.Attr.i("to", OnnxGraph.BOOL))),
                OnnxGraph.BOOL);
        for (int t = 0; t < k; t++) {
            b.bodyOutput(b.name("p_next"), b.op("Where", List.of(done, pIn[t], p[t])), g.real());
        }
        b.bodyOutput(b.name("done_next"), done, OnnxGraph.BOOL);

        String start = g.op("Div", g.op("Add", g.op("Mul", q[0][0], g.scalar("zero", 0.0)), g.scalar("one", 1.0)),
                g.scalar("k", k));   // 1/k as an [N, 1] column
        List<String> in = new ArrayList<>();
        in.add(g.int64("max_sweeps", new long[] {Math.max(1000, k)}));
        String allOk = g.op("ReduceMin", g.op("Cast", ok, OnnxGraph.Attr.i("to", OnnxGraph.INT64)),
                OnnxGraph.Attr.i("keepdims", 0));
        in.add(g.op("Not", g.op("Cast", allOk, OnnxGraph.Attr.i("to", OnnxGraph.BOOL))));
        for (int t = 0; t < k; t++) {
            in.add(start);
        }
        in.add(ok);
        List<String> outs = g.ops("Loop", in, k + 1, OnnxGraph.Attr.graph("body", b.bodyGraph("wu_lin_weng")));
        return normalised(g, outs.subList(0, k).toArray(new String[0]));
    }

    /**
     * The one-class SVM ({@link OneClassSvm#predict}): {@code decision} f(x) = Σ α_i k(x_i, x) − ρ and
     * {@code inlier} +1 where f(x) &gt; 0, −1 elsewhere.
     */
    private static Map<String, Output> oneClassSvm(OnnxGraph g, Pipeline<?> model, String x) {
        SvmDecision m = (SvmDecision) model.inner();
        KernelGraph.requireExportable(m.kernel());
        String f = m.supportVectors().rows() == 0 ? filled(g, x, m.bias())
                : expansion(g, m.kernel(), x, m.supportVectors(), m.coef(), m.bias());
        String inlier = g.op("Where", List.of(g.op("Greater", f, g.scalar("zero", 0.0)), g.scalar("plus_one", 1.0),
                g.scalar("minus_one", -1.0)));
        Map<String, Output> out = new LinkedHashMap<>();
        List<String> cols = model.outputColumns();
        out.put(cols.get(0), new Output(f, g.real()));
        out.put(cols.get(1), new Output(inlier, g.real()));
        return out;
    }

    /**
     * Linear ridge regression ({@link RidgeRegression#predict}): x W + b, one output per target. A model fitted in
     * the explicit feature space of a kernel is refused: its feature map is Java code ({@code FeatureMap}) with no
     * ONNX form here.
     */
    private static Map<String, Output> ridge(OnnxGraph g, Pipeline<?> model, String x) {
        if (!(model.inner() instanceof RidgeRegression m)) {
            throw new IllegalArgumentException("a ridge model of class " + model.inner().getClass().getSimpleName()
                    + " has no ONNX form");
        }
        String spec = model.header().kernelSpec();
        if (spec != null) {
            throw new IllegalArgumentException("a ridge model in the explicit feature space of the kernel " + spec
                    + " cannot be exported to ONNX: its feature map has no ONNX form (only linear ridge, fitted on "
                    + "the raw features, is exportable; krr exports kernel models)");
        }
        Matrix w = m.weightMatrix();
        double[] b = m.biases();
        String f = g.op("Add", g.op("MatMul", x, g.constant("weights", KernelGraph.rowMajor(w), w.rows(), w.cols())),
                g.constant("biases", b, 1, b.length));
        Map<String, Output> out = new LinkedHashMap<>();
        List<String> cols = model.outputColumns();
        if (cols.size() == 1) {
            out.put(cols.get(0), new Output(f, g.real()));
            return out;
        }
        for (int t = 0; t < cols.size(); t++) {
            out.put(cols.get(t), new Output(g.op("Slice", List.of(f, g.int64("start", new long[] {t}, 1),
                    g.int64("end", new long[] {t + 1}, 1), g.int64("axis", new long[] {1}, 1))), g.real()));
        }
        return out;
    }

    private static Map<String, Output> svr(OnnxGraph g, Pipeline<?> model, String x) {
        Svr m = (Svr) model.inner();
        KernelGraph.requireExportable(m.kernel());
        String f = m.supportVectors().rows() == 0 ? filled(g, x, m.bias())
                : expansion(g, m.kernel(), x, m.supportVectors(), m.coef(), m.bias());
        return single(g, model, f);
    }

    /** PSD regression f(x) = ‖Rᵀ v(x)‖², or the NCM/PNM/GLM baselines Σ α_i k(x, x_i) (exp of it for GLM). */
    private static Map<String, Output> nonNegativeRegression(OnnxGraph g, Pipeline<?> model, String x) {
        Predictor inner = model.inner();
        if (inner instanceof PsdModel p) {
            return single(g, model, sumOfSquares(g, p.kernel(), x, p.points(), p.factor()));
        }
        KernelExpansionModel e = (KernelExpansionModel) inner;
        String f = expansion(g, e.kernel(), x, e.points(), e.coefficients(), 0);
        return single(g, model, e.exponential() ? g.op("Exp", f) : f);
    }

    /**
     * ‖Rᵀ v(x)‖² with v(x) = (k(x, x_i))_i: a sum of squares, so the exported value is non-negative in floating
     * point as psdkit's is (Marteau-Ferey, Bach &amp; Rudi 2020, Thm. 1 representation with B = R Rᵀ).
     */
    private static String sumOfSquares(OnnxGraph g, Kernel kernel, String x, Matrix points, Matrix factor) {
        if (factor.cols() == 0) {
            KernelGraph.requireExportable(kernel);
            return filled(g, x, 0.0);
        }
        String k = KernelGraph.cross(g, kernel, x, points);
        String y = g.op("MatMul", k, g.constant("factor", KernelGraph.rowMajor(factor), factor.rows(),
                factor.cols()));
        return g.op("ReduceSum", g.op("Mul", y, y), g.int64("axes", new long[] {1}, 1),
                OnnxGraph.Attr.i("keepdims", 1));
    }

    /** Kernel SoS: Σ α_i k(x, x_i)² ({@link KernelSos#values}). */
    private static Map<String, Output> kernelSos(OnnxGraph g, Pipeline<?> model, String x) {
        KernelSos m = (KernelSos) model.inner();
        String k = KernelGraph.cross(g, m.kernel(), x, m.points());
        String k2 = g.op("Mul", k, k);
        double[] a = m.alpha();
        return single(g, model, g.op("MatMul", k2, g.constant("alpha", a, a.length, 1)));
    }

    /**
     * Heteroscedastic regression ({@link HeteroModel#predict}): natural parameters η, θ from the blocks, θ floored at
     * {@link HeteroModel#PRECISION_FLOOR} × the largest training precision except for PNM, then mean =
     * center + scale·η/θ and variance = scale²/θ.
     */
    private static Map<String, Output> hetero(OnnxGraph g, Pipeline<?> model, String x) {
        HeteroModel m = (HeteroModel) model.inner();
        List<String> z = combine(g, m.functions(), m.directions(), x);
        String eta = z.get(0);
        String theta = z.get(1);
        if (m.method() != HeteroscedasticRegression.Method.PNM) {
            theta = g.op("Max", theta, g.scalar("precision_floor", HeteroModel.PRECISION_FLOOR * m.thetaMaxTrain()));
        }
        TargetScaling s = m.scaling();
        String mean = g.op("Add", g.scalar("center", s.center()),
                g.op("Div", g.op("Mul", g.scalar("scale", s.scale()), eta), theta));
        String variance = g.op("Div", g.scalar("scale2", s.scale() * s.scale()), theta);
        Map<String, Output> out = new LinkedHashMap<>();
        List<String> cols = model.outputColumns();
        out.put(cols.get(0), new Output(mean, g.real()));
        out.put(cols.get(1), new Output(variance, g.real()));
        return out;
    }

    /**
     * Quantile regression ({@link QuantileModel#predict}): q_τ(x) = center + scale · Σ_b D_{τ,b} f_b(x); with the
     * PSD, NCM and GLM methods every f_b is non-negative, so the exported quantiles do not cross either.
     */
    private static Map<String, Output> quantile(OnnxGraph g, Pipeline<?> model, String x) {
        QuantileModel m = (QuantileModel) model.inner();
        List<String> z = combine(g, m.functions(), m.directions(), x);
        TargetScaling s = m.scaling();
        Map<String, Output> out = new LinkedHashMap<>();
        List<String> cols = model.outputColumns();
        String center = g.scalar("center", s.center());
        String scale = g.scalar("scale", s.scale());
        for (int t = 0; t < z.size(); t++) {
            out.put(cols.get(t), new Output(g.op("Add", center, g.op("Mul", scale, z.get(t))), g.real()));
        }
        return out;
    }

    /** Column t = Σ_b directions[t][b] f_b(x), skipping zero weights ({@code ConeDualSolver.combine}). */
    private static List<String> combine(OnnxGraph g, List<ScalarFunction> functions, double[][] directions,
                                        String x) {
        String[] f = new String[functions.size()];
        List<String> cols = new ArrayList<>();
        for (double[] dir : directions) {
            String acc = null;
            for (int b = 0; b < functions.size(); b++) {
                double c = dir[b];
                if (c == 0) {
                    continue;
                }
                if (f[b] == null) {
                    f[b] = function(g, functions.get(b), x);
                }
                String term = g.op("Mul", g.scalar("direction", c), f[b]);
                acc = acc == null ? term : g.op("Add", acc, term);
            }
            cols.add(acc == null ? filled(g, x, 0.0) : acc);
        }
        return cols;
    }

    /** One block's function: a kernel expansion, a kernel sum of squares or a constant. */
    private static String function(OnnxGraph g, ScalarFunction fn, String x) {
        if (fn instanceof KernelExpansion e) {
            double sum = 0;
            for (double c : e.coefficients()) {
                sum += c;
            }
            String f = expansion(g, e.kernel(), x, e.points(), e.coefficients(), e.offset() * sum + e.intercept());
            return e.link() == KernelExpansion.Link.EXP ? g.op("Exp", f) : f;
        }
        if (fn instanceof KernelSumOfSquares s) {
            return sumOfSquares(g, s.kernel(), x, s.points(), s.factor());
        }
        if (fn instanceof Constant c) {
            return filled(g, x, c.value());
        }
        throw new IllegalArgumentException("a block function of type " + fn.getClass().getSimpleName()
                + " has no ONNX form");
    }

    /**
     * Densities of raw points ({@link DensityPipeline#density}): the scaled-space density f(z)·ν(z) times the
     * Jacobian 1/Π_t scale_t. f is ‖Rᵀ v(z)‖² (PSD), Σ α_i k(z, z_i) (NCM, PNM), exp(Σ α_i k − log Z)·ν (GLM), or
     * the Gaussian kernel density estimate.
     */
    private static Map<String, Output> density(OnnxGraph g, Pipeline<?> model, String x) {
        DensityPipeline dp = (DensityPipeline) model;
        DensityModel inner = dp.inner();
        String p;
        if (inner instanceof PsdDensity d) {
            p = withBase(g, sumOfSquares(g, d.kernel(), x, d.points(), d.factor()), d.base(), x);
        } else if (inner instanceof LinearDensity d) {
            p = withBase(g, expansion(g, d.kernel(), x, d.points(), d.alpha(), 0), d.base(), x);
        } else if (inner instanceof GlmDensity d) {
            // exp(Σ α_i k(z, z_i) − log Z) · ν(z), the product form of exp(g − log Z + log ν)
            String log = g.op("Sub", expansion(g, d.kernel(), x, d.points(), d.alpha(), 0), g.scalar("log_z", d.logZ()));
            p = withBase(g, g.op("Exp", log), d.base(), x);
        } else if (inner instanceof Kde d) {
            p = kde(g, d, x);
        } else {
            throw new IllegalArgumentException("a " + model.type() + " density of class "
                    + inner.getClass().getSimpleName() + " has no ONNX form");
        }
        double jacobian = Math.exp(dp.logJacobian());
        if (jacobian != 1.0) {
            p = g.op("Mul", p, g.scalar("jacobian", jacobian));
        }
        return single(g, model, p);
    }

    /** f·exp(log ν) ({@code PsdDensity.density}); f alone under Lebesgue measure. */
    private static String withBase(OnnxGraph g, String f, BaseMeasure base, String x) {
        if (base instanceof BaseMeasure.Box b) {
            // exp(−log vol) inside the box, 0 outside (log ν = −∞ there)
            int d = b.lo().length;
            String inside = g.op("And", g.op("GreaterOrEqual", x, g.constant("box_lo", b.lo(), 1, d)),
                    g.op("LessOrEqual", x, g.constant("box_hi", b.hi(), 1, d)));
            String indicator = g.op("ReduceMin", g.op("Cast", inside, OnnxGraph.Attr.i("to", g.real())),
                    OnnxGraph.Attr.ints("axes", 1), OnnxGraph.Attr.i("keepdims", 1));   // [N, 1]: 1 inside, 0 outside
            return g.op("Mul", g.op("Mul", f, g.scalar("inverse_volume", Math.exp(-b.logVolume()))), indicator);
        }
        String ln = logBase(g, base, x);
        return ln == null ? f : g.op("Mul", f, g.op("Exp", ln));
    }

    /** log ν(x), [N, 1], for a Gaussian base measure; null for Lebesgue (log ν = 0). */
    private static String logBase(OnnxGraph g, BaseMeasure base, String x) {
        if (base instanceof BaseMeasure.Lebesgue) {
            return null;
        }
        if (base instanceof BaseMeasure.Box) {
            throw new IllegalStateException("box measures are handled by withBase");
        }
        BaseMeasure.Gaussian gauss = (BaseMeasure.Gaussian) base;
        double[] mean = gauss.mean();
        int d = mean.length;
        double logSqrt2Pi = 0.5 * Math.log(2 * Math.PI);
        String r = g.op("Sub", x, g.constant("base_mean", mean, 1, d));
        if (gauss.isDiagonal()) {
            // Σ_t −0.5 (x_t − μ_t)² / v_t − 0.5 log v_t − log √(2π)  (SpecialFunctions.normalLogPdf)
            double[] v = gauss.variances();
            double[] c = new double[d];
            for (int t = 0; t < d; t++) {
                c[t] = 0.5 * Math.log(v[t]) + logSqrt2Pi;
            }
            String q = g.op("Div", g.op("Mul", g.op("Mul", r, g.scalar("minus_half", -0.5)), r),
                    g.constant("base_variance", v, 1, d));
            return g.op("ReduceSum", g.op("Sub", q, g.constant("base_log_norm", c, 1, d)),
                    g.int64("axes", new long[] {1}, 1), OnnxGraph.Attr.i("keepdims", 1));
        }
        // −0.5 ‖L⁻¹(x − μ)‖² − 0.5 log det Σ − d log √(2π), Σ = L Lᵀ
        org.psdkit.linalg.Cholesky ch = Linalg.choleskyStrict(gauss.covariance());
        Matrix linvT = Matrix.zeros(d, d);   // (L⁻¹)ᵀ: row t of x − μ times it gives (L⁻¹ r)ᵀ
        for (int j = 0; j < d; j++) {
            double[] e = new double[d];
            e[j] = 1;
            double[] col = Linalg.solveLower(ch.lower(), false, e);   // column j of L⁻¹
            for (int i = 0; i < d; i++) {
                linvT.set(j, i, col[i]);
            }
        }
        String z = g.op("MatMul", r, g.constant("base_inverse_factor", KernelGraph.rowMajor(linvT), d, d));
        String zz = g.op("ReduceSum", g.op("Mul", z, z), g.int64("axes", new long[] {1}, 1),
                OnnxGraph.Attr.i("keepdims", 1));
        return g.op("Sub", g.op("Mul", zz, g.scalar("minus_half", -0.5)),
                g.scalar("base_log_norm", 0.5 * ch.logDet() + d * logSqrt2Pi));
    }

    /**
     * The Gaussian kernel density estimate ({@link Kde#logDensity}): exp(log norm + log Σ_j exp(−‖x − x_j‖²/(2h²)))
     * with log norm = −(d/2) log(2πh²) − log n; the log-sum-exp is ONNX's ReduceLogSumExp.
     */
    private static String kde(OnnxGraph g, Kde kde, String x) {
        Matrix pts = kde.points();
        int n = pts.rows();
        int d = pts.cols();
        double h = kde.bandwidth();
        double logNorm = -0.5 * d * Math.log(2 * Math.PI * h * h) - Math.log(n);
        String logits = g.op("Mul", KernelGraph.squaredDistances(g, x, pts), g.scalar("minus_inv_two_h2",
                -(1.0 / (2 * h * h))));
        String lse = g.op("ReduceLogSumExp", logits, OnnxGraph.Attr.ints("axes", 1), OnnxGraph.Attr.i("keepdims", 1));
        return g.op("Exp", g.op("Add", lse, g.scalar("log_norm", logNorm)));
    }

    /** An [N, 1] tensor of v (N from x's first dimension). */
    private static String filled(OnnxGraph g, String x, double v) {
        String n = g.op("Shape", x, OnnxGraph.Attr.i("end", 1));
        String shape = g.op("Concat", List.of(n, g.int64("one", new long[] {1}, 1)), OnnxGraph.Attr.i("axis", 0));
        return g.op("ConstantOfShape", shape, OnnxGraph.Attr.tensor("value", g.tensor(new double[] {v}, 1)));
    }
}
