package org.psdkit.engine;

import java.util.Map;
import java.util.function.IntFunction;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Pipeline;
import org.psdkit.psd.Anchors;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * An engine that fits over data that lives elsewhere. Implementations are services ({@link java.util.ServiceLoader},
 * {@code META-INF/services/org.psdkit.engine.DistributedEngine}) with a public no-argument constructor, which should
 * fail (e.g. with a {@link LinkageError}) when the runtime the engine needs is missing, so that a caller learns it
 * when loading the engine rather than in the middle of a fit.
 *
 * <p>Bad input (a missing location, a non-numeric value, a bad setting) is an {@link IllegalArgumentException}; a
 * failure of the engine itself (a lost executor, a job that failed past its retries) is an {@link EngineFailure}.
 */
public interface DistributedEngine {

    /** The engine's name ({@code spark}). */
    String name();

    /** Nyström KRR ({@link NystromKrrTrainer}) over the rows of {@code request.data()}. */
    KrrResult fitKrr(KrrRequest request);

    /** The Nyström PSD density (the primal solver of {@code PsdDensityEstimator}) over the rows of {@code request.data()}. */
    DensityResult fitDensity(DensityRequest request);

    /**
     * What a Nyström KRR fit needs.
     *
     * @param data    the training rows: the target column and d features
     * @param target  the target column's name, or null for the last column
     * @param master  where the engine runs (Spark: the master URL), or null for the engine's default
     * @param kernel  the kernel
     * @param options λ, centring, anchors (their number, method and seed), CG tolerance, cap and storage route
     */
    record KrrRequest(DataSource data, String target, String master, Kernel kernel,
                      NystromKrrTrainer.Options options) {
        public KrrRequest {
            if (data == null || kernel == null || options == null) {
                throw new IllegalArgumentException("krr request: data, kernel and options must not be null");
            }
        }
    }

    /**
     * A fitted KRR model with what a report needs.
     *
     * @param model        an ordinary krr model (points = anchors)
     * @param n            training rows
     * @param d            features
     * @param trainMetrics rmse, mae and r2 on the training rows
     */
    record KrrResult(Pipeline<KernelRidge> model, long n, int d, Map<String, Double> trainMetrics) {
    }

    /**
     * What a Nyström PSD density fit needs.
     *
     * @param data         the training rows: every column is a feature
     * @param master       where the engine runs (Spark: the master URL), or null for the engine's default
     * @param kernel       the kernel
     * @param base         the base measure for d features
     * @param options      the solver's options (the primal solver is used)
     * @param anchors      the number m ≥ 1 of anchors
     * @param anchorMethod how the anchors are chosen
     * @param seed         the anchors' seed
     */
    record DensityRequest(DataSource data, String master, Kernel kernel, IntFunction<BaseMeasure> base,
                          PsdDensityOptions options, int anchors, Anchors.Method anchorMethod, long seed) {
        public DensityRequest {
            if (data == null || kernel == null || base == null || options == null) {
                throw new IllegalArgumentException("density request: data, kernel, base and options must not be "
                        + "null");
            }
            if (anchorMethod == null) {
                anchorMethod = Anchors.Method.UNIFORM;
            }
        }
    }

    /**
     * A fitted density with what a report needs.
     *
     * @param model       an ordinary psd-density model
     * @param n           training rows
     * @param d           features
     * @param trainLoglik mean log-density over the training rows
     */
    record DensityResult(DensityPipeline model, long n, int d, double trainLoglik) {
    }

    /**
     * A job of the engine failed (an executor lost, a task failed past its retries, the cluster gone); the message is
     * the engine's reason on one line.
     */
    final class EngineFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public EngineFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
