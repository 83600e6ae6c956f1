package org.psdkit.onnx;

/** The element type of an exported graph's inputs, constants and outputs. */
public enum Precision {
    /** IEEE double (ONNX DOUBLE): psdkit's arithmetic: predictions equal to 1e-9 relative (OnnxExportTest). */
    DOUBLE,
    /** IEEE single (ONNX FLOAT): half the size, for runtimes or accelerators without doubles; about 1e-5 of the outputs' magnitude on well-conditioned models. */
    FLOAT;

    /** Parses {@code double|float} (case-insensitive). */
    public static Precision parse(String s) {
        try {
            return valueOf(s.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("precision: '" + s + "' is not one of double, float");
        }
    }
}
