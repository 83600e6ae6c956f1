package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;

/** Model files of type {@code krr}: points, coefficients α and offset of {@link KernelRidge}. */
final class KrrCodec extends PipelineCodec<Pipeline<?>> {

    KrrCodec() {
        super(KrrTrainer.TYPE, "kernel ridge regression, (K + lambda I) alpha = y (or the representer form with a "
                + "nugget)", plain(), KernelRidge.class);
    }

    @Override
    void writeNumbers(Pipeline<?> model, ObjectNode num) {
        KernelRidge m = (KernelRidge) model.inner();
        num.put("offset", m.offset());
        num.set("alpha", JsonArrays.of(m.alpha()));
        num.set("points", JsonArrays.rows(m.points()));
    }

    @Override
    Pipeline<?> read(Doc doc) {
        KernelRidge.Options opts;
        try {
            opts = new KernelRidge.Options(doc.option("lambda"), KernelRidge.Form.parse(doc.optionText("form")),
                    doc.option("nugget"), ModelDocs.bool(doc.options(), "center", false, doc.where() + ": options"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith(doc.where()) ? e.getMessage()
                    : doc.where() + ": options: " + e.getMessage(), e);
        }
        Expansion ex = doc.expansion("points", "alpha");
        KernelRidge m = KernelRidge.of(doc.kernel(), ex.points(), ex.coefficients(), doc.number("offset"), opts,
                new SpdSolve.Diagnostics("stored", 0, 0, 0));
        return KrrTrainer.of(doc.header(), m, TypedDiagnostics.rebuild(doc.diagnostics(), KrrTrainer.Fit::of));
    }
}
