package org.psdkit.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.psdkit.data.CsvWriter;

/** Command output: the one JSON object of {@code --json}, human summaries on stderr, and atomic CSV writing. */
public final class Reports {
    private Reports() {
    }

    /** Holder: the mapper of {@code --json} reports is made on first use, not by every run that prints text. */
    private static final class Compact {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }

    /** Where {@link #print} writes (tests may redirect; defaults to System.out / System.err). */
    static PrintStream out() {
        return System.out;
    }

    static PrintStream err() {
        return System.err;
    }

    /**
     * With {@code json}: exactly one JSON object (one line) on stdout. Without: "key: value" lines on stderr.
     * Values may be numbers, strings, booleans, lists, arrays or nested maps.
     */
    public static void print(Map<String, ?> result, boolean json) {
        if (json) {
            try {
                out().println(Compact.MAPPER.writeValueAsString(result));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("cannot write the JSON report: " + e.getMessage(), e);
            }
            out().flush();
        } else {
            PrintStream e = err();
            for (Map.Entry<String, ?> en : result.entrySet()) {
                e.println("  " + en.getKey() + ": " + format(en.getValue()));
            }
            e.flush();
        }
    }

    /** Readable text for one report value: numbers with 6 significant digits. */
    public static String format(Object v) {
        if (v instanceof Double d) {
            return fmt(d);
        }
        if (v instanceof double[] a) {
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < a.length; i++) {
                sb.append(i > 0 ? ", " : "").append(fmt(a[i]));
            }
            return sb.append(']').toString();
        }
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            try {
                return Compact.MAPPER.writeValueAsString(v);
            } catch (JsonProcessingException ex) {
                return String.valueOf(v);
            }
        }
        return String.valueOf(v);
    }

    /** A report value: v, or null (JSON null) when it is NaN or infinite. */
    public static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** 6 significant digits, no exponent for moderate magnitudes. */
    public static String fmt(double d) {
        return org.psdkit.experiments.Numbers.fmt(d);
    }

    /**
     * Writes a CSV (header + rows) atomically with RFC 4180 quoting (a label such as {@code yes, sick} is written
     * {@code "yes, sick"}); a failure leaves no file behind.
     */
    public static void writeCsv(Path out, String[] header, List<String[]> rows) {
        try {
            CsvWriter.write(out, header, rows);
        } catch (IOException e) {
            throw new IllegalArgumentException("--out " + out + ": cannot write (" + e.getMessage() + ")");
        }
    }


}
