package org.psdkit.onnx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * An ONNX graph being built, written as a {@code ModelProto} (onnx/onnx {@code onnx/onnx.proto}, IR version 8,
 * default-domain opset {@link #OPSET}). Internal tensors are named {@code psdkit/…}, so they never meet a feature
 * or output name. Every floating-point constant and input has the graph's element type ({@link Precision}).
 */
final class OnnxGraph {
    /** The default-domain operator set the graphs use (every operator here is unchanged since opset 13). */
    static final int OPSET = 17;
    /** The ONNX IR version of opset 17 (onnx/onnx {@code docs/Versioning.md}). */
    static final int IR_VERSION = 8;

    /** TensorProto.DataType values (onnx.proto). */
    static final int FLOAT = 1;
    static final int INT64 = 7;
    static final int STRING = 8;
    static final int BOOL = 9;
    static final int DOUBLE = 11;

    private final Precision precision;
    private final List<Proto> nodes = new ArrayList<>();
    private final List<Proto> initializers = new ArrayList<>();
    private final List<Proto> inputs = new ArrayList<>();
    private final List<Proto> outputs = new ArrayList<>();
    /** The graph whose names and initializers a body graph shares (null for the main graph). */
    private final OnnxGraph parent;
    private int counter;

    OnnxGraph(Precision precision) {
        this.precision = precision;
        this.parent = null;
    }

    private OnnxGraph(OnnxGraph parent) {
        this.precision = parent.precision;
        this.parent = parent;
    }

    /**
     * A body graph (of a {@code Loop}): its names are drawn from this graph's counter, so they never shadow a name
     * of the outer graph, and its constants are initializers of the main graph, which the body reads from the outer
     * scope (onnx/onnx {@code docs/IR.md}, "Names Within a Graph": nested subgraphs see the names of outer graphs).
     */
    OnnxGraph body() {
        return new OnnxGraph(this);
    }

    private int next() {
        return parent == null ? counter++ : parent.next();
    }

    /** A body graph's input of the given element type: a scalar (shape []), else of shape [N, 1]. */
    void bodyInput(String name, int elemType, boolean scalar) {
        if (!scalar) {
            inputs.add(valueInfo(name, elemType));
            return;
        }
        Proto tensorType = new Proto().varint(1, elemType).message(2, new Proto());
        inputs.add(new Proto().string(1, name).message(2, new Proto().message(1, tensorType)));
    }

    /** A body graph's output {@code name}, copied from {@code from}; its shape left unspecified. */
    void bodyOutput(String name, String from, int elemType) {
        node("Identity", List.of(from), name);
        outputs.add(new Proto().string(1, name).message(2, new Proto().message(1, new Proto().varint(1, elemType))));
    }

    /** The GraphProto of a body graph (node 1, name 2, input 11, output 12). */
    Proto bodyGraph(String name) {
        Proto g = new Proto();
        for (Proto n : nodes) {
            g.message(1, n);
        }
        g.string(2, name);
        for (Proto i : inputs) {
            g.message(11, i);
        }
        for (Proto o : outputs) {
            g.message(12, o);
        }
        return g;
    }

    /** A fresh internal name for a body graph's input. */
    String name(String hint) {
        return "psdkit/" + hint + "_" + next();
    }

    /** The element type of the graph's real numbers. */
    int real() {
        return precision == Precision.DOUBLE ? DOUBLE : FLOAT;
    }

    /** A node attribute (AttributeProto: name 1, f 2, i 3, s 4, t 5, ints 8, type 20). */
    record Attr(String name, Proto value) {
        static Attr i(String name, long v) {
            return new Attr(name, new Proto().string(1, name).varint(3, v).varint(20, 2));
        }

        static Attr ints(String name, long... v) {
            Proto a = new Proto().string(1, name);
            for (long x : v) {
                a.varint(8, x);
            }
            return new Attr(name, a.varint(20, 7));
        }

        static Attr tensor(String name, Proto t) {
            return new Attr(name, new Proto().string(1, name).message(5, t).varint(20, 4));
        }

        /** A graph attribute (g 6, type GRAPH = 5). */
        static Attr graph(String name, Proto g) {
            return new Attr(name, new Proto().string(1, name).message(6, g).varint(20, 5));
        }
    }

    /** Adds a node and returns the name of its (single) output. */
    String op(String opType, List<String> in, Attr... attrs) {
        String out = "psdkit/" + opType + "_" + next();
        node(opType, in, out, attrs);
        return out;
    }

    /** Adds a node with {@code outputs} outputs and returns their names. */
    List<String> ops(String opType, List<String> in, int outputs, Attr... attrs) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < outputs; i++) {
            out.add("psdkit/" + opType + "_" + next());
        }
        node(opType, in, out, attrs);
        return out;
    }

    String op(String opType, String a, Attr... attrs) {
        return op(opType, List.of(a), attrs);
    }

    String op(String opType, String a, String b, Attr... attrs) {
        return op(opType, List.of(a, b), attrs);
    }

    /** NodeProto: input 1, output 2, name 3, op_type 4, attribute 5. */
    private void node(String opType, List<String> in, String out, Attr... attrs) {
        node(opType, in, List.of(out), attrs);
    }

    private void node(String opType, List<String> in, List<String> out, Attr... attrs) {
        Proto n = new Proto();
        for (String s : in) {
            n.string(1, s);
        }
        for (String s : out) {
            n.string(2, s);
        }
        n.string(3, out.get(0));
        n.string(4, opType);
        for (Attr a : attrs) {
            n.message(5, a.value());
        }
        nodes.add(n);
    }

    /** A real constant of the given shape (row-major data), stored in the graph's precision. */
    String constant(String hint, double[] data, long... dims) {
        return initializer(hint, tensor(data, dims));
    }

    /** A real scalar constant (shape []), broadcast by the operators. */
    String scalar(String hint, double v) {
        return constant(hint, new double[] {v});
    }

    /** An int64 constant (shapes, axes). */
    String int64(String hint, long[] data, long... dims) {
        Proto t = new Proto();
        for (long d : dims) {
            t.varint(1, d);
        }
        t.varint(2, INT64);
        t.bytes(9, Proto.littleEndian(data));
        return initializer(hint, t);
    }

    /** A boolean constant. */
    String bool(String hint, boolean v, long... dims) {
        Proto t = new Proto();
        for (long d : dims) {
            t.varint(1, d);
        }
        t.varint(2, BOOL);
        t.bytes(9, new byte[] {(byte) (v ? 1 : 0)});
        return initializer(hint, t);
    }

    /** A string constant (STRING tensors keep their values in string_data, field 6). */
    String strings(String hint, String[] data, long... dims) {
        Proto t = new Proto();
        for (long d : dims) {
            t.varint(1, d);
        }
        t.varint(2, STRING);
        for (String s : data) {
            t.string(6, s);
        }
        return initializer(hint, t);
    }

    /** TensorProto of reals: dims 1, data_type 2, raw_data 9 (little-endian). */
    Proto tensor(double[] data, long... dims) {
        long size = 1;
        for (long d : dims) {
            size *= d;
        }
        if (size != data.length) {
            throw new IllegalStateException("constant of shape " + Arrays.toString(dims) + " with " + data.length
                    + " values");
        }
        Proto t = new Proto();
        for (long d : dims) {
            t.varint(1, d);
        }
        t.varint(2, real());
        if (precision == Precision.DOUBLE) {
            t.bytes(9, Proto.littleEndian(data));
        } else {
            float[] f = new float[data.length];
            for (int i = 0; i < f.length; i++) {
                f[i] = (float) data[i];
            }
            t.bytes(9, Proto.littleEndian(f));
        }
        return t;
    }

    private String initializer(String hint, Proto t) {
        if (parent != null) {
            return parent.initializer(hint, t);
        }
        String name = "psdkit/" + hint + "_" + next();
        t.string(8, name);
        initializers.add(t);
        return name;
    }

    /** A graph input of shape [N, 1] with N symbolic ("N"). */
    void input(String name, int elemType) {
        inputs.add(valueInfo(name, elemType));
    }

    /** A graph output {@code name} copied from tensor {@code from}, of shape [N, 1]. */
    void output(String name, String from, int elemType) {
        node("Identity", List.of(from), name);
        outputs.add(valueInfo(name, elemType));
    }

    /** ValueInfoProto (name 1, type 2) of a [N, 1] tensor: TypeProto.tensor_type 1 {elem_type 1, shape 2}. */
    private static Proto valueInfo(String name, int elemType) {
        Proto shape = new Proto()
                .message(1, new Proto().string(2, "N"))     // Dimension.dim_param
                .message(1, new Proto().varint(1, 1));      // Dimension.dim_value
        Proto tensorType = new Proto().varint(1, elemType).message(2, shape);
        return new Proto().string(1, name).message(2, new Proto().message(1, tensorType));
    }

    /**
     * The ModelProto: ir_version 1, producer_name 2, producer_version 3, doc_string 6, graph 7, opset_import 8,
     * metadata_props 14; GraphProto: node 1, name 2, initializer 5, doc_string 10, input 11, output 12.
     */
    byte[] model(String graphName, String doc, String producerVersion, Map<String, String> metadata) {
        Proto g = new Proto();
        for (Proto n : nodes) {
            g.message(1, n);
        }
        g.string(2, graphName);
        for (Proto t : initializers) {
            g.message(5, t);
        }
        g.string(10, doc);
        for (Proto i : inputs) {
            g.message(11, i);
        }
        for (Proto o : outputs) {
            g.message(12, o);
        }
        Proto m = new Proto()
                .varint(1, IR_VERSION)
                .string(2, "psdkit")
                .string(3, producerVersion)
                .string(6, doc)
                .message(7, g)
                .message(8, new Proto().string(1, "").varint(2, OPSET));
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            m.message(14, new Proto().string(1, e.getKey()).string(2, e.getValue()));
        }
        return m.toByteArray();
    }
}
