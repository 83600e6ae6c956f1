package org.psdkit.cli.use;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.DataReaders;
import org.psdkit.cli.LoadedModel;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.data.Dataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit eval --model M --data F [--json]}. */
@Command(name = "eval", description = "Evaluate a model file on a CSV that has the target column.")
public final class EvalCommand implements Callable<Integer> {

    @Option(names = "--model", required = true, paramLabel = "MODEL.json", description = "Model file from fit.")
    Path model;

    @Option(names = "--data", required = true, paramLabel = "FILE",
            description = "CSV with the model's feature columns and its target column.")
    Path data;

    @Option(names = "--json", description = "Print exactly one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        LoadedModel m = LoadedModel.load(model);
        Dataset ds = DataReaders.readForModel(data, m, !m.unsupervised());
        long t0 = System.nanoTime();
        Map<String, Object> metrics = m.evaluate(ds);
        double secs = (System.nanoTime() - t0) * 1e-9;
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("model", m.type());
        rep.put("n", ds.n());
        rep.put("d", ds.d());
        rep.put("seconds", secs);
        rep.putAll(metrics);
        if (!json) {
            System.err.println("psdkit eval: " + m.type() + " on " + data);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
