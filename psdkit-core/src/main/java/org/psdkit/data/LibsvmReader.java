package org.psdkit.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.MemoryBudget;

/**
 * Reads the LIBSVM / SVMlight sparse format: one point per line, {@code label index:value index:value ...} with
 * 1-based, strictly increasing indices; absent entries are 0; {@code #} starts a comment. Features are named
 * {@code x1..xd}, the target {@code label}. Errors name the file, line and token.
 */
public final class LibsvmReader {
    /**
     * Heap bytes of one feature name {@code "x123"} at the least: a String object (24 bytes with compressed
     * oops), its byte array (16-byte header and the characters, 8-byte aligned) and the reference in the names array.
     */
    private static final long NAME_BYTES = 24 + 24 + 4;

    private LibsvmReader() {
    }

    /** Reads a file; the dimension is the largest index seen, or {@code minDim} if larger. */
    public static Dataset read(Path file, int minDim) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
        }
        List<double[]> labelsAndVals = new ArrayList<>();
        List<int[]> indices = new ArrayList<>();
        List<String> labelTokens = new ArrayList<>();
        int dim = minDim;
        for (int ln = 0; ln < lines.size(); ln++) {
            String line = lines.get(ln);
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] tok = line.split("\\s+");
            double label = CsvReader.number(file, ln + 1, 1, "label", tok[0]);
            int[] idx = new int[tok.length - 1];
            double[] vals = new double[tok.length];
            vals[0] = label;
            int prev = 0;
            for (int k = 1; k < tok.length; k++) {
                int colon = tok[k].indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException(file + ", line " + (ln + 1) + ": token '" + tok[k]
                            + "' is not index:value");
                }
                int index;
                try {
                    index = Integer.parseInt(tok[k].substring(0, colon));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(file + ", line " + (ln + 1) + ": bad index in '" + tok[k] + "'");
                }
                if (index <= prev) {
                    throw new IllegalArgumentException(file + ", line " + (ln + 1) + ": index " + index
                            + " is not positive and strictly increasing");
                }
                prev = index;
                idx[k - 1] = index;
                vals[k] = CsvReader.number(file, ln + 1, index, "x" + index, tok[k].substring(colon + 1));
                dim = Math.max(dim, index);
            }
            labelsAndVals.add(vals);
            indices.add(idx);
            labelTokens.add(tok[0]);
        }
        int n = labelsAndVals.size();
        if (n == 0) {
            throw new IllegalArgumentException(file + ": no data lines");
        }
        String what = file + " (" + n + " rows, largest feature index " + dim + ")";
        MemoryBudget.checkMatrix(what, n, dim);
        MemoryBudget.check(what, MemoryBudget.plus(MemoryBudget.matrixBytes(n, dim),
                MemoryBudget.times(dim, NAME_BYTES)));
        Matrix x = Matrix.zeros(n, dim);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double[] v = labelsAndVals.get(i);
            int[] idx = indices.get(i);
            y[i] = v[0];
            for (int k = 0; k < idx.length; k++) {
                x.set(i, idx[k] - 1, v[k + 1]);
            }
        }
        String[] names = new String[dim];
        for (int j = 0; j < dim; j++) {
            names[j] = "x" + (j + 1);
        }
        return new Dataset(x, y, labelTokens.toArray(new String[0]), names, "label", file.toString());
    }
}
