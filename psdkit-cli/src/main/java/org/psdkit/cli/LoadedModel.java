package org.psdkit.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;

/**
 * A model read back from its file, as {@code predict} and {@code eval} see it: a library {@link Model} whose inputs
 * are RAW features (the columns named by {@link #featureNames()}, in that order; the model applies its stored scaler
 * itself). A classifier's prediction CSV starts with a
 * {@code label} column (the original tokens) before its numeric outputs. Outputs are checked: a NaN or infinite
 * output (e.g. coefficients near 1e308 in a model file) is an {@link ArithmeticException} naming the model and the
 * first such row, so that {@code predict} never writes {@code Infinity} and {@code eval} never reports it.
 */
public final class LoadedModel {

    /** Reads a model file of any registered type through the library ({@link org.psdkit.io.ModelIO#load}). */
    public static LoadedModel load(java.nio.file.Path file) {
        return new LoadedModel(org.psdkit.io.ModelIO.load(file), "model file " + file);
    }

    private final Model model;
    private final String source;

    /** {@code source} names the model in messages (e.g. {@code "model file m.json"}). */
    public LoadedModel(Model model, String source) {
        this.model = model;
        this.source = source;
    }

    /** The library model. */
    public Model model() {
        return model;
    }

    public String type() {
        return model.type();
    }

    public String[] featureNames() {
        return model.featureNames().toArray(new String[0]);
    }

    public String targetName() {
        return model.targetName();
    }

    public boolean unsupervised() {
        return model.unsupervised();
    }

    public boolean classifier() {
        return model instanceof Classifier;
    }

    public String[] outputColumns() {
        List<String> c = new ArrayList<>();
        if (model instanceof Classifier) {
            c.add("label");
        }
        c.addAll(model.outputColumns());
        return c.toArray(new String[0]);
    }

    public Matrix predict(Matrix rawX) {
        return requireFinite(model.predict(rawX));
    }

    /** {@code p} itself, or an {@link ArithmeticException} naming the first row and column with a non-finite value. */
    private Matrix requireFinite(Matrix p) {
        List<String> cols = model.outputColumns();
        for (int i = 0; i < p.rows(); i++) {
            for (int j = 0; j < p.cols(); j++) {
                double v = p.get(i, j);
                if (!Double.isFinite(v)) {
                    String col = j < cols.size() ? cols.get(j) : "column " + (j + 1);
                    throw new ArithmeticException(source + ": the output '" + col + "' of data row " + (i + 1)
                            + " is " + v + " (the model's numbers or the row's values overflow double precision;"
                            + " check the model file and the data)");
                }
            }
        }
        return p;
    }

    public String[][] predictText(Matrix rawX) {
        Matrix p = predict(rawX);
        String[] labels = model instanceof Classifier c ? c.labelsOf(p) : null;
        int off = labels == null ? 0 : 1;
        String[][] out = new String[p.rows()][p.cols() + off];
        for (int i = 0; i < p.rows(); i++) {
            if (labels != null) {
                out[i][0] = labels[i];
            }
            for (int j = 0; j < p.cols(); j++) {
                out[i][j + off] = Double.toString(p.get(i, j));
            }
        }
        return out;
    }

    /** Whether a metric, or one in a nested metrics object (several targets), is not finite. */
    private static boolean nonFinite(java.util.Collection<?> values) {
        for (Object v : values) {
            if (v instanceof Double d && !Double.isFinite(d)
                    || v instanceof Map<?, ?> m && nonFinite(m.values())) {
                return true;
            }
        }
        return false;
    }

    public Map<String, Object> evaluate(Dataset raw) {
        Map<String, Object> metrics = model.evaluate(raw).toMap();
        // a non-finite output shows as a non-finite metric (or, for a classifier, only in its decision values):
        // then find the row. A density's loglik is -Infinity where the density is 0, with finite outputs.
        boolean suspect = model instanceof Classifier;
        suspect |= nonFinite(metrics.values());
        if (suspect) {
            predict(raw.x());
        }
        return metrics;
    }
}
