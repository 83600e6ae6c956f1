package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.cone.FunctionCodec;
import org.psdkit.model.cone.GridSelection;
import org.psdkit.model.cone.ScalarFunction;
import org.psdkit.model.cone.TargetScaling;
import org.psdkit.model.hetero.HeteroModel;
import org.psdkit.model.hetero.HeteroscedasticRegression;
import org.psdkit.model.quantile.Diagnostics;
import org.psdkit.model.quantile.QuantileModel;
import org.psdkit.model.quantile.QuantileRegression;
import org.psdkit.select.Metrics;

/** Model types {@code hetero} and {@code quantile}: vector-valued models with outputs in a cone. */
public final class ConeKinds {

    private ConeKinds() {
    }

    /** Points of the dense crossing check: a 1-D grid, or seeded uniform points in the bounding box for d > 1. */
    public static final int CROSSING_GRID_POINTS = 2000;
    /** Seed of the bounding-box points of the crossing check (fixed so that eval is reproducible). */
    public static final long CROSSING_GRID_SEED = 20200707L;

    // ---------------------------------------------------------------- storing

    static void storeCommon(ObjectNode doc, Matrix points, List<ScalarFunction> fns, double[][] d, TargetScaling sc,
                            Diagnostics diag, Dataset raw) {
        ObjectNode num = doc.putObject("numbers");
        num.put("center", sc.center());
        num.put("scale", sc.scale());
        num.set("points", JsonArrays.rows(points));
        num.set("directions", FunctionCodec.writeDirections(d));
        num.set("functions", FunctionCodec.write(fns));
        double[][] range = range(raw.x());
        num.set("rangeMin", JsonArrays.of(range[0]));
        num.set("rangeMax", JsonArrays.of(range[1]));
        ObjectNode dg = doc.putObject("diagnostics");
        dg.put("iterations", diag.iterations());
        dg.put("primal", diag.primal());
        dg.put("dual", diag.dual());
        dg.put("gap", diag.gap());
        dg.put("infeasibility", diag.infeasibility());
        dg.put("converged", diag.converged());
        dg.put("restarts", diag.restarts());
        dg.put("seconds", diag.seconds());
    }

    static Map<String, Object> diagnostics(Diagnostics d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iterations", d.iterations());
        m.put("objective", d.primal());
        m.put("gap", d.gap());
        m.put("converged", d.converged());
        return m;
    }

