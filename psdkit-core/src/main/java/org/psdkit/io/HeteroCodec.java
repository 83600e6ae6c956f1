package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.cone.hetero.HeteroModel;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.model.Model;

/**
 * Model files of type {@code hetero}: the cone numbers of {@link ConeDocs} plus {@code thetaMaxTrain} (the floor of
 * the predicted precision is relative to it); options {@code method, lambda, frobeniusWeight}.
 */
final class HeteroCodec implements ModelCodec {

    @Override
    public String type() {
        return HeteroTrainer.TYPE;
    }

    @Override
    public String description() {
        return "heteroscedastic Gaussian regression, eta = mu/v linear, theta = 1/v a PSD model (or pnm/ncm/glm)";
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof HeteroPipeline && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        HeteroPipeline p = (HeteroPipeline) model;
        HeteroModel m = p.inner();
        ObjectNode doc = ConeDocs.encode(p, m.functions(), m.directions(), m.scaling());
        ((ObjectNode) doc.get("numbers")).put("thetaMaxTrain", m.thetaMaxTrain());
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ConeDocs.Numbers c = ConeDocs.decode(doc, where);
        HeteroscedasticRegression.Method method = HeteroscedasticRegression.Method.parse(
                ModelDocs.text(doc.get("options"), "method", where + ": options"));
        if (c.directions().length != 2) {
            throw new IllegalArgumentException(where + ": a hetero model has 2 outputs, got "
                    + c.directions().length);
        }
        double thetaMax = ModelDocs.number(doc.get("numbers"), "thetaMaxTrain", where + ": numbers");
        HeteroModel m = new HeteroModel(method, c.kernel(), c.lambda(), c.frobeniusWeight(), c.functions(),
                c.directions(), c.scaling(), thetaMax, c.solver());
        return new HeteroPipeline(c.header(), m, c.diagnostics(), c.points(), c.rangeMin(), c.rangeMax(), null);
    }
}
