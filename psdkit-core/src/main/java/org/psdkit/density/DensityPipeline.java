package org.psdkit.density;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;

/**
 * A fitted density of RAW inputs: a {@link DensityModel} fitted in the scaled feature space z = (x − offset)/scale,
 * together with its scaler. By the change of variables x ↦ z the density of x is the scaled-space density times the
 * Jacobian |det ∂z/∂x| = 1/Π_t scale_t, so {@link #predict} and {@link #evaluate} are densities of raw data and
 * {@link #sample} draws raw points (the scaled draws mapped back by x = z·scale + offset).
 *
 * <pre>{@code
 * DensityPipeline m = new PsdDensityTrainer(PsdDensityTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"),
 *         new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, PsdDensityOptions.SEC6_FROBENIUS_RATIO))
 *         .withScale(Scaler.Kind.ZSCORE)).fit(data);
 * double[] p = m.density(rawRows);         // densities of raw points
 * Matrix draws = m.sample(100, 7);          // raw coordinates
 * }</pre>
 */
public final class DensityPipeline extends Pipeline<DensityModel> {

    /** Every density model type, in registration order. */
    public static final List<String> TYPES = List.of(PsdDensity.TYPE, Baselines.NCM, Baselines.PNM, Baselines.GLM,
            Kde.TYPE);

    /**
     * Floor of p in held-out scores: log(1e-300) ≈ −690.8, a heavy but finite penalty for p ≤ 0 (PNM densities go
     * negative away from the data).
     */
    public static final double DENSITY_FLOOR = 1e-300;

    /** Name of the held-out score of {@link #heldOutScores}: the floored mean log-likelihood. */
    public static final String HELD_OUT_LOGLIK = "loglik";

    /**
     * @param header      feature names, scaler, kernel and the options of the fit ({@code header.type()} must be
     *                    the inner model's type)
     * @param inner       the density in the scaled space
     * @param diagnostics what the fit reported ({@link DensityDiagnostics}, or {@link Diagnostics#NONE})
     */
    public DensityPipeline(ModelHeader header, DensityModel inner, Diagnostics diagnostics) {
        super(header, inner, hyperParameters(header), diagnostics);
        if (!header.type().equals(inner.type())) {
            throw new IllegalArgumentException("model type " + header.type() + " does not match the density's type "
                    + inner.type());
        }
        if (inner.dimension() != header.d()) {
            throw new IllegalArgumentException("the density has dimension " + inner.dimension() + " but the model "
                    + "has " + header.d() + " features");
        }
    }

    /**
     * @param header      feature names, scaler, kernel and the options of the fit
     * @param inner       the density in the scaled space
     * @param diagnostics what the fit reported (may be empty), held as {@link Diagnostics#recorded}
     */
    public DensityPipeline(ModelHeader header, DensityModel inner, Map<String, Object> diagnostics) {
        this(header, inner, Diagnostics.recorded(diagnostics));
    }

