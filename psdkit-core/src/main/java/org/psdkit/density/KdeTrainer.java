package org.psdkit.density;

import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits a Gaussian kernel density estimate ({@link Kde}) on raw data. With {@link Bandwidth#LEAVE_ONE_OUT}, h
 * maximises the leave-one-out log-likelihood over {@link Kde}'s log grid around Silverman's rule, refined by
 * golden-section search (likelihood cross-validation in closed form, no refits: a search no grid of refitted
 * trainers reproduces); with {@link Bandwidth#FIXED} h is given. A k-fold choice among fixed bandwidths is
 * {@code GridSearch.over(hs, h -> new KdeTrainer(options.withBandwidth(h)), …)}. The scaler is fitted on the raw
 * training rows and kept in the model; the training target, if any, is ignored.
 *
 * <pre>{@code
 * DensityPipeline loo = new KdeTrainer(KdeTrainer.Options.leaveOneOut()).fit(data);
 * DensityPipeline fixed = new KdeTrainer(KdeTrainer.Options.fixed(0.3).withScale(Scaler.Kind.ZSCORE)).fit(data);
 * }</pre>
 *
 * @param options how the bandwidth is chosen, and the scaling
 */
public record KdeTrainer(Options options) implements Trainer<DensityPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = Kde.TYPE;

    /** How the bandwidth is set. */
    public enum Bandwidth {
        /** The given bandwidth. */
        FIXED,
        /** The leave-one-out likelihood maximiser ({@link Kde#fit}). */
        LEAVE_ONE_OUT
    }

    /**
     * @param choice    how the bandwidth is set
     * @param bandwidth h &gt; 0 (scaled coordinates) for {@link Bandwidth#FIXED}; NaN for
     *                  {@link Bandwidth#LEAVE_ONE_OUT}
     * @param scale     the feature scaling fitted on the training data
     */
    public record Options(Bandwidth choice, double bandwidth, Scaler.Kind scale) {

        /** Default scaling: none. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("choice", choice);
            if (choice == Bandwidth.FIXED) {
                if (!(bandwidth > 0) || !Double.isFinite(bandwidth)) {
                    throw new ParameterException("bandwidth", "must be > 0, got " + bandwidth);
                }
            } else if (!Double.isNaN(bandwidth)) {
                throw new ParameterException("bandwidth", "is chosen by leave-one-out likelihood, got " + bandwidth);
            }
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** The bandwidth h, no scaling. */
        public static Options fixed(double h) {
            return new Options(Bandwidth.FIXED, h, DEFAULT_SCALE);
        }

        /** The bandwidth by leave-one-out likelihood, no scaling. */
        public static Options leaveOneOut() {
            return new Options(Bandwidth.LEAVE_ONE_OUT, Double.NaN, DEFAULT_SCALE);
        }

        /** These options with the fixed bandwidth h. */
        public Options withBandwidth(double h) {
            return new Options(Bandwidth.FIXED, h, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(choice, bandwidth, s);
        }
    }

    public KdeTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        Kde m = options.choice() == Bandwidth.LEAVE_ONE_OUT ? Kde.fit(x)
                : new Kde(x.copy(), options.bandwidth(), Double.NaN);
        return DensityPipeline.of(train, scaler, null, hyperParameters(), m);
    }

    /** The options as model files hold them: none (the bandwidth is one of the model's numbers). */
    public Map<String, Object> hyperParameters() {
        return Map.of();
    }
}
