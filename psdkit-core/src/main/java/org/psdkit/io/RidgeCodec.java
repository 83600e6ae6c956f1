package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.UnaryOperator;
import org.psdkit.data.JsonArrays;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.RidgeRegression;
import org.psdkit.regression.RidgeTrainer;

/**
 * Model files of type {@code ridge}: the weights and bias of {@link RidgeRegression}, in the raw features
 * ({@code kernel} null) or in the explicit feature space of {@code kernel}. The file has no diagnostics. A model of
 * several targets writes {@code weightRows} (one row per feature, one column per target) and {@code biases}.
 */
final class RidgeCodec extends PipelineCodec<Pipeline<?>> {

    RidgeCodec() {
        super(RidgeTrainer.TYPE, "linear ridge regression, w = (X^T X + lambda I)^-1 X^T y (primal) or its dual",
                plain(), RidgeRegression.class);
    }

    @Override
    boolean writesDiagnostics() {
        return false;
    }

    @Override
    void writeNumbers(Pipeline<?> model, ObjectNode num) {
        RidgeRegression m = (RidgeRegression) model.inner();
        if (m.targets() > 1) {
            num.set("weightRows", JsonArrays.rows(m.weightMatrix()));
            num.set("biases", JsonArrays.of(m.biases()));
            return;
        }
        num.set("weights", JsonArrays.of(m.weights()));
        num.put("bias", m.bias());
    }

    @Override
    Pipeline<?> read(Doc doc) {
        if (doc.numbers().has("weightRows")) {
            return readSeveral(doc);
        }
        double[] w = doc.doubles("weights");
        double b = doc.number("bias");
        double lambda = doc.option("lambda");
        int d = doc.header().d();
        if (doc.header().kernelSpec() == null) {
            if (w.length != d) {
                throw new IllegalArgumentException(doc.where() + ": " + w.length + " weights but " + d + " features");
            }
            return RidgeTrainer.of(doc.header(), RidgeRegression.ofLinear(w, b, lambda));
        }
        UnaryOperator<Matrix> phi = RidgeTrainer.featureMap(doc.kernel(), d);
        int dim = phi.apply(Matrix.zeros(1, d)).cols();
        if (w.length != dim) {
            throw new IllegalArgumentException(doc.where() + ": " + w.length + " weights but the feature map of "
                    + doc.header().kernelSpec() + " has " + dim + " features");
        }
        return RidgeTrainer.of(doc.header(), RidgeRegression.of(phi, w, b, lambda));
    }

    private static Pipeline<?> readSeveral(Doc doc) {
        double[] b = doc.doubles("biases");
        if (b.length < 2) {
            throw new IllegalArgumentException(doc.where() + ": numbers.biases: several targets need at least two");
        }
        Matrix w = doc.matrix("weightRows", b.length);
        double lambda = doc.option("lambda");
        int d = doc.header().d();
        UnaryOperator<Matrix> phi = doc.header().kernelSpec() == null ? UnaryOperator.identity()
                : RidgeTrainer.featureMap(doc.kernel(), d);
        int dim = phi.apply(Matrix.zeros(1, d)).cols();
        if (w.rows() != dim) {
            throw new IllegalArgumentException(doc.where() + ": " + w.rows() + " rows of weights but " + dim
                    + " features");
        }
        return RidgeTrainer.of(doc.header(), RidgeRegression.of(phi, w, b, lambda));
    }
}
