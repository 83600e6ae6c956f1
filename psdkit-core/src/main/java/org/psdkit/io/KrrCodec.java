package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrAutoTrainer;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.nystrom.NystromKrrAutoTrainer;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * Model files of type {@code krr}: points, coefficients α and offset of {@link KernelRidge}; a model of several
 * targets writes {@code offsets} (one per target) and {@code alphas} (one row per point, one column per target)
 * instead of {@code offset} and {@code alpha}.
 */
final class KrrCodec extends PipelineCodec<Pipeline<?>> {

    KrrCodec() {
        super(KrrTrainer.TYPE, "kernel ridge regression, (K + lambda I) alpha = y (or the representer form with a "
                + "nugget)", plain(), KernelRidge.class);
    }

    @Override
    void writeNumbers(Pipeline<?> model, ObjectNode num) {
        KernelRidge m = (KernelRidge) model.inner();
        if (m.targets() > 1) {
            num.set("offsets", JsonArrays.of(m.offsets()));
            num.set("alphas", JsonArrays.rows(m.alphas()));
            num.set("points", JsonArrays.rows(m.points()));
            return;
        }
        num.put("offset", m.offset());
        num.set("alpha", JsonArrays.of(m.alpha()));
        num.set("points", JsonArrays.rows(m.points()));
    }

    /** The diagnostics record the file holds: an automatic fit's, a Nyström fit's, or an exact fit's. */
    static org.psdkit.model.Diagnostics typed(java.util.Map<String, Object> stored) {
        Object route = stored.get("route");
        boolean nystrom = route instanceof String r && r.startsWith("nystrom");
        if (stored.containsKey("auto")) { // an automatic fit (fit krr --auto, with or without --anchors)
            return nystrom ? NystromKrrAutoTrainer.Fit.of(stored) : KrrAutoTrainer.Fit.of(stored);
        }
        return nystrom ? NystromKrrTrainer.FitDiagnostics.of(stored) : KrrTrainer.Fit.of(stored);
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
        if (doc.numbers().has("alphas")) {
            double[] offsets = doc.doubles("offsets");
            Matrix pts = doc.matrix("points", doc.header().d());
            Matrix a = doc.matrix("alphas", offsets.length);
            if (a.rows() != pts.rows() || offsets.length < 2) {
                throw new IllegalArgumentException(doc.where() + ": " + pts.rows() + " points but " + a.rows()
                        + " rows of alphas for " + offsets.length + " targets");
            }
            KernelRidge m = KernelRidge.of(doc.kernel(), pts, a, offsets, opts,
                    new SpdSolve.Diagnostics("stored", 0, 0, 0));
            return KrrTrainer.of(doc.header(), m, TypedDiagnostics.rebuild(doc.diagnostics(), KrrCodec::typed));
        }
        Expansion ex = doc.expansion("points", "alpha");
        KernelRidge m = KernelRidge.of(doc.kernel(), ex.points(), ex.coefficients(), doc.number("offset"), opts,
                new SpdSolve.Diagnostics("stored", 0, 0, 0));
        return KrrTrainer.of(doc.header(), m, TypedDiagnostics.rebuild(doc.diagnostics(), KrrCodec::typed));
    }
}
