package org.psdkit.onnx;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A protocol-buffers message being written: the wire format of the Protocol Buffers encoding guide (varints, wire
 * type 0; length-delimited fields, wire type 2; fixed 32-bit, wire type 5). Just what the ONNX {@code ModelProto}
 * subset of {@link OnnxModel} needs: no reading, no groups, fields written in the order they are added.
 */
final class Proto {
    private static final int VARINT = 0;
    private static final int LENGTH_DELIMITED = 2;
    private static final int FIXED32 = 5;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** An int32/int64/enum field (negative values as ten-byte two's-complement varints, as protobuf does). */
    Proto varint(int field, long value) {
        tag(field, VARINT);
        rawVarint(value);
        return this;
    }

    /** A string field, UTF-8. */
    Proto string(int field, String value) {
        return bytes(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A bytes field. */
    Proto bytes(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        rawVarint(value.length);
        out.writeBytes(value);
        return this;
    }

    /** An embedded message field. */
    Proto message(int field, Proto value) {
        return bytes(field, value.toByteArray());
    }

    /** A float field (fixed 32 bits, little-endian). */
    Proto float32(int field, float value) {
        tag(field, FIXED32);
        int bits = Float.floatToIntBits(value);
        for (int i = 0; i < 4; i++) {
            out.write(bits >>> (8 * i));
        }
        return this;
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }

    private void tag(int field, int wireType) {
        rawVarint(((long) field << 3) | wireType);
    }

    private void rawVarint(long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Little-endian IEEE doubles: the {@code raw_data} of a DOUBLE tensor. */
    static byte[] littleEndian(double[] values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double v : values) {
            b.putDouble(v);
        }
        return b.array();
    }

    /** Little-endian IEEE floats: the {@code raw_data} of a FLOAT tensor. */
    static byte[] littleEndian(float[] values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }

    /** Little-endian int64s: the {@code raw_data} of an INT64 tensor. */
    static byte[] littleEndian(long[] values) {
        ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            b.putLong(v);
        }
        return b.array();
    }
}
