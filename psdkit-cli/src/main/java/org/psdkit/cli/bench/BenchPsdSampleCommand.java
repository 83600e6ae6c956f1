package org.psdkit.cli.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.PsdSamplingBench;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench psd-sample}: the PSD density sampler against the previous sequential conditional-CDF inversion
 * on the same fitted model in the same run ({@link PsdSamplingBench}).
 */
@Command(name = "psd-sample", description = "Sampling from fitted PSD densities (d=10, n=1000 and 2-D, n=300): "
        + "time of N draws and per-draw ratio to the previous sequential sampler measured in the same run.")
public final class BenchPsdSampleCommand implements Callable<Integer> {
    @Option(names = "--cases", split = ",", defaultValue = "2d,d10", paramLabel = "CASE",
            description = "Cases, d10 and/or 2d (default: ${DEFAULT-VALUE}).")
    List<String> cases;
    @Option(names = "--d10-model", paramLabel = "MODEL.json",
            description = "A fitted psd-density model for d10 (default: fit it here, untimed).")
    Path d10Model;
    @Option(names = "--2d-model", paramLabel = "MODEL.json",
            description = "A fitted psd-density model for 2d (default: fit it here, untimed).")
    Path twoDModel;
    @Option(names = "--draws", defaultValue = "10000",
            description = "Draws of the new sampler (default: ${DEFAULT-VALUE}).")
    int draws;
    @Option(names = "--baseline-draws", defaultValue = "20",
            description = "Draws of the old sampler (default: ${DEFAULT-VALUE}).")
    int baselineDraws;
    @Option(names = "--seed", defaultValue = "1", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;
    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        PsdSamplingBench.Options o;
        try {
            o = new PsdSamplingBench.Options(cases, d10Model, twoDModel, draws, baselineDraws, seed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + e.getMessage());
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        PsdSamplingBench.run(o, r -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("case", r.name());
            m.put("n", r.n());
            m.put("d", r.d());
            m.put("draws", r.draws());
            m.put("seconds", r.seconds());
            m.put("baseline_draws", r.baselineDraws());
            m.put("baseline_seconds", r.baselineSeconds());
            m.put("speedup_per_draw", r.speedup());
            m.put("fraction_x1_positive", r.fractionPositive());
            m.put("probability_x1_positive", r.probabilityPositive());
            rows.add(m);
            System.err.println(String.format(Locale.ROOT, "%s (n=%d, d=%d): %d draws in %.2f s; old sampler %d draws "
                    + "in %.2f s; per-draw ratio old/new %.0f; x1 > 0: %.4f of draws vs P = %.4f", r.name(), r.n(),
                    r.d(), r.draws(), r.seconds(), r.baselineDraws(), r.baselineSeconds(), r.speedup(),
                    r.fractionPositive(), r.probabilityPositive()));
        });
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "psd-sample");
        rep.put("cores", Runtime.getRuntime().availableProcessors());
        if (json) {
            rep.put("results", rows);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
