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
 * Fits the GLM density baseline ({@link Baselines#glm}): p = exp(g)/Z·ν with the normaliser Z estimated by Monte
 * Carlo from {@link Baselines#GLM_MC_SAMPLES} seeded draws of ν (Marteau-Ferey, Bach &amp; Rudi 2020, App. D,
 * eq. 33). ν must be a probability measure. The scaler is fitted on the raw training rows and kept in the model; the
 * training target, if any, is ignored. A fit whose normaliser an independent estimate contradicts fails with
 * {@link IllegalStateException} ({@link Baselines#requireReliableNormaliser}).
 *
 * <pre>{@code
 * DensityPipeline m = new GlmDensityTrainer(BaselineOptions.of(Kernels.parse("gaussian(sigma=0.3)"),
 *         BaseMeasure.Box.cube(1, -4, 4), 1e-3).withScale(Scaler.Kind.ZSCORE)).fit(data);
 * }</pre>
 *
 * @param options kernel, base measure, λ, tolerance, budget, the seed of the normaliser's draws, scaling and Nyström
 *                anchors
 */
public record GlmDensityTrainer(BaselineOptions options) implements Trainer<DensityPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = Baselines.GLM;

    public GlmDensityTrainer {
        ParameterException.required("options", options);
        if (!options.base().isProbability()) {
            throw new ParameterException("base", "must be a probability measure for glm-density (gaussian(...) or "
                    + "box(...)), got " + options.base().spec());
        }
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        Kernel kernel = options.kernel();
        Nystrom nystrom = options.nystrom();
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "glm density");
        GlmDensity m = Baselines.glm(x, nystrom.select(kernel, x), kernel, options.base(), options.lambda(),
                options.tolerance(), options.maxIterations(), options.seed(), nystrom.rankThreshold());
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
