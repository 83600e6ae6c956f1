package org.psdkit.cli.use;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.OutputPaths;
import org.psdkit.cli.Reports;
import org.psdkit.density.DensityPipeline;
import org.psdkit.io.ModelFile;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit sample --model M --n N --seed S --out FILE}: exact, seeded draws from a fitted density (PSD model by
 * rejection from a proven envelope, PsdSampler; NCM and KDE as mixtures). PNM (not non-negative) and
 * GLM (normaliser only estimated) cannot be sampled exactly and are refused.
 */
@Command(name = "sample", description = "Draw exact, seeded samples from a fitted density model (psd-density, "
        + "ncm-density, kde); writes a CSV with the model's feature columns.")
public final class SampleCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, paramLabel = "MODEL.json", description = "Density model file.")
    Path model;
    @Option(names = "--n", required = true, paramLabel = "N", description = "Number of samples (>= 1).")
    int n;
    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;
    @Option(names = "--out", required = true, paramLabel = "FILE.csv", description = "Output CSV.")
    Path out;
    @Option(names = "--json", description = "Print one JSON summary object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        if (n < 1) {
            throw new IllegalArgumentException("--n must be >= 1, got " + n);
        }
        OutputPaths.check("--out", out, "--model", model);
        JsonNode doc = ModelFile.read(model);
        String type = doc.get("model").asText();
        org.psdkit.io.ModelDocs.header(doc, "model file " + model); // the common fields first, as for every model
        if (!DensityPipeline.TYPES.contains(type)) {
            throw new IllegalArgumentException("model file " + model + ": type '" + type + "' is not a density model");
        }
        DensityPipeline m = (DensityPipeline) ModelIO.fromJson(doc, "model file " + model);
        try {
            m.requireSamplable();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("model file " + model + ": " + e.getMessage(), e);
        }
        long t0 = System.nanoTime();
        Matrix raw = m.sample(n, seed);
        double secs = (System.nanoTime() - t0) * 1e-9;
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < raw.rows(); i++) {
            String[] r = new String[raw.cols()];
            for (int t = 0; t < raw.cols(); t++) {
                r[t] = Double.toString(raw.get(i, t));
            }
            rows.add(r);
        }
        Reports.writeCsv(out, m.featureNames().toArray(new String[0]), rows);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("model", type);
        rep.put("n", n);
        rep.put("d", raw.cols());
        rep.put("seconds", secs);
        rep.put("seed", seed);
        rep.put("out", out.toString());
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
