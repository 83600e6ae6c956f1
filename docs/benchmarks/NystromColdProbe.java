import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * The phases of {@code fit krr --anchors 2000} on bench cold's nystrom-200000 file (σ = 2, λ = 1, seed 1), in one
 * process, wall and process CPU each: reading the CSV, the fit with its own timings (anchors, K_mm and its factor,
 * the first pass, the sketch, the CG data passes, the m×m work), a predict of every training row (what the report
 * did before), the training predictions of {@code NystromKrrTrainer.fittedValues} (when the jar has it) and the
 * model file. Usage (Java 17 single-file launch; docs/benchmarks/krr-scale.md has a run):
 *   java -Xmx8g -cp psdkit.jar docs/benchmarks/NystromColdProbe.java DIR/nys-200000.csv [REPEATS]
 */
public class NystromColdProbe {
    static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    static long w0;
    static long c0;

    static void start() {
        w0 = System.nanoTime();
        c0 = OS.getProcessCpuTime();
    }

    static void stop(String what) {
        System.out.printf("%-32s wall %7.3f s  cpu %7.3f s%n", what, (System.nanoTime() - w0) * 1e-9,
                (OS.getProcessCpuTime() - c0) * 1e-9);
    }

    public static void main(String[] a) throws Exception {
        Path f = Paths.get(a[0]);
        int reps = a.length > 1 ? Integer.parseInt(a[1]) : 1;
        System.out.printf("JVM start to main: %.3f s%n",
                (System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime()) * 1e-3);
        for (int r = 0; r < reps; r++) {
            System.out.println("--- repeat " + r);
            start();
            Dataset ds = CsvReader.read(f, CsvReader.Options.regression());
            stop("read CSV");
            Kernel k = Kernels.parse("gaussian(sigma=2)");
            NystromKrrTrainer.Options o = NystromKrrTrainer.Options.of(k, 1, 2000, 1);
            start();
            Pipeline<KernelRidge> pm = new NystromKrrTrainer(o).fit(ds);
            stop("fit (trainer)");
            start();
            NystromKrrTrainer.ProfiledFit pf = NystromKrrTrainer.fitScaledProfiled(k, ds.x(), ds.y(), o);
            stop("fit again (profiled)");
            System.out.println("  " + pf.timings() + " " + pf.fit().diagnostics());
            start();
            double[] p = pm.predict(ds.x()).col(0);
            stop("predict every training row");
            try {
                start();
                double[] fv = NystromKrrTrainer.fittedValues(pm, ds.x());
                stop("fittedValues");
                double md = 0;
                for (int i = 0; i < p.length; i++) {
                    md = Math.max(md, Math.abs(p[i] - fv[i]) / Math.max(1, Math.abs(p[i])));
                }
                System.out.printf("  max |predict - fittedValues| / max(1, |predict|) = %.2e%n", md);
            } catch (NoSuchMethodError e) {
                System.out.println("  (no fittedValues in this jar)");
            }
            start();
            org.psdkit.io.ModelFile.write(Paths.get(System.getProperty("java.io.tmpdir"), "nystrom-probe.json"),
                    org.psdkit.io.ModelIO.toJson(pm));
            stop("model file");
        }
    }
}
