package org.psdkit.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import picocli.CommandLine.Option;

/**
 * The options and helpers of every {@code psdkit fit <model>} command; use it as
 * {@code @CommandLine.Mixin CommonFitOptions common;}. Adds {@code --out MODEL.json} to {@link TrainingOptions}.
 *
 * <p>Typical use: {@link #checkOutWritable}, {@link #loadSupervised}, fit a library trainer, {@link #save} the model,
 * {@link #report} {@link #baseReport} plus the family's fields.
 */
public class CommonFitOptions extends TrainingOptions {

    @Option(names = "--out", required = true, paramLabel = "MODEL.json",
            description = "Where to write the model file (written atomically).")
    public Path out;

    /** Writes a fitted library model to {@code --out} atomically through {@link org.psdkit.io.ModelIO}. */
    public void save(org.psdkit.model.Model model) {
        try {
            org.psdkit.io.ModelIO.write(out, org.psdkit.io.ModelIO.toJson(model));
        } catch (IOException e) {
            throw new IllegalArgumentException("--out " + out + ": cannot write (" + e.getMessage() + ")");
        }
    }

    /**
     * Fails early (exit 2) if the folder of {@code --out} does not exist or {@code --out} names the training file
     * ({@link OutputPaths#check}).
     */
    public void checkOutWritable() {
        OutputPaths.check("--out", out, "--train", train);
    }

    /** The first entries of every fit report: model, n, d, seconds (in that order). */
    public Map<String, Object> baseReport(String type, Dataset rawTrain, double seconds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model", type);
        m.put("n", rawTrain.n());
        m.put("d", rawTrain.d());
        m.put("seconds", seconds);
        m.put("out", out.toString());
        return m;
    }

}
