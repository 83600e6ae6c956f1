package org.psdkit.tribuo;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.psdkit.io.ModelFile;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.tribuo.Example;
import org.tribuo.Excuse;
import org.tribuo.Feature;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.Model;
import org.tribuo.Output;
import org.tribuo.Prediction;
import org.tribuo.impl.ModelDataCarrier;
import org.tribuo.protos.core.ModelDataProto;
import org.tribuo.protos.core.ModelProto;
import org.tribuo.provenance.ModelProvenance;
import com.oracle.labs.mlrg.olcut.util.Pair;

/**
 * A fitted psdkit model as a Tribuo {@link Model}: Tribuo examples become dense rows of the psdkit model's features
 * (a feature the example lacks is 0, as Tribuo's sparse examples mean; a feature the model does not know is
 * ignored), and the psdkit model predicts them, raw features in, its own scaling applied. The psdkit model is
 * {@link #unwrap()}; batch prediction ({@link #predict(Iterable)}, {@link #predict(org.tribuo.Dataset)}) predicts
 * every example in one matrix call.
 *
 * <p>Serialisation: Java serialisation writes the psdkit model as its model-file JSON ({@link ModelIO#toJson}), and
 * {@link #serialize()} writes a Tribuo {@link ModelProto} whose data is the message {@code PsdkitModelProto}
 * ({@code org/psdkit/tribuo/psdkit_tribuo.proto}: Tribuo's {@code ModelDataProto} and the same JSON), read back by
 * {@link Model#deserialize(ModelProto)}. Both give back a model that predicts bit for bit as the original.
 *
 * @param <T> the Tribuo output type
 */
public abstract class PsdkitModel<T extends Output<T>> extends Model<T> {
    private static final long serialVersionUID = 1L;

    /** The version of the protobuf form. */
    public static final int CURRENT_VERSION = 0;

    /** The type URL of the {@code PsdkitModelProto} message in a {@link ModelProto}'s {@code serialized_data}. */
    public static final String PROTO_TYPE_URL = "type.googleapis.com/org.psdkit.tribuo.PsdkitModelProto";

    /** The fitted psdkit model; serialised as its model file's JSON (see {@link #writeObject}). */
    private transient org.psdkit.model.Model model;
    /** Feature name → column of the psdkit model's input rows. */
    private transient Map<String, Integer> columns;

    protected PsdkitModel(String name, ModelProvenance provenance, ImmutableFeatureMap featureIDMap,
                          ImmutableOutputInfo<T> outputIDInfo, boolean generatesProbabilities,
                          org.psdkit.model.Model model) {
        super(name, provenance, featureIDMap, outputIDInfo, generatesProbabilities);
        this.model = model;
        this.columns = columns(model);
    }

    /** The fitted psdkit model (its type, hyper-parameters, diagnostics; {@code ModelIO.save} writes its file). */
    public org.psdkit.model.Model unwrap() {
        return model;
    }

    /** The fitted psdkit model as {@code type} ({@code Classifier}, {@code Pipeline}, {@code HeteroPipeline}, …). */
    public <M extends org.psdkit.model.Model> M unwrap(Class<M> type) {
        if (!type.isInstance(model)) {
            throw new ClassCastException("this " + model.type() + " model is a " + model.getClass().getSimpleName()
                    + ", not a " + type.getSimpleName());
        }
        return type.cast(model);
    }

    /** The psdkit outputs of a batch of examples (one row each) turned into Tribuo predictions. */
    protected abstract List<Prediction<T>> predictions(Matrix outputs, int[] used, List<Example<T>> examples);

    @Override
    public Prediction<T> predict(Example<T> example) {
        return innerPredict(List.of(example)).get(0);
    }

