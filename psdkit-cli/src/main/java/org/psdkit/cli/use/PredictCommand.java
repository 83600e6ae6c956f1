package org.psdkit.cli.use;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.DataReaders;
import org.psdkit.cli.LoadedModel;
import org.psdkit.cli.Main;
import org.psdkit.cli.OutputPaths;
import org.psdkit.cli.Reports;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Threads;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit predict --model M --data F --out P.csv}. */
@Command(name = "predict", description = "Apply a model file to a CSV; writes one row of outputs per input row.")
public final class PredictCommand implements Callable<Integer> {

    @Option(names = "--model", required = true, paramLabel = "MODEL.json", description = "Model file from fit.")
    Path model;

    @Option(names = "--data", required = true, paramLabel = "FILE",
            description = "CSV with a header naming (at least) the model's feature columns.")
    Path data;

    @Option(names = "--out", required = true, paramLabel = "PRED.csv", description = "Output CSV (header + rows).")
    Path out;

    @Option(names = "--json", description = "Print one JSON summary object on stdout.")
    boolean json;

    /** The options with a value that {@link #direct} reads. */
    private static final java.util.Set<String> DIRECT_OPTIONS = java.util.Set.of("--model", "--data", "--out",
            "--threads");

    /** A plain predict line read without picocli: the command with its options set, and {@code --threads} (0: absent). */
    public record Direct(PredictCommand command, int threads) {
    }

    /**
     * {@code args} as picocli would read them when they are a plain predict line: {@code predict} followed only by
     * {@code --model}, {@code --data} and {@code --out} (each exactly once, as "--opt VALUE" or "--opt=VALUE"),
     * optionally {@code --json} and {@code --threads N} (N a positive decimal integer), once each. Anything else
     * returns null and goes through picocli, which then gives its usual help or message: help and version options,
     * a missing, repeated or unknown option, a positional argument, an empty value or one that starts with '-', any
     * argument starting with '@' (picocli reads such an argument as a file of arguments), a value that is no valid
     * path. picocli builds its model of a command by reflection on every run (annotation proxies, accessors,
     * lambdas), which is a large part of a short predict's start-up (docs/benchmarks/cold.md).
     */
    public static Direct direct(String... args) {
        if (args.length < 7 || !"predict".equals(args[0])) {
            return null;
        }
        java.util.Map<String, String> values = new java.util.HashMap<>();
        boolean jsonV = false;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("@")) {
                return null;
            }
            if (a.equals("--json")) {
                if (jsonV) {
                    return null;
                }
                jsonV = true;
                continue;
            }
            String name = a;
            String value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 2) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                return null;
            }
            if (value.isEmpty() || value.startsWith("-") || value.startsWith("@") || !DIRECT_OPTIONS.contains(name)
                    || values.putIfAbsent(name, value) != null) {
                return null;
            }
        }
        String modelV = values.get("--model");
        String dataV = values.get("--data");
        String outV = values.get("--out");
        String threadsV = values.get("--threads");
        if (modelV == null || dataV == null || outV == null) {
            return null;
        }
        int threads = 0;
        if (threadsV != null) {
            if (threadsV.length() > 9) {
                return null;
            }
            for (int i = 0; i < threadsV.length(); i++) {
                if (threadsV.charAt(i) < '0' || threadsV.charAt(i) > '9') {
                    return null;
                }
            }
            threads = Integer.parseInt(threadsV);
            if (threads < 1) {
                return null;
            }
        }
        PredictCommand c = new PredictCommand();
        try {
            c.model = Path.of(modelV);
            c.data = Path.of(dataV);
            c.out = Path.of(outV);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
        c.json = jsonV;
        return new Direct(c, threads);
    }

    @Override
    public Integer call() {
        OutputPaths.check("--out", out, "--model", model, "--data", data);
        LoadedModel m = LoadedModel.load(model);
        // OpenBLAS's load through JavaCPP (two native libraries, docs/benchmarks/startup.md) runs on a second thread
        // (started by Main before the options were parsed, or here) while the model and data files are read; it is
        // joined before the model's first BLAS call, so no two threads ever call into JavaCPP at once.
        Threads.loadBlasInBackground();
        Dataset ds = DataReaders.readForModel(data, m, false);
        Threads.awaitBackgroundLoad();
        long t0 = System.nanoTime();
        String[][] cells = m.predictText(ds.x());
        double secs = (System.nanoTime() - t0) * 1e-9;
        List<String[]> rows = new ArrayList<>(cells.length);
        for (String[] r : cells) {
            rows.add(r);
        }
        Reports.writeCsv(out, m.outputColumns(), rows);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("model", m.type());
        rep.put("n", ds.n());
        rep.put("d", ds.d());
        rep.put("seconds", secs);
        rep.put("out", out.toString());
        if (!json) {
            System.err.println("psdkit predict: wrote " + ds.n() + " rows to " + out);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