    static Map<String, Object> selection(GridSelection.Outcome o, String metric) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (o == null) {
            m.put("by", "given");
            return m;
        }
        m.put("by", o.folds() + "-fold cross-validation on held-out " + metric);
        m.put("kernel", o.kernel().spec());
        m.put("lambda", o.lambda());
        m.put("score", o.score());
        List<Map<String, Object>> rows = new java.util.ArrayList<>();
        for (GridSelection.Point p : o.table()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("kernel", p.kernel());
            r.put("lambda", p.lambda());
            r.put(metric, p.score());
            r.put(metric + "_sd", p.sd());
            rows.add(r);
        }
        m.put("grid", rows);
        return m;
    }

    static double[][] range(Matrix x) {
        int d = x.cols();
        double[] lo = new double[d];
        double[] hi = new double[d];
        java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < x.rows(); i++) {
            for (int j = 0; j < d; j++) {
                lo[j] = Math.min(lo[j], x.get(i, j));
                hi[j] = Math.max(hi[j], x.get(i, j));
            }
        }
        return new double[][] {lo, hi};
    }

    /** Dense check points over the (raw) box [lo, hi]. */
    static Matrix densePoints(double[] lo, double[] hi) {
        int d = lo.length;
        Matrix g = Matrix.zeros(CROSSING_GRID_POINTS, d);
        if (d == 1) {
            for (int i = 0; i < CROSSING_GRID_POINTS; i++) {
                g.set(i, 0, lo[0] + (hi[0] - lo[0]) * i / (CROSSING_GRID_POINTS - 1));
            }
        } else {
            java.util.Random rnd = new java.util.Random(CROSSING_GRID_SEED);
            for (int i = 0; i < CROSSING_GRID_POINTS; i++) {
                for (int j = 0; j < d; j++) {
                    g.set(i, j, lo[j] + (hi[j] - lo[j]) * rnd.nextDouble());
                }
            }
        }
        return g;
    }

    private record Loaded(Kernel kernel, Matrix points, List<ScalarFunction> fns, double[][] d, TargetScaling sc,
                          double[] lo, double[] hi, double lambda) {
    }

    private static Loaded loadCommon(ModelDocs.Header h, JsonNode doc, Path file) {
        String where = "model file " + file;
        Kernel k = h.kernel(where);
        JsonNode num = doc.get("numbers");
        if (num == null || !num.isObject()) {
            throw new IllegalArgumentException(where + ": missing \"numbers\"");
        }
        int d = h.featureNames().length;
        Matrix pts = JsonArrays.matrix(num.get("points"), d, where + ": numbers.points");
        List<ScalarFunction> fns = FunctionCodec.read(num.get("functions"), k, pts, where + ": numbers.functions");
        double[][] dir = FunctionCodec.directions(num.get("directions"), fns.size(), where + ": numbers.directions");
        TargetScaling sc;
        try {
            sc = new TargetScaling(ModelDocs.number(num, "center", where + ": numbers"),
                    ModelDocs.number(num, "scale", where + ": numbers"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
        double[] lo = JsonArrays.doubles(num.get("rangeMin"), where + ": numbers.rangeMin");
        double[] hi = JsonArrays.doubles(num.get("rangeMax"), where + ": numbers.rangeMax");
        if (lo.length != d || hi.length != d) {
            throw new IllegalArgumentException(where + ": numbers.rangeMin/rangeMax need " + d + " entries");
        }
        double lambda = ModelDocs.number(h.options(), "lambda", where + ": options");
        return new Loaded(k, pts, fns, dir, sc, lo, hi, lambda);
    }

    // ---------------------------------------------------------------- hetero

    /** {@code hetero}: heteroscedastic Gaussian regression; predict writes mean,variance. */
    public static final class HeteroKind implements ModelKind {
        public static final String TYPE = HeteroModel.TYPE;

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        public String description() {
            return "heteroscedastic Gaussian regression, eta = mu/v linear, theta = 1/v a PSD model (or pnm/ncm/glm)";
        }

        static void store(ObjectNode doc, HeteroModel m, Matrix points, Dataset raw) {
            ObjectNode o = (ObjectNode) doc.get("options");
            o.put("method", m.method().id());
            o.put("lambda", m.lambda());
            o.put("frobeniusWeight", m.frobeniusWeight());
            storeCommon(doc, points, m.functions(), m.directions(), m.scaling(), m.diagnostics(), raw);
            ((ObjectNode) doc.get("numbers")).put("thetaMaxTrain", m.thetaMaxTrain());
        }

        static Map<String, Object> metrics(Matrix pred, double[] y) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("nll", HeteroModel.nll(pred, y));
            m.put("rmse", Metrics.rmse(y, pred.col(0)));
            double minV = Double.POSITIVE_INFINITY;
            for (int i = 0; i < pred.rows(); i++) {
                minV = Math.min(minV, pred.get(i, 1));
            }
            m.put("min_variance", minV);
            return m;
        }

        @Override
        public LoadedModel load(JsonNode doc, Path file) {
            ModelDocs.Header h = ModelDocs.header(doc, file);
            Loaded l = loadCommon(h, doc, file);
            String where = "model file " + file;
            HeteroscedasticRegression.Method method = HeteroscedasticRegression.Method.parse(
                    ModelDocs.text(h.options(), "method", where + ": options"));
            if (l.d().length != 2) {
                throw new IllegalArgumentException(where + ": a hetero model has 2 outputs, got " + l.d().length);
            }
            double thetaMax = ModelDocs.number(doc.get("numbers"), "thetaMaxTrain", where + ": numbers");
            double fw = ModelDocs.number(h.options(), "frobeniusWeight", where + ": options");
            HeteroModel m = new HeteroModel(method, l.kernel(), l.lambda(), fw, l.fns(), l.d(), l.sc(), thetaMax,
                    new Diagnostics(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, true, 0, 0));
            return new StandardModel(h, m) {
                @Override
                public Map<String, Object> evaluate(Dataset raw) {
                    if (raw.y() == null) {
                        throw new IllegalArgumentException(raw.source() + ": no numeric target column");
                    }
                    Map<String, Object> r = metrics(predict(raw.x()), raw.y());
                    Matrix grid = predict(densePoints(l.lo(), l.hi()));
                    double minV = Double.POSITIVE_INFINITY;
                    for (int i = 0; i < grid.rows(); i++) {
                        minV = Math.min(minV, grid.get(i, 1));
                    }
                    r.put("min_variance_grid", minV);
                    return r;
                }
            };
        }

        @Override
        public CvSupport cv() {
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
                public org.psdkit.model.Predictor fit(Dataset train, Params p) {
                    return HeteroscedasticRegression.fit(train.x(), train.y(), new HeteroscedasticRegression.Options(
                            p.kernel(), p.getPositive("lambda"), p.getPositive("frobeniusWeight"),
                            HeteroscedasticRegression.Method.parse(p.get("method")),
                            HeteroscedasticRegression.Options.DEFAULT_RESTARTS, 1L,
                            org.psdkit.model.cone.ConeDualSolver.Options.defaults()));
                }

                @Override
                public Map<String, Double> score(org.psdkit.model.Predictor fitted, Dataset test) {
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
    }

    // ---------------------------------------------------------------- quantile

    /** {@code quantile}: multiple quantile regression; predict writes one column per level. */
    public static final class QuantileKind implements ModelKind {
        public static final String TYPE = QuantileModel.TYPE;

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        public String description() {
            return "multiple quantile regression without crossing (median + cumulative non-negative PSD increments)";
        }

        static void store(ObjectNode doc, QuantileModel m, Matrix points, Dataset raw) {
            ObjectNode o = (ObjectNode) doc.get("options");
            o.put("method", m.method().id());
            o.set("taus", JsonArrays.of(m.taus()));
            o.put("lambda", m.lambda());
            o.put("frobeniusWeight", m.frobeniusWeight());
            storeCommon(doc, points, m.functions(), m.directions(), m.scaling(), m.diagnostics(), raw);
        }

        static Map<String, Object> metrics(Matrix q, double[] y, double[] taus, Matrix gridQ) {
            Map<String, Object> m = new LinkedHashMap<>();
            Map<String, Object> pin = new LinkedHashMap<>();
            Map<String, Object> cov = new LinkedHashMap<>();
            double total = 0;
            for (int t = 0; t < taus.length; t++) {
                double s = 0;
                int below = 0;
                for (int i = 0; i < y.length; i++) {
                    s += org.psdkit.model.cone.Pinball.loss(taus[t], y[i] - q.get(i, t));
                    if (y[i] <= q.get(i, t)) {
                        below++;
                    }
                }
                pin.put(QuantileModel.column(taus[t]), s / y.length);
                cov.put(QuantileModel.column(taus[t]), (double) below / y.length);
                total += s / y.length;
            }
            m.put("pinball", pin);
            m.put("pinball_total", total);
            m.put("coverage", cov);
            Map<String, Object> cr = new LinkedHashMap<>();
            cr.put("rows", QuantileModel.crossings(q));
            if (gridQ != null) {
                cr.put("grid", QuantileModel.crossings(gridQ));
                cr.put("grid_points", gridQ.rows());
            }
            m.put("crossings", cr);
            return m;
        }

        @Override
        public LoadedModel load(JsonNode doc, Path file) {
            ModelDocs.Header h = ModelDocs.header(doc, file);
            Loaded l = loadCommon(h, doc, file);
            String where = "model file " + file;
            QuantileRegression.Method method = QuantileRegression.Method.parse(
                    ModelDocs.text(h.options(), "method", where + ": options"));
            double[] taus = JsonArrays.doubles(h.options().get("taus"), where + ": options.taus");
            if (taus.length != l.d().length) {
                throw new IllegalArgumentException(where + ": " + taus.length + " levels but " + l.d().length
                        + " outputs");
            }
            double fw = ModelDocs.number(h.options(), "frobeniusWeight", where + ": options");
            QuantileModel m = new QuantileModel(taus, method, l.kernel(), l.lambda(), fw, l.fns(), l.d(), l.sc(),
                    new Diagnostics(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, true, 0, 0));
            return new StandardModel(h, m) {
                @Override
                public Map<String, Object> evaluate(Dataset raw) {
                    if (raw.y() == null) {
                        throw new IllegalArgumentException(raw.source() + ": no numeric target column");
                    }
                    return metrics(predict(raw.x()), raw.y(), taus, predict(densePoints(l.lo(), l.hi())));
                }
            };
        }

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

        @Override
        public CvSupport cv() {
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
                            QuantileRegression.Options.DEFAULT_RESTARTS, 1L,
                            org.psdkit.model.cone.ConeDualSolver.Options.defaults());
                }

                @Override
                public void validate(Params p) {
                    options(p);
                }

                @Override
                public org.psdkit.model.Predictor fit(Dataset train, Params p) {
                    return QuantileRegression.fit(train.x(), train.y(), options(p));
                }

                @Override
                public Map<String, Double> score(org.psdkit.model.Predictor fitted, Dataset test) {
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
}
