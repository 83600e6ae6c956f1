package org.psdkit.classify.mkl;

import java.util.ArrayList;
import java.util.List;
import org.psdkit.classify.BinaryLabels;
import org.psdkit.classify.MulticlassSvm;
import org.psdkit.classify.OvoDecision;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.HyperParameters;
import org.psdkit.model.ModelHeader;

/**
 * A one-vs-one classifier of k &gt; 2 classes whose pairs are binary learned-kernel SVMs ({@code tk-svm} or
 * {@code simplemkl}), each with its own scaler, learned kernel and C (Hsu &amp; Lin 2002; LIBSVM's one-vs-one,
 * Chang &amp; Lin 2011, Sec. 7). Pairs are ordered (0,1), (0,2), …, (0,k−1), (1,2), … over the classes in order of
 * first appearance; f_ij &gt; 0 votes for class i, otherwise for j; the label is the class with the most votes, the
 * first in class order on ties, as {@link org.psdkit.classify.OvoDecision} does for the fixed-kernel SVM.
 *
 * <p>Output columns: {@code decision(a|b)} per pair, positive for a.
 */
public final class MulticlassLearnedSvm implements Classifier {
    private final ModelHeader header;
    private final List<String> labels;
    private final List<SvmClassifier> pairs;
    private final HyperParameters hyperParameters;
    private final Diagnostics diagnostics;

    /**
     * @param header      type, features, target and options of the whole model (its scaler is the identity: each
     *                    pair scales the raw features itself)
     * @param labels      the k class labels in class order
     * @param pairs       the k(k−1)/2 binary models in pair order, each of the header's type and trained on the
     *                    rows of its two classes
     * @param diagnostics what the fit reported
     */
    public MulticlassLearnedSvm(ModelHeader header, List<String> labels, List<SvmClassifier> pairs,
                                Diagnostics diagnostics) {
        int k = labels.size();
        if (k < 3 || pairs.size() != k * (k - 1) / 2) {
            throw new IllegalArgumentException("a one-vs-one model of " + k + " classes needs at least 3 classes and "
                    + k * (k - 1) / 2 + " pairs; got " + pairs.size() + " pairs");
        }
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                SvmClassifier m = pairs.get(p++);
                List<String> two = m.labels();
                if (!two.contains(labels.get(i)) || !two.contains(labels.get(j))) {
                    throw new IllegalArgumentException("pair " + p + " separates " + two + ", expected "
                            + labels.get(i) + " and " + labels.get(j));
                }
                if (!m.type().equals(header.type()) || !m.featureNames().equals(header.featureNames())) {
                    throw new IllegalArgumentException("pair " + p + " is a " + m.type() + " model on "
                            + m.featureNames() + ", not a " + header.type() + " model on " + header.featureNames());
                }
            }
        }
        this.header = header;
        this.labels = List.copyOf(labels);
        this.pairs = List.copyOf(pairs);
        this.hyperParameters = HyperParameters.typed(header.hyperParameters(), LearnedOneVsOneHyperParameters::of);
        this.diagnostics = diagnostics;
    }

    public ModelHeader header() {
        return header;
    }

    /** The binary models in pair order. */
    public List<SvmClassifier> pairs() {
        return pairs;
    }

    @Override
    public String type() {
        return header.type();
    }

    @Override
    public List<String> featureNames() {
        return header.featureNames();
    }

    @Override
    public String targetName() {
        return header.targetName();
    }

    @Override
    public List<String> labels() {
        return labels;
    }

    @Override
    public List<String> outputColumns() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < labels.size(); i++) {
            for (int j = i + 1; j < labels.size(); j++) {
                out.add("decision(" + labels.get(i) + "|" + labels.get(j) + ")");
            }
        }
        return out;
    }

    /** The pairs' decision values, f_ij positive for class i (each pair's own sign turned toward i). */
    @Override
    public Matrix predict(Matrix rawX) {
        int k = labels.size();
        Matrix out = Matrix.zeros(rawX.rows(), pairs.size());
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                SvmClassifier m = pairs.get(p);
                double sign = m.binaryLabels().positive().equals(labels.get(i)) ? 1 : -1;
                double[] f = m.predict(rawX).col(0);
                for (int r = 0; r < f.length; r++) {
                    out.set(r, p, sign * f[r]);
                }
                p++;
            }
        }
        return out;
    }

    @Override
    public String[] labelsOf(Matrix outputs) {
        String[] out = new String[outputs.rows()];
        for (int r = 0; r < out.length; r++) {
            out[r] = labels.get(OvoDecision.voteWinner(outputs.row(r), labels.size()));
        }
        return out;
    }

    @Override
    public HyperParameters hyperParameters() {
        return hyperParameters;
    }

    @Override
    public Diagnostics diagnostics() {
        return diagnostics;
    }

    /** {@code accuracy}, {@code n}, {@code classes}; a label unknown to the model counts as an error. */
    @Override
    public MulticlassSvm.Scores evaluate(Dataset raw) {
        String[] tokens = SvmClassifier.labelTokens(raw);
        String[] pred = predictLabels(raw.x());
        int ok = 0;
        for (int i = 0; i < tokens.length; i++) {
            String t = BinaryLabels.canonical(tokens[i] == null ? "" : tokens[i].trim());
            if (t.equals(pred[i])) {
                ok++;
            }
        }
        int n = tokens.length;
        return new MulticlassSvm.Scores(n == 0 ? Double.NaN : (double) ok / n, n, labels.size(), null, null);
    }

    @Override
    public String toString() {
        return type() + " one-vs-one on " + labels + " (" + pairs.size() + " pairs)";
    }
}
