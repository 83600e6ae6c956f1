package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;
import org.psdkit.psd.Baselines;
import org.psdkit.psd.KernelExpansionModel;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.psd.PsdRegression;
import org.psdkit.psd.SolverDiagnostics;

/**
 * Model kinds of the non-negative regression task: {@code psd-regression} (PSD model) and the baselines
 * {@code ncm}, {@code pnm}, {@code glm}; their model-file layout, and {@code eval} metrics with
 * {@code min_prediction}.
 */
public final class PsdKinds {
    private PsdKinds() {
    }

    /** Regression metrics plus the smallest prediction over the evaluated rows. */
    static final class NonNegativeModel extends StandardModel {
        NonNegativeModel(ModelDocs.Header header, Predictor predictor) {
            super(header, predictor);
        }

        @Override
        public Map<String, Object> evaluate(Dataset raw) {
            Map<String, Object> m = super.evaluate(raw);
            m.put("min_prediction", minimum(predict(raw.x()).col(0)));
            return m;
        }
    }

    static double minimum(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double d : v) {
            m = Math.min(m, d);
        }
        return m;
    }

    /** NaN → JSON null. */
    static Object num(double v) {
        return Double.isFinite(v) ? (Object) v : null;
    }

    static void putDiagnostics(ObjectNode doc, SolverDiagnostics d) {
        ObjectNode o = doc.putObject("diagnostics");
        o.put("iterations", d.iterations());
        putNumber(o, "duality_gap", d.dualityGap());
        putNumber(o, "objective", d.objective());
        putNumber(o, "dual_objective", d.dualObjective());
        o.put("seconds", d.seconds());
        o.put("rank", d.rank());
        o.put("feature_rank", d.featureRank());
        o.put("status", d.status());
    }

    static void putNumber(ObjectNode o, String name, double v) {
        if (Double.isFinite(v)) {
            o.put(name, v);
        } else {
            o.putNull(name);
        }
    }

    static SolverDiagnostics readDiagnostics(JsonNode doc) {
        JsonNode d = doc.path("diagnostics");
        return new SolverDiagnostics(d.path("iterations").asInt(0), d.path("duality_gap").asDouble(Double.NaN),
                d.path("objective").asDouble(Double.NaN), d.path("dual_objective").asDouble(Double.NaN),
                d.path("seconds").asDouble(Double.NaN), d.path("rank").asInt(0), d.path("feature_rank").asInt(0),
                d.path("status").asText("stored"));
    }

    /** The fit report fields of the issue: iterations, duality_gap, objective, seconds (solver), rank. */
    static void putReport(Map<String, Object> rep, SolverDiagnostics d) {
        rep.put("iterations", d.iterations());
        rep.put("duality_gap", num(d.dualityGap()));
        rep.put("relative_gap", num(d.relativeGap()));
        rep.put("objective", num(d.objective()));
        rep.put("solver_seconds", d.seconds());
        rep.put("rank", d.rank());
        rep.put("status", d.status());
    }

    // ------------------------------------------------------------------ psd-regression

    /** {@code psd-regression}: numbers.points (n×d, scaled inputs), numbers.factor (n×rank, B = R Rᵀ). */
    public static final class PsdRegressionKind implements ModelKind {
        @Override
        public String type() {
            return PsdModel.TYPE;
        }

        @Override
        public String description() {
            return "non-negative regression with a PSD model f(x) = v(x)^T B v(x), B = R R^T >= 0 (seed 002)";
        }

        static Map<String, String> defaults() {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("kernel", "gaussian(sigma=1)");
            m.put("lambda1", "0.001");
            m.put("lambda2", "0.001");
            m.put("tol", Double.toString(PsdOptions.DEFAULT_TOLERANCE));
            m.put("max-iter", Integer.toString(PsdOptions.DEFAULT_MAX_ITERATIONS));
            return m;
        }

        static PsdOptions options(Params p) {
            return PsdOptions.of(p.getNonNegative("lambda1"), p.getPositive("lambda2"))
                    .withTolerance(p.getNonNegative("tol")).withMaxIterations(p.getInt("max-iter"));
        }

        static void store(ObjectNode doc, PsdModel m, PsdOptions o) {
            ObjectNode op = (ObjectNode) doc.get("options");
            op.put("lambda1", o.lambda1());
            op.put("lambda2", o.lambda2());
            op.put("tol", o.tolerance());
            op.put("max_iter", o.maxIterations());
            ObjectNode num = doc.putObject("numbers");
            num.put("rank", m.rank());
            num.set("points", JsonArrays.rows(m.points()));
            num.set("factor", JsonArrays.rows(m.factor()));
            putDiagnostics(doc, m.diagnostics());
        }

        @Override
        public LoadedModel load(JsonNode doc, Path file) {
            ModelDocs.Header h = ModelDocs.header(doc, file);
            String where = "model file " + file;
            Kernel k = h.kernel(where);
            JsonNode num = doc.get("numbers");
            if (num == null || !num.isObject()) {
                throw new IllegalArgumentException(where + ": missing \"numbers\"");
            }
            Matrix pts = JsonArrays.matrix(num.get("points"), h.featureNames().length, where + ": numbers.points");
            int rank = (int) ModelDocs.number(num, "rank", where + ": numbers");
            if (rank < 0) {
                throw new IllegalArgumentException(where + ": numbers.rank is negative");
            }
            Matrix r = rank == 0 ? Matrix.zeros(pts.rows(), 0)
                    : JsonArrays.matrix(num.get("factor"), rank, where + ": numbers.factor");
            if (r.rows() != pts.rows()) {
                throw new IllegalArgumentException(where + ": " + pts.rows() + " points but the factor has "
                        + r.rows() + " rows");
            }
            return new NonNegativeModel(h, new PsdModel(k, pts, r, readDiagnostics(doc)));
        }

        @Override
        public CvSupport cv() {
            return new CvSupport() {
                @Override
                public Map<String, String> defaults() {
                    return PsdRegressionKind.defaults();
                }

                @Override
                public Predictor fit(Dataset scaledTrain, Params params) {
                    return PsdRegression.fit(params.kernel(), scaledTrain.x(), scaledTrain.y(), options(params));
                }
            };
        }
    }

    // ------------------------------------------------------------------ baselines

    /** Which baseline. */
    enum Baseline {
        NCM("ncm", "non-negative coefficients f = sum a_i k(x, x_i), a >= 0 (seed 002, App. D)", false),
        PNM("pnm", "partially non-negative f = sum a_i k(x, x_i) with f(x_i) >= 0 at training points (App. D)", false),
        GLM("glm", "exponential model f = exp(sum a_i k(x, x_i)) (App. D)", true);

        final String type;
        final String description;
        final boolean exponential;

        Baseline(String type, String description, boolean exponential) {
            this.type = type;
            this.description = description;
            this.exponential = exponential;
        }

        KernelExpansionModel fit(Kernel k, Matrix x, double[] y, Baselines.Options o,
                                 org.psdkit.optim.ProgressListener l) {
            return switch (this) {
                case NCM -> Baselines.ncm(k, x, y, o, l);
                case PNM -> Baselines.pnm(k, x, y, o, l);
                case GLM -> Baselines.glm(k, x, y, o, l);
            };
        }
    }

    static Baselines.Options baselineOptions(Params p, long seed) {
        return new Baselines.Options(p.getPositive("lambda"), p.getNonNegative("tol"), p.getInt("max-iter"),
                Double.POSITIVE_INFINITY, seed);
    }

    /** {@code ncm}, {@code pnm}, {@code glm}: numbers.points, numbers.alpha. */
    public static final class BaselineKind implements ModelKind {
        final Baseline which;

        BaselineKind(Baseline which) {
            this.which = which;
        }

        public static BaselineKind ncm() {
            return new BaselineKind(Baseline.NCM);
        }

        public static BaselineKind pnm() {
            return new BaselineKind(Baseline.PNM);
        }

        public static BaselineKind glm() {
            return new BaselineKind(Baseline.GLM);
        }

        @Override
        public String type() {
            return which.type;
        }

        @Override
        public String description() {
            return which.description;
        }

        static Map<String, String> defaults() {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("kernel", "gaussian(sigma=1)");
            m.put("lambda", "0.001");
            m.put("tol", Double.toString(Baselines.DEFAULT_TOLERANCE));
            m.put("max-iter", Integer.toString(PsdOptions.DEFAULT_MAX_ITERATIONS));
            return m;
        }

        static void store(ObjectNode doc, KernelExpansionModel m, Baselines.Options o) {
            ObjectNode op = (ObjectNode) doc.get("options");
            op.put("lambda", o.lambda());
            op.put("tol", o.tolerance());
            op.put("max_iter", o.maxIterations());
            ObjectNode num = doc.putObject("numbers");
            num.set("points", JsonArrays.rows(m.points()));
            num.set("alpha", JsonArrays.of(m.coefficients()));
            putDiagnostics(doc, m.diagnostics());
        }

        @Override
        public LoadedModel load(JsonNode doc, Path file) {
            ModelDocs.Header h = ModelDocs.header(doc, file);
            String where = "model file " + file;
            Kernel k = h.kernel(where);
            JsonNode num = doc.get("numbers");
            if (num == null || !num.isObject()) {
                throw new IllegalArgumentException(where + ": missing \"numbers\"");
            }
            Matrix pts = JsonArrays.matrix(num.get("points"), h.featureNames().length, where + ": numbers.points");
            double[] alpha = JsonArrays.doubles(num.get("alpha"), where + ": numbers.alpha");
            if (alpha.length != pts.rows()) {
                throw new IllegalArgumentException(where + ": " + pts.rows() + " points but " + alpha.length
                        + " coefficients");
            }
            return new NonNegativeModel(h, new KernelExpansionModel(which.type, k, pts, alpha, which.exponential,
                    readDiagnostics(doc)));
        }

        @Override
        public CvSupport cv() {
            return new CvSupport() {
                @Override
                public Map<String, String> defaults() {
                    return BaselineKind.defaults();
                }

                @Override
                public Predictor fit(Dataset scaledTrain, Params params) {
                    return which.fit(params.kernel(), scaledTrain.x(), scaledTrain.y(),
                            baselineOptions(params, 1L), null);
                }
            };
        }
    }
}
