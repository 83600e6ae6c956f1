package org.psdkit.classify;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.model.ParameterException;

/**
 * Per-class weights of the SVM's penalty: class c's points get the bound C·w_c (LIBSVM's {@code -wi}, scikit-learn's
 * {@code SVC(class_weight=…)}). Either explicit weights by label (a label not listed keeps weight 1, as in both) or
 * {@code balanced}: w_c = n / (k·n_c) (scikit-learn's {@code class_weight='balanced'}), with sample weights the
 * counts n, n_c are weight sums.
 *
 * @param weights  explicit weights by label (empty when balanced)
 * @param balanced whether the weights are the balanced ones
 */
public record ClassWeights(Map<String, Double> weights, boolean balanced) {

    public ClassWeights {
        Map<String, Double> w = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            double v = e.getValue() == null ? Double.NaN : e.getValue();
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new ParameterException("classWeight", "of class '" + e.getKey() + "' must be > 0 and finite, "
                        + "got " + v);
            }
            w.put(BinaryLabels.canonical(e.getKey().trim()), v);
        }
        if (balanced && !w.isEmpty()) {
            throw new ParameterException("classWeight", "is either 'balanced' or a list of label=weight, not both");
        }
        weights = java.util.Collections.unmodifiableMap(w);
    }

    /** The balanced weights. */
    public static ClassWeights balancedWeights() {
        return new ClassWeights(Map.of(), true);
    }

    /** Explicit weights by label. */
    public static ClassWeights of(Map<String, Double> weights) {
        return new ClassWeights(weights, false);
    }

    /**
     * Parses {@code balanced} or {@code label=weight,label=weight,…} (the text of {@link #toString}).
     *
     * @throws ParameterException naming {@code classWeight} on a malformed entry
     */
    public static ClassWeights parse(String text) {
        if (text == null || text.isBlank()) {
            throw new ParameterException("classWeight", "must be 'balanced' or label=weight,..., got an empty value");
        }
        if (text.trim().equals("balanced")) {
            return balancedWeights();
        }
        Map<String, Double> w = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            int eq = part.lastIndexOf('=');
            if (eq <= 0 || eq == part.length() - 1) {
                throw new ParameterException("classWeight", "entry '" + part.trim() + "' is not label=weight");
            }
            String label = part.substring(0, eq).trim();
            double v;
            try {
                v = Double.parseDouble(part.substring(eq + 1).trim());
            } catch (NumberFormatException e) {
                throw new ParameterException("classWeight", "entry '" + part.trim() + "': '"
                        + part.substring(eq + 1).trim() + "' is not a number");
            }
            if (w.put(BinaryLabels.canonical(label), v) != null) {
                throw new ParameterException("classWeight", "names class '" + label + "' twice");
            }
        }
        return of(w);
    }

    /**
     * The weight of each class of {@code labels} (class order) for training points of classes {@code cls} with
     * sample weights {@code sampleWeights} (null: 1).
     *
     * @throws ParameterException if an explicit weight names a class the data lacks
     */
    public double[] resolve(List<String> labels, int[] cls, double[] sampleWeights) {
        int k = labels.size();
        double[] out = new double[k];
        if (balanced) {
            double[] count = new double[k];
            double total = 0;
            for (int i = 0; i < cls.length; i++) {
                double w = sampleWeights == null ? 1 : sampleWeights[i];
                count[cls[i]] += w;
                total += w;
            }
            for (int c = 0; c < k; c++) {
                out[c] = count[c] > 0 ? total / (k * count[c]) : 1;
            }
            return out;
        }
        java.util.Arrays.fill(out, 1.0);
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            int c = labels.indexOf(e.getKey());
            if (c < 0) {
                throw new ParameterException("classWeight", "names class '" + e.getKey() + "', which the training "
                        + "data lacks (classes: " + String.join(", ", labels) + ")");
            }
            out[c] = e.getValue();
        }
        return out;
    }

    @Override
    public String toString() {
        if (balanced) {
            return "balanced";
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            sb.append(sb.length() == 0 ? "" : ",").append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }
}
