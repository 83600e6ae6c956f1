package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import org.psdkit.classify.BinaryLabels;
import org.psdkit.classify.MulticlassSvm;
import org.psdkit.classify.OvoDecision;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.SvmDecision;
import org.psdkit.classify.SvmHyperParameters;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.classify.mkl.LearnedKernelFit;
import org.psdkit.classify.mkl.LearnedKernelHyperParameters;
import org.psdkit.classify.mkl.MulticlassLearnedSvm;
import org.psdkit.classify.mkl.OneVsOneFit;
import org.psdkit.classify.mkl.SimpleMklTrainer;
import org.psdkit.classify.mkl.TkSvmTrainer;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelSyntax;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;

/**
 * Model files of the SVM family ({@code svm}, {@code tk-svm}, {@code simplemkl}): support vectors (scaled space),
 * coefficients α_i y_i, bias and the two class labels under {@code numbers}. A fixed kernel is the document's
 * {@code kernel} string; a learned kernel ({@code "kernel": null}) is stored as {@code numbers.learnedKernel}, a JSON
 * object that spells out its kernel string's syntax ({@link KernelSyntax}) field by field: a call
 * {@code name(key=value, ...)} as {@code {"type": name, key: value, ...}}, {@code weighted(w*k + ...)} as
 * {@code {"type": "sum", "parts": [{"weight": w, "kernel": ...}]}}, anything else as {@code {"type": "spec"}}.
 */
final class SvmCodec implements ModelCodec {
    private final String type;
    private final String description;

