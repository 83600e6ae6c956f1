package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.cli.Params;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.hetero.HeteroModel;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.model.Metrics;

/**
 * Model types {@code hetero} and {@code quantile} (vector-valued models with outputs in a cone) as {@code psdkit cv}
 * sees them: parameters, defaults and scores. Model files are read and written by the library ({@link ModelIO}).
 */
public final class ConeKinds {

    private ConeKinds() {
    }

    // ---------------------------------------------------------------- hetero

    /** {@code cv hetero}: heteroscedastic Gaussian regression, selected by the negative log-likelihood. */
    static CvSupport heteroCv() {
        return new CvSupport() {
            @Override
            public Map<String, String> defaults() {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("kernel", "gaussian(sigma=1)");
                m.put("lambda", "0.01");
                m.put("method", "psd");
                m.put("frobeniusWeight", "0.05");
                return m;
            }

            @Override
            public void validate(Params p) {
                p.kernel();
                p.getPositive("lambda");
                p.getPositive("frobeniusWeight");
                HeteroscedasticRegression.Method.parse(p.get("method"));
            }

            @Override
            public Predictor fit(Dataset train, Params p) {
                return new HeteroTrainer(new HeteroscedasticRegression.Options(p.kernel(), p.getPositive("lambda"),
                        p.getPositive("frobeniusWeight"), HeteroscedasticRegression.Method.parse(p.get("method")),
                        HeteroscedasticRegression.Options.DEFAULT_RESTARTS, 1L, ConeDualSolver.Options.defaults()))
                        .fit(train).inner();
            }

            @Override
            public Map<String, Double> score(Predictor fitted, Dataset test) {
                Matrix pred = fitted.predict(test.x());
                Map<String, Double> m = new LinkedHashMap<>();
                m.put("nll", HeteroModel.nll(pred, test.y()));
                m.put("rmse", Metrics.rmse(test.y(), pred.col(0)));
                return m;
            }

            @Override
            public String selectBy() {
                return "nll";
            }
        };
    }

    // ---------------------------------------------------------------- quantile

    /** Levels from text: separated by '/', ';' or spaces (commas separate grid values on the cv command line). */
    static double[] parseTaus(String text) {
        String[] parts = text.trim().split("[/;\\s]+");
        double[] t = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                t[i] = Double.parseDouble(parts[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("taus: '" + parts[i] + "' is not a number");
            }
        }
        return t;
    }

    /** {@code cv quantile}: multiple quantile regression, selected by the pinball loss. */
    static CvSupport quantileCv() {
        return new CvSupport() {
            @Override
            public Map<String, String> defaults() {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("kernel", "gaussian(sigma=1)");
                m.put("lambda", "0.01");
                m.put("method", "psd");
                m.put("taus", "0.25/0.5/0.75");
                m.put("frobeniusWeight", "0.05");
                return m;
            }

            private QuantileRegression.Options options(Params p) {
                return new QuantileRegression.Options(parseTaus(p.get("taus")), p.kernel(),
                        p.getPositive("lambda"), p.getPositive("frobeniusWeight"),
                        QuantileRegression.Method.parse(p.get("method")), false,
                        QuantileRegression.Options.DEFAULT_RESTARTS, 1L, ConeDualSolver.Options.defaults());
            }

            @Override
            public void validate(Params p) {
                options(p);
            }

            @Override
            public Predictor fit(Dataset train, Params p) {
                return new QuantileTrainer(options(p)).fit(train).inner();
            }

            @Override
            public Map<String, Double> score(Predictor fitted, Dataset test) {
                QuantileModel qm = (QuantileModel) fitted;
                Matrix q = qm.predict(test.x());
                Map<String, Double> m = new LinkedHashMap<>();
                m.put("pinball", QuantileRegression.pinball(q, test.y(), qm.taus()));
                m.put("crossings", (double) QuantileModel.crossings(q));
                return m;
            }

            @Override
            public String selectBy() {
                return "pinball";
            }
        };
    }
}
