package org.psdkit.data;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes CSV text with RFC 4180 quoting: a field that contains a comma, a double quote, a carriage return or a line
 * feed is enclosed in double quotes, and each double quote inside it is doubled ({@code yes, "very" sick} is written
 * {@code "yes, ""very"" sick"}). A field with leading or trailing blanks is quoted too, because {@link CsvReader} trims
 * unquoted fields. Other fields are written as they are, so numeric output is unchanged. Records end with {@code \n}
 * (RFC 4180 allows readers to accept it; every CSV psdkit has ever written uses it).
 *
 * <p>{@link CsvReader} reads back every file written here whose fields contain no line breaks (it reads one record per
 * line).
 *
 * <pre>{@code
 * CsvWriter.write(Path.of("pred.csv"), new String[] {"label", "decision"},
 *         List.of(new String[] {"yes, sick", "0.73"}, new String[] {"no", "-1.2"}));
 * }</pre>
 */
public final class CsvWriter {
    private CsvWriter() {
    }

    /** One field, quoted if it needs to be (see the class comment). */
    public static String field(String value) {
        if (value == null) {
            throw new IllegalArgumentException("a CSV field must not be null");
        }
        if (!needsQuotes(value)) {
            return value;
        }
        StringBuilder b = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                b.append('"');
            }
            b.append(c);
        }
        return b.append('"').toString();
    }

    /** One record: the quoted fields joined by commas, without the line end. */
    public static String record(String... fields) {
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < fields.length; j++) {
            if (j > 0) {
                b.append(',');
            }
            b.append(field(fields[j]));
        }
        return b.toString();
    }

    /** The whole file as text: the header record, then one record per row, each ending with {@code \n}. */
    public static String toText(String[] header, List<String[]> rows) {
        StringBuilder b = new StringBuilder();
        b.append(record(header)).append('\n');
        for (String[] r : rows) {
            b.append(record(r)).append('\n');
        }
        return b.toString();
    }

    /** Writes header and rows to {@code out}. */
    public static void write(Writer out, String[] header, List<String[]> rows) {
        try {
            out.write(toText(header, rows));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes header and rows to a file in UTF-8, atomically, with the permissions of a plain write (see
     * {@link OutputFiles#writeAtomically}).
     *
     * @throws IOException if the file cannot be written; a failure leaves no partial file behind
     */
    public static void write(Path out, String[] header, List<String[]> rows) throws IOException {
        OutputFiles.writeAtomically(out, toText(header, rows).getBytes(StandardCharsets.UTF_8));
    }

    private static boolean needsQuotes(String s) {
        if (s.isEmpty()) {
            return false;
        }
        if (Character.isWhitespace(s.charAt(0)) || Character.isWhitespace(s.charAt(s.length() - 1))) {
            return true;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ',' || c == '"' || c == '\r' || c == '\n') {
                return true;
            }
        }
        return false;
    }
}
