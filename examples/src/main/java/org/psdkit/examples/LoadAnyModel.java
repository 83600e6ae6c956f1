package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.psdkit.data.CsvReader;
import org.psdkit.data.CsvWriter;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;

/**
 * Loads a model file of any family that {@code psdkit fit} wrote, using psdkit-core alone: reads a CSV of raw feature
 * rows by the model's {@link Model#featureNames()}, predicts, then saves the model again, reloads the copy and checks
 * that the copy predicts bit for bit the same numbers (and labels, for a classifier).
 *
 * <pre>
 * java -cp psdkit-core.jar:... org.psdkit.examples.LoadAnyModel MODEL.json DATA.csv
 * </pre>
 *
 * prints the prediction CSV that {@code psdkit predict} writes (a classifier's {@code label} column first, then
 * {@link Model#outputColumns()}) and reports the round trip on standard error.
 */
public final class LoadAnyModel {
    private LoadAnyModel() {
    }

    /**
     * What a model file predicts on a data file.
     *
     * @param model        the loaded model
     * @param outputs      {@code model.predict(rows)}: one row of {@link Model#outputColumns()} per data row
     * @param labels       the predicted labels of a {@link Classifier}, else {@code null}
     * @param bitIdentical whether save → load → predict gave exactly the same bits (and labels)
     */
    public record Prediction(Model model, double[][] outputs, String[] labels, boolean bitIdentical) {
    }

    /**
     * Loads {@code modelFile}, predicts the rows of {@code dataCsv} (columns matched by header name, extra columns
     * ignored), and checks the round trip through a copy saved in {@code scratch}.
     */
    public static Prediction predict(Path modelFile, Path dataCsv, Path scratch) {
        Model model = ModelIO.load(modelFile);
        Dataset data = CsvReader.readColumns(dataCsv, model.featureNames().toArray(new String[0]), null, false, false);
        double[][] rows = data.x().toRowArrays();
        double[][] outputs = model.predict(rows);
        String[] labels = model instanceof Classifier c ? c.predictLabels(data.x()) : null;

        Path copy = scratch.resolve("copy-of-" + modelFile.getFileName());
        ModelIO.save(model, copy);
        Model back = ModelIO.load(copy);
        double[][] again = back.predict(rows);
        boolean same = bits(outputs, again);
        if (labels != null) {
            same &= back instanceof Classifier c2 && Arrays.equals(labels, c2.predictLabels(data.x()));
        }
        return new Prediction(model, outputs, labels, same);
    }

    private static boolean bits(double[][] a, double[][] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i].length != b[i].length) {
                return false;
            }
            for (int j = 0; j < a[i].length; j++) {
                if (Double.doubleToRawLongBits(a[i][j]) != Double.doubleToRawLongBits(b[i][j])) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Writes the prediction as RFC 4180 CSV (header, then one record per row), numbers as {@link Double#toString}. */
    public static void writeCsv(Prediction p, PrintStream out) {
        List<String> header = new ArrayList<>();
        if (p.labels() != null) {
            header.add("label");
        }
        header.addAll(p.model().outputColumns());
        out.println(CsvWriter.record(header.toArray(new String[0])));
        for (int i = 0; i < p.outputs().length; i++) {
            List<String> rec = new ArrayList<>();
            if (p.labels() != null) {
                rec.add(p.labels()[i]);
            }
            for (double v : p.outputs()[i]) {
                rec.add(Double.toString(v));
            }
            out.println(CsvWriter.record(rec.toArray(new String[0])));
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LoadAnyModel MODEL.json DATA.csv");
            System.exit(2);
        }
        Path scratch = Files.createTempDirectory("psdkit-load-any");
        int status;
        try {
            Prediction p = predict(Path.of(args[0]), Path.of(args[1]), scratch);
            writeCsv(p, new PrintStream(System.out, true, StandardCharsets.UTF_8));
            System.err.println(p.model().type() + " model, " + p.outputs().length + " rows; save -> load -> predict "
                    + (p.bitIdentical() ? "is bit-identical" : "DIFFERS"));
            status = p.bitIdentical() ? 0 : 1;
        } catch (IllegalArgumentException e) {
            System.err.println("LoadAnyModel: " + e.getMessage());
            status = 2;
        } finally {
            try (var s = Files.list(scratch)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(scratch);
        }
        System.exit(status);
    }
}
