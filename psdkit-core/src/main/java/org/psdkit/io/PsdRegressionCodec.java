package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.SolverDiagnostics;
import org.psdkit.regression.psd.NonNegativeRegressionModel;

/**
 * Model files of type {@code psd-regression}: the points (n×d, scaled inputs) and the factor R (n×rank, B = R Rᵀ)
 * of a {@link PsdModel}.
 */
final class PsdRegressionCodec implements ModelCodec {

    @Override
    public String type() {
        return PsdModel.TYPE;
    }

    @Override
    public String description() {
        return "non-negative regression with a PSD model f(x) = v(x)^T B v(x), B = R R^T >= 0 "
                + "(Marteau-Ferey, Bach & Rudi 2020)";
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof NonNegativeRegressionModel<?> p && p.inner() instanceof PsdModel
                && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        NonNegativeRegressionModel<?> p = (NonNegativeRegressionModel<?>) model;
        PsdModel m = (PsdModel) p.inner();
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.put("rank", m.rank());
        num.set("points", JsonArrays.rows(m.points()));
        num.set("factor", JsonArrays.rows(m.factor()));
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        Kernel k = ModelDocs.kernel(h, where);
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        Matrix pts = JsonArrays.matrix(num.get("points"), h.d(), where + ": numbers.points");
        int rank = (int) ModelDocs.number(num, "rank", where + ": numbers");
        if (rank < 0) {
            throw new IllegalArgumentException(where + ": numbers.rank is negative");
        }
        Matrix r = rank == 0 ? Matrix.zeros(pts.rows(), 0)
                : JsonArrays.matrix(num.get("factor"), rank, where + ": numbers.factor");
        if (r.rows() != pts.rows()) {
            throw new IllegalArgumentException(where + ": " + pts.rows() + " points but the factor has "
                    + r.rows() + " rows");
        }
        Map<String, Object> diagnostics = ModelDocs.diagnostics(doc);
        return new NonNegativeRegressionModel<>(h, new PsdModel(k, pts, r, SolverDiagnostics.fromMap(diagnostics)),
                diagnostics);
    }
}
