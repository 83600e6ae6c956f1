package org.psdkit.spark;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.psdkit.engine.DistributedEngine;
import org.psdkit.psd.Nystrom;

/**
 * The Spark engine ({@code fit krr --engine spark} on the command line), found by {@link java.util.ServiceLoader}
 * through {@code META-INF/services/org.psdkit.engine.DistributedEngine}. It checks the master URL, starts (or
 * joins) a Spark session, reads the data ({@link SparkData}) and fits with {@link SparkFits}, the code the spark.ml
 * estimators ({@code org.psdkit.spark.ml}) fit with: the anchors the single-machine trainer takes ({@link
 * SparkAnchors}), then {@link SparkNystromKrr} or {@link SparkDensityRows}. Errors: bad input (a
 * malformed master URL, a master that does not answer, a missing path, a non-numeric value) is an {@link
 * IllegalArgumentException} (exit 2); a failed Spark job is a {@link DistributedEngine.EngineFailure} with Spark's
 * reason on one line (exit 1).
 */
public final class SparkEngine implements DistributedEngine {

    /**
     * How long a {@code spark://HOST:PORT} master may take to accept a TCP connection before the fit gives up: 10 s,
     * the order of Spark's own RPC connection timeout ({@code spark.network.timeout} is 120 s for a whole request).
     */
    static final int MASTER_CONNECT_TIMEOUT_MS = 10_000;

    /** Master URLs Spark 3.5 accepts ({@code SparkContext.createTaskScheduler} and the cluster managers). */
    private static final Pattern MASTER = Pattern.compile(
            "local|local\\[(\\*|[1-9][0-9]*)(,[1-9][0-9]*)?\\]|local-cluster\\[[0-9]+, *[0-9]+, *[0-9]+\\]"
                    + "|spark://[^/:,\\s]+:[0-9]+(,[^/:,\\s]+:[0-9]+)*|yarn|k8s://\\S+|mesos://\\S+");

    /** Test hook: applied to the parsed rows before the fit (e.g. to inject a task failure). */
    static volatile UnaryOperator<JavaRDD<double[]>> rowsHook;

    public SparkEngine() {
        // a provider without the runtime must fail here (ServiceLoader reports it), not in the middle of a fit
        SparkSession.class.getName();
    }

    @Override
    public String name() {
        return "spark";
    }

    @Override
    public KrrResult fitKrr(KrrRequest req) {
        checkMaster(req.master());
        Session s = Session.open(req.master(), "psdkit fit krr");
        JavaRDD<double[]> rows = null;
        try {
            SparkData.Rows data = SparkData.read(s.spark(), req.data(), req.target());
            rows = cached(data.rows());
            SparkNystromKrr.Fit f;
            try {
                f = SparkFits.krr(rows, req.options().withKernel(req.kernel()), data.features(), data.target(),
                        req.data().location());
            } catch (IllegalArgumentException e) {
                throw e.getMessage() != null && e.getMessage().startsWith("anchor") ? anchorsError(e) : e;
            }
            return new KrrResult(f.pipeline(), f.rows(), data.features().size(), f.trainMetrics());
        } catch (Exception e) { // Scala code throws checked exceptions (SparkException) undeclared
            throw translate(e);
        } finally {
            release(rows);
            s.close();
        }
    }

    /** An anchor error as the command line names its option ({@code --anchors ...}, {@code --anchor-method ...}). */
    private static IllegalArgumentException anchorsError(IllegalArgumentException e) {
        String msg = e.getMessage();
        if (msg != null && msg.startsWith("anchor method ")) {
            return new IllegalArgumentException("--anchor-method " + msg.substring("anchor method ".length()), e);
        }
        return new IllegalArgumentException(msg != null && msg.startsWith("anchors") ? "--" + msg : msg, e);
    }

    /** The input rows through {@link #rowsHook} (tests), cached for the fit's passes. */
    private static JavaRDD<double[]> cached(JavaRDD<double[]> rows) {
        UnaryOperator<JavaRDD<double[]>> hook = rowsHook;
        JavaRDD<double[]> r = hook != null ? hook.apply(rows) : rows;
        return r.persist(StorageLevel.MEMORY_AND_DISK());
    }

    /** Unpersists {@code rows} (if any) at the end of a fit, whatever state the context is in. */
    private static void release(JavaRDD<double[]> rows) {
        if (rows != null) {
            try {
                rows.unpersist(true); // blocking: see SparkNystromKrr.release
            } catch (RuntimeException ignored) {
                // the context may already be stopped (a lost cluster): nothing left to free
            }
        }
    }

    @Override
    public DensityResult fitDensity(DensityRequest req) {
        checkMaster(req.master());
        Session s = Session.open(req.master(), "psdkit fit psd-density");
        JavaRDD<double[]> rows = null;
        try {
            SparkData.Rows data = SparkData.readFeatures(s.spark(), req.data());
            int d = data.features().size();
            rows = cached(data.rows());
            SparkFits.Density f;
            try {
                f = SparkFits.density(rows, req.kernel(), req.base().apply(d), req.options(),
                        Nystrom.of(req.anchors(), req.anchorMethod(), req.seed()), data.features(),
                        req.data().location());
            } catch (IllegalArgumentException e) {
                throw e.getMessage() != null && e.getMessage().startsWith("anchor") ? anchorsError(e) : e;
            }
            return new DensityResult(f.model(), f.n(), d, f.trainLoglik());
        } catch (Exception e) { // Scala code throws checked exceptions (SparkException) undeclared
            throw translate(e);
        } finally {
            release(rows);
            s.close();
        }
    }