    @Override
    protected List<Prediction<T>> innerPredict(Iterable<Example<T>> examples) {
        List<Example<T>> list = new ArrayList<>();
        for (Example<T> e : examples) {
            list.add(e);
        }
        if (list.isEmpty()) {
            return new ArrayList<>();
        }
        int d = model.featureNames().size();
        double[][] rows = new double[list.size()][d];
        int[] used = new int[list.size()];
        for (int i = 0; i < rows.length; i++) {
            for (Feature f : list.get(i)) {
                Integer j = columns.get(f.getName());
                if (j != null) {
                    rows[i][j] = f.getValue();
                    used[i]++;
                }
            }
            if (used[i] == 0) {
                throw new IllegalArgumentException("example " + i + " has no feature this model knows ("
                        + model.featureNames() + ")");
            }
        }
        return predictions(model.predict(Matrix.of(rows)), used, list);
    }

    /** Kernel models have no per-feature weights: empty, as Tribuo's LibSVM models. */
    @Override
    public Map<String, List<Pair<String, Double>>> getTopFeatures(int n) {
        return Collections.emptyMap();
    }

    @Override
    public Optional<Excuse<T>> getExcuse(Example<T> example) {
        return Optional.empty();
    }

    @Override
    public ModelProto serialize() {
        ModelDataCarrier<T> carrier = createDataCarrier();
        try {
            ByteString.Output buffer = ByteString.newOutput();
            CodedOutputStream out = CodedOutputStream.newInstance(buffer);
            out.writeMessage(1, carrier.serialize());
            out.writeBytes(2, ByteString.copyFrom(json(model)));
            out.flush();
            Any data = Any.newBuilder().setTypeUrl(PROTO_TYPE_URL).setValue(buffer.toByteString()).build();
            return ModelProto.newBuilder().setSerializedData(data).setClassName(getClass().getName())
                    .setVersion(CURRENT_VERSION).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The two fields of a {@code PsdkitModelProto}. */
    record Parts(ModelDataCarrier<?> carrier, org.psdkit.model.Model model) {
    }

    /** Reads a {@code PsdkitModelProto} written by {@link #serialize()}. */
    static Parts parts(int version, String className, Any message) throws InvalidProtocolBufferException {
        if (version < 0 || version > CURRENT_VERSION) {
            throw new IllegalArgumentException("Unknown version " + version + " of " + className
                    + ", this class supports at most version " + CURRENT_VERSION);
        }
        if (!PROTO_TYPE_URL.equals(message.getTypeUrl())) {
            throw new InvalidProtocolBufferException("expected a " + PROTO_TYPE_URL + ", found "
                    + message.getTypeUrl());
        }
        ModelDataProto metadata = null;
        byte[] json = null;
        try {
            CodedInputStream in = message.getValue().newCodedInput();
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                switch (tag >>> 3) {
                    case 1 -> metadata = ModelDataProto.parseFrom(in.readBytes());
                    case 2 -> json = in.readByteArray();
                    default -> in.skipField(tag);
                }
            }
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new InvalidProtocolBufferException(e);
        }
        if (metadata == null || json == null) {
            throw new InvalidProtocolBufferException("a PsdkitModelProto needs its metadata and its model JSON");
        }
        return new Parts(ModelDataCarrier.deserialize(metadata), model(json));
    }

    /** The model file's JSON of a psdkit model. */
    static byte[] json(org.psdkit.model.Model model) {
        try {
            return ModelFile.JSON.writeValueAsBytes(ModelIO.toJson(model));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A psdkit model from its model file's JSON. */
    static org.psdkit.model.Model model(byte[] json) {
        JsonNode doc;
        try {
            doc = ModelFile.JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("serialised psdkit model: not JSON (" + e.getMessage() + ")", e);
        }
        return ModelIO.fromJson(doc, "serialised psdkit model");
    }

    private static Map<String, Integer> columns(org.psdkit.model.Model model) {
        Map<String, Integer> c = new HashMap<>();
        List<String> names = model.featureNames();
        for (int j = 0; j < names.size(); j++) {
            c.put(names.get(j), j);
        }
        return c;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        out.writeObject(json(model));
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        model = model((byte[]) in.readObject());
        columns = columns(model);
    }
}
