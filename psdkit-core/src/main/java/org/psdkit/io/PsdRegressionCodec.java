package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.psdkit.data.JsonArrays;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.SolverDiagnostics;
import org.psdkit.regression.psd.NonNegativeRegressionModel;

/**
 * Model files of type {@code psd-regression}: the points (n×d, scaled inputs) and the factor R (n×rank, B = R Rᵀ)
 * of a {@link PsdModel}.
 */
final class PsdRegressionCodec extends PipelineCodec<NonNegativeRegressionModel<?>> {

    @SuppressWarnings("unchecked")
    PsdRegressionCodec() {
        super(PsdModel.TYPE, "non-negative regression with a PSD model f(x) = v(x)^T B v(x), B = R R^T >= 0 "
                + "(Marteau-Ferey, Bach & Rudi 2020)",
                (Class<NonNegativeRegressionModel<?>>) (Class<?>) NonNegativeRegressionModel.class, PsdModel.class);
    }

    @Override
    void writeNumbers(NonNegativeRegressionModel<?> model, ObjectNode num) {
        PsdModel m = (PsdModel) model.inner();
        num.put("rank", m.rank());
        num.set("points", JsonArrays.rows(m.points()));
        num.set("factor", JsonArrays.rows(m.factor()));
    }

    @Override
    NonNegativeRegressionModel<?> read(Doc doc) {
        Matrix pts = doc.matrix("points", doc.header().d());
        int rank = (int) doc.number("rank");
        if (rank < 0) {
            throw new IllegalArgumentException(doc.where() + ": numbers.rank is negative");
        }
        Matrix r = rank == 0 ? Matrix.zeros(pts.rows(), 0) : doc.matrix("factor", rank);
        if (r.rows() != pts.rows()) {
            throw new IllegalArgumentException(doc.where() + ": " + pts.rows() + " points but the factor has "
                    + r.rows() + " rows");
        }
        Map<String, Object> diagnostics = doc.diagnostics();
        return new NonNegativeRegressionModel<>(doc.header(), new PsdModel(doc.kernel(), pts, r,
                SolverDiagnostics.fromMap(diagnostics)), BaselineCodec.typedOrRecorded(diagnostics));
    }
}
