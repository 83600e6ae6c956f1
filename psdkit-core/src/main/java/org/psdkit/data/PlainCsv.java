package org.psdkit.data;

import com.fasterxml.jackson.core.io.NumberInput;
import java.util.stream.IntStream;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.MemoryBudget;

/**
 * The data lines of a plain numeric CSV file read straight from its bytes, for {@link CsvReader}: no line strings, no
 * field strings, no character decoding. It exists for the first call: in a fresh JVM the general path (a
 * {@code BufferedReader}'s lines, split and stripped into strings, each parsed) runs interpreted and is compiled
 * piece by piece while a file of a few thousand rows is read, where this one loop over the bytes is compiled early
 * (measured in docs/benchmarks/cold.md, "the data file read in one loop").
 *
 * <p>It reads only what it reads as the general path does and otherwise gives up ({@link #rows} returns null), and
 * the general path then reads the file, errors and their messages included: a byte outside ASCII (a BOM, UTF-8 text),
 * a double quote, a carriage return, an empty line, a line whose field count is not the header's, a field of a
 * column the plan reads with anything but the characters of a decimal number ({@code 0-9 . + - e E}: no blank,
 * no {@code NaN}), a number the parser refuses, a value that is not finite or beyond
 * {@link CsvReader#MAX_MAGNITUDE}, and plans with weights or several targets. Numbers go through
 * {@code NumberInput.parseDouble(…, true)}, the correctly rounded parse the general path uses, so every value is
 * the same double; a class-label target keeps its token as the label, as the general path does. Columns the plan
 * does not read are only counted, as the general path does not parse them either.
 */
final class PlainCsv {

    /** Lines up to this count are read by the calling thread alone. */
    static final int SERIAL_LINES = 2048;

    /** Longer numeric fields go to the general path. */
    static final int MAX_NUMBER_CHARS = 100;

    private PlainCsv() {
    }

    /** The rows of one part of the data lines: features row-major, the target and its labels. */
    private static final class Part {
        double[] x;
        double[] y;
        String[] labels;
        boolean yNumeric = true;
        int rows;
        boolean failed;
    }

    /** Whether the file's bytes are all ASCII with no double quote and no carriage return (the header included). */
    static boolean plainBytes(byte[] text) {
        for (byte b : text) {
            if (b < 0 || b == '"' || b == '\r') { // b < 0: a byte of 0x80 or more
                return false;
            }
        }
        return true;
    }

