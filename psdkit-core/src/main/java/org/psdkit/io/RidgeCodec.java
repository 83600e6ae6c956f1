package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.psdkit.data.JsonArrays;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.RidgeRegression;
import org.psdkit.regression.RidgeTrainer;

/**
 * Model files of type {@code ridge}: the weights and bias of {@link RidgeRegression}, in the raw features
 * ({@code kernel} null) or in the explicit feature space of {@code kernel}. The file has no diagnostics.
 */
final class RidgeCodec implements ModelCodec {

    @Override
    public String type() {
        return RidgeTrainer.TYPE;
    }

    @Override
    public String description() {
        return "linear ridge regression, w = (X^T X + lambda I)^-1 X^T y (primal) or its dual";
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof Pipeline<?> p && p.inner() instanceof RidgeRegression && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        Pipeline<?> p = (Pipeline<?>) model;
        RidgeRegression m = (RidgeRegression) p.inner();
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.set("weights", JsonArrays.of(m.weights()));
        num.put("bias", m.bias());
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        double[] w = JsonArrays.doubles(num.get("weights"), where + ": numbers.weights");
        double b = ModelDocs.number(num, "bias", where + ": numbers");
        double lambda = ModelDocs.number(doc.get("options"), "lambda", where + ": options");
        int d = h.d();
        if (h.kernelSpec() == null) {
            if (w.length != d) {
                throw new IllegalArgumentException(where + ": " + w.length + " weights but " + d + " features");
            }
            return new Pipeline<>(h, RidgeRegression.ofLinear(w, b, lambda), Map.of());
        }
        UnaryOperator<Matrix> phi = RidgeTrainer.featureMap(ModelDocs.kernel(h, where), d);
        int dim = phi.apply(Matrix.zeros(1, d)).cols();
        if (w.length != dim) {
            throw new IllegalArgumentException(where + ": " + w.length + " weights but the feature map of "
                    + h.kernelSpec() + " has " + dim + " features");
        }
        return new Pipeline<>(h, RidgeRegression.of(phi, w, b, lambda), Map.of());
    }
}
