package org.psdkit.regression;

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

/**
 * Fits kernel ridge regression ({@link KernelRidge}) on raw data: the scaler is fitted on the training rows and kept
 * in the model.
 *
 * <pre>{@code
 * Pipeline<KernelRidge> m = new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=3)"), 0.01)
 *         .withScale(Scaler.Kind.ZSCORE)).fit(train);
 * }</pre>
 *
 * @param options the kernel, λ, form, nugget, centring and scaling (validated by their record)
 */
public record KrrTrainer(Options options) implements Trainer<Pipeline<KernelRidge>> {

    /** The model type written in model files. */
    public static final String TYPE = "krr";

    /**
     * Everything an exact kernel ridge fit takes; the constructor checks every field.
     *
     * @param kernel the kernel (required)
     * @param lambda regularisation λ ≥ 0 (finite)
     * @param form   standard or representer form ({@code null}: {@link #DEFAULT_FORM})
     * @param nugget σ² ≥ 0 of the representer form (ignored by the standard form)
     * @param center subtract the training mean of y before fitting and add it back (an unpenalised intercept)
     * @param scale  the feature scaling fitted on the training data ({@code null}: {@link #DEFAULT_SCALE})
     */
    public record Options(Kernel kernel, double lambda, KernelRidge.Form form, double nugget, boolean center,
                          Scaler.Kind scale) {
        /** λ when none is given (the command line's {@code --lambda} default). */
        public static final double DEFAULT_LAMBDA = 1e-3;
        /** The standard form (K + λI)α = y by default. */
        public static final KernelRidge.Form DEFAULT_FORM = KernelRidge.Form.STANDARD;
        /** No nugget by default. */
        public static final double DEFAULT_NUGGET = 0;
        /** No centring of y by default (scikit-learn's KernelRidge). */
        public static final boolean DEFAULT_CENTER = false;
        /** No feature scaling by default. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("kernel", kernel);
            ParameterException.nonNegative("lambda", lambda);
            ParameterException.nonNegative("nugget", nugget);
            if (form == null) {
                form = DEFAULT_FORM;
            }
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** The scikit-learn convention (K + λI)α = y, without centring or scaling. */
        public static Options of(Kernel kernel, double lambda) {
            return new Options(kernel, lambda, DEFAULT_FORM, DEFAULT_NUGGET, DEFAULT_CENTER, DEFAULT_SCALE);
        }

        /** The defaults with {@code kernel}: λ = {@value #DEFAULT_LAMBDA}, standard form, no centring or scaling. */
        public static Options defaults(Kernel kernel) {
            return of(kernel, DEFAULT_LAMBDA);
        }

        /** The trainer's options from the solver's ({@link KernelRidge.Options}). */
        public static Options of(Kernel kernel, KernelRidge.Options solver, Scaler.Kind scale) {
            ParameterException.required("options", solver);
            return new Options(kernel, solver.lambda(), solver.form(), solver.nugget(), solver.center(), scale);
        }

        /** The options of the solver, {@link KernelRidge#fit}. */
        public KernelRidge.Options solver() {
            return new KernelRidge.Options(lambda, form, nugget, center);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, lambda, form, nugget, center, scale);
        }

        public Options withLambda(double l) {
            return new Options(kernel, l, form, nugget, center, scale);
        }

        public Options withForm(KernelRidge.Form f) {
            return new Options(kernel, lambda, f, nugget, center, scale);
        }

        public Options withNugget(double s2) {
            return new Options(kernel, lambda, form, s2, center, scale);
        }

