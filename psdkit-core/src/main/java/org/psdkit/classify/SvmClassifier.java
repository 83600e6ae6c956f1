package org.psdkit.classify;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;

/**
 * A fitted binary SVM of any of the three types ({@code svm}, {@code tk-svm}, {@code simplemkl}): the scaler, the
 * {@link SvmDecision} and the two class labels. Its one output column is {@code decision}; the label is the positive
 * class when the decision value is ≥ 0.
 */
public final class SvmClassifier extends Pipeline<SvmDecision> implements Classifier {
    private final BinaryLabels labels;
    private final Map<String, Object> fitReport;
    /**
     * The decision values at the training points that the fit had without predicting them (from the solver's
     * gradient, {@link SvmTrainer}), kept in memory only (model files do not hold them); null when none.
     */
    private final double[] trainingDecisions;

    /**
     * @param header      type, features, scaler, kernel string (null for a learned kernel) and options
     * @param decision    the decision function on scaled inputs
     * @param labels      the class labels
     * @param diagnostics what the solver reported (written to model files)
     * @param fitReport   what the fit found that model files do not keep (cross-validation table, learned-kernel
     *                    summary, library weights); empty for a loaded model
     */
    public SvmClassifier(ModelHeader header, SvmDecision decision, BinaryLabels labels,
                         Map<String, Object> diagnostics, Map<String, Object> fitReport) {
        this(header, decision, labels, org.psdkit.model.Diagnostics.recorded(diagnostics), fitReport);
    }

    /**
     * @param header      type, features, scaler, kernel string (null for a learned kernel) and options
     * @param decision    the decision function on scaled inputs
     * @param labels      the class labels
     * @param diagnostics what the solver reported (the family's record; written to model files)
     * @param fitReport   what the fit found that model files do not keep; empty for a loaded model
     */
    public SvmClassifier(ModelHeader header, SvmDecision decision, BinaryLabels labels,
                         org.psdkit.model.Diagnostics diagnostics, Map<String, Object> fitReport) {
        this(header, decision, labels, header != null && SvmTrainer.TYPE.equals(header.type())
                ? org.psdkit.model.HyperParameters.typed(header.hyperParameters(), SvmHyperParameters::of) : null,
                diagnostics, fitReport);
    }

    /**
     * @param header          type, features, scaler, kernel string (null for a learned kernel) and options
     * @param decision        the decision function on scaled inputs
     * @param labels          the class labels
     * @param hyperParameters the family's view of the header's options (a learned-kernel model's record; null: as
     *                        recorded); the other constructors use {@link SvmHyperParameters} for type {@code svm}
     * @param diagnostics     what the solver reported (the family's record; written to model files)
     * @param fitReport       what the fit found that model files do not keep; empty for a loaded model
     */
    public SvmClassifier(ModelHeader header, SvmDecision decision, BinaryLabels labels,
                         org.psdkit.model.HyperParameters hyperParameters, org.psdkit.model.Diagnostics diagnostics,
                         Map<String, Object> fitReport) {
        this(header, decision, labels, hyperParameters, diagnostics, fitReport, null);
    }

    private SvmClassifier(ModelHeader header, SvmDecision decision, BinaryLabels labels,
                          org.psdkit.model.HyperParameters hyperParameters, org.psdkit.model.Diagnostics diagnostics,
                          Map<String, Object> fitReport, double[] trainingDecisions) {
        super(header, decision, hyperParameters, diagnostics);
        this.labels = labels;
        this.fitReport = Collections.unmodifiableMap(new LinkedHashMap<>(fitReport));
        this.trainingDecisions = trainingDecisions;
    }

    /**
     * This model with the decision values of its training rows, in row order, as the fit found them (null: none).
     * Used by {@link #evaluateTraining}.
     */
    public SvmClassifier withTrainingDecisions(double[] f) {
        return new SvmClassifier(header(), inner(), labels, hyperParameters(), diagnostics(), fitReport,
                f == null ? null : f.clone());
    }

    /** The decision values the fit kept for its training rows (a copy), or null. */
    double[] trainingDecisions() {
        return trainingDecisions == null ? null : trainingDecisions.clone();
    }

    /**
     * {@link #evaluate} on the data set this model was fitted on: from the decision values the fit kept
     * ({@link #withTrainingDecisions}) when it kept them for as many rows, with no pass over the kernel; otherwise
     * a full {@link #evaluate}. The metrics depend on the signs only, which are those of a full predict.
     *
     * @param train the training set of the fit, rows in the same order
     */
    public Scores evaluateTraining(Dataset train) {
        if (trainingDecisions == null || trainingDecisions.length != train.n()) {
            return evaluate(train);
        }
        return scores(train, trainingDecisions);
    }

    /** The label mapping (negative class ↔ −1, positive ↔ +1). */
    public BinaryLabels binaryLabels() {
        return labels;
    }

    /** What the fit found that model files do not keep; empty for a loaded model. */
    public Map<String, Object> fitReport() {
        return fitReport;
    }

    @Override
    public List<String> labels() {
        return List.of(labels.negative(), labels.positive());
    }

    @Override
    public String[] labelsOf(Matrix p) {
        String[] out = new String[p.rows()];
        for (int i = 0; i < out.length; i++) {
            out[i] = labels.decode(p.get(i, 0));
        }
        return out;
    }

    /** {@code accuracy, n, positive, precision, recall} (the positive class is the +1 label). */
    @Override
    public Scores evaluate(Dataset raw) {
        return scores(raw, predict(raw.x()).col(0));
    }

    private Scores scores(Dataset raw, double[] f) {
        String[] tokens = labelTokens(raw);
        double[] y = labels.encode(tokens, raw.source());
        int ok = 0;
        int tp = 0;
        int fp = 0;
        int fn = 0;
        for (int i = 0; i < f.length; i++) {
            double s = f[i] >= 0 ? 1 : -1;
            if (s == y[i]) {
                ok++;
            }
            if (s > 0 && y[i] > 0) {
                tp++;
            } else if (s > 0) {
                fp++;
            } else if (y[i] > 0) {
                fn++;
            }
        }
        return new Scores(f.length == 0 ? Double.NaN : (double) ok / f.length, f.length, labels.positive(),
                tp + fp == 0 ? 0.0 : (double) tp / (tp + fp), tp + fn == 0 ? 0.0 : (double) tp / (tp + fn));
    }

    /**
     * A classifier's metrics: the fraction of rows classified right, the rows, the positive class's label, and the
     * precision and recall of the positive class (0 when undefined).
     */
    public record Scores(double accuracy, int n, String positive, double precision, double recall)
            implements org.psdkit.model.Evaluation {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("accuracy", accuracy);
            m.put("n", n);
            m.put("positive", positive);
            m.put("precision", precision);
            m.put("recall", recall);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }

    /** The class labels of a data set: its text tokens, or the numeric target as text. */
    public static String[] labelTokens(Dataset raw) {
        if (raw.labels() != null) {
            return raw.labels();
        }
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no target column");
        }
        String[] t = new String[raw.n()];
        for (int i = 0; i < t.length; i++) {
            t[i] = Double.toString(raw.y()[i]);
        }
        return t;
    }

    /** The labels of a training set and their ±1 codes. */
    public record Encoded(BinaryLabels labels, double[] y) {
        public static Encoded of(Dataset raw) {
            String[] t = labelTokens(raw);
            BinaryLabels l = BinaryLabels.of(t, raw.source());
            return new Encoded(l, l.encode(t, raw.source()));
        }
    }
}
