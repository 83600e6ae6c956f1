package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.Svr;

/**
 * Model files of type {@code svr}: support vectors, coefficients β_i and bias of {@link Svr}. A ν-SVR's options hold
 * {@code nu} instead of {@code epsilon}, and its numbers the ε the fit found.
 */
final class SvrCodec extends PipelineCodec<Pipeline<?>> {

    SvrCodec() {
        super(Svr.TYPE, "epsilon-insensitive support vector regression (SMO)", plain(), Svr.class);
    }

    @Override
    void writeNumbers(Pipeline<?> model, ObjectNode num) {
        Svr m = (Svr) model.inner();
        num.put("bias", m.bias());
        if (model.hyperParameters().get("nu") != null) {
            num.put("epsilon", m.epsilon()); // the ν-SVR's ε, found by the fit
        }
        num.set("coef", JsonArrays.of(m.coef()));
        num.set("supportVectors", JsonArrays.rows(m.supportVectors()));
    }

    @Override
    Pipeline<?> read(Doc doc) {
        double c = doc.option("C");
        boolean nu = doc.options() != null && doc.options().has("nu");
        double eps = nu ? doc.number("epsilon") : doc.option("epsilon");
        if (!(c > 0) || !(eps >= 0)) {
            throw new IllegalArgumentException(doc.where() + ": options: need C > 0 and epsilon >= 0, got C = " + c
                    + ", epsilon = " + eps);
        }
        Expansion ex = doc.expansion("supportVectors", "coef");
        Svr m = new Svr(doc.kernel(), ex.points(), ex.coefficients(), doc.number("bias"), c, eps,
                new Svr.Diagnostics(0, 0, true, Double.NaN, Double.NaN, 0));
        return org.psdkit.regression.SvrTrainer.of(doc.header(), m, TypedDiagnostics.rebuild(doc.diagnostics(), Svr.Diagnostics::of));
    }
}
