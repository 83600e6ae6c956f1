package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.psdkit.model.Model;

/**
 * Saves and loads fitted models of every family as versioned JSON files ({@link ModelFile}): one {@link ModelCodec}
 * per model type, registered in {@link #CODECS}.
 *
 * <pre>{@code
 * Model m = new KrrTrainer(kernel, KernelRidge.Options.standard(1e-2), Scaler.Kind.ZSCORE).fit(train);
 * ModelIO.save(m, Path.of("krr.json"));                 // atomic: temporary file + rename
 * Model back = ModelIO.load(Path.of("krr.json"));       // any type
 * Pipeline<KernelRidge> typed = ModelIO.load(Path.of("krr.json"), Pipeline.class);
 * }</pre>
 */
public final class ModelIO {
    private ModelIO() {
    }

    /** Every model type. Keep one entry per line. */
    private static final List<ModelCodec> CODECS = List.of(new ModelCodec[] {
            new KrrCodec(),
            new SvmCodec("svm", "soft-margin SVM with a fixed kernel"),
            new SvmCodec("tk-svm", "soft-margin SVM with a learned tessellated kernel"),
            new SvmCodec("simplemkl", "soft-margin SVM with a SimpleMKL kernel combination"),
            new RidgeCodec(),
            new SvrCodec(),
            new OneClassSvmCodec(),
            new PsdRegressionCodec(),
            BaselineCodec.ncm(),
            BaselineCodec.pnm(),
            BaselineCodec.glm(),
            new KernelSosCodec(),
            new HeteroCodec(),
            new QuantileCodec(),
            new DensityCodec("psd-density"),
            new DensityCodec("ncm-density"),
            new DensityCodec("pnm-density"),
            new DensityCodec("glm-density"),
            new DensityCodec("kde"),
    });

    /** The registered codecs, in registration order. */
    public static List<ModelCodec> codecs() {
        return CODECS;
    }

    /** The registered model types. */
    public static List<String> types() {
        List<String> t = new ArrayList<>();
        for (ModelCodec c : CODECS) {
            t.add(c.type());
        }
        return t;
    }

    /** The codec of this type; an unknown type is an error listing the known ones. */
    public static ModelCodec codec(String type) {
        for (ModelCodec c : CODECS) {
            if (c.type().equals(type)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown model type '" + type + "'; known: " + types());
    }

    /** The model's document, as {@link #save} writes it. */
    public static JsonNode toJson(Model model) {
        for (ModelCodec c : CODECS) {
            if (c.canEncode(model)) {
                return c.encode(model);
            }
        }
        throw new IllegalArgumentException("no codec writes models of type '" + model.type() + "' ("
                + model.getClass().getName() + ")");
    }

    /** Rebuilds a model from a (format-checked) document; {@code where} names its source in errors. */
    public static Model fromJson(JsonNode doc, String where) {
        ModelTrees.check(doc, where);
        String type = doc.get("model").asText();
        ModelCodec codec;
        try {
            codec = codec(type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage());
        }
        try {
            return codec.decode(doc, where);
        } catch (IllegalArgumentException e) {
            String msg = e.getMessage() == null ? e.toString() : e.getMessage();
            throw new IllegalArgumentException(msg.contains(where) ? msg : where + " is corrupt: " + msg, e);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(where + " is corrupt: " + e, e);
        }
    }

    /**
     * Writes the model atomically (temporary sibling file, then a rename); errors name the file. A model with a
     * non-finite number is refused with an {@link ArithmeticException} and nothing is written.
     */
    public static void save(Model model, Path file) {
        JsonNode doc = toJson(model);
        try {
            ModelTrees.write(file, doc);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot write the model file (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Writes a model document ({@link #toJson}) as {@link ModelFile#write} does: atomically, refusing a non-finite
     * number outside its diagnostics.
     */
    public static void write(Path file, JsonNode doc) throws IOException {
        ModelTrees.write(file, doc);
    }

    /** Reads a model file of any registered type. */
    public static Model load(Path file) {
        return fromJson(ModelTrees.read(file), "model file " + file);
    }

    /** Reads a model file and checks its class: {@code ModelIO.load(path, Classifier.class)}. */
    public static <M extends Model> M load(Path file, Class<M> type) {
        Model m = load(file);
        if (!type.isInstance(m)) {
            throw new IllegalArgumentException("model file " + file + " holds a " + m.type() + " model, not a "
                    + type.getSimpleName());
        }
        return type.cast(m);
    }
}
