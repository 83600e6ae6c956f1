package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;

/** Model files of type {@code krr}: points, coefficients α and offset of {@link KernelRidge}. */
final class KrrCodec implements ModelCodec {

    @Override
    public String type() {
        return KrrTrainer.TYPE;
    }

    @Override
    public String description() {
        return "kernel ridge regression, (K + lambda I) alpha = y (or the representer form with a nugget)";
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof Pipeline<?> p && p.inner() instanceof KernelRidge && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        Pipeline<?> p = (Pipeline<?>) model;
        KernelRidge m = (KernelRidge) p.inner();
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.put("offset", m.offset());
        num.set("alpha", JsonArrays.of(m.alpha()));
        num.set("points", JsonArrays.rows(m.points()));
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        Kernel k = ModelDocs.kernel(h, where);
        JsonNode o = doc.get("options");
        KernelRidge.Options opts;
        try {
            opts = new KernelRidge.Options(ModelDocs.number(o, "lambda", where + ": options"),
                    KernelRidge.Form.parse(ModelDocs.text(o, "form", where + ": options")),
                    ModelDocs.number(o, "nugget", where + ": options"),
                    ModelDocs.bool(o, "center", false, where + ": options"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith(where) ? e.getMessage()
                    : where + ": options: " + e.getMessage(), e);
        }
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        double[] alpha = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
        Matrix pts = JsonArrays.matrix(num.get("points"), h.d(), where + ": numbers.points");
        double offset = ModelDocs.number(num, "offset", where + ": numbers");
        if (pts.rows() != alpha.length) {
            throw new IllegalArgumentException(where + ": " + pts.rows() + " points but " + alpha.length
                    + " coefficients");
        }
        KernelRidge m = KernelRidge.of(k, pts, alpha, offset, opts, new SpdSolve.Diagnostics("stored", 0, 0, 0));
        return KrrTrainer.of(h, m, ModelDocs.diagnostics(doc));
    }
}
