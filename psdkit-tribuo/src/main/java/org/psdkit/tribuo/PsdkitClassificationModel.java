package org.psdkit.tribuo;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.tribuo.Example;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.Model;
import org.tribuo.Prediction;
import org.tribuo.classification.Label;
import org.tribuo.provenance.ModelProvenance;

/**
 * A psdkit classifier in Tribuo. The predicted {@link Label} is the psdkit model's ({@link Classifier#labelsOf}),
 * under the training data's label name. The scores are read from the psdkit model's output columns by name:
 * <ul>
 *   <li>{@code p(<label>)} for every class (a model fitted with probabilities): each class scores its probability,
 *       and {@link #generatesProbabilities()} is true;</li>
 *   <li>else one column, the decision value d of a binary classifier: the positive class (the second of
 *       {@link Classifier#labels()}) scores d, the negative −d, as margins (the predicted label's score is |d|);</li>
 *   <li>else {@code decision(a|b)} per pair of classes (one-vs-one): each class scores its votes, a pair's vote going
 *       to a when its decision value is positive, else to b (LIBSVM's rule).</li>
 * </ul>
 */
public final class PsdkitClassificationModel extends PsdkitModel<Label> {
    private static final long serialVersionUID = 1L;

    /**
     * psdkit label → Tribuo label name: psdkit writes numeric class tokens canonically ({@code 1.0} as {@code 1}),
     * so a label is matched to the training domain's name by text, else by numeric value.
     */
    private final HashMap<String, String> names;

    PsdkitClassificationModel(String name, ModelProvenance provenance, ImmutableFeatureMap featureIDMap,
                              ImmutableOutputInfo<Label> outputIDInfo, Classifier model) {
        super(name, provenance, featureIDMap, outputIDInfo, probabilityColumns(model), model);
        this.names = names(model.labels(), outputIDInfo);
    }

    /** The Tribuo name of each psdkit label (see {@link #names}). */
    static HashMap<String, String> names(List<String> labels, ImmutableOutputInfo<Label> domain) {
        HashMap<String, String> out = new HashMap<>();
        for (String l : labels) {
            String match = l;
            for (Label t : domain.getDomain()) {
                if (t.getLabel().equals(l)) {
                    match = l;
                    break;
                }
                if (sameNumber(t.getLabel(), l)) {
                    match = t.getLabel();
                }
            }
            out.put(l, match);
        }
        return out;
    }

    private static boolean sameNumber(String a, String b) {
        try {
            return Double.parseDouble(a.trim()) == Double.parseDouble(b.trim());
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Whether the classifier outputs one probability column per class, named {@code p(<label>)} for each of its
     * labels.
     */
    static boolean probabilityColumns(Classifier model) {
        return probabilityColumnIndices(model) != null;
    }

    /** The columns {@code p(<label>)} in the order of the labels, or null if a class has none. */
    private static int[] probabilityColumnIndices(Classifier model) {
        List<String> labels = model.labels();
        List<String> columns = model.outputColumns();
        int[] idx = new int[labels.size()];
        for (int k = 0; k < idx.length; k++) {
            idx[k] = columns.indexOf("p(" + labels.get(k) + ")");
            if (idx[k] < 0) {
                return null;
            }
        }
        return idx;
    }

    /** The columns {@code decision(a|b)} of the pairs a &lt; b in label order, or null if one is missing. */
    private static int[] pairColumnIndices(Classifier model) {
        List<String> labels = model.labels();
        List<String> columns = model.outputColumns();
        int k = labels.size();
        int[] idx = new int[k * (k - 1) / 2];
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                idx[p] = columns.indexOf("decision(" + labels.get(i) + "|" + labels.get(j) + ")");
                if (idx[p++] < 0) {
                    return null;
                }
            }
        }
        return idx;
    }

    /** The score of each class (in label order) for each row of outputs. */
    static double[][] scores(Classifier model, Matrix outputs) {
        int k = model.labels().size();
        double[][] s = new double[outputs.rows()][k];
        int[] prob = probabilityColumnIndices(model);
        int[] pairs = prob == null ? pairColumnIndices(model) : null;
        if (prob == null && pairs == null && !(k == 2 && outputs.cols() == 1)) {
            throw new IllegalStateException("a " + model.type() + " model with " + k + " classes has output columns "
                    + model.outputColumns() + ": neither p(<label>) per class, a decision value, nor decision(a|b) "
                    + "per pair");
        }
        for (int r = 0; r < s.length; r++) {
            if (prob != null) {
                for (int c = 0; c < k; c++) {
                    s[r][c] = outputs.get(r, prob[c]);
                }
            } else if (pairs != null) {
                int p = 0;
                for (int i = 0; i < k; i++) {
                    for (int j = i + 1; j < k; j++) {
                        s[r][outputs.get(r, pairs[p++]) > 0 ? i : j] += 1;
                    }
                }
            } else {
                s[r][0] = -outputs.get(r, 0);
                s[r][1] = outputs.get(r, 0);
            }
        }
        return s;
    }

    @Override
    protected List<Prediction<Label>> predictions(Matrix outputs, int[] used, List<Example<Label>> examples) {
        Classifier c = unwrap(Classifier.class);
        String[] predicted = c.labelsOf(outputs);
        double[][] scores = scores(c, outputs);
        List<String> labels = new ArrayList<>();
        for (String l : c.labels()) {
            labels.add(names.get(l));
        }
        List<Prediction<Label>> out = new ArrayList<>(examples.size());
        for (int i = 0; i < examples.size(); i++) {
            Map<String, Label> map = new LinkedHashMap<>();
            for (int k = 0; k < labels.size(); k++) {
                map.put(labels.get(k), new Label(labels.get(k), scores[i][k]));
            }
            out.add(new Prediction<>(map.get(names.get(predicted[i])), map, used[i], examples.get(i),
                    generatesProbabilities));
        }
        return out;
    }

    @Override
    protected Model<Label> copy(String newName, ModelProvenance newProvenance) {
        return new PsdkitClassificationModel(newName, newProvenance, featureIDMap, outputIDInfo,
                unwrap(Classifier.class));
    }

    /** Tribuo's protobuf loader ({@link Model#deserialize}) calls this. */
    public static PsdkitClassificationModel deserializeFromProto(int version, String className, Any message)
            throws InvalidProtocolBufferException {
        Parts p = parts(version, className, message);
        if (!(p.carrier().outputDomain().getOutput(0) instanceof Label)) {
            throw new IllegalStateException("Invalid protobuf, output domain is not a label domain, found "
                    + p.carrier().outputDomain().getClass());
        }
        if (!(p.model() instanceof Classifier c)) {
            throw new IllegalStateException("Invalid protobuf, the psdkit model is a " + p.model().type()
                    + " model, not a classifier");
        }
        @SuppressWarnings("unchecked") // checked above
        ImmutableOutputInfo<Label> info = (ImmutableOutputInfo<Label>) p.carrier().outputDomain();
        return new PsdkitClassificationModel(p.carrier().name(), p.carrier().provenance(),
                p.carrier().featureDomain(), info, c);
    }
}
