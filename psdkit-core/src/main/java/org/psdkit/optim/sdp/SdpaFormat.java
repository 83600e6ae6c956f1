package org.psdkit.optim.sdp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.psdkit.data.OutputFiles;
import org.psdkit.linalg.MemoryBudget;

/**
 * The SDPA sparse format ({@code .dat-s}) used by SDPLIB.
 *
 * <p>The file states SDPA's primal (P') min cᵀx s.t. Σ x_i F_i − F_0 ⪰ 0, whose dual is (D') max ⟨F_0, Y⟩ s.t.
 * ⟨F_i, Y⟩ = c_i, Y ⪰ 0. It maps onto {@link SdpProblem}'s pair by C = −F_0, A_i = F_i, b = c: then (P) is (D')
 * with X = Y and objective ⟨C,X⟩ = −⟨F_0,Y⟩, and (D) is (P') with y = −x. Hence SDPLIB's published optimal value
 * (the common value of (P') and (D')) is <b>−⟨C,X⟩ = −bᵀy</b> at our optimum: see {@link #sdplibObjective}. SDPLIB's
 * "primal infeasible" (SDPA's (P') infeasible) is our {@link SdpStatus#DUAL_INFEASIBLE}, and vice versa.
 *
 * <p>Layout: comment lines starting with {@code "} or {@code *}; m; the number of blocks; the block sizes (negative =
 * diagonal block), all on one line; c (m numbers), all on one line; then one entry per line {@code matno blkno i j value} with matno 0 for F_0,
 * 1-based i, j, upper triangle (i &gt; j is accepted and swapped). The characters {@code , ( ) { }} are separators.
 * Duplicate entries are rejected. Every error names the file and line.
 */
public final class SdpaFormat {
    /**
     * Heap bytes per declared block at the least: its size here (4) and the solver's {@link SdpSolver#BLOCK_VECTORS}
     * arrays of one entry each (a 16-byte header and 8 bytes).
     */
    private static final long MIN_BLOCK_BYTES = 4 + SdpSolver.BLOCK_VECTORS * 24L;

    private SdpaFormat() {
    }

    /** SDPLIB's objective value for a solution of the problem read from a {@code .dat-s} file. */
    public static double sdplibObjective(double primalObjective) {
        return -primalObjective;
    }

    /**
     * A solver result restated in SDPA's own terms for the file's problem (P') min cᵀx / (D') max ⟨F_0, Y⟩.
     *
     * @param objective          the SDPLIB-table value: of the two objectives below, the one whose side has the
     *                           smaller infeasibility (both agree to the relative gap at an optimum)
     * @param primalObjective    cᵀx of SDPA's primal (= −bᵀy in our terms)
     * @param dualObjective      ⟨F_0, Y⟩ of SDPA's dual (= −⟨C,X⟩ in our terms)
     * @param status             {@code optimal}, {@code near_optimal}, {@code primal_infeasible} /
     *                           {@code dual_infeasible} (SDPA's and SDPLIB's sense), {@code iteration_limit},
     *                           {@code time_limit} or {@code numerical_problems}
     */
    public record SdpaView(double objective, double primalObjective, double dualObjective, String status) {
    }

    /** Restates a result for a problem read by {@link #read} in SDPA/SDPLIB conventions. */
    public static SdpaView sdpaView(SdpResult r) {
        double primal = -r.dualObjective();
        double dual = -r.primalObjective();
        // our (D) is SDPA's primal: its infeasibility is our dual infeasibility
        double objective = r.dualInfeasibility() <= r.primalInfeasibility() ? primal : dual;
        String status = switch (r.status()) {
            case PRIMAL_INFEASIBLE -> "dual_infeasible";
            case DUAL_INFEASIBLE -> "primal_infeasible";
            default -> r.status().label();
        };
        return new SdpaView(objective, primal, dual, status);
    }

