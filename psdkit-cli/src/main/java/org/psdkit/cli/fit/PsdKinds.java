package org.psdkit.cli.fit;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.cli.Params;
import org.psdkit.cli.Reports;
import org.psdkit.cli.cv.CvSupport;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Predictor;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.Baselines;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.PsdRegressionTrainer;
import org.psdkit.psd.SolverDiagnostics;

/**
 * Model types of the non-negative regression task as {@code psdkit cv} sees them: {@code psd-regression} (PSD model)
 * and the baselines {@code ncm}, {@code pnm}, {@code glm}; the fit report fields they share. Model files are written
 * and read by the library ({@link ModelIO}).
 */
public final class PsdKinds {
    private PsdKinds() {
    }

    /**
     * A warning on stderr when the solver stopped before its tolerance (iteration or time budget, or a numerical
     * failure): the model is written and usable, but not the optimum the options asked for.
     */
    static void warnIfNotConverged(String command, SolverDiagnostics d) {
        String st = d.status();
        if (st == null || st.equalsIgnoreCase("CONVERGED")) {
            return;
        }
        warnNotConverged(command, st, d.iterations(), d.relativeGap());
    }

    /** The warning of {@link #warnIfNotConverged}, also for the density families' diagnostics. */
    static void warnNotConverged(String command, String status, int iterations, double relativeGap) {
        System.err.println("psdkit fit " + command + ": warning: the solver stopped (" + status.toLowerCase(
                java.util.Locale.ROOT) + ") after " + iterations + " iterations"
                + (Double.isFinite(relativeGap) ? " at relative gap " + String.format(java.util.Locale.ROOT, "%.3g",
                relativeGap) : "") + ", before --tol; the model is written but is not the optimum: raise "
                + "--max-iter (or --time-limit)");
    }

    /**
     * The fit report fields: iterations, duality_gap, relative_gap, objective, seconds (solver); the feature space
     * the problem was solved in ({@code rank} eigen-directions of K above {@code rank_threshold}·λ_max, null for the
     * baselines, on {@code anchors} expansion points) and {@code factor_rank}, the rank of B.
     */
    static void putReport(Map<String, Object> rep, SolverDiagnostics d) {
        rep.put("iterations", d.iterations());
        rep.put("duality_gap", Reports.finiteOrNull(d.dualityGap()));
        rep.put("relative_gap", Reports.finiteOrNull(d.relativeGap()));
        rep.put("objective", Reports.finiteOrNull(d.objective()));
        rep.put("solver_seconds", d.seconds());
        rep.put("rank", d.featureRank());
        rep.put("rank_threshold", Reports.finiteOrNull(d.rankThreshold()));
        rep.put("anchors", d.anchors());
        rep.put("factor_rank", d.rank());
        rep.put("status", d.status());
    }

    // ------------------------------------------------------------------ psd-regression

    static Map<String, String> psdRegressionDefaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernel", "gaussian(sigma=1)");
        m.put("lambda1", "0.001");
        m.put("lambda2", "0.001");
        m.put("tol", Double.toString(PsdOptions.DEFAULT_TOLERANCE));
        m.put("max-iter", Integer.toString(PsdOptions.DEFAULT_MAX_ITERATIONS));
        return m;
    }

    static PsdOptions psdRegressionOptions(Params p) {
        return PsdOptions.of(p.getNonNegative("lambda1"), p.getPositive("lambda2"))
                .withTolerance(p.getNonNegative("tol")).withMaxIterations(p.getInt("max-iter"));
    }

    /** {@code cv psd-regression}. */
    static CvSupport psdRegressionCv() {
        return new CvSupport() {
            @Override
            public Map<String, String> defaults() {
                return psdRegressionDefaults();
            }

            @Override
            public Predictor fit(Dataset scaledTrain, Params params) {
                return new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(params.kernel(),
                        psdRegressionOptions(params))).fit(scaledTrain).inner();
            }
        };
    }

    // ------------------------------------------------------------------ baselines

    static Baselines.Options baselineOptions(Params p, long seed) {
        return new Baselines.Options(p.getPositive("lambda"), p.getNonNegative("tol"), p.getInt("max-iter"),
                Double.POSITIVE_INFINITY, seed);
    }

    static Map<String, String> baselineDefaults() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("kernel", "gaussian(sigma=1)");
        m.put("lambda", "0.001");
        m.put("tol", Double.toString(Baselines.DEFAULT_TOLERANCE));
        m.put("max-iter", Integer.toString(PsdOptions.DEFAULT_MAX_ITERATIONS));
        return m;
    }

    /** {@code cv ncm}, {@code cv pnm}, {@code cv glm}. */
    static CvSupport baselineCv(BaselineTrainer.Method which) {
        return new CvSupport() {
            @Override
            public Map<String, String> defaults() {
                return baselineDefaults();
            }

            @Override
            public Predictor fit(Dataset scaledTrain, Params params) {
                return new BaselineTrainer(BaselineTrainer.Options.of(which, params.kernel(),
                        baselineOptions(params, 1L))).fit(scaledTrain).inner();
            }
        };
    }
}
