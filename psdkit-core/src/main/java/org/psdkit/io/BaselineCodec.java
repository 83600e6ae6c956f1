package org.psdkit.io;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.psdkit.data.JsonArrays;
import org.psdkit.psd.SolverDiagnostics;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.KernelExpansionModel;
import org.psdkit.regression.psd.NonNegativeRegressionModel;

/**
 * Model files of types {@code ncm}, {@code pnm}, {@code glm} (Marteau-Ferey, Bach &amp; Rudi 2020, App. D): the
 * points (n×d, scaled inputs) and the coefficients α of a {@link KernelExpansionModel}.
 */
final class BaselineCodec extends PipelineCodec<NonNegativeRegressionModel<?>> {
    private final BaselineTrainer.Method method;

    @SuppressWarnings("unchecked")
    private BaselineCodec(BaselineTrainer.Method method, String description) {
        super(method.type(), description,
                (Class<NonNegativeRegressionModel<?>>) (Class<?>) NonNegativeRegressionModel.class,
                KernelExpansionModel.class);
        this.method = method;
    }

    static BaselineCodec ncm() {
        return new BaselineCodec(BaselineTrainer.Method.NCM,
                "non-negative coefficients f = sum a_i k(x, x_i), a >= 0 (Marteau-Ferey, Bach & Rudi 2020, App. D)");
    }

    static BaselineCodec pnm() {
        return new BaselineCodec(BaselineTrainer.Method.PNM, "partially non-negative f = sum a_i k(x, x_i) with "
                + "f(x_i) >= 0 at training points (Marteau-Ferey, Bach & Rudi 2020, App. D)");
    }

    static BaselineCodec glm() {
        return new BaselineCodec(BaselineTrainer.Method.GLM,
                "exponential model f = exp(sum a_i k(x, x_i)) (Marteau-Ferey, Bach & Rudi 2020, App. D)");
    }

    @Override
    void writeNumbers(NonNegativeRegressionModel<?> model, ObjectNode num) {
        KernelExpansionModel m = (KernelExpansionModel) model.inner();
        num.set("points", JsonArrays.rows(m.points()));
        num.set("alpha", JsonArrays.of(m.coefficients()));
    }

    @Override
    NonNegativeRegressionModel<?> read(Doc doc) {
        Expansion ex = doc.expansion("points", "alpha");
        Map<String, Object> diagnostics = doc.diagnostics();
        return new NonNegativeRegressionModel<>(doc.header(), new KernelExpansionModel(type(), doc.kernel(),
                ex.points(), ex.coefficients(), method.exponential(), SolverDiagnostics.fromMap(diagnostics)),
                typedOrRecorded(diagnostics));
    }

    /** The file's diagnostics as {@link SolverDiagnostics} when they hold its keys, else as they were recorded. */
    static org.psdkit.model.Diagnostics typedOrRecorded(Map<String, Object> diagnostics) {
        SolverDiagnostics t = SolverDiagnostics.typed(diagnostics);
        return t != null ? t : org.psdkit.model.Diagnostics.recorded(diagnostics);
    }
}