    /**
     * The data set of the data lines text[from, text.length) (after the header line; the text's bytes passed
     * {@link #plainBytes}), read with the plan's columns, or null when the general path must read them.
     *
     * @param width       the header's field count
     * @param featureCols the columns of the features, in the plan's order
     * @param targetCol   the target's column, or -1
     * @param labelTarget whether the target holds class labels (kept verbatim, numeric when every one is a number)
     */
    static Dataset rows(byte[] text, int from, String file, int width, int[] featureCols, String[] featureNames,
                        int targetCol, String targetName, boolean labelTarget) {
        int end = text.length;
        if (end > from && text[end - 1] == '\n') {
            end--; // the final line's newline
        }
        if (end == from || text[end - 1] == '\n' || text[from] == '\n') {
            return null; // no data rows, or a blank line at the end or the start: the general path's rules
        }
        if (featureCols.length == 0 && targetCol < 0) {
            return null; // nothing read: a line would not be checked at all
        }
        // the column each field goes to: k ≥ 0 the k-th feature, -2 the target, -1 not read
        int[] slot = new int[width];
        java.util.Arrays.fill(slot, -1);
        for (int k = 0; k < featureCols.length; k++) {
            if (slot[featureCols[k]] != -1) {
                return null;
            }
            slot[featureCols[k]] = k;
        }
        if (targetCol >= 0) {
            if (slot[targetCol] != -1) {
                return null;
            }
            slot[targetCol] = -2;
        }
        int lines = 1;
        for (int i = from; i < end; i++) {
            if (text[i] == '\n') {
                lines++;
            }
        }
        int d = featureCols.length;
        try {
            MemoryBudget.check(file + " (" + lines + " rows x " + d + " columns)",
                    MemoryBudget.times(2, MemoryBudget.matrixBytes(lines, d)));
        } catch (RuntimeException e) {
            return null; // the general path's message, at its place
        }
        int parts = lines <= SERIAL_LINES ? 1 : Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(),
                lines / SERIAL_LINES));
        // part p starts at the first line beginning at or after from + p·(end − from)/parts
        int[] starts = new int[parts + 1];
        starts[0] = from;
        starts[parts] = end;
        for (int p = 1; p < parts; p++) {
            int i = from + (int) ((long) (end - from) * p / parts);
            while (i < end && text[i - 1] != '\n') {
                i++;
            }
            starts[p] = Math.max(i, starts[p - 1]);
        }
        Part[] out = new Part[parts];
        final int last = end;
        if (parts == 1) {
            out[0] = part(text, starts[0], last, width, slot, d, targetCol >= 0, labelTarget);
        } else {
            IntStream.range(0, parts).parallel().forEach(p -> out[p] = part(text, starts[p], starts[p + 1], width,
                    slot, d, targetCol >= 0, labelTarget));
        }
        int n = 0;
        boolean yNumeric = true;
        for (Part p : out) {
            if (p.failed) {
                return null;
            }
            n += p.rows;
            yNumeric &= p.yNumeric;
        }
        if (n == 0) {
            return null;
        }
        Matrix x = Matrix.zeros(n, d);
        double[] a = x.data();
        double[] y = targetCol >= 0 ? new double[n] : null;
        String[] labels = targetCol >= 0 && labelTarget ? new String[n] : null;
        int r0 = 0;
        for (Part p : out) {
            double[] px = p.x;
            for (int j = 0; j < d; j++) {
                int col = j * n + r0;
                for (int i = 0; i < p.rows; i++) {
                    a[col + i] = px[i * d + j];
                }
            }
            if (y != null) {
                System.arraycopy(p.y, 0, y, r0, p.rows);
            }
            if (labels != null) {
                System.arraycopy(p.labels, 0, labels, r0, p.rows);
            }
            r0 += p.rows;
        }
        if (labels != null && !yNumeric) {
            y = null;
        }
        return new Dataset(x, y, labels, featureNames.clone(), targetCol >= 0 ? targetName : null, file, null,
                null);
    }

    /** Reads the lines text[from, to) (each ending in a newline but the last, at to). */
    private static Part part(byte[] text, int from, int to, int width, int[] slot, int d, boolean target,
                             boolean labelTarget) {
        Part p = new Part();
        int cap = 16;
        p.x = new double[cap * d];
        p.y = target ? new double[cap] : null;
        p.labels = target && labelTarget ? new String[cap] : null;
        char[] digits = new char[MAX_NUMBER_CHARS];
        int i = from;
        int r = 0;
        while (i < to) {
            if (r == cap) {
                cap *= 2;
                p.x = java.util.Arrays.copyOf(p.x, cap * d);
                if (p.y != null) {
                    p.y = java.util.Arrays.copyOf(p.y, cap);
                }
                if (p.labels != null) {
                    p.labels = java.util.Arrays.copyOf(p.labels, cap);
                }
            }
            int field = 0;
            while (true) {
                int s = i;
                while (i < to && text[i] != ',' && text[i] != '\n') {
                    i++;
                }
                if (field >= width) {
                    p.failed = true;
                    return p;
                }
                int k = slot[field];
                if (k != -1) {
                    int len = i - s;
                    double v = Double.NaN;
                    boolean numeric = len > 0 && len <= MAX_NUMBER_CHARS;
                    for (int q = 0; numeric && q < len; q++) {
                        int c = text[s + q];
                        numeric = CsvReader.numberChar(c);
                        digits[q] = (char) c;
                    }
                    if (numeric) {
                        try {
                            v = NumberInput.parseDouble(digits, 0, len, true);
                        } catch (NumberFormatException e) {
                            v = Double.NaN;
                        }
                    }
                    if (k == -2 && labelTarget) {
                        if (len == 0 || len > MAX_NUMBER_CHARS || !plainLabel(text, s, i)) {
                            p.failed = true;
                            return p;
                        }
                        boolean finite = Double.isFinite(v);
                        p.labels[r] = new String(text, s, len, java.nio.charset.StandardCharsets.US_ASCII);
                        p.y[r] = finite ? v : 0;
                        p.yNumeric &= finite;
                    } else if (!Double.isFinite(v) || Math.abs(v) > CsvReader.MAX_MAGNITUDE) {
                        p.failed = true; // the general path's error, at its place in its order
                        return p;
                    } else if (k == -2) {
                        p.y[r] = v;
                    } else {
                        p.x[r * d + k] = v;
                    }
                }
                field++;
                if (i >= to || text[i] == '\n') {
                    break;
                }
                i++; // the comma
            }
            if (field != width) {
                p.failed = true;
                return p;
            }
            r++;
            if (i < to) {
                i++; // the newline
                if (i < to && text[i] == '\n') {
                    p.failed = true; // an empty line
                    return p;
                }
            }
        }
        p.rows = r;
        return p;
    }

    /** Whether text[s, e) has no blank byte (the general path strips them from a label; here it gives up). */
    private static boolean plainLabel(byte[] text, int s, int e) {
        for (int q = s; q < e; q++) {
            int c = text[q];
            if (c <= ' ' || c == 127) {
                return false;
            }
        }
        return true;
    }
}
