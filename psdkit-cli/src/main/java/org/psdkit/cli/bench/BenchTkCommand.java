package org.psdkit.cli.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.TkBenchmark;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.cli.Reports;
import org.psdkit.cli.reproduce.ReproTkTable1Command;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench tk}: time to learn a tessellated kernel and train the SVM on one 80/20 split (pima by default),
 * against a fixed-Gaussian SVM and SimpleMKL measured in the same run ({@link TkBenchmark}).
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
        TkBenchmark.Result res = TkBenchmark.run(new TkBenchmark.Options(file, repeats, warmup, cRel, eps, degree,
                !noMkl), new BenchProgress("bench tk: "), r -> Progress.info(String.format(Locale.ROOT,
                        "run %d: tk %.3fs, gaussian svm %.3fs%s", r.run(), r.tkSeconds(), r.gaussianSvmSeconds(),
                        noMkl ? "" : String.format(Locale.ROOT, ", simplemkl %.3fs", r.simpleMklSeconds()))));
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "tk");
        rep.put("data", res.data());
        rep.put("trainRows", res.trainRows());
        rep.put("features", res.features());
        rep.put("tkSeconds", res.tkSeconds());
        rep.put("gaussianSvmSeconds", res.gaussianSvmSeconds());
        rep.put("ratioTkOverGaussianSvm", res.ratioTkOverGaussianSvm());
        if (!noMkl) {
            rep.put("simpleMklSeconds", res.simpleMklSeconds());
            rep.put("ratioTkOverSimpleMkl", res.ratioTkOverSimpleMkl());
        }
        rep.put("tkIterations", res.tkIterations());
        rep.put("tkKernel", res.tkKernel());
        rep.put("underTwoSeconds", res.tkSeconds() < 2.0);
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
