package org.psdkit.io;

import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.data.JsonArrays;

/** Model files of type {@code quantile}: the cone numbers; the levels are the option {@code taus}. */
final class QuantileCodec extends ConeDocs<QuantilePipeline> {

    QuantileCodec() {
        super(QuantileTrainer.TYPE, "multiple quantile regression without crossing (median + cumulative non-negative "
                + "PSD increments)", QuantilePipeline.class);
    }

    @Override
    Parts parts(QuantilePipeline p) {
        QuantileModel m = p.inner();
        return new Parts(m.functions(), m.directions(), m.scaling());
    }

    @Override
    QuantilePipeline build(Numbers c, Doc doc) {
        QuantileRegression.Method method = QuantileRegression.Method.parse(doc.optionText("method"));
        double[] taus = JsonArrays.doubles(doc.options().get("taus"), doc.where() + ": options.taus");
        if (taus.length != c.directions().length) {
            throw new IllegalArgumentException(doc.where() + ": " + taus.length + " levels but "
                    + c.directions().length + " outputs");
        }
        QuantileModel m = new QuantileModel(taus, method, c.kernel(), c.lambda(), c.frobeniusWeight(),
                c.functions(), c.directions(), c.scaling(), c.solver());
        return new QuantilePipeline(c.header(), m, c.typedDiagnostics(), c.points(), c.rangeMin(), c.rangeMax(), null);
    }
}
