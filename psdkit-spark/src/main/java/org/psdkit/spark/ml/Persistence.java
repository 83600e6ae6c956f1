package org.psdkit.spark.ml;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.BiFunction;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;
import org.psdkit.io.ModelFile;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Model;
import scala.Option;

/**
 * spark.ml persistence of the transformers that hold a psdkit model: under the saved directory, {@code metadata/}
 * is spark.ml's own (class, uid, Spark version, every param: what {@code Pipeline}, {@code PipelineModel} and
 * {@code CrossValidatorModel} read back by reflection through the class's static {@code read()}) and
 * {@code data/psdkit-model.json} is the psdkit model file itself, byte for byte what {@link ModelIO#save} writes,
 * so {@code psdkit predict --model DIR/data/psdkit-model.json} and {@link ModelIO#load} read it too. Paths are
 * Hadoop paths (local, HDFS, S3, ...).
 */
final class Persistence {

    /** The model file under a saved directory. */
    static final String MODEL_FILE = "data/psdkit-model.json";

    private Persistence() {
    }

    /** Writes the params' metadata and the model file. */
    static final class Writer extends MLWriter {
        private final Params instance;
        private final Model model;

        Writer(Params instance, Model model) {
            this.instance = instance;
            this.model = model;
        }

        @Override
        public void saveImpl(String path) {
            DefaultParamsWriter.saveMetadata(instance, path, sc(), Option.empty(), Option.empty());
            Path file = new Path(path, MODEL_FILE);
            try {
                FileSystem fs = file.getFileSystem(sc().hadoopConfiguration());
                try (OutputStream out = fs.create(file, true)) {
                    out.write(ModelFile.JSON.writeValueAsBytes(ModelIO.toJson(model)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(file + ": cannot write the model file", e);
            }
        }
    }

    /**
     * Reads what {@link Writer} wrote: the metadata (checked to name {@code cls}), the model file (checked to hold
     * a model of type {@code modelType}), then builds the instance with {@code make} (uid, model) and sets the
     * saved params.
     */
    static final class Reader<T extends Params> extends MLReader<T> {
        private final Class<T> cls;
        private final String modelType;
        private final BiFunction<String, Model, T> make;

        /** @param modelType the model-file type the file must hold, or null for any */
        Reader(Class<T> cls, String modelType, BiFunction<String, Model, T> make) {
            this.cls = cls;
            this.modelType = modelType;
            this.make = make;
        }

        @Override
        public T load(String path) {
            DefaultParamsReader.Metadata md = DefaultParamsReader.loadMetadata(path, sc(), cls.getName());
            Model m = readModel(path, sc().hadoopConfiguration());
            if (modelType != null && !modelType.equals(m.type())) {
                throw new IllegalArgumentException(path + ": the model file holds a " + m.type() + " model, "
                        + cls.getSimpleName() + " a " + modelType + " model");
            }
            T t = make.apply(md.uid(), m);
            md.getAndSetParams(t, Option.empty());
            return t;
        }
    }

    /** The psdkit model under a saved directory. */
    static Model readModel(String dir, org.apache.hadoop.conf.Configuration conf) {
        return readModelFile(new Path(dir, MODEL_FILE).toString(), conf);
    }

    /** A psdkit model file at a Hadoop path; a missing or malformed file is an error naming it. */
    static Model readModelFile(String path, org.apache.hadoop.conf.Configuration conf) {
        Path file = new Path(path);
        try {
            FileSystem fs = file.getFileSystem(conf);
            if (!fs.exists(file)) {
                throw new IllegalArgumentException(path + ": no such model file");
            }
            try (InputStream in = fs.open(file)) {
                com.fasterxml.jackson.databind.JsonNode doc = ModelFile.JSON.readTree(in);
                ModelFile.check(doc, path);
                return ModelIO.fromJson(doc, path);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(path + ": cannot read the model file (" + e.getMessage() + ")", e);
        }
    }
}