        public Options withCenter(boolean c) {
            return new Options(kernel, lambda, form, nugget, c, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, lambda, form, nugget, center, s);
        }
    }

    /**
     * What an exact fit reports, in the model file's order.
     *
     * @param route             the solver route ({@code cholesky}, {@code cholesky+jitter}, {@code eigen}, …)
     * @param jitter            the diagonal jitter added before the Cholesky factorisation succeeded
     * @param rank              the numerical rank of the regularised system
     * @param conditionEstimate the condition estimate of the regularised system
     * @param seconds           wall time of the solve
     * @param targets           the number of target columns solved for
     * @param factorizations    how many factorisations of the n×n system the fit made (1 for every number of
     *                          targets); written with {@code targets} only when there are several
     */
    public record Fit(String route, double jitter, int rank, double conditionEstimate, double seconds, int targets,
                      int factorizations) implements Diagnostics {
        /** The diagnostics of a one-target fit (one factorisation). */
        public Fit(String route, double jitter, int rank, double conditionEstimate, double seconds) {
            this(route, jitter, rank, conditionEstimate, seconds, 1, 1);
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("route", route);
            d.put("jitter", jitter);
            d.put("rank", rank);
            d.put("conditionEstimate", conditionEstimate);
            d.put("seconds", seconds);
            if (targets > 1) {
                d.put("targets", targets);
                d.put("factorizations", factorizations);
            }
            return d;
        }

        /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
        public static Fit of(Map<String, Object> m) {
            if (m.containsKey("targets")) {
                return new Fit((String) m.get("route"), (Double) m.get("jitter"), (Integer) m.get("rank"),
                        (Double) m.get("conditionEstimate"), (Double) m.get("seconds"), (Integer) m.get("targets"),
                        (Integer) m.get("factorizations"));
            }
            return new Fit((String) m.get("route"), (Double) m.get("jitter"), (Integer) m.get("rank"),
                    (Double) m.get("conditionEstimate"), (Double) m.get("seconds"));
        }
    }

    public KrrTrainer {
        ParameterException.required("options", options);
    }

    /**
     * Fits on {@code train}, with its sample weights ({@link Dataset#weights()}) and all its targets
     * ({@link Dataset#targets()}: one factorisation for every target) when it has them.
     */
    @Override
    public Pipeline<KernelRidge> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": kernel ridge regression needs a numeric target");
        }
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        KernelRidge m = train.targets() != null
                ? KernelRidge.fit(options.kernel(), scaler.apply(train.x()), train.targets(), train.weights(),
                        options.solver())
                : KernelRidge.fit(options.kernel(), scaler.apply(train.x()), train.y(), train.weights(),
                        options.solver());
        return of(ModelHeader.of(TYPE, train, scaler, m.kernel().spec(), hyperParameters(m.options())), m,
                diagnostics(m));
    }

    /**
     * Fits the options' kernel and solver on points already in the model's scaled space (the options' scale is not
     * applied) with their precomputed Gram matrix K = kernel.gram(scaledX), which is not modified: the supported
     * way for a cross-validation to compute K once per split and reuse it for every λ of a grid. Sample weights may
     * be null (equal weights). Returns the model in the scaled space, as {@link Pipeline#inner()} of {@link #fit}.
     */
    public KernelRidge fitWithGram(org.psdkit.linalg.Matrix scaledX, org.psdkit.linalg.Matrix gram, double[] y,
                                   double[] weights) {
        return KernelRidge.fitGram(options.kernel(), scaledX, gram, y, weights, options.solver());
    }

    /** The options as written in model files ({@code lambda, form, nugget, center}). */
    public static Map<String, Object> hyperParameters(KernelRidge.Options o) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda", o.lambda());
        h.put("form", o.form().label());
        h.put("nugget", o.nugget());
        h.put("center", o.center());
        return h;
    }

    /** What a fit reports: solver route, diagonal jitter, numerical rank, condition estimate, seconds. */
    public static Fit diagnostics(KernelRidge m) {
        return new Fit(m.diagnostics().route(), m.diagnostics().jitter(), m.diagnostics().rank(),
                m.diagnostics().conditionEstimate(), m.seconds(), m.targets(), 1);
    }

    /** The model of a fit made elsewhere (cross-validation on a cached Gram matrix, a model file). */
    public static Pipeline<KernelRidge> of(ModelHeader header, KernelRidge inner, Diagnostics diagnostics) {
        return new Pipeline<>(header, inner, hyperParameters(header), diagnostics);
    }

    /** The header's options as {@link KrrHyperParameters} when they hold its keys, else as they were recorded. */
    static org.psdkit.model.HyperParameters hyperParameters(ModelHeader header) {
        return org.psdkit.model.HyperParameters.typed(header.hyperParameters(), KrrHyperParameters::of);
    }

    /** As {@link #of(ModelHeader, KernelRidge, Diagnostics)} with diagnostics held as a map. */
    public static Pipeline<KernelRidge> of(ModelHeader header, KernelRidge inner, Map<String, Object> diagnostics) {
        return of(header, inner, Diagnostics.recorded(diagnostics));
    }
}
