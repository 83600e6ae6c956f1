package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.data.JsonArrays;
import org.psdkit.model.Pipeline;
import org.psdkit.sos.KernelSos;
import org.psdkit.sos.KernelSosTrainer;

/** Model files of type {@code kernel-sos}: the points and coefficients α of {@link KernelSos}. */
final class KernelSosCodec extends PipelineCodec<Pipeline<?>> {

    KernelSosCodec() {
        super(KernelSos.TYPE, "Kernel SoS (Bagnell & Farahmand 2015) by its SDP: a non-negative-coefficients model "
                + "with kernel k^2 under the symmetrised LMI G diag(a) + diag(a) G >= 0", plain(), KernelSos.class);
    }

    @Override
    void writeNumbers(Pipeline<?> model, ObjectNode num) {
        KernelSos m = (KernelSos) model.inner();
        num.set("alpha", JsonArrays.of(m.alpha()));
        num.set("points", JsonArrays.rows(m.points()));
    }

    @Override
    Pipeline<?> read(Doc doc) {
        Expansion ex = doc.expansion("points", "alpha");
        return KernelSosTrainer.of(doc.header(), KernelSos.of(doc.kernel(), ex.points(), ex.coefficients()),
                TypedDiagnostics.rebuild(doc.diagnostics(), KernelSosTrainer.Fit::of));
    }
}
