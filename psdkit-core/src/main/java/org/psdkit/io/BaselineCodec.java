package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.psd.SolverDiagnostics;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.KernelExpansionModel;
import org.psdkit.regression.psd.NonNegativeRegressionModel;

/**
 * Model files of types {@code ncm}, {@code pnm}, {@code glm} (Marteau-Ferey, Bach &amp; Rudi 2020, App. D): the
 * points (n×d, scaled inputs) and the coefficients α of a {@link KernelExpansionModel}.
 */
final class BaselineCodec implements ModelCodec {
    private final BaselineTrainer.Method method;
    private final String description;

    private BaselineCodec(BaselineTrainer.Method method, String description) {
        this.method = method;
        this.description = description;
    }

    static BaselineCodec ncm() {
        return new BaselineCodec(BaselineTrainer.Method.NCM,
                "non-negative coefficients f = sum a_i k(x, x_i), a >= 0 (Marteau-Ferey, Bach & Rudi 2020, App. D)");
    }

    static BaselineCodec pnm() {
        return new BaselineCodec(BaselineTrainer.Method.PNM, "partially non-negative f = sum a_i k(x, x_i) with "
                + "f(x_i) >= 0 at training points (Marteau-Ferey, Bach & Rudi 2020, App. D)");
    }

    static BaselineCodec glm() {
        return new BaselineCodec(BaselineTrainer.Method.GLM,
                "exponential model f = exp(sum a_i k(x, x_i)) (Marteau-Ferey, Bach & Rudi 2020, App. D)");
    }

    @Override
    public String type() {
        return method.type();
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof NonNegativeRegressionModel<?> p && p.inner() instanceof KernelExpansionModel
                && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        NonNegativeRegressionModel<?> p = (NonNegativeRegressionModel<?>) model;
        KernelExpansionModel m = (KernelExpansionModel) p.inner();
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.set("points", JsonArrays.rows(m.points()));
        num.set("alpha", JsonArrays.of(m.coefficients()));
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        Kernel k = ModelDocs.kernel(h, where);
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        Matrix pts = JsonArrays.matrix(num.get("points"), h.d(), where + ": numbers.points");
        double[] alpha = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
        if (alpha.length != pts.rows()) {
            throw new IllegalArgumentException(where + ": " + pts.rows() + " points but " + alpha.length
                    + " coefficients");
        }
        Map<String, Object> diagnostics = ModelDocs.diagnostics(doc);
        return new NonNegativeRegressionModel<>(h, new KernelExpansionModel(type(), k, pts, alpha,
                method.exponential(), SolverDiagnostics.fromMap(diagnostics)), diagnostics);
    }
}
