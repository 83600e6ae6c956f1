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
