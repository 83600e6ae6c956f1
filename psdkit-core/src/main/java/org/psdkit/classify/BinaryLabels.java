package org.psdkit.classify;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The mapping between the two class labels of a target column (numbers or strings: 0/1, 2/4, g/b, −1/+1) and
 * the SVM's −1/+1. The negative class is the smaller label: numerically when both labels parse as numbers,
 * otherwise in string order ("b" → −1, "g" → +1; "2" → −1, "4" → +1).
 *
 * @param negative the label mapped to −1
 * @param positive the label mapped to +1
 */
public record BinaryLabels(String negative, String positive) {

    public BinaryLabels {
        if (negative == null || positive == null || negative.equals(positive)) {
            throw new IllegalArgumentException("binary labels need two distinct values, got " + negative + " and "
                    + positive);
        }
    }

    /** Finds the two labels of a column; more or fewer than two distinct values is an error naming them. */
    public static BinaryLabels of(String[] tokens, String where) {
        Set<String> distinct = new LinkedHashSet<>();
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i] == null ? "" : tokens[i].trim();
            if (t.isEmpty()) {
                throw new IllegalArgumentException(where + ": empty class label in row " + (i + 1));
            }
            distinct.add(canonical(t));
            if (distinct.size() > 2) {
                throw new IllegalArgumentException(where + ": the SVM is a binary classifier but the target has more "
                        + "than two classes (" + String.join(", ", distinct) + ", ...)");
            }
        }
        if (distinct.size() < 2) {
            throw new IllegalArgumentException(where + ": the target needs two classes, found only "
                    + distinct);
        }
        String[] two = distinct.toArray(new String[0]);
        return compare(two[0], two[1]) < 0 ? new BinaryLabels(two[0], two[1]) : new BinaryLabels(two[1], two[0]);
    }

    /** Labels from numeric class values (e.g. a parsed target column). */
    public static BinaryLabels of(double[] values, String where) {
        String[] t = new String[values.length];
        for (int i = 0; i < t.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(where + ": non-finite class value in row " + (i + 1));
            }
            t[i] = Double.toString(values[i]);
        }
        return of(t, where);
    }

    /** ±1 codes of the given tokens; an unknown label is an error. */
    public double[] encode(String[] tokens, String where) {
        double[] y = new double[tokens.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = encode(tokens[i], where + " row " + (i + 1));
        }
        return y;
    }

    public double[] encode(double[] values, String where) {
        double[] y = new double[values.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = encode(Double.toString(values[i]), where + " row " + (i + 1));
        }
        return y;
    }

    double encode(String token, String where) {
        String t = canonical(token == null ? "" : token.trim());
        if (t.equals(negative)) {
            return -1;
        }
        if (t.equals(positive)) {
            return 1;
        }
        throw new IllegalArgumentException(where + ": label '" + token + "' is neither '" + negative + "' nor '"
                + positive + "'");
    }

    /** The label of a decision value: positive when f ≥ 0. */
    public String decode(double decision) {
        return decision >= 0 ? positive : negative;
    }

    /** The canonical form of a label: numbers are compared as numbers ("2.0" and "2" are the same label). */
    public static String canonical(String t) {
        try {
            double v = Double.parseDouble(t);
            if (Double.isFinite(v)) {
                if (v == Math.rint(v) && Math.abs(v) < 1e15) {
                    return Long.toString((long) v);
                }
                return Double.toString(v);
            }
        } catch (NumberFormatException e) {
            // a string label
        }
        return t;
    }

    private static int compare(String a, String b) {
        try {
            return Double.compare(Double.parseDouble(a), Double.parseDouble(b));
        } catch (NumberFormatException e) {
            return a.compareTo(b);
        }
    }
}
