package org.psdkit.sos;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
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
 * Pipeline<KernelSos> m = new KernelSosTrainer(KernelSosTrainer.Options.of(
 *         Kernels.parse("gaussian(sigma=0.25) + 0.01*delta"), 0.01)).fit(train);
 * }</pre>
 *
 * @param options the kernel, λ, the interior-point options, the solver route and the scaling (validated by their
 *                record)
 */
public record KernelSosTrainer(Options options) implements Trainer<Pipeline<KernelSos>> {

    /**
     * Everything a Kernel SoS fit takes; the constructor checks every field.
     *
     * @param kernel the kernel k (required)
     * @param lambda regularisation λ ≥ 0 of the paper's objective (finite)
     * @param sdp    interior-point options ({@code null}: {@link SdpOptions#defaults()})
     * @param route  the solver route ({@code null}: {@link #DEFAULT_ROUTE})
     * @param scale  the feature scaling fitted on the training data ({@code null}: {@link #DEFAULT_SCALE})
     */
    public record Options(Kernel kernel, double lambda, SdpOptions sdp, KernelSos.Route route, Scaler.Kind scale) {
        /** λ when none is given (the command line's {@code --lambda} default). */
        public static final double DEFAULT_LAMBDA = 0.01;
        /** The solver specialised to eq. 2 by default. */
        public static final KernelSos.Route DEFAULT_ROUTE = KernelSos.Route.SPECIALISED;
        /** No feature scaling by default. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("kernel", kernel);
            ParameterException.nonNegative("lambda", lambda);
            if (sdp == null) {
                sdp = SdpOptions.defaults();
            }
            if (route == null) {
                route = DEFAULT_ROUTE;
            }
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** λ with the default interior-point options and route ({@code KernelSos.Options.of(λ)}), unscaled. */
        public static Options of(Kernel kernel, double lambda) {
            return new Options(kernel, lambda, SdpOptions.defaults(), DEFAULT_ROUTE, DEFAULT_SCALE);
        }

        /** The trainer's options from the solver's ({@link KernelSos.Options}). */
        public static Options of(Kernel kernel, KernelSos.Options solver, Scaler.Kind scale) {
            ParameterException.required("options", solver);
            return new Options(kernel, solver.lambda(), solver.sdp(), solver.route(), scale);
        }

        /** The options of {@link KernelSos#fit}. */
        public KernelSos.Options solver() {
            return new KernelSos.Options(lambda, sdp, route);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, lambda, sdp, route, scale);
        }

        public Options withLambda(double l) {
            return new Options(kernel, l, sdp, route, scale);
        }

        public Options withSdp(SdpOptions o) {
            return new Options(kernel, lambda, o, route, scale);
        }

        public Options withRoute(KernelSos.Route r) {
            return new Options(kernel, lambda, sdp, r, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, lambda, sdp, route, s);
        }
    }

    /**
     * What a fit reports, in the model file's order.
     *
     * @param status              the SDP status label
     * @param iterations          interior-point iterations
     * @param relativeGap         relative duality gap at the end
     * @param primalInfeasibility relative primal infeasibility at the end
     * @param dualInfeasibility   relative dual infeasibility at the end
     * @param objective           the objective of eq. 2 at α
     * @param lmiMinEigenvalue    the smallest eigenvalue of the symmetrised LMI G diag(α) + diag(α) G
     * @param alphaMin            the smallest α
     * @param seconds             the solver's seconds
     */
    public record Fit(String status, int iterations, double relativeGap, double primalInfeasibility,
                      double dualInfeasibility, double objective, double lmiMinEigenvalue, double alphaMin,
                      double seconds) implements Diagnostics {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("status", status);
            d.put("iterations", iterations);
            d.put("relativeGap", relativeGap);
            d.put("primalInfeasibility", primalInfeasibility);
            d.put("dualInfeasibility", dualInfeasibility);
            d.put("objective", objective);
            d.put("lmiMinEigenvalue", lmiMinEigenvalue);
            d.put("alphaMin", alphaMin);
            d.put("seconds", seconds);
            return d;
        }

        /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
        public static Fit of(Map<String, Object> m) {
            return new Fit((String) m.get("status"), (Integer) m.get("iterations"), (Double) m.get("relativeGap"),
                    (Double) m.get("primalInfeasibility"), (Double) m.get("dualInfeasibility"),
                    (Double) m.get("objective"), (Double) m.get("lmiMinEigenvalue"), (Double) m.get("alphaMin"),
                    (Double) m.get("seconds"));
        }
    }

    public KernelSosTrainer {
        ParameterException.required("options", options);
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
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        org.psdkit.linalg.Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(options.kernel(), x, "kernel-sos");
        KernelSos m = KernelSos.fit(options.kernel(), x, train.y(), withListener(listener));
        ModelHeader h = ModelHeader.of(KernelSos.TYPE, train, scaler, options.kernel().spec(),
                hyperParameters(options.lambda()));
        return of(h, m, diagnostics(m));
    }

    /** The options with the progress reports added to the solver's own listener (if any). */
    private KernelSos.Options withListener(ProgressListener listener) {
        if (listener == null || listener == ProgressListener.NONE) {
            return options.solver();
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
    public static Map<String, Object> hyperParameters(double lambda) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda", lambda);
        return h;
    }

    /**
     * What a fit reports: SDP status, iterations, relative gap and infeasibilities, the objective of eq. 2, the
     * smallest eigenvalue of the symmetrised LMI, the smallest α and the solver's seconds.
     */
    public static Fit diagnostics(KernelSos m) {
        SdpResult r = m.sdpResult();
        return new Fit(r.status().label(), r.iterations(), r.relativeGap(), r.primalInfeasibility(),
                r.dualInfeasibility(), m.objective(), m.lmiMinEigenvalue(), m.alphaMin(), r.seconds());
    }

    /**
     * The model of a Kernel SoS fit: its header's options as {@link KernelSosHyperParameters} (as recorded when they
     * lack its keys).
     */
    public static Pipeline<KernelSos> of(ModelHeader header, KernelSos inner, org.psdkit.model.Diagnostics diagnostics) {
        return new Pipeline<>(header, inner, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                KernelSosHyperParameters::of), diagnostics);
    }
}
