package org.psdkit.density;

import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Nystrom;

/**
 * Fits the NCM density baseline ({@link Baselines#ncm}): f = Σ α_i k(·, x_i) with non-negative coefficients on the
 * simplex (Marteau-Ferey, Bach &amp; Rudi 2020, App. D, eq. 35). The scaler is fitted on the raw training rows and
 * kept in the model; the training target, if any, is ignored.
 *
 * <pre>{@code
 * DensityPipeline m = new NcmDensityTrainer(BaselineOptions.of(Kernels.parse("gaussian(sigma=0.3)"),
 *         new BaseMeasure.Lebesgue(), 1e-3).withScale(Scaler.Kind.ZSCORE)).fit(data);
 * }</pre>
 *
 * @param options kernel, base measure, λ, tolerance, budget, scaling and Nyström anchors
 */
public record NcmDensityTrainer(BaselineOptions options) implements Trainer<DensityPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = Baselines.NCM;

    public NcmDensityTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        Kernel kernel = options.kernel();
        Nystrom nystrom = options.nystrom();
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "ncm density");
        Matrix anch = nystrom.select(kernel, x);
        LinearDensity m = Baselines.ncm(x, anch, kernel, options.base(), options.lambda(), options.tolerance(),
                options.maxIterations());
        return DensityPipeline.of(train, scaler, m.kernel().spec(), hyperParameters(), m);
    }

    /**
     * The options as model files hold them: {@code {"lambda": "0.001"}}, plus {@code anchors}, {@code anchor_method}
     * and {@code anchor_seed} for a Nyström model.
     */
    public Map<String, Object> hyperParameters() {
        return options.hyperParameters();
    }
}
