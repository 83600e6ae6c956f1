package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.cone.hetero.HeteroModel;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;

/** Model files of type {@code hetero}: the cone numbers plus {@code thetaMaxTrain}. */
final class HeteroCodec extends ConeDocs<HeteroPipeline> {

    HeteroCodec() {
        super(HeteroTrainer.TYPE, "heteroscedastic Gaussian regression, eta = mu/v linear, theta = 1/v a PSD model "
                + "(or pnm/ncm/glm)", HeteroPipeline.class);
    }

    @Override
    Parts parts(HeteroPipeline p) {
        HeteroModel m = p.inner();
        return new Parts(m.functions(), m.directions(), m.scaling());
    }

    @Override
    void writeExtra(HeteroPipeline p, ObjectNode num) {
        num.put("thetaMaxTrain", p.inner().thetaMaxTrain());
    }

    @Override
    HeteroPipeline build(Numbers c, Doc doc) {
        HeteroscedasticRegression.Method method = HeteroscedasticRegression.Method.parse(doc.optionText("method"));
        if (c.directions().length != 2) {
            throw new IllegalArgumentException(doc.where() + ": a hetero model has 2 outputs, got "
                    + c.directions().length);
        }
        HeteroModel m = new HeteroModel(method, c.kernel(), c.lambda(), c.frobeniusWeight(), c.functions(),
                c.directions(), c.scaling(), doc.number("thetaMaxTrain"), c.solver());
        return new HeteroPipeline(c.header(), m, c.typedDiagnostics(), c.points(), c.rangeMin(), c.rangeMax(), null);
    }
}
