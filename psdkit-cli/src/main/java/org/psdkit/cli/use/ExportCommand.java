package org.psdkit.cli.use;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.LoadedModel;
import org.psdkit.cli.Main;
import org.psdkit.cli.OutputPaths;
import org.psdkit.cli.Reports;
import org.psdkit.data.OutputFiles;
import org.psdkit.onnx.OnnxExport;
import org.psdkit.onnx.Precision;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit export --model M --format onnx --out M.onnx [--precision double|float]} (docs/onnx.md). */
@Command(name = "export", description = "Write a model file in another format: an ONNX graph (docs/onnx.md).")
public final class ExportCommand implements Callable<Integer> {

    @Option(names = "--model", required = true, paramLabel = "MODEL.json", description = "Model file from fit.")
    Path model;

    @Option(names = "--format", required = true, paramLabel = "FORMAT", description = "Output format: onnx.")
    String format;

    @Option(names = "--out", required = true, paramLabel = "MODEL.onnx", description = "Output file.")
    Path out;

    @Option(names = "--precision", paramLabel = "P", defaultValue = "double",
            description = "Element type of the graph: double (default; psdkit's predictions to 1e-9 relative) or "
                    + "float (to about 1e-5).")
    String precision;

    @Option(names = "--json", description = "Print one JSON summary object on stdout.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (!"onnx".equalsIgnoreCase(format.trim())) {
            throw new IllegalArgumentException("--format: '" + format + "' is not a known format; known: onnx");
        }
        Precision p;
        try {
            p = Precision.parse(precision);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + e.getMessage());
        }
        OutputPaths.check("--out", out, "--model", model);
        LoadedModel m = LoadedModel.load(model);
        byte[] bytes;
        try {
            bytes = OnnxExport.toBytes(m.model(), p);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(model + ": " + e.getMessage(), e);
        }
        try {
            OutputFiles.writeAtomically(out, bytes);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--out " + out + ": cannot write (" + e.getMessage() + ")", e);
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("model", m.type());
        rep.put("format", "onnx");
        rep.put("precision", p.name().toLowerCase(java.util.Locale.ROOT));
        rep.put("bytes", bytes.length);
        rep.put("out", out.toString());
        if (!json) {
            System.err.println("psdkit export: wrote the " + m.type() + " model as ONNX to " + out);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
