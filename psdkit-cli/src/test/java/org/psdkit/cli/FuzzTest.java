package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * Issue 17: random mutations of valid CSV, LIBSVM, SDPA and model files (truncation, flipped bytes, duplicated or
 * dropped lines, huge or odd numbers) run through the CLI in-process never give a stack trace, an exit status other
 * than 0/1/2, a changed input or a file left behind (only the requested output, and only on exit 0).
 */
class FuzzTest {

    /** Tries per format in the default run (about 0.15 s each; 80 per format, 320 in all, passed when this was written). */
    private static final int TRIES = 8;

    private static final String[] HUGE = {"1e308", "-1e308", "1e400", "NaN", "Infinity", "-0", "99999999999999999999",
        "2147483648", "-2147483649", "0x10", "1e-320", "", "nan", "1,5", "\"", "'", "#", ":"};

    enum Kind { CSV, LIBSVM, SDPA, MODEL }

    private static String validCsv() {
        StringBuilder sb = new StringBuilder("a,b,target\n");
        for (int i = 0; i < 24; i++) {
            sb.append(i % 7 * 0.5).append(',').append(i % 5).append(',').append(1 + i * 0.25).append('\n');
        }
        return sb.toString();
    }

    private static String validLibsvm() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            sb.append(1 + i * 0.25).append(" 1:").append(i % 7 * 0.5).append(" 3:").append(i % 5).append('\n');
        }
        return sb.toString();
    }

    private static String validSdpa() {
        // max -x1 - x2 style toy: two constraints, one 2x2 block and one diagonal block of 2
        return "\"toy problem\n2 =mdim\n2 =nblocks\n2 -2\n1.0 2.0\n0 1 1 1 1.0\n0 1 2 2 1.0\n1 1 1 1 1.0\n"
                + "1 1 1 2 0.5\n1 2 1 1 1.0\n2 1 2 2 1.0\n2 2 2 2 1.0\n";
    }

    private static byte[] validModel;

    private static synchronized byte[] validModel() {
        if (validModel == null) {
            try {
                Path d = Files.createTempDirectory("psdkit-fuzz-model");
                Path in = Files.writeString(d.resolve("in.csv"), validCsv());
                Path m = d.resolve("m.json");
                CliRun r = CliRun.run("fit", "krr", "--train", in.toString(), "--out", m.toString(), "--kernel",
                        "gaussian(sigma=2)", "--lambda", "0.1", "--scale", "zscore");
                assertEquals(0, r.status(), r.err());
                validModel = Files.readAllBytes(m);
                Files.delete(m);
                Files.delete(in);
                Files.delete(d);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return validModel;
    }

    /** One mutation of {@code text}, chosen by {@code rnd}. */
    static byte[] mutate(byte[] text, Random rnd) {
        String s = new String(text, StandardCharsets.ISO_8859_1);
        List<String> lines = new ArrayList<>(List.of(s.split("\n", -1)));
        switch (rnd.nextInt(7)) {
            case 0 -> { // truncate
                return java.util.Arrays.copyOf(text, rnd.nextInt(text.length + 1));
            }
            case 1 -> { // flip bytes
                byte[] b = text.clone();
                for (int k = 1 + rnd.nextInt(3); k > 0 && b.length > 0; k--) {
                    int at = rnd.nextInt(b.length);
                    b[at] = (byte) (rnd.nextBoolean() ? b[at] ^ (1 << rnd.nextInt(8)) : rnd.nextInt(256));
                }
                return b;
            }
            case 2 -> { // duplicate a line
                int at = rnd.nextInt(lines.size());
                lines.add(at, lines.get(at));
            }
            case 3 -> { // drop a line
                lines.remove(rnd.nextInt(lines.size()));
            }
            case 4 -> { // replace a number with a huge or odd one
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("-?\\d+(\\.\\d+)?([eE][-+]?\\d+)?")
                        .matcher(s);
                List<int[]> spans = new ArrayList<>();
                while (m.find()) {
                    spans.add(new int[] {m.start(), m.end()});
                }
                if (!spans.isEmpty()) {
                    int[] sp = spans.get(rnd.nextInt(spans.size()));
                    s = s.substring(0, sp[0]) + HUGE[rnd.nextInt(HUGE.length)] + s.substring(sp[1]);
                }
                return s.getBytes(StandardCharsets.ISO_8859_1);
            }
            case 5 -> { // swap two lines
                java.util.Collections.swap(lines, rnd.nextInt(lines.size()), rnd.nextInt(lines.size()));
            }
            default -> { // insert a junk line
                lines.add(rnd.nextInt(lines.size() + 1), rnd.nextBoolean() ? "" : "x,\u00e9;{[(" + rnd.nextInt());
            }
        }
        return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.longs();
    }

    @Property(tries = TRIES, seed = "17001", shrinking = ShrinkingMode.OFF)
    void csv(@ForAll("seeds") long seed) throws IOException {
        check(Kind.CSV, seed);
    }

    @Property(tries = TRIES, seed = "17002", shrinking = ShrinkingMode.OFF)
    void libsvm(@ForAll("seeds") long seed) throws IOException {
        check(Kind.LIBSVM, seed);
    }

    @Property(tries = TRIES, seed = "17003", shrinking = ShrinkingMode.OFF)
    void sdpa(@ForAll("seeds") long seed) throws IOException {
        check(Kind.SDPA, seed);
    }

    @Property(tries = TRIES, seed = "17004", shrinking = ShrinkingMode.OFF)
    void model(@ForAll("seeds") long seed) throws IOException {
        check(Kind.MODEL, seed);
    }

    private static void check(Kind kind, long seed) throws IOException {
        Random rnd = new Random(seed);
        Path dir = Files.createTempDirectory("psdkit-fuzz");
        try {
            Path input;
            Path out;
            String[] args;
            switch (kind) {
                case CSV -> {
                    input = write(dir, "in.csv", mutate(validCsv().getBytes(StandardCharsets.UTF_8), rnd));
                    out = dir.resolve("out.json");
                    args = new String[] {"fit", "krr", "--train", input.toString(), "--out", out.toString(),
                        "--kernel", "gaussian(sigma=2)", "--lambda", "0.1"};
                }
                case LIBSVM -> {
                    input = write(dir, "in.libsvm", mutate(validLibsvm().getBytes(StandardCharsets.UTF_8), rnd));
                    out = dir.resolve("out.json");
                    args = new String[] {"fit", "krr", "--train", input.toString(), "--out", out.toString(),
                        "--lambda", "0.1"};
                }
                case SDPA -> {
                    input = write(dir, "in.dat-s", mutate(validSdpa().getBytes(StandardCharsets.UTF_8), rnd));
                    out = dir.resolve("sol.json");
                    args = new String[] {"sdp", "solve", input.toString(), "--max-iterations", "30", "--solution",
                        out.toString()};
                }
                default -> {
                    input = write(dir, "m.json", mutate(validModel(), rnd));
                    Path data = write(dir, "d.csv", validCsv().getBytes(StandardCharsets.UTF_8));
                    out = dir.resolve("p.csv");
                    args = new String[] {"predict", "--model", input.toString(), "--data", data.toString(), "--out",
                        out.toString()};
                }
            }
            Set<String> before = listing(dir);
            byte[] inputBytes = Files.readAllBytes(input);
            CliRun r = CliRun.run(args);
            String what = kind + " seed " + seed + ": exit " + r.status() + "\n" + r.err();
            assertTrue(r.status() == 0 || r.status() == 1 || r.status() == 2, what);
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception in thread")
                    || r.err().contains("Exception:") || r.err().contains("Error:"), "stack trace or raw exception: "
                    + what);
            if (r.status() != 0) {
                assertTrue(r.err().lines().anyMatch(l -> l.startsWith("psdkit: ")), "no psdkit: line: " + what);
            }
            assertArrayEquals(inputBytes, Files.readAllBytes(input), "input changed: " + what);
            Set<String> expected = new TreeSet<>(before);
            if (r.status() == 0) {
                expected.add(out.getFileName().toString());
            }
            assertEquals(expected, listing(dir), "files: " + what);
        } finally {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    private static Path write(Path dir, String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    private static Set<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