    SvmCodec(String type, String description) {
        this.type = type;
        this.description = description;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public boolean canEncode(Model model) {
        return (model instanceof SvmClassifier || model instanceof MulticlassSvm
                || model instanceof MulticlassLearnedSvm) && type.equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        if (model instanceof MulticlassSvm mc) {
            return encodeOvo(mc);
        }
        if (model instanceof MulticlassLearnedSvm ml) {
            return encodeLearnedOvo(ml);
        }
        SvmClassifier m = (SvmClassifier) model;
        SvmDecision d = m.inner();
        ObjectNode doc = ModelDocs.newDocument(m.header());
        ObjectNode num = doc.putObject("numbers");
        num.set("labels", JsonArrays.of(m.labels().toArray(new String[0])));
        num.put("bias", d.bias());
        num.set("coef", JsonArrays.of(d.coef()));
        num.set("supportVectors", JsonArrays.rows(d.supportVectors()));
        if (m.header().kernelSpec() == null) {
            num.set("learnedKernel", kernelJson(Kernels.syntax(d.kernel().spec())));
        }
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    /**
     * A one-vs-one model ({@link OvoDecision}): {@code numbers} holds the k labels in class order,
     * {@code classCounts} (support vectors per class), {@code bias} (one per pair), {@code coef} (k−1 rows),
     * {@code supportVectors}, and {@code probA}, {@code probB} (one per pair) when the model has probabilities.
     */
    private static ObjectNode encodeOvo(MulticlassSvm m) {
        OvoDecision d = m.inner();
        ObjectNode doc = ModelDocs.newDocument(m.header());
        ObjectNode num = doc.putObject("numbers");
        num.set("labels", JsonArrays.of(d.labels().toArray(new String[0])));
        ArrayNode counts = num.putArray("classCounts");
        for (int c : d.classCounts()) {
            counts.add(c);
        }
        num.set("bias", JsonArrays.of(d.bias()));
        ArrayNode coef = num.putArray("coef");
        for (double[] row : d.coef()) {
            coef.add(JsonArrays.of(row));
        }
        num.set("supportVectors", JsonArrays.rows(d.supportVectors()));
        if (d.probability()) {
            num.set("probA", JsonArrays.of(d.probA()));
            num.set("probB", JsonArrays.of(d.probB()));
        }
        if (m.header().kernelSpec() == null) {
            num.set("learnedKernel", kernelJson(Kernels.syntax(d.kernel().spec())));
        }
        ModelDocs.putDiagnostics(doc, m);
        return doc;
    }

    /**
     * A one-vs-one model of learned-kernel pairs ({@link MulticlassLearnedSvm}): {@code numbers} holds the k labels in
     * class order and {@code pairs}, one complete binary model document of the same type per pair, in pair order.
     */
    private ObjectNode encodeLearnedOvo(MulticlassLearnedSvm m) {
        ObjectNode doc = ModelDocs.newDocument(m.header());
        ObjectNode num = doc.putObject("numbers");
        num.set("labels", JsonArrays.of(m.labels().toArray(new String[0])));
        ArrayNode pairs = num.putArray("pairs");
        for (SvmClassifier p : m.pairs()) {
            pairs.add(encode(p));
        }
        ModelDocs.putDiagnostics(doc, m);
        return doc;
    }

    private Model decodeLearnedOvo(ModelHeader h, JsonNode doc, JsonNode num, String where) {
        String[] labs = JsonArrays.strings(num.get("labels"), where + ": numbers.labels");
        JsonNode pairNode = num.get("pairs");
        if (pairNode == null || !pairNode.isArray()) {
            throw new IllegalArgumentException(where + ": numbers.pairs must be an array of binary models");
        }
        java.util.List<SvmClassifier> pairs = new java.util.ArrayList<>();
        for (int i = 0; i < pairNode.size(); i++) {
            String w = where + ": numbers.pairs[" + i + "]";
            Model p = decode(pairNode.get(i), w);
            if (!(p instanceof SvmClassifier b)) {
                throw new IllegalArgumentException(w + ": a pair must be a binary " + type + " model");
            }
            pairs.add(b);
        }
        try {
            return new MulticlassLearnedSvm(h, java.util.List.of(labs), pairs, TypedDiagnostics.rebuild(
                    ModelDocs.diagnostics(doc), OneVsOneFit::of));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": numbers: " + e.getMessage(), e);
        }
    }

    private static Model decodeOvo(ModelHeader h, JsonNode doc, JsonNode num, Kernel k, String where) {
        String[] labs = JsonArrays.strings(num.get("labels"), where + ": numbers.labels");
        int n = labs.length;
        if (n < 2) {
            throw new IllegalArgumentException(where + ": numbers.labels must hold at least two labels");
        }
        double[] countsD = JsonArrays.doubles(num.get("classCounts"), where + ": numbers.classCounts");
        int[] counts = new int[countsD.length];
        for (int i = 0; i < counts.length; i++) {
            if (countsD[i] != Math.rint(countsD[i]) || countsD[i] < 0) {
                throw new IllegalArgumentException(where + ": numbers.classCounts must hold counts, got " + countsD[i]);
            }
            counts[i] = (int) countsD[i];
        }
        JsonNode coefNode = num.get("coef");
        if (coefNode == null || !coefNode.isArray()) {
            throw new IllegalArgumentException(where + ": numbers.coef must be an array of " + (n - 1) + " rows");
        }
        double[][] coef = new double[coefNode.size()][];
        for (int i = 0; i < coef.length; i++) {
            coef[i] = JsonArrays.doubles(coefNode.get(i), where + ": numbers.coef[" + i + "]");
        }
        double[] bias = JsonArrays.doubles(num.get("bias"), where + ": numbers.bias");
        Matrix sv = JsonArrays.matrix(num.get("supportVectors"), h.d(), where + ": numbers.supportVectors");
        double[] probA = num.has("probA") ? JsonArrays.doubles(num.get("probA"), where + ": numbers.probA") : null;
        double[] probB = num.has("probB") ? JsonArrays.doubles(num.get("probB"), where + ": numbers.probB") : null;
        OvoDecision d;
        try {
            d = new OvoDecision(java.util.List.of(labs), k, sv, counts, coef, bias, probA, probB);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": numbers: " + e.getMessage(), e);
        }
        return new MulticlassSvm(h, d, diagnostics(h.type(), ModelDocs.diagnostics(doc)));
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        if (num.has("pairs")) {
            return decodeLearnedOvo(h, doc, num, where);
        }
        Kernel k;
        if (num.has("learnedKernel")) {
            String spec = kernelSpec(num.get("learnedKernel"), where + ": numbers.learnedKernel");
            try {
                k = Kernels.parse(spec);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": numbers.learnedKernel: " + e.getMessage(), e);
            }
        } else {
            k = ModelDocs.kernel(h, where);
        }
        if (num.has("classCounts")) {
            return decodeOvo(h, doc, num, k, where);
        }
        String[] labs = JsonArrays.strings(num.get("labels"), where + ": numbers.labels");
        if (labs.length != 2) {
            throw new IllegalArgumentException(where + ": numbers.labels must hold two labels");
        }
        double[] coef = JsonArrays.doubles(num.get("coef"), where + ": numbers.coef");
        Matrix sv = JsonArrays.matrix(num.get("supportVectors"), h.d(), where + ": numbers.supportVectors");
        if (sv.rows() != coef.length) {
            throw new IllegalArgumentException(where + ": " + sv.rows() + " support vectors but " + coef.length
                    + " coefficients");
        }
        double bias = ModelDocs.number(num, "bias", where + ": numbers");
        return new SvmClassifier(h, new SvmDecision(k, sv, coef, bias), new BinaryLabels(labs[0], labs[1]),
                hyperParameters(h), diagnostics(h.type(), ModelDocs.diagnostics(doc)), Map.of());
    }

    /**
     * The family's view of the header's options: {@link SvmHyperParameters} for {@code svm},
     * {@link LearnedKernelHyperParameters} for the learned kernels (as recorded when they lack its keys).
     */
    static org.psdkit.model.HyperParameters hyperParameters(ModelHeader h) {
        return org.psdkit.model.HyperParameters.typed(h.hyperParameters(), SvmTrainer.TYPE.equals(h.type())
                ? SvmHyperParameters::of : LearnedKernelHyperParameters::of);
    }

    /** The family's typed diagnostics of a file's map ({@link TypedDiagnostics#rebuild}). */
    static org.psdkit.model.Diagnostics diagnostics(String type, Map<String, Object> stored) {
        return switch (type) {
            case SvmTrainer.TYPE -> TypedDiagnostics.rebuild(stored, SvmTrainer.Fit::of);
            case TkSvmTrainer.TYPE, SimpleMklTrainer.TYPE -> TypedDiagnostics.rebuild(stored, LearnedKernelFit::of);
            default -> org.psdkit.model.Diagnostics.recorded(stored);
        };
    }

    /** The JSON object of a learned kernel's syntax tree. */
    static ObjectNode kernelJson(KernelSyntax s) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        if (s instanceof KernelSyntax.Weighted w) {
            o.put("type", "sum");
            ArrayNode parts = o.putArray("parts");
            double[] ws = w.weights();
            for (int i = 0; i < ws.length; i++) {
                ObjectNode p = parts.addObject();
                p.put("weight", ws[i]);
                p.set("kernel", kernelJson(w.parts().get(i)));
            }
        } else if (s instanceof KernelSyntax.Call c) {
            o.put("type", c.name());
            for (Map.Entry<String, KernelSyntax.Arg> e : c.args().entrySet()) {
                Object v = e.getValue().value();
                if (v instanceof Long l) {
                    o.put(e.getKey(), l);
                } else if (v instanceof Double x) {
                    o.put(e.getKey(), x);
                } else if (v instanceof String t) {
                    o.put(e.getKey(), t);
                } else if (v instanceof double[] a) {
                    o.set(e.getKey(), JsonArrays.of(a));
                } else {
                    o.set(e.getKey(), JsonArrays.rows((Matrix) v));
                }
            }
        } else {
            o.put("type", "spec");
            o.put("spec", s.text());
        }
        return o;
    }

    /** The kernel string of a learned kernel's JSON object (the inverse of {@link #kernelJson}). */
    static String kernelSpec(JsonNode o, String where) {
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException(where + ": missing kernel object");
        }
        String t = ModelDocs.text(o, "type", where);
        if (t.equals("spec")) {
            return ModelDocs.text(o, "spec", where);
        }
        if (t.equals("sum")) {
            JsonNode parts = o.get("parts");
            if (parts == null || !parts.isArray() || parts.isEmpty()) {
                throw new IllegalArgumentException(where + ": sum kernel without parts");
            }
            StringBuilder sb = new StringBuilder("weighted(");
            for (int i = 0; i < parts.size(); i++) {
                String w = where + ".parts[" + i + "]";
                double weight = ModelDocs.number(parts.get(i), "weight", w);
                JsonNode kn = parts.get(i).get("kernel");
                String part = kernelSpec(kn, w);
                boolean call = kn != null && !"spec".equals(kn.path("type").asText()) && !"sum".equals(kn.path(
                        "type").asText());
                sb.append(i > 0 ? " + " : "").append(weight).append('*').append(call ? part : "(" + part + ")");
            }
            return sb.append(')').toString();
        }
        if (!t.matches("[A-Za-z][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException(where + ": unknown kernel type '" + t + "'");
        }
        StringBuilder sb = new StringBuilder(t).append('(');
        boolean first = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equals("type")) {
                continue;
            }
            sb.append(first ? "" : ", ").append(e.getKey()).append('=').append(value(e.getValue(),
                    where + "." + e.getKey()));
            first = false;
        }
        return sb.append(')').toString();
    }

    private static String value(JsonNode v, String where) {
        if (v.isIntegralNumber()) {
            return Long.toString(v.asLong());
        }
        if (v.isNumber()) {
            if (!Double.isFinite(v.asDouble())) {
                throw new IllegalArgumentException(where + ": not a finite number");
            }
            return Double.toString(v.asDouble());
        }
        if (v.isTextual() && v.asText().matches("[A-Za-z][A-Za-z0-9_]*")) {
            return v.asText();
        }
        if (v.isArray()) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < v.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(value(v.get(i), where + "[" + i + "]"));
            }
            return sb.append(']').toString();
        }
        throw new IllegalArgumentException(where + ": expected a number, a name or an array, got " + v);
    }
}
