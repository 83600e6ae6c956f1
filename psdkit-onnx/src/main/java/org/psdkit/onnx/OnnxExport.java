package org.psdkit.onnx;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.psdkit.classify.SvmClassifier;
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
import org.psdkit.model.Pipeline;
import org.psdkit.model.Predictor;
import org.psdkit.psd.PsdModel;
import org.psdkit.regression.KernelRidge;
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
 * {@code mean}/{@code variance}, {@code q0.25}…), of shape [N, 1]; a binary SVM adds {@code label}, the class token
 * as a string. The scaler the model was fitted with is the graph's first step, so the inputs are raw features.
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

    static {
        FAMILIES.put("krr", OnnxExport::kernelRidge);
        FAMILIES.put("svm", OnnxExport::svm);
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
        NOT_EXPORTABLE.put("ridge", "its explicit feature map is a Java function with no ONNX form");
        NOT_EXPORTABLE.put("one-class-svm", "its exporter is not written yet (the graph would be the svm's decision "
                + "function plus a sign output for inlier)");
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
        if (family == null || !(model instanceof Pipeline<?> pipeline)) {
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
        String scaled = scale(g, pipeline.header().scaler(), x);
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
        if (pipeline.header().kernelSpec() != null) {
            meta.put("psdkit.kernel", pipeline.header().kernelSpec());
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

    /** The decision value f(x) = Σ c_i k(x, sv_i) + b and the label (positive when f ≥ 0, {@code BinaryLabels}). */
    private static Map<String, Output> svm(OnnxGraph g, Pipeline<?> model, String x) {
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
