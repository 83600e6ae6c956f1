package org.psdkit.cone.hetero;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.cone.ConeGrid;
import org.psdkit.cone.ConePipeline;
import org.psdkit.cone.Diagnostics;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits heteroscedastic Gaussian regression ({@link HeteroscedasticRegression}) on raw data: the scaler is fitted on
 * the training rows, then, for {@link #crossValidated}, kernel and λ are chosen by cross-validation on the held-out
 * Gaussian NLL (on the scaled rows), and the model is fitted with the winner.
 *
 * <pre>{@code
 * HeteroTrainer t = new HeteroTrainer(HeteroscedasticRegression.Options.of(0.5, 1e-2, Method.PSD)
 *         .withScale(Scaler.Kind.ZSCORE));
 * HeteroPipeline m = t.fit(train);                                         // kernel and λ as given
 * HeteroPipeline cv = t.crossValidated(ConeGrid.defaults(5, 42L)).fit(train);   // chosen by cross-validation
 * double[] meanAndVariance = m.predict(new double[] {0.3});
 * }</pre>
 *
 * @param options kernel, λ, γ_F, θ model, GLM restarts and seed, solver settings, Nyström anchors and scaling
 */
public record HeteroTrainer(HeteroscedasticRegression.Options options) implements Trainer<HeteroPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = HeteroModel.TYPE;

    public HeteroTrainer {
        ParameterException.required("options", options);
    }

    /**
     * A trainer that chooses kernel and λ on {@code grid} ({@link HeteroscedasticRegression#select}: a
     * {@link org.psdkit.select.GridSearch} on the scaled rows, with {@link ConeGrid}'s folds and choice) and fits
     * these options with the winner; the model's {@code selection()} is the grid's outcome.
     */
    public Trainer<HeteroPipeline> crossValidated(ConeGrid grid) {
        ParameterException.required("grid", grid);
        return (raw, listener) -> fit(raw, grid, listener);
    }

    /**
     * Reports {@code "cv"} events (one per fit, with the total) while choosing by cross-validation, then a
     * {@code "fit"} event with step 0 when the final fit starts, the dual solver's iterations ({@code "cone-dual"},
     * measure {@code "gap"}; none for the primal baselines) and a {@code "fit"} event with step 1 when it is done.
     */
    @Override
    public HeteroPipeline fit(Dataset raw, ProgressListener listener) {
        return fit(raw, null, listener);
    }

    private HeteroPipeline fit(Dataset raw, ConeGrid grid, ProgressListener listener) {
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": heteroscedastic regression needs a numeric target");
        }
        Scaler scaler = Scaler.fit(options.scale(), raw.x());
        Dataset train = scaler.apply(raw);
        HeteroscedasticRegression.Options o = options;
        ConeGrid.Outcome sel = null;
        // the given kernels meet the scaled rows here, all rows before any fold (the grid's default Gaussians are
        // bounded by 1, and ConeGrid refuses a spread too small for them)
        List<Kernel> given = grid == null ? List.of(options.kernel()) : grid.kernels();
        if (given != null) {
            for (Kernel k : given) {
                Kernels.requireFinite(k, train.x(), "hetero");
            }
        }
        if (grid != null) {
            sel = HeteroscedasticRegression.select(train, options, grid, listener);
            o = o.with(sel.kernel(), sel.lambda());
        }
        ProgressListener l = ProgressListener.orNone(listener);
        long t0 = System.nanoTime();
        l.onProgress(ProgressListener.Event.of("fit", 0, 1, 0));
        HeteroModel m = HeteroscedasticRegression.fit(train.x(), train.y(), o, l);
        l.onProgress(ProgressListener.Event.of("fit", 1, 1, (System.nanoTime() - t0) * 1e-9));
        double[][] range = ConePipeline.range(raw.x());
        ModelHeader h = ModelHeader.of(TYPE, raw, scaler, m.kernel().spec(), o.nystrom().putOptions(
                hyperParameters(m)));
        return new HeteroPipeline(h, m, m.diagnostics(),
                org.psdkit.cone.ConeData.expansionPoints(m.functions(), train.x()), range[0], range[1], sel);
    }

    /** The options as written in model files ({@code method, lambda, frobeniusWeight}). */
    public static Map<String, Object> hyperParameters(HeteroModel m) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("method", m.method().id());
        h.put("lambda", m.lambda());
        h.put("frobeniusWeight", m.frobeniusWeight());
        return h;
    }
}
