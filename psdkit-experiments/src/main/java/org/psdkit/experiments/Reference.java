package org.psdkit.experiments;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers the papers publish, read from the CSV resources under {@code org/psdkit/experiments/reference/}: a
 * header line, then one row per published number set (plain comma-separated cells, no quoting; lines starting with
 * {@code #} are comments).
 */
public final class Reference {

    private Reference() {
    }

    /** The rows of {@code reference/<name>.csv}, each a column → cell map in header order. */
    public static List<Map<String, String>> rows(String name) {
        String path = "reference/" + name + ".csv";
        try (InputStream in = Reference.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("reference table " + path + " is missing from the jar");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String[] header = null;
            List<Map<String, String>> rows = new ArrayList<>();
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split(",", -1);
                if (header == null) {
                    header = cells;
                    continue;
                }
                if (cells.length != header.length) {
                    throw new IllegalStateException(path + ": " + cells.length + " cells where the header has "
                            + header.length + ": " + line);
                }
                Map<String, String> row = new LinkedHashMap<>();
                for (int c = 0; c < cells.length; c++) {
                    row.put(header[c].trim(), cells[c].trim());
                }
                rows.add(row);
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
