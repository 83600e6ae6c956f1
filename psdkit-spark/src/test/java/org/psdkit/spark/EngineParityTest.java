package org.psdkit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.engine.DataSource;
import org.psdkit.engine.DistributedEngine;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;

/**
 * The Spark engine and the single-machine trainer fit the same model on the same CSV file: the anchors are the same
 * rows (the trainer's seeded choice of row indices, {@link SparkAnchors}), so the two model files' numbers agree to
 * rounding. The file is read in several splits (a small {@code spark.sql.files.maxPartitionBytes}), so that the rows'
 * numbering across partitions is exercised.
 */
class EngineParityTest {

    /** The two model files' numbers: equal up to the summation order of the data sums. */
    private static final double TOL = 1e-8;

    /**
     * CG's relative residual: the two solves stop at different iterates within their tolerance, so the coefficients
     * agree to about the tolerance times the condition number of the preconditioned system; 1e-10 makes that small.
     */
    private static final double CG_TOL = 1e-10;

    /**
     * L-BFGS iterations of both density fits (the gap tolerance is never reached): the same iterations on the same
     * anchors. Run to a gap tolerance instead, the two fits stop at different iterates within it (the factor is
     * determined only up to the tolerance and a rotation).
     */
    private static final int DENSITY_ITERATIONS = 25;

    @TempDir
    static Path dir;

    @Test
    void krrOnSparkWritesTheLocalModel() throws IOException {
        double[][] rows = SparkNystromKrrTest.data(2000, 3, 41);
        Path csv = write("krr.csv", "a,b,c,y", rows);
        Kernel k = Kernels.parse("gaussian(sigma=0.3)");
        // fit krr --kernel 'gaussian(sigma=0.3)' --lambda 1 --anchors 100 --seed 3 --cg-tol 1e-10, other options the
        // command line's defaults (--storage auto: the Gram route on both engines here)
        NystromKrrTrainer.Options o = new NystromKrrTrainer.Options(k, Scaler.Kind.NONE,
                Nystrom.of(100, Anchors.Method.UNIFORM, 3), 1.0, false, CG_TOL, NystromKrr.DEFAULT_MAX_ITERATIONS,
                Storage.AUTO);
        Dataset ds = CsvReader.read(csv, CsvReader.Options.regression());
        Pipeline<KernelRidge> local = new NystromKrrTrainer(o).fit(ds);
        DistributedEngine.KrrResult spark = splitInto(4, () -> new SparkEngine().fitKrr(
                new DistributedEngine.KrrRequest(DataSource.of(csv.toString()), null, "local[2]", k, o)));
        assertEquals(2000, spark.n());
        assertSameNumbers(local, spark.model(), 100 * 3 + 100);
    }

    @Test
    void densityOnSparkWritesTheLocalModel() throws IOException {
        double[][] rows = SparkDensityRowsTest.gaussianRows(1000, 2, 42);
        Path csv = write("density.csv", "u,v", rows);
        Kernel k = Kernels.parse("gaussian(sigma=0.7)");
        PsdDensityOptions o = new PsdDensityOptions(1e-3, 1e-5, PsdDensityOptions.LambdaScale.TRACE, 1e-12,
                DENSITY_ITERATIONS,
                Double.POSITIVE_INFINITY, PsdDensityOptions.DEFAULT_RANK_THRESHOLD,
                PsdDensityOptions.Solver.PRIMAL_LBFGS);
        BaseMeasure base = BaseMeasure.parse("lebesgue", 2);
        Dataset ds = CsvReader.read(csv, CsvReader.Options.unsupervised());
        DensityPipeline local = new PsdDensityTrainer(new PsdDensityTrainer.Options(k, base, o,
                org.psdkit.psd.Nystrom.of(50, Anchors.Method.UNIFORM, 5), Scaler.Kind.NONE)).fit(ds);
        DistributedEngine.DensityResult spark = splitInto(3, () -> new SparkEngine().fitDensity(
                new DistributedEngine.DensityRequest(DataSource.of(csv.toString()), "local[2]", k,
                        d -> BaseMeasure.parse("lebesgue", d), o, 50, Anchors.Method.UNIFORM, 5)));
        assertEquals(1000, spark.n());
        assertSameNumbers(local, spark.model(), 50 * 2);
    }

    /** A CSV file of the rows under the header. */
    private static Path write(String name, String header, double[][] rows) throws IOException {
        StringBuilder sb = new StringBuilder(header).append('\n');
        for (double[] r : rows) {
            for (int j = 0; j < r.length; j++) {
                sb.append(j > 0 ? "," : "").append(r[j]);
            }
            sb.append('\n');
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    /** Runs {@code fit} with CSV files cut into splits small enough that the file is read as about {@code parts}. */
    private static <T> T splitInto(int parts, java.util.function.Supplier<T> fit) {
        SparkSession s = SharedSpark.session();
        String max = "spark.sql.files.maxPartitionBytes";
        String open = "spark.sql.files.openCostInBytes";
        String before = s.conf().get(max);
        String beforeOpen = s.conf().get(open);
        s.conf().set(max, String.valueOf(20_000 * 4 / parts));
        s.conf().set(open, "1");
        try {
            return fit.get();
        } finally {
            s.conf().set(max, before);
            s.conf().set(open, beforeOpen);
        }
    }

    /**
     * Every number of the two model files (the diagnostics left out: they hold timings and the engine's name) agrees
     * to {@link #TOL}, and the files hold the same keys; {@code atLeast} numbers are compared (the anchors and the
     * coefficients), so that an empty comparison cannot pass.
     */
    static void assertSameNumbers(Model local, Model spark, int atLeast) {
        Map<String, Double> a = numbers(ModelIO.toJson(local));
        Map<String, Double> b = numbers(ModelIO.toJson(spark));
        assertEquals(a.keySet(), b.keySet());
        assertTrue(a.size() >= atLeast, "only " + a.size() + " numbers");
        double worst = 0;
        String where = "";
        for (Map.Entry<String, Double> e : a.entrySet()) {
            double d = Math.abs(e.getValue() - b.get(e.getKey()));
            if (!(d <= worst)) {
                worst = d;
                where = e.getKey();
            }
        }
        Map<String, Double> byKey = new TreeMap<>(); // the largest difference of every array, for the message
        for (Map.Entry<String, Double> e : a.entrySet()) {
            byKey.merge(e.getKey().replaceAll("\\[.*", ""), Math.abs(e.getValue() - b.get(e.getKey())), Math::max);
        }
        assertTrue(worst <= TOL, "the model files differ by " + worst + " at " + where + " " + byKey);
    }

    /** The numeric leaves of a model file by their JSON path, without its diagnostics. */
    static Map<String, Double> numbers(JsonNode doc) {
        Map<String, Double> out = new TreeMap<>();
        collect(doc, "", out);
        return out;
    }

    private static void collect(JsonNode n, String path, Map<String, Double> out) {
        if (n.isNumber()) {
            out.put(path, n.asDouble());
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                collect(n.get(i), path + "[" + i + "]", out);
            }
        } else if (n.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getKey().equals("diagnostics")) {
                    collect(e.getValue(), path + "/" + e.getKey(), out);
                }
            }
        }
    }
}
