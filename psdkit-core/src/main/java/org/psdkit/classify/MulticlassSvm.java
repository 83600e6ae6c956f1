package org.psdkit.classify;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;

/**
 * A fitted one-vs-one SVM ({@link OvoDecision}): any number of classes, and two classes with probabilities. Its
 * output columns are the pairs' decision values {@code decision(a|b)} and, with probabilities, {@code p(label)} per
 * class; the label is the vote winner, or the most probable class when the model has probabilities (so the label
 * and the probabilities never disagree).
 */
public final class MulticlassSvm extends Pipeline<OvoDecision> implements Classifier {

    public MulticlassSvm(ModelHeader header, OvoDecision decision, Diagnostics diagnostics) {
        super(header, decision, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                SvmHyperParameters::of), diagnostics);
    }

    /** The labels in class order (the order of first appearance in the training data, as LIBSVM). */
    @Override
    public List<String> labels() {
        return inner().labels();
    }

    @Override
    public String[] labelsOf(Matrix p) {
        String[] out = new String[p.rows()];
        List<String> l = inner().labels();
        for (int i = 0; i < out.length; i++) {
            out[i] = l.get(inner().winner(p.row(i)));
        }
        return out;
    }

    /** The class probabilities of raw rows (n × k, columns in {@link #labels()} order). */
    public Matrix probabilities(Matrix rawX) {
        if (!inner().probability()) {
            throw new IllegalStateException("the model was fitted without probabilities");
        }
        Matrix out = predict(rawX);
        int np = inner().pairs();
        int k = inner().classes();
        Matrix p = Matrix.zeros(out.rows(), k);
        for (int i = 0; i < out.rows(); i++) {
            for (int j = 0; j < k; j++) {
                p.set(i, j, out.get(i, np + j));
            }
        }
        return p;
    }

    /**
     * {@code accuracy}, {@code n}, {@code classes}; with probabilities also {@code logLoss} (mean −log p(true
     * label)) and {@code brier} (mean Σ_c (p_c − [c = label])²). A label unknown to the model counts as an error.
     */
    @Override
    public Scores evaluate(Dataset raw) {
        String[] tokens = SvmClassifier.labelTokens(raw);
        Matrix out = predict(raw.x());
        String[] pred = labelsOf(out);
        List<String> l = labels();
        int np = inner().pairs();
        int ok = 0;
        double logLoss = 0;
        double brier = 0;
        for (int i = 0; i < tokens.length; i++) {
            String t = BinaryLabels.canonical(tokens[i] == null ? "" : tokens[i].trim());
            if (t.equals(pred[i])) {
                ok++;
            }
            if (inner().probability()) {
                int c = l.indexOf(t);
                double pc = c < 0 ? 0 : out.get(i, np + c);
                logLoss -= Math.log(Math.max(pc, Double.MIN_NORMAL));
                for (int j = 0; j < l.size(); j++) {
                    double d = out.get(i, np + j) - (j == c ? 1 : 0);
                    brier += d * d;
                }
            }
        }
        int n = tokens.length;
        boolean prob = inner().probability();
        return new Scores(n == 0 ? Double.NaN : (double) ok / n, n, l.size(),
                !prob ? null : n == 0 ? Double.NaN : logLoss / n, !prob ? null : n == 0 ? Double.NaN : brier / n);
    }

    /**
     * The metrics of {@link #evaluate}.
     *
     * @param accuracy correct labels over rows
     * @param n        rows
     * @param classes  the model's classes
     * @param logLoss  mean −log p(true label), or null without probabilities
     * @param brier    mean Σ_c (p_c − [c = label])², or null without probabilities
     */
    public record Scores(double accuracy, int n, int classes, Double logLoss, Double brier)
            implements org.psdkit.model.Evaluation {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("accuracy", accuracy);
            m.put("n", n);
            m.put("classes", classes);
            if (logLoss != null) {
                m.put("logLoss", logLoss);
                m.put("brier", brier);
            }
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }
}
