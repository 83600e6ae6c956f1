package org.psdkit.data;

import com.fasterxml.jackson.core.io.NumberInput;
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
 * number, else {@code null}. A weight column ({@link Options#weightName()}) is not a feature: its values go to
 * {@link Dataset#weights()} and must be finite numbers ≥ 0 (an empty, negative or NaN entry is an error naming the
 * line and the column). A target name that is not a column but a comma-separated list of columns
 * ({@code y1,y2,y3}) reads several numeric targets into {@link Dataset#targets()}.
 */
public final class CsvReader {
    private CsvReader() {
    }

    /**
     * How to read a file.
     *
     * @param targetName  the target column, or {@code null} for the last column
     * @param noTarget    no target: every column is a feature
     * @param labelTarget the target may be non-numeric (class labels)
     * @param weightName  the column of per-row sample weights (not a feature), or {@code null} for none
     */
    public record Options(String targetName, boolean noTarget, boolean labelTarget, String weightName) {
        public Options {
            if (noTarget && targetName != null) {
                throw InputException.exclusive("targetName", targetName, "noTarget");
            }
            if (weightName != null && weightName.equals(targetName)) {
                throw new IllegalArgumentException("weightName " + weightName + " is also the targetName");
            }
        }

        /** Options without a weight column. */
        public Options(String targetName, boolean noTarget, boolean labelTarget) {
            this(targetName, noTarget, labelTarget, null);
        }

        /** These options with the sample weights read from column {@code name} (null: none). */
        public Options withWeightName(String name) {
            return new Options(targetName, noTarget, labelTarget, name);
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
        return readFile(file, header -> planOf(file, header, opts), false).dataset();
    }

    /** The columns to parse, resolved from the header: features in their order and the target (or -1). */
    private record Plan(int[] featureCols, String[] featureNames, int targetCol, String targetName,
                        boolean labelTarget, int weightCol, String weightName, int[] moreTargetCols) {
    }

    /**
     * The plan of {@link #read(Path, Options)}: every column but the target and the weight column is a feature, in
     * file order.
     */
    private static Plan planOf(Path file, String[] header, Options opts) {
        int weightCol = -1;
        if (opts.weightName() != null) {
            weightCol = indexOf(header, opts.weightName());
            if (weightCol < 0) {
                throw new IllegalArgumentException(file + ": no column named '" + opts.weightName()
                        + "' (weightName); the header has " + String.join(",", header));
            }
        }
        int targetCol;
        int[] more = new int[0];
        if (opts.noTarget()) {
            targetCol = -1;
        } else if (opts.targetName() != null && indexOf(header, opts.targetName()) < 0
                && opts.targetName().contains(",")) {
            String[] names = opts.targetName().split(",", -1);
            int[] cols = new int[names.length];
            for (int k = 0; k < names.length; k++) {
                cols[k] = indexOf(header, names[k].strip());
                if (cols[k] < 0) {
                    throw new IllegalArgumentException(file + ": no column named '" + names[k].strip()
                            + "' (targetName " + opts.targetName() + "); the header has " + String.join(",", header));
                }
                for (int j = 0; j < k; j++) {
                    if (cols[j] == cols[k]) {
                        throw new IllegalArgumentException(file + ": target column '" + names[k].strip()
                                + "' is named twice (targetName " + opts.targetName() + ")");
                    }
                }
                if (cols[k] == weightCol) {
                    throw new IllegalArgumentException(file + ": '" + names[k].strip() + "' is both a target and "
                            + "the weight column");
                }
            }
            if (opts.labelTarget()) {
                throw new IllegalArgumentException(file + ": several targets (" + opts.targetName() + ") must be "
                        + "numeric; a class label is one column");
            }
            targetCol = cols[0];
            more = java.util.Arrays.copyOfRange(cols, 1, cols.length);
        } else if (opts.targetName() != null) {
            targetCol = indexOf(header, opts.targetName());
            if (targetCol < 0) {
                throw new InputException(file + ": ", "targetName", "'" + opts.targetName()
                        + "' names no column; the header has " + String.join(",", header));
            }
        } else {
            if (header.length < 2) {
                throw new InputException(file + ": the target is the last column, so at least "
                        + "two columns are needed; the header has " + header.length + " (set ", "noTarget",
                        "for unsupervised data)");
            }
            targetCol = header.length - 1;
            if (targetCol == weightCol) {
                throw new IllegalArgumentException(file + ": the weight column '" + opts.weightName()
                        + "' is the last column, which is the target unless one is named (targetName)");
            }
        }
        List<String> features = new ArrayList<>();
        for (int j = 0; j < header.length; j++) {
            final int col = j;
            if (j != targetCol && j != weightCol && java.util.Arrays.stream(more).noneMatch(c -> c == col)) {
                features.add(header[j]);
            }
        }
        Plan p = plan(header, features.toArray(new String[0]), targetCol < 0 ? null : header[targetCol],
                opts.labelTarget(), weightCol < 0 ? null : header[weightCol]);
        if (more.length == 0) {
            return p;
        }
        StringBuilder names = new StringBuilder(header[targetCol]);
        for (int c : more) {
            names.append(',').append(header[c]);
        }
        return new Plan(p.featureCols(), p.featureNames(), targetCol, names.toString(), false, p.weightCol(),
                p.weightName(), more);
    }

    private static Plan plan(String[] header, String[] features, String target, boolean labelTarget) {
        return plan(header, features, target, labelTarget, null);
    }

    private static Plan plan(String[] header, String[] features, String target, boolean labelTarget,
                             String weight) {
        int[] idx = new int[features.length];
        for (int j = 0; j < features.length; j++) {
            idx[j] = indexOf(header, features[j]);
        }
        return new Plan(idx, features.clone(), target == null ? -1 : indexOf(header, target), target, labelTarget,
                weight == null ? -1 : indexOf(header, weight), weight, new int[0]);
    }

    /** A data set read with its incomplete rows left out, and how many rows were left out. */
    public record Filtered(Dataset data, int dropped) {
    }

    /**
     * Like {@link #read(Path, Options)}, but rows with an empty field or a {@code ?} (the UCI missing-value mark) are
     * left out instead of being an error; the other rules are unchanged.
     */
    public static Filtered readDroppingIncomplete(Path file, Options opts) {
        Parsed p = readFile(file, header -> planOf(file, header, opts), true);
        return new Filtered(p.dataset(), p.dropped());
    }

    /**
     * Reads the columns a fitted model needs, matched by header name: the feature columns in the model's order and,
     * if {@code targetName} is not null and {@code requireTarget} is set, the target. Extra columns are ignored (not
     * even parsed). A missing feature column is an error naming the column; a missing target is an error only when
     * required; when not required and present it is read too.
     */
    public static Dataset readColumns(Path file, String[] featureNames, String targetName, boolean requireTarget,
                                      boolean labelTarget) {
        return readFile(file, header -> columnsPlan(file, header, featureNames, targetName, requireTarget,
                labelTarget), false).dataset();
    }

    /** The plan of {@link #readColumns}. */
    private static Plan columnsPlan(Path file, String[] header, String[] featureNames, String targetName,
                                    boolean requireTarget, boolean labelTarget) {
        for (String f : featureNames) {
            if (indexOf(header, f) < 0) {
                throw new IllegalArgumentException(file + ": missing feature column '" + f
                        + "' that the model needs; the header has " + String.join(",", header));
            }
        }
        String target = null;
        if (targetName != null && indexOf(header, targetName) < 0 && targetName.contains(",")) {
            // a model fitted on several targets (y1,y2,...): each of them is read when all are present
            String[] names = targetName.split(",", -1);
            int[] cols = new int[names.length];
            for (int k = 0; k < names.length; k++) {
                cols[k] = indexOf(header, names[k]);
                if (cols[k] < 0) {
                    if (!requireTarget) {
                        return plan(header, featureNames, null, labelTarget);
                    }
                    throw new IllegalArgumentException(file + ": missing target column '" + names[k]
                            + "' of the model's targets " + targetName + " (needed to evaluate the model); the "
                            + "header has " + String.join(",", header));
                }
            }
            Plan p = plan(header, featureNames, names[0], false);
            return new Plan(p.featureCols(), p.featureNames(), cols[0], targetName, false, -1, null,
                    java.util.Arrays.copyOfRange(cols, 1, cols.length));
        }
        if (targetName != null) {
            if (indexOf(header, targetName) >= 0) {
                target = targetName;
            } else if (requireTarget) {
                throw new IllegalArgumentException(file + ": missing target column '" + targetName
                        + "' (needed to evaluate the model); the header has " + String.join(",", header));
            }
        } else if (requireTarget) {
            throw new IllegalArgumentException("the model has no target column, so it cannot be evaluated on "
                    + file);
        }
        return plan(header, featureNames, target, labelTarget);
    }

    // ------------------------------------------------------------------ internals

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
        Path file = Path.of(source);
        try (BufferedReader br = new BufferedReader(in)) {
            return parse(file, br, header -> planOf(file, header, opts), false).dataset();
        } catch (IOException e) {
            throw new IllegalArgumentException(source + ": cannot read (" + e.getMessage() + ")");
        }
    }

    private static Parsed readFile(Path file, java.util.function.Function<String[], Plan> planner, boolean drop) {
        if (!drop) {
            Dataset plain = plain(file, planner);
            if (plain != null) {
                return new Parsed(plain, 0);
            }
        }
        try (BufferedReader br = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return parse(file, br, planner, drop);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IllegalArgumentException(file + ": not a UTF-8 text file");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /** Files up to this size may be read by {@link PlainCsv}, which holds their bytes. */
    static final long PLAIN_MAX_BYTES = 64L << 20;

    /**
     * The file read by {@link PlainCsv} when it is a plain numeric file ({@link PlainCsv}'s class comment), or null:
     * the general path reads it. The header gets the general path's checks; a header or plan they refuse goes to
     * the general path too, which then reports it.
     */
    private static Dataset plain(Path file, java.util.function.Function<String[], Plan> planner) {
        byte[] text;
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > PLAIN_MAX_BYTES) {
                return null;
            }
            text = Files.readAllBytes(file);
        } catch (IOException | SecurityException | OutOfMemoryError e) {
            return null;
        }
        if (!PlainCsv.plainBytes(text)) {
            return null;
        }
        int nl = 0;
        while (nl < text.length && text[nl] != '\n') {
            nl++;
        }
        if (nl == 0 || nl >= text.length - 1) {
            return null;
        }
        try {
            String headLine = new String(text, 0, nl, StandardCharsets.US_ASCII);
            if (headLine.isBlank()) {
                return null;
            }
            String[] header = split(headLine);
            checkHeader(file, header);
            Plan plan = planner.apply(header);
            if (plan.weightCol() >= 0 || plan.moreTargetCols().length > 0) {
                return null;
            }
            return PlainCsv.rows(text, nl + 1, file.toString(), header.length, plan.featureCols(),
                    plan.featureNames(), plan.targetCol(), plan.targetName(), plan.labelTarget());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** {@link #read(Path, Options)} by {@link PlainCsv} alone: the data set, or null where the general path reads. */
    static Dataset readPlain(Path file, Options opts) {
        return plain(file, header -> planOf(file, header, opts));
    }

    /** {@link #readColumns} by {@link PlainCsv} alone: the data set, or null where the general path reads. */
    static Dataset readColumnsPlain(Path file, String[] featureNames, String targetName, boolean labelTarget) {
        return plain(file, header -> columnsPlan(file, header, featureNames, targetName, false, labelTarget));
    }

    /** A parsed file and how many incomplete rows were left out (0 unless asked to drop them). */
    private record Parsed(Dataset dataset, int dropped) {
    }

    /**
     * Lines parsed together (on all cores) before their results are taken in file order: 8,192 lines of the widest
     * common files (~100 columns) keep the batch's strings and numbers to a few MB.
     */
    static final int BATCH_LINES = 8192;

    /** Rows per chunk of the growing row-major buffer the parsed numbers go into before the column-major matrix. */
    static final int CHUNK_ROWS = 1 << 16;

    /**
     * Parses the data lines in one pass, straight into numbers: each batch of {@link #BATCH_LINES} lines is split and
     * parsed on all cores and its results taken in file order into row-major chunks of {@link #CHUNK_ROWS} rows,
     * which are copied into the column-major feature matrix at the end (no table of field strings is kept: a file of
     * n rows and d parsed columns takes about 2·n·d doubles at the peak). Errors are raised in the order the rules
     * give them whatever their place in the file: the first malformed line (blank inside the data, quote, field
     * count), then no data rows, then the columns the header lacks ({@code planner}'s error), then the first bad
     * feature value, then the first bad target value.
     */
    private static Parsed parse(Path file, BufferedReader br, java.util.function.Function<String[], Plan> planner,
                                boolean drop) throws IOException {
        String headLine = br.readLine();
        int lineNo = 1;
        if (headLine == null) {
            throw new IllegalArgumentException(file + ": empty file (a header row is required)");
        }
        if (headLine.isBlank()) {
            // only blank lines: an empty file; else the blank header fails the checks below (empty column name)
            boolean data = false;
            for (String s = br.readLine(); s != null && !data; s = br.readLine()) {
                data = !s.isBlank();
            }
            if (!data) {
                throw new IllegalArgumentException(file + ": empty file (a header row is required)");
            }
        }
        if (!headLine.isEmpty() && headLine.charAt(0) == '\uFEFF') {
            headLine = headLine.substring(1);
        }
        String[] header = splitAt(file, 1, headLine);
        checkHeader(file, header);
        Plan plan;
        IllegalArgumentException planError = null;
        try {
            plan = planner.apply(header);
        } catch (IllegalArgumentException e) {
            planError = e;
            plan = null;
        }
        Sink sink = new Sink(file, header, plan, drop);
        List<String> batch = new ArrayList<>(BATCH_LINES);
        int batchStart = 0;
        int firstBlank = -1;  // the first blank line after the last non-blank one
        for (String s = br.readLine(); s != null; s = br.readLine()) {
            lineNo++;
            if (s.isBlank()) {
                if (firstBlank < 0) {
                    firstBlank = lineNo;
                }
                continue;
            }
            if (firstBlank >= 0) {
                sink.take(batch, batchStart);
                throw new IllegalArgumentException(file + ", line " + firstBlank + ": blank line inside the data");
            }
            if (batch.isEmpty()) {
                batchStart = lineNo;
            }
            batch.add(s);
            if (batch.size() == BATCH_LINES) {
                sink.take(batch, batchStart);
                batch.clear();
            }
        }
        sink.take(batch, batchStart);
        if (sink.lines == 0) {
            throw new IllegalArgumentException(file + ": no data rows (only a header)");
        }
        if (drop && sink.rows == 0) {
            throw new IllegalArgumentException(file + ": every data row has a missing value");
        }
        if (planError != null) {
            throw planError;
        }
        if (sink.featureError != null) {
            throw sink.featureError;
        }
        if (sink.targetError != null) {
            throw sink.targetError;
        }
        if (sink.weightError != null) {
            throw sink.weightError;
        }
        return new Parsed(sink.dataset(), sink.lines - sink.rows);
    }

    /** The header's rules: no empty column name, no name twice, no number as a name. */
    private static void checkHeader(Path file, String[] header) {
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
    }

    /** Takes the parsed lines in file order: row-major chunks of features, the target and labels. */
    private static final class Sink {
        private final Path file;
        private final String[] header;
        private final Plan plan;
        private final boolean drop;
        private final int d;
        private final List<double[]> chunks = new ArrayList<>();
        private double[] y;
        private double[] w;
        private double[] more; // row-major rows × (targets − 1)
        private final int nMore;
        private String[] labels;
        private boolean yNumeric = true;
        int lines;
        int rows;
        IllegalArgumentException featureError;
        IllegalArgumentException targetError;
        IllegalArgumentException weightError;

        Sink(Path file, String[] header, Plan plan, boolean drop) {
            this.file = file;
            this.header = header;
            this.plan = plan;
            this.drop = drop;
            this.d = plan == null ? 0 : plan.featureCols().length;
            this.nMore = plan == null ? 0 : plan.moreTargetCols().length;
            if (nMore > 0) {
                more = new double[1024 * nMore];
            }
            if (plan != null && plan.targetCol() >= 0) {
                y = new double[1024];
                labels = plan.labelTarget() ? new String[1024] : null;
            }
            if (plan != null && plan.weightCol() >= 0) {
                w = new double[1024];
            }
        }

        /** One line's outcome. */
        private static final class Line {
            IllegalArgumentException malformed;
            boolean incomplete;
            IllegalArgumentException feature;
            IllegalArgumentException target;
            IllegalArgumentException weight;
            double targetValue;
            double weightValue;
            double[] moreValues;
            String label;
            boolean labelNumeric;
        }

        void take(List<String> batch, int firstLineNo) {
            int b = batch.size();
            if (b == 0) {
                return;
            }
            Line[] out = new Line[b];
            double[] values = new double[plan == null ? 0 : b * d];
            IntStream.range(0, b).parallel().forEach(k -> out[k] = parseLine(batch.get(k), firstLineNo + k,
                    values, k * d));
            for (int k = 0; k < b; k++) {
                Line l = out[k];
                if (l.malformed != null) {
                    throw l.malformed;
                }
                lines++;
                if (l.incomplete) {
                    continue;
                }
                if (plan == null) {
                    rows++;
                    continue;
                }
                if (featureError == null && l.feature != null) {
                    featureError = l.feature;
                }
                if (targetError == null && l.target != null) {
                    targetError = l.target;
                }
                if (weightError == null && l.weight != null) {
                    weightError = l.weight;
                }
                if (nMore > 0 && targetError == null) {
                    if ((long) (rows + 1) * nMore > more.length) {
                        more = Arrays.copyOf(more, grow(more.length));
                    }
                    System.arraycopy(l.moreValues, 0, more, rows * nMore, nMore);
                }
                if (w != null && weightError == null) {
                    if (rows > w.length - 1) {
                        w = Arrays.copyOf(w, grow(w.length));
                    }
                    w[rows] = l.weightValue;
                }
                if (featureError == null) {
                    append(values, k * d);
                }
                if (plan.targetCol() >= 0 && targetError == null) {
                    if (rows > y.length - 1) {
                        y = Arrays.copyOf(y, grow(y.length));
                        if (labels != null) {
                            labels = Arrays.copyOf(labels, y.length);
                        }
                    }
                    y[rows] = l.targetValue;
                    if (labels != null) {
                        labels[rows] = l.label;
                        yNumeric &= l.labelNumeric;
                    }
                }
                rows++;
            }
        }

        private static int grow(int len) {
            long next = Math.min(MemoryBudget.MAX_ARRAY_LENGTH, 2L * len);
            if (next <= len) {
                throw new IllegalArgumentException("more rows than a Java array holds");
            }
            return (int) next;
        }

        private void append(double[] values, int from) {
            int inChunk = rows % CHUNK_ROWS;
            if (inChunk == 0) {
                // the chunks so far, this one and the column-major matrix they are copied into at the end
                long rowsHeld = (long) rows + CHUNK_ROWS;
                MemoryBudget.check(file + " (more than " + rows + " rows x " + d + " columns)",
                        MemoryBudget.times(2, MemoryBudget.matrixBytes(rowsHeld, d)));
                chunks.add(new double[CHUNK_ROWS * d]);
            }
            System.arraycopy(values, from, chunks.get(chunks.size() - 1), inChunk * d, d);
        }

        private Line parseLine(String s, int lineNo, double[] values, int at) {
            Line l = new Line();
            String[] f;
            try {
                f = splitAt(file, lineNo, s);
            } catch (IllegalArgumentException e) {
                l.malformed = e;
                return l;
            }
            if (f.length != header.length) {
                l.malformed = new IllegalArgumentException(file + ", line " + lineNo + ": " + f.length + " fields, "
                        + "but the header has " + header.length);
                return l;
            }
            if (drop) {
                for (String t : f) {
                    if (t.isEmpty() || t.equals("?")) {
                        l.incomplete = true;
                        return l;
                    }
                }
            }
            if (plan == null) {
                return l;
            }
            int[] idx = plan.featureCols();
            try {
                for (int j = 0; j < idx.length; j++) {
                    values[at + j] = number(file, lineNo, idx[j] + 1, plan.featureNames()[j], f[idx[j]]);
                }
            } catch (IllegalArgumentException e) {
                l.feature = e;
            }
            int wc = plan.weightCol();
            if (wc >= 0) {
                try {
                    l.weightValue = number(file, lineNo, wc + 1, plan.weightName(), f[wc]);
                    if (l.weightValue < 0) {
                        throw new IllegalArgumentException(file + ", line " + lineNo + ", column " + (wc + 1) + " ("
                                + plan.weightName() + "): weight " + f[wc] + " is negative; sample weights must be "
                                + ">= 0");
                    }
                } catch (IllegalArgumentException e) {
                    l.weight = e;
                }
            }
            int tc = plan.targetCol();
            if (tc >= 0) {
                String tok = f[tc];
                if (plan.labelTarget()) {
                    if (tok.isEmpty()) {
                        l.target = new IllegalArgumentException(file + ", line " + lineNo + ", column " + (tc + 1)
                                + " (" + plan.targetName() + "): empty label");
                    } else {
                        l.label = tok;
                        double v = parsed(tok);
                        l.labelNumeric = Double.isFinite(v);
                        l.targetValue = l.labelNumeric ? v : 0;
                    }
                } else {
                    int[] mc = plan.moreTargetCols();
                    try {
                        l.targetValue = number(file, lineNo, tc + 1, header[tc], tok);
                        l.moreValues = new double[mc.length];
                        for (int k = 0; k < mc.length; k++) {
                            l.moreValues[k] = number(file, lineNo, mc[k] + 1, header[mc[k]], f[mc[k]]);
                        }
                    } catch (IllegalArgumentException e) {
                        l.target = e;
                    }
                }
            }
            return l;
        }

        Dataset dataset() {
            int n = rows;
            Matrix x = Matrix.zeros(n, d);
            double[] a = x.data();
            for (int c = 0; c < chunks.size(); c++) {
                double[] ch = chunks.get(c);
                chunks.set(c, null);
                int r0 = c * CHUNK_ROWS;
                int r1 = Math.min(n, r0 + CHUNK_ROWS);
                for (int j = 0; j < d; j++) {
                    int col = j * n;
                    for (int i = r0; i < r1; i++) {
                        a[i + col] = ch[(i - r0) * d + j];
                    }
                }
            }
            double[] yy = null;
            String[] ll = null;
            if (plan.targetCol() >= 0) {
                if (labels != null) {
                    ll = Arrays.copyOf(labels, n);
                    yy = yNumeric ? Arrays.copyOf(y, n) : null;
                } else {
                    yy = Arrays.copyOf(y, n);
                }
            }
            Matrix targets = null;
            if (nMore > 0) {
                targets = Matrix.zeros(n, nMore + 1);
                for (int i = 0; i < n; i++) {
                    targets.set(i, 0, yy[i]);
                    for (int k = 0; k < nMore; k++) {
                        targets.set(i, k + 1, more[i * nMore + k]);
                    }
                }
            }
            return new Dataset(x, yy, ll, plan.featureNames().clone(), plan.targetName(), file.toString(),
                    w == null ? null : Arrays.copyOf(w, n), targets);
        }
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
        return !Double.isNaN(parsed(s));
    }

    /** Whether c is one of the characters a decimal number is written with: {@code 0-9 . + - e E}. */
    static boolean numberChar(int c) {
        return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
    }

    /**
     * The value of a field made only of the characters of a decimal number ({@code 0-9 . + - e E}) that
     * {@link Double#parseDouble} accepts, or NaN for any other field (no such field reads as NaN). Parsed once, by
     * Jackson's copy of FastDoubleParser ({@code NumberInput.parseDouble(s, true)}: Eisel–Lemire with an exact
     * fallback, correctly rounded, so the double is {@link Double#parseDouble}'s bit for bit; Lemire 2021, "Number
     * parsing at a gigabyte per second"), which avoids the big-integer path {@code Double.parseDouble} takes for the
     * 17-digit numbers that written doubles have.
     */
    static double parsed(String s) {
        if (s.isEmpty()) {
            return Double.NaN;
        }
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (!numberChar(c)) {
                return Double.NaN;
            }
        }
        try {
            return NumberInput.parseDouble(s, true);
        } catch (NumberFormatException e) {
            return Double.NaN;
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
        double v = parsed(token);
        if (Double.isNaN(v)) {
            String low = token.toLowerCase(java.util.Locale.ROOT);
            if (low.equals("nan") || low.equals("na") || low.equals("?") || low.contains("inf")) {
                throw new IllegalArgumentException(file + ", line " + line + ", column " + col + " (" + colName
                        + "): '" + token + "' is not a finite number (missing values are not supported)");
            }
            throw new IllegalArgumentException(file + ", line " + line + ", column " + col + " (" + colName
                    + "): '" + token + "' is not a number");
        }
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
}