    /**
     * The header's options as the density family's record ({@link PsdDensityHyperParameters},
     * {@link BaselineDensityHyperParameters}) when they hold its keys; a KDE has none, held as recorded.
     */
    private static org.psdkit.model.HyperParameters hyperParameters(ModelHeader header) {
        return switch (header.type()) {
            case PsdDensity.TYPE -> org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                    PsdDensityHyperParameters::of);
            case Kde.TYPE -> null;
            default -> org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                    BaselineDensityHyperParameters::of);
        };
    }

    /**
     * The model of a density fitted on {@code rawTrain} scaled by {@code scaler}: its header (type, feature names,
     * target, n, d, source) comes from the data and {@code inner}, its diagnostics from the fit
     * ({@link #fitDiagnostics}).
     */
    public static DensityPipeline of(Dataset rawTrain, Scaler scaler, String kernelSpec,
                                     Map<String, Object> hyperParameters, DensityModel inner) {
        DensityDiagnostics dg = solverDiagnostics(inner);
        return new DensityPipeline(ModelHeader.of(inner.type(), rawTrain, scaler, kernelSpec, hyperParameters), inner,
                dg == null ? Diagnostics.NONE : dg);
    }

    /**
     * A trainer that fits {@code fit} on the unscaled rows of the data (no scaler, no hyper-parameters in the
     * header): the adapter through which experiments with their own estimator calls run
     * {@link org.psdkit.select.CrossValidation#evaluate}.
     */
    public static Trainer<DensityPipeline> unscaled(java.util.function.Function<Matrix, DensityModel> fit) {
        return (train, listener) -> of(train, Scaler.identity(train.d()), null, Map.of(), fit.apply(train.x()));
    }

    /**
     * What a fit reports, as model files store it: objective, dual, relativeGap, iterations, seconds, converged,
     * integralBeforeRescale and rank for the optimised densities (and the GLM normaliser's logZStandardError, which
     * its model file keeps in {@code numbers}); nothing for a KDE.
     */
    public static Map<String, Object> fitDiagnostics(DensityModel m) {
        DensityDiagnostics dg = solverDiagnostics(m);
        Map<String, Object> d = dg == null ? new LinkedHashMap<>() : dg.toMap();
        if (m instanceof GlmDensity g && Double.isFinite(g.logZStandardError())) {
            d.put("logZStandardError", g.logZStandardError());
        }
        return d;
    }

    /** The solver's report of a freshly fitted density, or null (KDE, or a density read from a file). */
    public static DensityDiagnostics solverDiagnostics(DensityModel m) {
        if (m instanceof PsdDensity p) {
            return p.diagnostics();
        }
        if (m instanceof LinearDensity l) {
            return l.diagnostics();
        }
        if (m instanceof GlmDensity g) {
            return g.diagnostics();
        }
        return null;
    }

    /** Densities have no target, even when the training file had one (it is only recorded in the header). */
    @Override
    public String targetName() {
        return null;
    }

    @Override
    public boolean unsupervised() {
        return true;
    }

    @Override
    public Matrix predict(Matrix rawX) {
        double[] p = density(rawX);
        return Matrix.wrap(p.length, 1, p);
    }

    /** The density of each row of raw features: the scaled-space density times the Jacobian 1/Π_t scale_t. */
    public double[] density(Matrix rawX) {
        double[] p = inner().density(header().scale(rawX));
        double jac = Math.exp(logJacobian());
        for (int i = 0; i < p.length; i++) {
            p[i] *= jac;
        }
        return p;
    }

    /** log |det| of the raw→scaled map: −Σ_t log scale_t (0 without scaling). */
    public double logJacobian() {
        Scaler s = header().scaler();
        if (s.kind() == Scaler.Kind.NONE) {
            return 0;
        }
        double l = 0;
        for (double v : s.scale()) {
            l -= Math.log(v);
        }
        return l;
    }

    /** ∫ f dν of the inner density (the same in raw coordinates): 1 for an exactly normalised model. */
    public double integral() {
        return inner().integral();
    }

    /** The base measure ν of p = f·ν, in scaled coordinates. */
    public BaseMeasure base() {
        return inner().base();
    }

    /** Mean log-likelihood (1/m) Σ log p(x_i) of raw rows (−∞ if any p(x_i) ≤ 0). */
    public double meanLogLikelihood(Matrix rawX) {
        return inner().meanLogLikelihood(header().scale(rawX)) + logJacobian();
    }

    /**
     * {@code loglik} (mean log p over the rows, −∞ if some p ≤ 0), {@code integral} (∫ f dν),
     * {@code min_density} and {@code negative_fraction} (the share of rows with p &lt; 0) of raw data.
     */
    @Override
    public Scores evaluate(Dataset raw) {
        double[] p = density(raw.x());
        double ll = 0;
        double min = Double.POSITIVE_INFINITY;
        int neg = 0;
        for (double v : p) {
            ll += v > 0 ? Math.log(v) : Double.NEGATIVE_INFINITY;
            min = Math.min(min, v);
            if (v < 0) {
                neg++;
            }
        }
        return new Scores(ll / p.length, integral(), min, (double) neg / p.length);
    }

    /**
     * A density's metrics: the mean log-density of the rows, the integral, the smallest density at a row and the
     * fraction of rows where it is negative.
     */
    public record Scores(double loglik, double integral, double minDensity, double negativeFraction)
            implements org.psdkit.model.Evaluation {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("loglik", loglik);
            m.put("integral", integral);
            m.put("min_density", minDensity);
            m.put("negative_fraction", negativeFraction);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }

    /**
     * True if {@link #sample} can draw exactly: PSD densities (rejection from a proven envelope,
     * {@code PsdSampler}), NCM densities and KDEs (mixtures). PNM densities can be negative and the GLM normaliser is
     * only a Monte-Carlo estimate.
     */
    public boolean samplable() {
        DensityModel m = inner();
        return m instanceof PsdDensity || m instanceof Kde
                || (m instanceof LinearDensity && Baselines.NCM.equals(m.type()));
    }

    /**
     * {@code n} exact, seeded draws in RAW coordinates: drawn in the scaled space and mapped back by
     * x = z·scale + offset.
     *
     * @throws IllegalArgumentException for n &lt; 1 or a type that cannot be sampled exactly ({@link #samplable})
     */
    public Matrix sample(int n, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("number of samples must be >= 1, got " + n);
        }
        requireSamplable();
        DensityModel m = inner();
        Matrix z;
        if (m instanceof PsdDensity p) {
            z = p.sample(n, seed);
        } else if (m instanceof Kde k) {
            z = k.sample(n, seed);
        } else {
            z = ((LinearDensity) m).sample(n, seed);
        }
        return unscale(z);
    }

    /** Throws the reason why {@link #sample} cannot draw from this model, if it cannot ({@link #samplable}). */
    public void requireSamplable() {
        if (!samplable()) {
            throw new IllegalArgumentException("cannot sample exactly from a " + type() + " model (PNM can be "
                    + "negative; GLM's normaliser is only a Monte-Carlo estimate)");
        }
    }

    /** Maps scaled-space points back to raw coordinates: x = z·scale + offset. */
    public Matrix unscale(Matrix z) {
        Scaler s = header().scaler();
        if (s.kind() == Scaler.Kind.NONE) {
            return z.copy();
        }
        Matrix out = z.copy();
        for (int i = 0; i < z.rows(); i++) {
            for (int t = 0; t < z.cols(); t++) {
                out.set(i, t, z.get(i, t) * s.scale()[t] + s.offset()[t]);
            }
        }
        return out;
    }

    /**
     * Held-out score of a density on a raw test set, for {@link org.psdkit.select.CrossValidation#evaluate}:
     * {@code loglik} = (1/m) Σ log max(p(x_i), {@link #DENSITY_FLOOR}) (the selection criterion of
     * Marteau-Ferey, Bach &amp; Rudi 2020, App. E, with a finite penalty where p ≤ 0). Larger is better. With sample
     * weights ({@link Dataset#weights()}) the weighted mean Σ w_i log max(p(x_i), floor) / Σ w_i.
     */
    public static Map<String, Double> heldOutScores(Model fitted, Dataset rawTest) {
        double[] p = fitted.predict(rawTest.x()).col(0);
        double[] w = rawTest.weights();
        if (w == null) {
            return Map.of(HELD_OUT_LOGLIK, flooredLogLikelihood(p));
        }
        double s = 0;
        double sw = 0;
        for (int i = 0; i < p.length; i++) {
            if (w[i] > 0) {
                s += w[i] * Math.log(Math.max(p[i], DENSITY_FLOOR));
                sw += w[i];
            }
        }
        if (!(sw > 0)) {
            throw new IllegalStateException("every held-out row has weight 0");
        }
        return Map.of(HELD_OUT_LOGLIK, s / sw);
    }

    /** (1/m) Σ log max(p_i, {@link #DENSITY_FLOOR}) of a density {@code m} at the rows of x. */
    public static double heldOutScore(DensityModel m, Matrix x) {
        return flooredLogLikelihood(m.density(x));
    }

    private static double flooredLogLikelihood(double[] p) {
        double s = 0;
        for (double v : p) {
            s += Math.log(Math.max(v, DENSITY_FLOOR));
        }
        return s / p.length;
    }
}
