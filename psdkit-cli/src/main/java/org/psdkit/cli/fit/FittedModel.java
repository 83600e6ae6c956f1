package org.psdkit.cli.fit;

import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Predictor;

/**
 * A fitted {@link Model} seen as the cv command's {@link Predictor}, for the types whose held-out score needs more
 * than the output columns (the classifiers' labels, the densities' raw-unit log-likelihood): the
 * {@link org.psdkit.cli.cv.CvSupport#score} of those types reads {@link #model()} back.
 */
record FittedModel(Model model) implements Predictor {
    @Override
    public String type() {
        return model.type();
    }

    @Override
    public String[] outputColumns() {
        return model.outputColumns().toArray(new String[0]);
    }

    @Override
    public Matrix predict(Matrix x) {
        return model.predict(x);
    }
}
