package org.psdkit.density;

import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits a Gaussian kernel density estimate ({@link Kde}) on raw data. Without a fixed bandwidth, h maximises the
 * leave-one-out log-likelihood over {@link Kde}'s log grid around Silverman's rule, refined by golden-section search
 * (likelihood cross-validation in closed form, no refits). The scaler is fitted on the raw training rows and kept in
 * the model; the training target, if any, is ignored.
 *
 * @param bandwidth the bandwidth h &gt; 0 (scaled coordinates), or null to choose it by leave-one-out likelihood
 * @param scale     the feature scaling fitted on the training data
 */
public record KdeTrainer(Double bandwidth, Scaler.Kind scale) implements Trainer<DensityPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = Kde.TYPE;

    public KdeTrainer {
        if (bandwidth != null && (!(bandwidth > 0) || !Double.isFinite(bandwidth))) {
            throw new IllegalArgumentException("bandwidth must be > 0, got " + bandwidth);
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        Scaler scaler = Scaler.fit(scale, train.x());
        Matrix x = scaler.apply(train.x());
        Kde m = bandwidth == null ? Kde.fit(x) : new Kde(x.copy(), bandwidth, Double.NaN);
        return DensityPipeline.of(train, scaler, null, hyperParameters(), m);
    }

    /** The options as model files hold them: none (the bandwidth is one of the model's numbers). */
    public Map<String, Object> hyperParameters() {
        return Map.of();
    }
}