    /**
     * Runs {@code job} on a Spark session for {@code master} (checked as the fits check it; null: spark-submit's
     * master, else {@code local[*]}), joining an active session or starting one that is stopped afterwards, with
     * failures translated as the fits translate them ({@link IllegalArgumentException} for bad input, {@link
     * DistributedEngine.EngineFailure} for a failed job). For programs that drive Spark themselves, such as
     * {@code psdkit bench spark}.
     */
    public static <T> T withSession(String master, String app,
                                    java.util.function.Function<org.apache.spark.api.java.JavaSparkContext, T> job) {
        checkMaster(master);
        Session s = Session.open(master, app);
        try {
            return job.apply(org.apache.spark.api.java.JavaSparkContext.fromSparkContext(s.spark().sparkContext()));
        } catch (Exception e) {
            throw translate(e);
        } finally {
            s.close();
        }
    }

    /**
     * A malformed master URL, or a standalone master that does not accept a connection within {@link
     * #MASTER_CONNECT_TIMEOUT_MS}, is an error naming {@code --master} (Spark itself would retry registering for a
     * minute and then fail the job).
     */
    static void checkMaster(String master) {
        if (master == null) {
            return;
        }
        if (!MASTER.matcher(master).matches()) {
            throw new IllegalArgumentException("--master: '" + master + "' is not a Spark master URL (local, local[N], "
                    + "local[*], spark://HOST:PORT, yarn, k8s://HOST:PORT or mesos://HOST:PORT)");
        }
        if (master.startsWith("spark://")) {
            String reason = null;
            for (String hp : master.substring("spark://".length()).split(",")) {
                int c = hp.lastIndexOf(':');
                try (Socket so = new Socket()) {
                    so.connect(new InetSocketAddress(hp.substring(0, c), Integer.parseInt(hp.substring(c + 1))),
                            MASTER_CONNECT_TIMEOUT_MS);
                    return;
                } catch (IOException | IllegalArgumentException e) {
                    reason = hp + ": " + e.getMessage();
                }
            }
            throw new IllegalArgumentException("--master " + master + ": no Spark master answers within "
                    + MASTER_CONNECT_TIMEOUT_MS / 1000 + " s (" + reason + ")");
        }
    }

    /**
     * Bad input found inside a task (Spark wraps it) becomes the {@link IllegalArgumentException} it was; any other
     * failure of Spark is an {@link DistributedEngine.EngineFailure} with the first line of Spark's message.
     */
    public static RuntimeException translate(Exception e) {
        if (e instanceof IllegalArgumentException || e instanceof EngineFailure) {
            return (RuntimeException) e;
        }
        boolean spark = false;
        int depth = 0;
        for (Throwable c = e; c != null && depth < 16; c = c.getCause(), depth++) {
            if (c instanceof IllegalArgumentException iae) {
                return new IllegalArgumentException(iae.getMessage(), e);
            }
            String name = c.getClass().getName();
            spark |= name.startsWith("org.apache.spark.") || name.startsWith("org.apache.hadoop.");
            if (name.endsWith("BadRecordException") || String.valueOf(c.getMessage()).contains("MALFORMED_RECORD")) {
                return new IllegalArgumentException("a malformed CSV record (not as many fields as the header): "
                        + firstLine(c.getMessage()), e);
            }
        }
        if (!spark && e instanceof RuntimeException r) {
            return r;
        }
        return new EngineFailure("spark job failed: " + firstLine(e.getMessage()), e);
    }

    static String firstLine(String s) {
        if (s == null) {
            return "(no message)";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    /** A Spark session, stopped at the end only if this fit started it (tests and notebooks share theirs). */
    record Session(SparkSession spark, boolean owned) implements AutoCloseable {

        static Session open(String master, String app) {
            scala.Option<SparkSession> active = SparkSession.getActiveSession();
            if (active.isEmpty()) {
                active = SparkSession.getDefaultSession();
            }
            if (active.isDefined() && !active.get().sparkContext().isStopped()) {
                return new Session(active.get(), false);
            }
            SparkConf conf = new SparkConf(); // spark.* system properties: spark-submit's --master is spark.master
            String m = master != null ? master : conf.contains("spark.master") ? null : "local[*]";
            SparkSession.Builder b = SparkSession.builder().appName(app);
            if (m != null) {
                b = b.master(m);
            }
            String effective = m != null ? m : conf.get("spark.master");
            if (effective.startsWith("local")) {
                b = b.config("spark.ui.enabled", "false");
            }
            return new Session(b.getOrCreate(), true);
        }

        @Override
        public void close() {
            if (owned) {
                spark.stop();
            }
        }
    }

}
