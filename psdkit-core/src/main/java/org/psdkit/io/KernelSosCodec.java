package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.sos.KernelSos;

/** Model files of type {@code kernel-sos}: the points and coefficients α of {@link KernelSos}. */
final class KernelSosCodec implements ModelCodec {

    @Override
    public String type() {
        return KernelSos.TYPE;
    }

    @Override
    public String description() {
        return "Kernel SoS (OPT 2015) by its SDP: a non-negative-coefficients model with kernel k^2 under the "
                + "symmetrised LMI G diag(a) + diag(a) G >= 0";
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof Pipeline<?> p && p.inner() instanceof KernelSos && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        Pipeline<?> p = (Pipeline<?>) model;
        KernelSos m = (KernelSos) p.inner();
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.set("alpha", JsonArrays.of(m.alpha()));
        num.set("points", JsonArrays.rows(m.points()));
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        Kernel k = ModelDocs.kernel(h, where);
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        double[] alpha = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
        Matrix pts = JsonArrays.matrix(num.get("points"), h.d(), where + ": numbers.points");
        if (pts.rows() != alpha.length) {
            throw new IllegalArgumentException(where + ": " + pts.rows() + " points but " + alpha.length
                    + " coefficients");
        }
        return new Pipeline<>(h, KernelSos.of(k, pts, alpha), ModelDocs.diagnostics(doc));
    }
}
