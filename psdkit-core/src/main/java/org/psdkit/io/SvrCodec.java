package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.Svr;

/** Model files of type {@code svr}: support vectors, coefficients β and bias of {@link Svr}. */
final class SvrCodec implements ModelCodec {

    @Override
    public String type() {
        return Svr.TYPE;
    }

    @Override
    public String description() {
        return "epsilon-insensitive support vector regression (SMO)";
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof Pipeline<?> p && p.inner() instanceof Svr && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        Pipeline<?> p = (Pipeline<?>) model;
        Svr m = (Svr) p.inner();
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.put("bias", m.bias());
        num.set("coef", JsonArrays.of(m.coef()));
        num.set("supportVectors", JsonArrays.rows(m.supportVectors()));
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        Kernel k = ModelDocs.kernel(h, where);
        JsonNode o = doc.get("options");
        double c = ModelDocs.number(o, "C", where + ": options");
        double eps = ModelDocs.number(o, "epsilon", where + ": options");
        if (!(c > 0) || !(eps >= 0)) {
            throw new IllegalArgumentException(where + ": options: need C > 0 and epsilon >= 0, got C = " + c
                    + ", epsilon = " + eps);
        }
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        double[] coef = JsonArrays.doubles(num.get("coef"), where + ": numbers.coef");
        Matrix sv = JsonArrays.matrix(num.get("supportVectors"), h.d(), where + ": numbers.supportVectors");
        double bias = ModelDocs.number(num, "bias", where + ": numbers");
        if (sv.rows() != coef.length) {
            throw new IllegalArgumentException(where + ": " + sv.rows() + " support vectors but " + coef.length
                    + " coefficients");
        }
        Svr m = new Svr(k, sv, coef, bias, c, eps, new Svr.Diagnostics(0, 0, true, Double.NaN, Double.NaN, 0));
        return new Pipeline<>(h, m, ModelDocs.diagnostics(doc));
    }
}
