package org.psdkit.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.mkl.KernelLearning;
import org.psdkit.mkl.KernelLearning.Method;
import org.psdkit.svm.BinaryLabels;
import org.psdkit.svm.KernelRows;
import org.psdkit.svm.LabeledCsv;
import org.psdkit.svm.MinMaxScaler;
import org.psdkit.svm.Smo;
import org.psdkit.svm.Splits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench tk}: time to learn a tessellated kernel and train the SVM on one 80/20 split (pima by default),
 * against baselines measured in the same run: a plain SVM with a fixed Gaussian kernel (Gram + SMO) and SimpleMKL
 * over the Gaussian/polynomial library, all with the same relative C. Medians over repetitions after warm-up runs
 * (JIT compilation, native library loading).
 */
@Command(name = "tk", description = "Direct TK learning + SVM on one split vs a fixed-Gaussian SVM and SimpleMKL.")
public final class BenchTkCommand implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "FILE", description = "CSV file (default: pima.csv in the data folder).")
    Path data;

    @Option(names = "--repeats", defaultValue = "5", paramLabel = "R", description = "Timed runs (default: 5).")
    int repeats;

    @Option(names = "--warmup", defaultValue = "2", paramLabel = "W", description = "Untimed runs (default: 2).")
    int warmup;

    @Option(names = "-c", defaultValue = "0.1", paramLabel = "c", description = "Relative C (default: 0.1).")
    double cRel;

    @Option(names = "--epsilon", defaultValue = "0.1", paramLabel = "EPS", description = "Box margin (default 0.1).")
    double eps;

    @Option(names = "--degree", defaultValue = "1", paramLabel = "D", description = "TK degree (default 1).")
    int degree;

    @Option(names = "--no-simplemkl", description = "Skip the SimpleMKL baseline.")
    boolean noMkl;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        if (repeats < 1 || warmup < 0) {
            throw new IllegalArgumentException("--repeats must be >= 1 and --warmup >= 0");
        }
        if (!(cRel > 0) || !(eps >= 0)) {
            throw new IllegalArgumentException("-c must be > 0 and --epsilon >= 0");
        }
        Path file = data == null ? ReproTkTable1Command.defaultData().resolve("pima.csv") : data;
        LabeledCsv d = LabeledCsv.read(file, true);
        BinaryLabels lab = BinaryLabels.of(d.labels(), d.source());
        double[] y = lab.encode(d.labels(), d.source());
        int[][] tt = Splits.trainTest(y.length, 0.8, 1000);
        MinMaxScaler sc = MinMaxScaler.fit(d.x().selectRows(tt[0]));
        Matrix x = sc.apply(d.x().selectRows(tt[0]));
        double[] ytr = Splits.select(y, tt[0]);
        KernelLearning.Settings st = new KernelLearning.Settings(degree, TessellatedKernel.Orthant.LOWER, 300, 1);
        double[] tk = new double[repeats];
        double[] gauss = new double[repeats];
        double[] mkl = new double[repeats];
        KernelLearning.Fitted last = null;
        for (int r = -warmup; r < repeats; r++) {
            long t0 = System.nanoTime();
            last = KernelLearning.fit(Method.TK, x, ytr, cRel, eps, st, 1e-2);
            long t1 = System.nanoTime();
            GaussianKernel g = new GaussianKernel(1.0);
            Matrix k = g.gram(x);
            Smo.solve(KernelRows.dense(k), ytr, cRel / (k.trace() / k.rows()), Smo.DEFAULT_TOLERANCE, null);
            long t2 = System.nanoTime();
            if (!noMkl) {
                KernelLearning.fit(Method.SIMPLEMKL, x, ytr, cRel, 0, st, 1e-2);
            }
            long t3 = System.nanoTime();
            if (r >= 0) {
                tk[r] = (t1 - t0) * 1e-9;
                gauss[r] = (t2 - t1) * 1e-9;
                mkl[r] = (t3 - t2) * 1e-9;
            }
            Progress.info(String.format(Locale.ROOT, "run %d: tk %.3fs, gaussian svm %.3fs%s", r,
                    (t1 - t0) * 1e-9, (t2 - t1) * 1e-9, noMkl ? "" : String.format(Locale.ROOT,
                            ", simplemkl %.3fs", (t3 - t2) * 1e-9)));
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "tk");
        rep.put("data", d.source());
        rep.put("trainRows", x.rows());
        rep.put("features", x.cols());
        rep.put("tkSeconds", median(tk));
        rep.put("gaussianSvmSeconds", median(gauss));
        rep.put("ratioTkOverGaussianSvm", median(tk) / median(gauss));
        if (!noMkl) {
            rep.put("simpleMklSeconds", median(mkl));
            rep.put("ratioTkOverSimpleMkl", median(tk) / median(mkl));
        }
        rep.put("tkIterations", last.iterations());
        rep.put("tkKernel", last.summary());
        rep.put("underTwoSeconds", median(tk) < 2.0);
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }
}
