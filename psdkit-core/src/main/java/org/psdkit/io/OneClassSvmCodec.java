package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.classify.OneClassSvm;
import org.psdkit.classify.OneClassSvmTrainer;
import org.psdkit.classify.SvmDecision;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.JsonArrays;

/**
 * Model files of type {@code one-class-svm}: support vectors (scaled space), coefficients α_i and bias −ρ of
 * {@link OneClassSvm}; {@code options.nu}, the solver's report in {@code diagnostics}.
 */
final class OneClassSvmCodec extends PipelineCodec<OneClassSvm> {

    OneClassSvmCodec() {
        super(OneClassSvmTrainer.TYPE, "one-class SVM for novelty detection (nu, SMO)", OneClassSvm.class,
                SvmDecision.class);
    }

    @Override
    void writeNumbers(OneClassSvm model, ObjectNode num) {
        SvmDecision d = model.inner();
        num.put("bias", d.bias());
        num.set("coef", JsonArrays.of(d.coef()));
        num.set("supportVectors", JsonArrays.rows(d.supportVectors()));
    }

    @Override
    OneClassSvm read(Doc doc) {
        double nu = doc.option("nu");
        if (!(nu > 0 && nu <= 1)) {
            throw new IllegalArgumentException(doc.where() + ": options: nu must be in (0, 1], got " + nu);
        }
        Expansion ex = doc.expansion("supportVectors", "coef");
        SvmDecision d = new SvmDecision(doc.kernel(), ex.points(), ex.coefficients(), doc.number("bias"));
        return new OneClassSvm(doc.header(), d, TypedDiagnostics.rebuild(doc.diagnostics(), SvmTrainer.Fit::of));
    }
}