    /** Reads a {@code .dat-s} file. */
    public static SdpProblem read(Path file) {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            return read(r, file.toString());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IllegalArgumentException(file + ": not an ASCII SDPA file");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")");
        }
    }

    /** Reads SDPA sparse text; {@code name} is used in error messages. */
    public static SdpProblem read(Reader in, String name) throws IOException {
        BufferedReader br = in instanceof BufferedReader b ? b : new BufferedReader(in);
        Tokens tk = new Tokens(br, name);
        tk.skipComments();
        int m = tk.nextInt("number of constraint matrices m");
        tk.skipRestOfLine();
        if (m < 0) {
            throw tk.error("m must be >= 0, got " + m);
        }
        int nblocks = tk.nextInt("number of blocks");
        tk.skipRestOfLine();
        if (nblocks <= 0) {
            throw tk.error("number of blocks must be positive, got " + nblocks);
        }
        // one int here and at least BLOCK_VECTORS empty arrays in the solver per block, before the sizes are read
        MemoryBudget.check(name + ": " + nblocks + " blocks", MemoryBudget.times(nblocks, MIN_BLOCK_BYTES));
        // the block sizes and c each fill exactly one line: a short line must not borrow the next line's numbers
        String[] sizeFields = tk.headerLine("the block sizes", nblocks);
        int[] sizes = new int[nblocks];
        for (int k = 0; k < nblocks; k++) {
            sizes[k] = tk.parseInt(sizeFields[k], "size of block " + (k + 1));
            if (sizes[k] == 0) {
                throw tk.error("block " + (k + 1) + " has size 0");
            }
        }
        SdpSolver.checkMemory(name, m, sizes);
        double[] c = new double[m];
        if (m > 0) {
            String[] cFields = tk.headerLine("the vector c", m);
            for (int i = 0; i < m; i++) {
                c[i] = tk.parseDouble(cFields[i], "c[" + (i + 1) + "]");
            }
        }
        SdpProblem.Builder b = SdpProblem.builder(m);
        for (int k = 0; k < nblocks; k++) {
            if (sizes[k] < 0) {
                b.addDiagonalBlock(-sizes[k]);
            } else {
                b.addBlock(sizes[k]);
            }
        }
        for (int i = 0; i < m; i++) {
            b.setB(i, c[i]);
        }
        Set<EntryKey> seen = new HashSet<>();
        String line;
        while ((line = tk.nextLine()) != null) {
            String[] f = Tokens.split(line);
            if (f.length == 0) {
                continue;
            }
            if (f.length != 5) {
                throw tk.error("an entry needs 5 fields 'matno blkno i j value', found " + f.length);
            }
            int mat = tk.parseInt(f[0], "matno");
            int blk = tk.parseInt(f[1], "blkno");
            int i = tk.parseInt(f[2], "i");
            int j = tk.parseInt(f[3], "j");
            double v = tk.parseDouble(f[4], "value");
            if (mat < 0 || mat > m) {
                throw tk.error("matno " + mat + " outside 0.." + m);
            }
            if (blk < 1 || blk > nblocks) {
                throw tk.error("blkno " + blk + " outside 1.." + nblocks);
            }
            int size = Math.abs(sizes[blk - 1]);
            if (i < 1 || j < 1 || i > size || j > size) {
                throw tk.error("entry (" + i + "," + j + ") outside block " + blk + " of size " + size);
            }
            if (sizes[blk - 1] < 0 && i != j) {
                throw tk.error("block " + blk + " is diagonal but entry (" + i + "," + j + ") is off the diagonal");
            }
            int lo = Math.min(i, j);
            int hi = Math.max(i, j);
            if (!seen.add(new EntryKey(mat, blk, lo, hi))) {
                throw tk.error("duplicate entry for matrix " + mat + ", block " + blk + ", (" + lo + "," + hi + ")");
            }
            if (mat == 0) {
                b.addC(blk - 1, lo - 1, hi - 1, -v);
            } else {
                b.addA(mat - 1, blk - 1, lo - 1, hi - 1, v);
            }
        }
        return b.build();
    }

    private record EntryKey(int mat, int blk, int i, int j) {
    }

    /** Writes the problem as SDPA sparse text (F_0 = −C, F_i = A_i, c = b; low-rank blocks are expanded). */
    public static void write(SdpProblem p, Writer w) throws IOException {
        int m = p.constraints();
        w.write("\"written by psdkit\n");
        w.write(m + " =mdim\n");
        w.write(p.blocks() + " =nblocks\n");
        StringBuilder sb = new StringBuilder();
        int[] ss = p.signedSizes();
        for (int k = 0; k < ss.length; k++) {
            sb.append(k == 0 ? "" : " ").append(ss[k]);
        }
        w.write(sb.append('\n').toString());
        sb.setLength(0);
        double[] b = p.b();
        for (int i = 0; i < m; i++) {
            sb.append(i == 0 ? "" : " ").append(fmt(b[i]));
        }
        w.write(sb.append('\n').toString());
        for (int mat = 0; mat <= m; mat++) {
            for (int blk = 0; blk < p.blocks(); blk++) {
                Coefficient c = mat == 0 ? p.c(blk) : p.a(mat - 1, blk);
                if (c == null) {
                    continue;
                }
                double sign = mat == 0 ? -1.0 : 1.0;
                if (c instanceof Coefficient.Sparse s) {
                    for (int e = 0; e < s.entries(); e++) {
                        w.write(mat + " " + (blk + 1) + " " + (s.row(e) + 1) + " " + (s.col(e) + 1) + " "
                                + fmt(sign * s.value(e)) + "\n");
                    }
                } else {
                    var d = c.toDense();
                    for (int j = 0; j < d.cols(); j++) {
                        for (int i = 0; i <= j; i++) {
                            double v = d.get(i, j);
                            if (v != 0) {
                                w.write(mat + " " + (blk + 1) + " " + (i + 1) + " " + (j + 1) + " "
                                        + fmt(sign * v) + "\n");
                            }
                        }
                    }
                }
            }
        }
    }

    /** Writes to a file atomically (temporary file, then rename). */
    public static void write(SdpProblem p, Path file) {
        try {
            java.io.StringWriter w = new java.io.StringWriter();
            write(p, w);
            OutputFiles.writeAtomically(file, w.toString().getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static String fmt(double v) {
        // shortest representation that round-trips
        return Double.toString(v).toLowerCase(Locale.ROOT);
    }

    /** Line-aware tokenizer for the header (numbers may span lines) and the entry lines. */
    private static final class Tokens {
        private final BufferedReader r;
        private final String name;
        private int lineNo;
        private String[] fields = new String[0];
        private int next;
        private String pendingLine;

        Tokens(BufferedReader r, String name) {
            this.r = r;
            this.name = name;
        }

        static String[] split(String line) {
            String t = line.replace(',', ' ').replace('(', ' ').replace(')', ' ').replace('{', ' ')
                    .replace('}', ' ').trim();
            return t.isEmpty() ? new String[0] : t.split("\\s+");
        }

        IllegalArgumentException error(String msg) {
            return new IllegalArgumentException(name + ":" + lineNo + ": " + msg);
        }

        void skipComments() throws IOException {
            String line;
            while ((line = r.readLine()) != null) {
                lineNo++;
                String t = line.trim();
                if (t.isEmpty() || t.startsWith("\"") || t.startsWith("*")) {
                    continue;
                }
                pendingLine = line;
                return;
            }
            throw new IllegalArgumentException(name + ": empty file (no SDPA header)");
        }

        private String token(String what) throws IOException {
            while (next >= fields.length) {
                String line;
                if (pendingLine != null) {
                    line = pendingLine;
                    pendingLine = null;
                } else {
                    line = r.readLine();
                    if (line == null) {
                        throw new IllegalArgumentException(name + ":" + lineNo + ": unexpected end of file while "
                                + "reading " + what);
                    }
                    lineNo++;
                }
                fields = split(line);
                next = 0;
            }
            return fields[next++];
        }

        /**
         * The fields of the next non-empty line, which must hold {@code count} values (the block sizes or c); a
         * trailing remark starting with {@code =}, {@code "} or {@code *} (e.g. {@code =bLOCKsTRUCT}) is ignored.
         */
        String[] headerLine(String what, int count) throws IOException {
            String[] f = new String[0];
            while (f.length == 0) {
                String line;
                if (pendingLine != null) {
                    line = pendingLine;
                    pendingLine = null;
                } else {
                    line = r.readLine();
                    if (line == null) {
                        throw new IllegalArgumentException(name + ":" + lineNo + ": unexpected end of file while "
                                + "reading " + what);
                    }
                    lineNo++;
                }
                f = split(line);
            }
            int values = 0;
            while (values < f.length && !isRemark(f[values])) {
                values++;
            }
            if (values != count) {
                throw error("the line of " + what + " holds " + values + " value" + (values == 1 ? "" : "s")
                        + ", expected " + count + " (" + (what.endsWith("c") ? "m" : "the number of blocks")
                        + " = " + count + "; the whole of " + what + " must be on this one line)");
            }
            skipRestOfLine();
            return f;
        }

        private static boolean isRemark(String s) {
            char c0 = s.charAt(0);
            return c0 == '=' || c0 == '"' || c0 == '*';
        }

        /** Drops what is left of the current line (e.g. "=mdim"). */
        void skipRestOfLine() {
            fields = new String[0];
            next = 0;
        }

        int nextInt(String what) throws IOException {
            return parseInt(token(what), what);
        }

        double nextDouble(String what) throws IOException {
            return parseDouble(token(what), what);
        }

        String nextLine() throws IOException {
            String line = r.readLine();
            if (line != null) {
                lineNo++;
            }
            return line;
        }

        int parseInt(String s, String what) {
            try {
                String t = s.startsWith("+") ? s.substring(1) : s;
                return Integer.parseInt(t);
            } catch (NumberFormatException e) {
                // allow "2.0"-style integers
                try {
                    double d = Double.parseDouble(s);
                    if (d == Math.rint(d) && Math.abs(d) < Integer.MAX_VALUE) {
                        return (int) d;
                    }
                } catch (NumberFormatException ignored) {
                    // fall through
                }
                throw error("expected an integer for " + what + ", found '" + s + "'");
            }
        }

        double parseDouble(String s, String what) {
            try {
                double d = Double.parseDouble(s);
                if (!Double.isFinite(d)) {
                    throw error("non-finite value for " + what + ": '" + s + "'");
                }
                return d;
            } catch (NumberFormatException e) {
                throw error("expected a number for " + what + ", found '" + s + "'");
            }
        }
    }
}
