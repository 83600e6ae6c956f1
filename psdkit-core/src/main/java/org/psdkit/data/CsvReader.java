package org.psdkit.data;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.MemoryBudget;

/**
 * Reads numeric CSV files with one header row into a {@link Dataset}.
 *
 * <p>Rules: {@code ,} separator; the header names every column (names must be distinct); every data line has as many
 * fields as the header; a feature field must be a finite decimal number. Blank lines at the end of the file are
 * ignored. Any violation is an {@link IllegalArgumentException} whose message names the file, the line (1-based,
 * the header is line 1) and the column (1-based index and header name).
 *
 * <p>The target column is the last column unless a name is given; {@link Options#noTarget()} reads every column as a
 * feature. With {@link Options#labelTarget()} the target may hold arbitrary tokens (class labels): they are kept
 * verbatim in {@link Dataset#labels()}, and {@link Dataset#y()} holds their numeric values if every token is a
 * number, else {@code null}.
 */
public final class CsvReader {
    /**
     * Heap bytes per CSV field at the least while a file is parsed: its String (24 bytes with compressed oops), the
     * String's byte array (16 bytes with one short value), the reference in its row array (4) and the double it
     * becomes (8).
     */
    private static final long FIELD_BYTES = 24 + 16 + 4 + 8;

    private CsvReader() {
    }

    /**
     * How to read a file.
     *
     * @param targetName  the target column, or {@code null} for the last column
     * @param noTarget    no target: every column is a feature
     * @param labelTarget the target may be non-numeric (class labels)
     */
    public record Options(String targetName, boolean noTarget, boolean labelTarget) {
        public Options {
            if (noTarget && targetName != null) {
                throw new IllegalArgumentException("targetName " + targetName + " and noTarget exclude each other");
            }
        }

        /** Target = last column, numeric. */
        public static Options regression() {
            return new Options(null, false, false);
        }

        /** No target column. */
        public static Options unsupervised() {
            return new Options(null, true, false);
        }
    }

    /** Reads a file; see the class comment for the rules. */
    public static Dataset read(Path file, Options opts) {
        return fromTable(readTable(file), opts);
    }

    private static Dataset fromTable(Table t, Options opts) {
        Path file = t.file;
        String[] header = t.header;
        int targetCol;
        if (opts.noTarget()) {
            targetCol = -1;
        } else if (opts.targetName() != null) {
            targetCol = indexOf(header, opts.targetName());
            if (targetCol < 0) {
                throw new IllegalArgumentException(file + ": no column named '" + opts.targetName()
                        + "' (targetName); the header has " + String.join(",", header));
            }
        } else {
            if (header.length < 2) {
                throw new IllegalArgumentException(file + ": the target is the last column, so at least two columns "
                        + "are needed; the header has " + header.length + " (set noTarget for unsupervised data)");
            }
            targetCol = header.length - 1;
        }
        List<String> features = new ArrayList<>();
        for (int j = 0; j < header.length; j++) {
            if (j != targetCol) {
                features.add(header[j]);
            }
        }
        return select(t, features.toArray(new String[0]), targetCol < 0 ? null : header[targetCol],
                opts.labelTarget(), true);
    }

    /** A data set read with its incomplete rows left out, and how many rows were left out. */
    public record Filtered(Dataset data, int dropped) {
    }

    /**
     * Like {@link #read(Path, Options)}, but rows with an empty field or a {@code ?} (the UCI missing-value mark) are
     * left out instead of being an error; the other rules are unchanged.
     */
    public static Filtered readDroppingIncomplete(Path file, Options opts) {
        Table t = readTable(file);
        List<String[]> keep = new ArrayList<>();
        int[] lines = new int[t.rows().size()];
        for (int i = 0; i < t.rows().size(); i++) {
            String[] row = t.rows().get(i);
            if (Arrays.stream(row).noneMatch(f -> f.isEmpty() || f.equals("?"))) {
                lines[keep.size()] = t.lineNumbers()[i];
                keep.add(row);
            }
        }
        if (keep.isEmpty()) {
            throw new IllegalArgumentException(file + ": every data row has a missing value");
        }
        Table complete = new Table(file, t.header(), keep, Arrays.copyOf(lines, keep.size()));
        return new Filtered(fromTable(complete, opts), t.rows().size() - keep.size());
    }

