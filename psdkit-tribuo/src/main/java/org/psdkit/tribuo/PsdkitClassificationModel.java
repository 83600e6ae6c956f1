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
 * A psdkit classifier in Tribuo. The predicted {@link Label} is the psdkit model's ({@link Classifier#labelsOf}).
 * The scores follow the psdkit model's output columns:
 * <ul>
 *   <li>one column, the decision value d of a binary classifier: the positive class scores d, the negative −d (the
 *       predicted label's score is |d|), as margins, not probabilities;</li>
 *   <li>one column per class, in the order of {@link Classifier#labels()}: each class scores its column; they are
 *       probabilities when the psdkit model's columns are (see {@link #probabilityColumns}).</li>
 * </ul>
 */
public final class PsdkitClassificationModel extends PsdkitModel<Label> {
    private static final long serialVersionUID = 1L;

    PsdkitClassificationModel(String name, ModelProvenance provenance, ImmutableFeatureMap featureIDMap,
                              ImmutableOutputInfo<Label> outputIDInfo, Classifier model) {
        super(name, provenance, featureIDMap, outputIDInfo, probabilityColumns(model), model);
        this.names = names(model.labels(), outputIDInfo);
    }

    /**
     * psdkit label → Tribuo label name: psdkit writes numeric class tokens canonically ({@code 1.0} as {@code 1}),
     * so a label is matched to the training domain's name by text, else by numeric value.
     */
    private final HashMap<String, String> names;

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
     * Whether the classifier outputs one probability column per class: its output columns are named
     * {@code p(<label>)} for its labels in order (anything else — a decision value, per-class decision values — is
     * a score without a probability reading).
     */
    static boolean probabilityColumns(Classifier model) {
        List<String> labels = model.labels();
        List<String> columns = model.outputColumns();
        if (columns.size() != labels.size() || labels.size() < 2) {
            return false;
        }
        for (int k = 0; k < labels.size(); k++) {
            if (!columns.get(k).equals("p(" + labels.get(k) + ")")) {
                return false;
            }
        }
        return true;
    }

    @Override
    protected List<Prediction<Label>> predictions(Matrix outputs, int[] used, List<Example<Label>> examples) {
        Classifier c = unwrap(Classifier.class);
        String[] predicted = c.labelsOf(outputs);
        List<String> labels = new ArrayList<>();
        for (String l : c.labels()) {
            labels.add(names.get(l));
        }
        int columns = outputs.cols();
        if (columns != 1 && columns != labels.size()) {
            throw new IllegalStateException("a " + c.type() + " model with " + labels.size() + " classes has "
                    + columns + " output columns: neither a decision value nor one score per class");
        }
        List<Prediction<Label>> out = new ArrayList<>(examples.size());
        for (int i = 0; i < examples.size(); i++) {
            Map<String, Label> scores = new LinkedHashMap<>();
            if (columns == 1) {
                double d = outputs.get(i, 0);
                scores.put(labels.get(0), new Label(labels.get(0), -d));
                scores.put(labels.get(1), new Label(labels.get(1), d));
            } else {
                for (int k = 0; k < labels.size(); k++) {
                    scores.put(labels.get(k), new Label(labels.get(k), outputs.get(i, k)));
                }
            }
            Label best = scores.get(names.get(predicted[i]));
            out.add(new Prediction<>(best, scores, used[i], examples.get(i), generatesProbabilities));
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
