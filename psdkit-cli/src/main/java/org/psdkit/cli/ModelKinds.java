package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.psdkit.io.ModelFile;

/** The registry of model types known to {@code predict}, {@code eval} and {@code cv}. Add new kinds to {@link #ALL}. */
public final class ModelKinds {
    private ModelKinds() {
    }

    /** Every model type. Keep one entry per line (merges then keep both sides). */
    public static final List<ModelKind> ALL = List.of(new ModelKind[] {  // one per line, trailing comma kept
            new RidgeKind(),
            new KrrKind(),
            new PsdKinds.PsdRegressionKind(),
            new ConeKinds.HeteroKind(),
            new ConeKinds.QuantileKind(),
            PsdKinds.BaselineKind.ncm(),
            PsdKinds.BaselineKind.pnm(),
            PsdKinds.BaselineKind.glm(),
            new KernelSosKind(),
            new DensityKind(org.psdkit.density.PsdDensity.TYPE),
            new DensityKind(org.psdkit.density.Baselines.NCM),
            new DensityKind(org.psdkit.density.Baselines.PNM),
            new DensityKind(org.psdkit.density.Baselines.GLM),
            new DensityKind(org.psdkit.density.Kde.TYPE),
            new SvmModels.Kind("svm", "soft-margin SVM with a fixed kernel"),
            new SvmModels.Kind("tk-svm", "soft-margin SVM with a learned tessellated kernel"),
            new SvmModels.Kind("simplemkl", "soft-margin SVM with a SimpleMKL kernel combination"),
            new SvrKind(),
    });

    /** The kind with this type string; an unknown type is an error listing the known ones. */
    public static ModelKind get(String type) {
        for (ModelKind k : ALL) {
            if (k.type().equals(type)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown model type '" + type + "'; known: " + types());
    }

    public static List<String> types() {
        List<String> t = new ArrayList<>();
        for (ModelKind k : ALL) {
            t.add(k.type());
        }
        return t;
    }

    /** Reads a model file (format and version checked) and rebuilds the model through its kind. */
    public static LoadedModel load(Path file) {
        JsonNode doc = ModelFile.read(file);
        String type = doc.get("model").asText();
        ModelKind kind;
        try {
            kind = get(type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("model file " + file + ": " + e.getMessage());
        }
        try {
            return kind.load(doc, file);
        } catch (IllegalArgumentException e) {
            String msg = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new IllegalArgumentException(msg.contains(file.toString()) ? msg
                    : "model file " + file + " is corrupt: " + msg, e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("model file " + file + " is corrupt: " + e, e);
        }
    }
}
