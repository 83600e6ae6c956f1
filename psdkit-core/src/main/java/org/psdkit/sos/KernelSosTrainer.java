package org.psdkit.sos;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.optim.sdp.SdpResult;

/**
 * Fits Kernel SoS ({@link KernelSos}; Bagnell &amp; Farahmand 2015, eq. 2, solved as an SDP) on raw data: the scaler
 * is fitted on the training rows and kept in the model. Progress is reported once per interior-point iteration, with
 * the relative duality gap |⟨C,X⟩ − bᵀy| / (1 + |⟨C,X⟩| + |bᵀy|) as its value.
 *
 * <pre>{@code
 * Pipeline<KernelSos> m = new KernelSosTrainer(Kernels.parse("gaussian(sigma=0.25) + 0.01*delta"),
 *         KernelSos.Options.of(0.01), Scaler.Kind.NONE).fit(train);
 * }</pre>
 *
 * @param kernel  the kernel k
 * @param options λ and the interior-point options (validated by their record)
 * @param scale   the feature scaling fitted on the training data
 */
public record KernelSosTrainer(Kernel kernel, KernelSos.Options options, Scaler.Kind scale)
        implements Trainer<Pipeline<KernelSos>> {

    public KernelSosTrainer {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
    }

    /**
     * Fits; throws {@link IllegalStateException} with the solver's diagnostics when the SDP is not solved (see
     * {@link KernelSos#fit}).
     */
    @Override
    public Pipeline<KernelSos> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": Kernel SoS needs a numeric target");
        }
        Scaler scaler = Scaler.fit(scale, train.x());
        org.psdkit.linalg.Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "kernel-sos");
        KernelSos m = KernelSos.fit(kernel, x, train.y(), withListener(listener));
        ModelHeader h = ModelHeader.of(KernelSos.TYPE, train, scaler, kernel.spec(), hyperParameters(options));
        return new Pipeline<>(h, m, diagnostics(m));
    }

    /** The options with the progress reports added to the solver's own listener (if any). */
    private KernelSos.Options withListener(ProgressListener listener) {
        if (listener == null || listener == ProgressListener.NONE) {
            return options;
        }
        SdpOptions sdp = options.sdp();
        ProgressListener own = sdp.listener();
        ProgressListener both = own == null || own == ProgressListener.NONE ? listener : e -> {
            own.onProgress(e);
            listener.onProgress(e);
        };
        return new KernelSos.Options(options.lambda(), sdp.withListener(both), options.route());
    }

    /** The options as written in model files ({@code lambda}). */
    public static Map<String, Object> hyperParameters(KernelSos.Options o) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda", o.lambda());
        return h;
    }

    /**
     * What a fit reports: SDP status, iterations, relative gap and infeasibilities, the objective of eq. 2, the
     * smallest eigenvalue of the symmetrised LMI, the smallest α and the solver's seconds.
     */
    public static Map<String, Object> diagnostics(KernelSos m) {
        SdpResult r = m.sdpResult();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("status", r.status().label());
        d.put("iterations", r.iterations());
        d.put("relativeGap", r.relativeGap());
        d.put("primalInfeasibility", r.primalInfeasibility());
        d.put("dualInfeasibility", r.dualInfeasibility());
        d.put("objective", m.objective());
        d.put("lmiMinEigenvalue", m.lmiMinEigenvalue());
        d.put("alphaMin", m.alphaMin());
        d.put("seconds", r.seconds());
        return d;
    }
}
