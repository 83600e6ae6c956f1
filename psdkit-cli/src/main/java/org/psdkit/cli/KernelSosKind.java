package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.KernelSos;
import org.psdkit.optim.sdp.SdpResult;

/** Model type {@code kernel-sos}: Bagnell &amp; Farahmand's Kernel SoS fitted by their SDP ({@link KernelSos}). */
public final class KernelSosKind implements ModelKind {
    public static final String TYPE = KernelSos.TYPE;

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String description() {
        return "Kernel SoS (OPT 2015) by its SDP: a non-negative-coefficients model with kernel k^2 under the "
                + "symmetrised LMI G diag(a) + diag(a) G >= 0";
    }

    static void store(ObjectNode doc, KernelSos m, double lambda) {
        ((ObjectNode) doc.get("options")).put("lambda", lambda);
        ObjectNode num = doc.putObject("numbers");
        num.set("alpha", JsonArrays.of(m.alpha()));
        num.set("points", JsonArrays.rows(m.points()));
        ObjectNode d = doc.putObject("diagnostics");
        SdpResult r = m.sdpResult();
        d.put("status", r.status().label());
        d.put("iterations", r.iterations());
        d.put("relativeGap", r.relativeGap());
        d.put("primalInfeasibility", r.primalInfeasibility());
        d.put("dualInfeasibility", r.dualInfeasibility());
        d.put("objective", m.objective());
        d.put("lmiMinEigenvalue", m.lmiMinEigenvalue());
        d.put("alphaMin", m.alphaMin());
        d.put("seconds", r.seconds());
    }

    @Override
    public LoadedModel load(JsonNode doc, Path file) {
        ModelDocs.Header h = ModelDocs.header(doc, file);
        String where = "model file " + file;
        Kernel k = h.kernel(where);
        JsonNode num = doc.get("numbers");
        double[] alpha = JsonArrays.doubles(num == null ? null : num.get("alpha"), where + ": numbers.alpha");
        Matrix pts = JsonArrays.matrix(num.get("points"), h.featureNames().length, where + ": numbers.points");
        if (pts.rows() != alpha.length) {
            throw new IllegalArgumentException(where + ": " + pts.rows() + " points but " + alpha.length
                    + " coefficients");
        }
        return new StandardModel(h, KernelSos.of(k, pts, alpha));
    }
}
