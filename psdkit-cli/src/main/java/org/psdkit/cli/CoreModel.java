package org.psdkit.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;

/**
 * A library {@link Model} as {@code predict} and {@code eval} see it. A classifier's prediction CSV starts with a
 * {@code label} column (the original tokens) before its numeric outputs.
 */
public final class CoreModel implements LoadedModel {
    private final Model model;

    public CoreModel(Model model) {
        this.model = model;
    }

    /** The library model. */
    public Model model() {
        return model;
    }

    @Override
    public String type() {
        return model.type();
    }

    @Override
    public String[] featureNames() {
        return model.featureNames().toArray(new String[0]);
    }

    @Override
    public String targetName() {
        return model.targetName();
    }

    @Override
    public boolean unsupervised() {
        return model.unsupervised();
    }

    @Override
    public boolean classifier() {
        return model instanceof Classifier;
    }

    @Override
    public String[] outputColumns() {
        List<String> c = new ArrayList<>();
        if (model instanceof Classifier) {
            c.add("label");
        }
        c.addAll(model.outputColumns());
        return c.toArray(new String[0]);
    }

    @Override
    public Matrix predict(Matrix rawX) {
        return model.predict(rawX);
    }

    @Override
    public String[][] predictText(Matrix rawX) {
        Matrix p = model.predict(rawX);
        String[] labels = model instanceof Classifier c ? c.predictLabels(rawX) : null;
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

    @Override
    public Map<String, Object> evaluate(Dataset raw) {
        return model.evaluate(raw);
    }
}