    /**
     * Reads the columns a fitted model needs, matched by header name: the feature columns in the model's order and,
     * if {@code targetName} is not null and {@code requireTarget} is set, the target. Extra columns are ignored (not
     * even parsed). A missing feature column is an error naming the column; a missing target is an error only when
     * required; when not required and present it is read too.
     */
    public static Dataset readColumns(Path file, String[] featureNames, String targetName, boolean requireTarget,
                                      boolean labelTarget) {
        Table t = readTable(file);
        for (String f : featureNames) {
            if (indexOf(t.header, f) < 0) {
                throw new IllegalArgumentException(file + ": missing feature column '" + f
                        + "' that the model needs; the header has " + String.join(",", t.header));
            }
        }
        String target = null;
        if (targetName != null) {
            if (indexOf(t.header, targetName) >= 0) {
                target = targetName;
            } else if (requireTarget) {
                throw new IllegalArgumentException(file + ": missing target column '" + targetName
                        + "' (needed to evaluate the model); the header has " + String.join(",", t.header));
            }
        } else if (requireTarget) {
            throw new IllegalArgumentException("the model has no target column, so it cannot be evaluated on " + file);
        }
        return select(t, featureNames, target, labelTarget, false);
    }

    // ------------------------------------------------------------------ internals

    private record Table(Path file, String[] header, List<String[]> rows, int[] lineNumbers) {
    }

    private static int indexOf(String[] header, String name) {
        for (int j = 0; j < header.length; j++) {
            if (header[j].equals(name)) {
                return j;
            }
        }
        return -1;
    }

