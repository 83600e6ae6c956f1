package org.psdkit.cli.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.KrrLooBenchmark;
import org.psdkit.cli.DataFiles;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit bench krr-loo}: a leave-one-out λ path of KRR against one fit, same run ({@link KrrLooBenchmark}). */
@Command(name = "krr-loo", description = "KRR leave-one-out over a lambda path (one eigendecomposition) against one "
        + "fit, exact and Nystrom, on California housing.")
public final class BenchKrrLooCommand implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "FILE", description = "California housing CSV (default: ../shared/data/california-housing.csv).")
    Path data;

    @Option(names = "--n", defaultValue = "5000", description = "Subsample size (default: ${DEFAULT-VALUE}).")
    int n;

    @Option(names = "--lambdas", defaultValue = "20", description = "Values of the lambda path, 1e-4 to 10 (default: ${DEFAULT-VALUE}).")
    int lambdas;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", description = "Kernel (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--anchors", defaultValue = "500", description = "Nystrom anchors (0: exact only; default: ${DEFAULT-VALUE}).")
    int anchors;

    @Option(names = "--repeats", defaultValue = "2", description = "Timed repeats, best reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--seed", defaultValue = "1", description = "Subsample seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--profile", description = "Time the exact path's parts instead (Gram, dsyevd, dsyevr, the "
            + "products with the eigenvectors, the lambda loop) against one fit's (Gram, Cholesky).")
    boolean profile;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        if (lambdas < 1 || repeats < 1 || anchors < 0) {
            throw new IllegalArgumentException("--lambdas and --repeats must be >= 1, --anchors >= 0");
        }
        Path file = data != null ? data : DataFiles.shared("california-housing.csv", "--data");
        Dataset all = CsvReader.read(file, CsvReader.Options.regression());
        if (n < 2 || n > all.n()) {
            throw new IllegalArgumentException("--n: " + n + " is not in [2, " + all.n() + "]");
        }
        if (profile) {
            KrrLooBenchmark.Phases ph = KrrLooBenchmark.profile(all, n, KernelSpecs.parse(kernel),
                    KrrLooBenchmark.logspace(1e-4, 10, lambdas), repeats, seed);
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("benchmark", "krr-loo-profile");
            rep.put("n", ph.n());
            rep.put("lambdas", ph.lambdas());
            rep.put("threads", org.psdkit.linalg.Linalg.threads());
            rep.put("gramSeconds", ph.gram());
            rep.put("choleskySeconds", ph.cholesky());
            rep.put("dsyevdSeconds", ph.dsyevd());
            rep.put("dsyevrSeconds", ph.dsyevr());
            rep.put("productsSeconds", ph.products());
            rep.put("loopSeconds", ph.loop());
            rep.put("fitSeconds", ph.fit());
            rep.put("pathSeconds", ph.path());
            rep.put("ratio", ph.path() / ph.fit());
            rep.put("dsyevrOverDsyevd", ph.dsyevr() / ph.dsyevd());
            rep.put("maxDiagonalGap", ph.maxDiagonalGap());
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
        KrrLooBenchmark.Result r = KrrLooBenchmark.run(all, n, KernelSpecs.parse(kernel),
                KrrLooBenchmark.logspace(1e-4, 10, lambdas), Math.min(anchors, n), repeats, seed);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "krr-loo");
        rep.put("n", r.n());
        rep.put("lambdas", r.lambdas());
        rep.put("fitSeconds", r.fitSeconds());
        rep.put("pathSeconds", r.pathSeconds());
        rep.put("ratio", r.ratio());
        if (r.anchors() > 0) {
            rep.put("anchors", r.anchors());
            rep.put("nystromFitSeconds", r.nystromFitSeconds());
            rep.put("nystromPathSeconds", r.nystromPathSeconds());
            rep.put("nystromRatio", r.nystromRatio());
        }
        rep.put("bestLambda", r.bestLambda());
        rep.put("bestLooRmse", r.bestRmse());
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
