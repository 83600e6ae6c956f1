package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.data.JsonArrays;
import org.psdkit.model.Model;

/**
 * Model files of type {@code quantile}: the cone numbers of {@link ConeDocs}, one direction row per level; options
 * {@code method, taus, lambda, frobeniusWeight}.
 */
final class QuantileCodec implements ModelCodec {

    @Override
    public String type() {
        return QuantileTrainer.TYPE;
    }

    @Override
    public String description() {
        return "multiple quantile regression without crossing (median + cumulative non-negative PSD increments)";
    }

    @Override
    public boolean canEncode(Model model) {
        return model instanceof QuantilePipeline && type().equals(model.type());
    }

    @Override
    public ObjectNode encode(Model model) {
        QuantilePipeline p = (QuantilePipeline) model;
        QuantileModel m = p.inner();
        ObjectNode doc = ConeDocs.encode(p, m.functions(), m.directions(), m.scaling());
        ModelDocs.putDiagnostics(doc, model);
        return doc;
    }

    @Override
    public Model decode(JsonNode doc, String where) {
        ConeDocs.Numbers c = ConeDocs.decode(doc, where);
        JsonNode o = doc.get("options");
        QuantileRegression.Method method = QuantileRegression.Method.parse(
                ModelDocs.text(o, "method", where + ": options"));
        double[] taus = JsonArrays.doubles(o.get("taus"), where + ": options.taus");
        if (taus.length != c.directions().length) {
            throw new IllegalArgumentException(where + ": " + taus.length + " levels but " + c.directions().length
                    + " outputs");
        }
        QuantileModel m = new QuantileModel(taus, method, c.kernel(), c.lambda(), c.frobeniusWeight(),
                c.functions(), c.directions(), c.scaling(), c.solver());
        return new QuantilePipeline(c.header(), m, c.diagnostics(), c.points(), c.rangeMin(), c.rangeMax(), null);
    }
}