    /**
     * Reads CSV text from a stream (e.g. a resource inside the jar); {@code source} names it in messages and in
     * {@link Dataset#source()}.
     */
    public static Dataset read(java.io.Reader in, String source, Options opts) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader br = new BufferedReader(in)) {
            for (String s = br.readLine(); s != null; s = br.readLine()) {
                lines.add(s);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": cannot read (" + e.getMessage() + ")");
        }
        return fromTable(toTable(Path.of(source), lines), opts);
    }

    private static Table readTable(Path file) {
        List<String> lines;
        try (BufferedReader br = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            lines = new ArrayList<>();
            for (String s = br.readLine(); s != null; s = br.readLine()) {
                lines.add(s);
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IllegalArgumentException(file + ": not a UTF-8 text file");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
        }
        return toTable(file, lines);
    }

    private static Table toTable(Path file, List<String> lines) {
        int last = lines.size();
        while (last > 0 && lines.get(last - 1).isBlank()) {
            last--;
        }
        if (last == 0) {
            throw new IllegalArgumentException(file + ": empty file (a header row is required)");
        }
        String headLine = lines.get(0);
        if (!headLine.isEmpty() && headLine.charAt(0) == '\uFEFF') {
            headLine = headLine.substring(1);
        }
        String[] header = splitAt(file, 1, headLine);
        Map<String, Integer> seen = new HashMap<>();
        for (int j = 0; j < header.length; j++) {
            if (header[j].isEmpty()) {
                throw new IllegalArgumentException(file + ", line 1, column " + (j + 1) + ": empty column name");
            }
            Integer prev = seen.put(header[j], j);
            if (prev != null) {
                throw new IllegalArgumentException(file + ", line 1: column name '" + header[j] + "' appears twice"
                        + " (columns " + (prev + 1) + " and " + (j + 1) + ")");
            }
            if (looksNumeric(header[j]) && header.length > 0) {
                // a numeric header means the file most likely has no header row
                throw new IllegalArgumentException(file + ", line 1, column " + (j + 1) + ": header field '"
                        + header[j] + "' is a number; the first line must name the columns");
            }
        }
        // the table of field strings and then the matrix of doubles, before they are allocated
        MemoryBudget.check(file + " (" + (last - 1) + " rows x " + header.length + " columns)",
                MemoryBudget.times(MemoryBudget.times(last - 1, header.length), FIELD_BYTES));
        // split on all cores; errors are kept per line and raised below in file order (the first bad line wins)
        String[][] split = new String[last][];
        RuntimeException[] bad = new RuntimeException[last];
        final List<String> ls = lines;
        IntStream.range(1, last).parallel().forEach(i -> {
            String line = ls.get(i);
            if (!line.isBlank()) {
                try {
                    split[i] = splitAt(file, i + 1, line);
                } catch (IllegalArgumentException e) {
                    bad[i] = e;
                }
            }
        });
        List<String[]> rows = new ArrayList<>(last);
        int[] lineNo = new int[last];
        for (int i = 1; i < last; i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                throw new IllegalArgumentException(file + ", line " + (i + 1) + ": blank line inside the data");
            }
            if (bad[i] != null) {
                throw bad[i];
            }
            String[] f = split[i];
            split[i] = null;
            if (f.length != header.length) {
                throw new IllegalArgumentException(file + ", line " + (i + 1) + ": " + f.length + " fields, but the "
                        + "header has " + header.length);
            }
            lineNo[rows.size()] = i + 1;
            rows.add(f);
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(file + ": no data rows (only a header)");
        }
        return new Table(file, header, rows, Arrays.copyOf(lineNo, rows.size()));
    }

    private static String[] splitAt(Path file, int lineNo, String line) {
        try {
            return split(line);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ", line " + lineNo + ", " + e.getMessage());
        }
    }

    /**
     * Splits one line into fields (RFC 4180 within a line): fields are separated by commas and trimmed; a field whose
     * first non-blank character is a double quote runs to the matching closing quote, may contain commas, and writes a
     * literal quote as two quotes ({@code "a ""b"", c"} is {@code a "b", c}). Quoted fields spanning several lines are
     * not supported.
     *
     * @throws IllegalArgumentException for an unterminated quote or text after a closing quote (message without the
     *                                  file and line, which the caller adds)
     */
    static String[] split(String line) {
        if (line.endsWith("\r")) {
            line = line.substring(0, line.length() - 1);
        }
        if (line.indexOf('"') < 0) {
            String[] f = line.split(",", -1);
            for (int j = 0; j < f.length; j++) {
                f[j] = f[j].strip();
            }
            return f;
        }
        List<String> out = new ArrayList<>();
        int n = line.length();
        int i = 0;
        while (true) {
            while (i < n && line.charAt(i) != ',' && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            if (i < n && line.charAt(i) == '"') {
                StringBuilder b = new StringBuilder();
                int start = i;
                i++;
                while (true) {
                    if (i >= n) {
                        throw new IllegalArgumentException("column " + (out.size() + 1) + ": quoted field opened at "
                                + "character " + (start + 1) + " is not closed on this line");
                    }
                    char c = line.charAt(i);
                    if (c == '"') {
                        if (i + 1 < n && line.charAt(i + 1) == '"') {
                            b.append('"');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    b.append(c);
                    i++;
                }
                while (i < n && line.charAt(i) != ',' && Character.isWhitespace(line.charAt(i))) {
                    i++;
                }
                if (i < n && line.charAt(i) != ',') {
                    throw new IllegalArgumentException("column " + (out.size() + 1) + ": text after the closing quote "
                            + "at character " + (i + 1));
                }
                out.add(b.toString());
            } else {
                int end = line.indexOf(',', i);
                if (end < 0) {
                    end = n;
                }
                out.add(line.substring(i, end).strip());
                i = end;
            }
            if (i >= n) {
                return out.toArray(new String[0]);
            }
            i++; // the comma
        }
    }

    private static boolean looksNumeric(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
                return false;
            }
        }
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The largest magnitude a data value may have: kernels, distances and losses square the data, and beyond 1e150
     * the squares overflow double precision (a column of 1e300 gave NaN coefficients, a failed eigensolver or a model
     * file with non-finite numbers, depending on the model).
     */
    public static final double MAX_MAGNITUDE = 1e150;

    /** The message for a value beyond {@link #MAX_MAGNITUDE}, after the place that names it (also Spark's reader). */
    public static String tooLarge(Object value) {
        return value + " is beyond +-1e150, where the squares that kernels and losses take overflow double precision; "
                + "rescale the column (e.g. divide it by a power of ten)";
    }

    /**
     * Parses one field as a finite number of magnitude at most {@link #MAX_MAGNITUDE} or throws naming file, line and
     * column.
     */
    static double number(Path file, int line, int col, String colName, String token) {
        if (token.isEmpty()) {
            throw new IllegalArgumentException(file + ", line " + line + ", column " + col + " (" + colName
                    + "): empty field (missing value)");
        }
        if (!looksNumeric(token)) {
            String low = token.toLowerCase(java.util.Locale.ROOT);
            if (low.equals("nan") || low.equals("na") || low.equals("?") || low.contains("inf")) {
                throw new IllegalArgumentException(file + ", line " + line + ", column " + col + " (" + colName
                        + "): '" + token + "' is not a finite number (missing values are not supported)");
            }
            throw new IllegalArgumentException(file + ", line " + line + ", column " + col + " (" + colName
                    + "): '" + token + "' is not a number");
        }
        double v = Double.parseDouble(token);
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException(file + ", line " + line + ", column " + col + " (" + colName
                    + "): '" + token + "' is not a finite number");
        }
        if (Math.abs(v) > MAX_MAGNITUDE) {
            throw new IllegalArgumentException(file + ", line " + line + ", column " + col + " (" + colName
                    + "): " + tooLarge(token));
        }
        return v;
    }

    private static Dataset select(Table t, String[] features, String target, boolean labelTarget,
                                  boolean numericTargetRequired) {
        int n = t.rows.size();
        int d = features.length;
        int[] idx = new int[d];
        for (int j = 0; j < d; j++) {
            idx[j] = indexOf(t.header, features[j]);
        }
        Matrix x = Matrix.zeros(n, d);
        double[] a = x.data();
        // parsed on all cores; the error of the first bad row (in file order) is the one raised
        RuntimeException[] bad = new RuntimeException[n];
        IntStream.range(0, n).parallel().forEach(i -> {
            String[] f = t.rows.get(i);
            try {
                for (int j = 0; j < d; j++) {
                    a[i + j * n] = number(t.file, t.lineNumbers[i], idx[j] + 1, features[j], f[idx[j]]);
                }
            } catch (IllegalArgumentException e) {
                bad[i] = e;
            }
        });
        for (RuntimeException e : bad) {
            if (e != null) {
                throw e;
            }
        }
        double[] y = null;
        String[] labels = null;
        if (target != null) {
            int tc = indexOf(t.header, target);
            if (labelTarget) {
                labels = new String[n];
                y = new double[n];
                for (int i = 0; i < n; i++) {
                    String tok = t.rows.get(i)[tc];
                    if (tok.isEmpty()) {
                        throw new IllegalArgumentException(t.file + ", line " + t.lineNumbers[i] + ", column "
                                + (tc + 1) + " (" + target + "): empty label");
                    }
                    labels[i] = tok;
                    if (y != null) {
                        if (looksNumeric(tok) && Double.isFinite(Double.parseDouble(tok))) {
                            y[i] = Double.parseDouble(tok);
                        } else {
                            y = null;
                        }
                    }
                }
            } else {
                y = new double[n];
                for (int i = 0; i < n; i++) {
                    y[i] = number(t.file, t.lineNumbers[i], tc + 1, target, t.rows.get(i)[tc]);
                }
            }
        }
        return new Dataset(x, y, labels, features.clone(), target, t.file.toString());
    }
}
