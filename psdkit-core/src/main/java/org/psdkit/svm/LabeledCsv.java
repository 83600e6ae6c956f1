package org.psdkit.svm;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.psdkit.linalg.Matrix;

/**
 * A classification table read from CSV: one header row, numeric feature columns, the class label in the last
 * column (any text). Rows with an empty field can be dropped (the reproduction of Colbert &amp; Peet drops the 16
 * breast-cancer rows with a missing value) or rejected.
 *
 * @param x        features (n×d)
 * @param labels   raw label tokens
 * @param features feature names
 * @param dropped  number of rows dropped for missing values
 * @param source   file name
 */
public record LabeledCsv(Matrix x, String[] labels, String[] features, int dropped, String source) {

    public static LabeledCsv read(Path file, boolean dropMissing) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("data file not found: " + file);
        }
        List<double[]> rows = new ArrayList<>();
        List<String> labs = new ArrayList<>();
        String[] header;
        int dropped = 0;
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String h = r.readLine();
            if (h == null) {
                throw new IllegalArgumentException(file + ": empty file");
            }
            header = h.split(",", -1);
            if (header.length < 2) {
                throw new IllegalArgumentException(file + ": need at least one feature and a label column");
            }
            String line;
            int lineNo = 1;
            while ((line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split(",", -1);
                if (f.length != header.length) {
                    throw new IllegalArgumentException(file + ":" + lineNo + ": expected " + header.length
                            + " fields, found " + f.length);
                }
                boolean missing = false;
                double[] v = new double[f.length - 1];
                for (int j = 0; j < v.length; j++) {
                    String s = f[j].trim();
                    if (s.isEmpty() || s.equals("?")) {
                        missing = true;
                        continue;
                    }
                    try {
                        v[j] = Double.parseDouble(s);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(file + ":" + lineNo + ": column '" + header[j]
                                + "' is not numeric: '" + s + "'");
                    }
                    if (!Double.isFinite(v[j])) {
                        throw new IllegalArgumentException(file + ":" + lineNo + ": column '" + header[j]
                                + "' is not finite: '" + s + "'");
                    }
                }
                String lab = f[f.length - 1].trim();
                if (lab.isEmpty()) {
                    missing = true;
                }
                if (missing) {
                    if (!dropMissing) {
                        throw new IllegalArgumentException(file + ":" + lineNo + ": missing value");
                    }
                    dropped++;
                    continue;
                }
                rows.add(v);
                labs.add(lab);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
        }
        if (rows.size() < 2) {
            throw new IllegalArgumentException(file + ": need at least two data rows, found " + rows.size());
        }
        String[] names = java.util.Arrays.copyOf(header, header.length - 1);
        return new LabeledCsv(Matrix.of(rows.toArray(new double[0][])), labs.toArray(new String[0]), names, dropped,
                file.getFileName().toString());
    }
}
