package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ModelTrees} reads, writes and converts model documents without an ObjectMapper: every result must be the
 * mapper's ({@link ModelFile#JSON}) — the same node classes and values, the same bytes, the same maps, the same
 * errors — on every golden model file and on edge cases of the JSON syntax.
 */
class ModelTreesTest {

    @TempDir
    Path dir;

    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() { };

    @Test
    void goldenFilesReadWriteAndConvertAsTheMapperDoes() throws Exception {
        List<String> names;
        try (Stream<Path> s = Files.list(Path.of(ModelTreesTest.class.getResource("/golden").toURI()))) {
            names = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted().toList();
        }
        assertTrue(names.size() >= 10, "golden files found: " + names);
        for (String name : names) {
            File f = GoldenFiles.copy(dir, name).toFile();
            JsonNode mapper = ModelFile.JSON.readTree(f);
            JsonNode own = ModelTrees.readTree(f);
            sameTree(mapper, own, name);
            // every model file psdkit writes is read by the compact reader, not handed to Jackson
            JsonNode plain = PlainJson.read(Files.readAllBytes(f.toPath()));
            assertNotNull(plain, name + ": PlainJson gave up");
            sameTree(mapper, plain, name + " (PlainJson)");
            assertArrayEquals(ModelFile.JSON.writeValueAsBytes(mapper), ModelTrees.bytes(own), name);
            for (String field : new String[] {"options", "diagnostics", "scaler", "numbers"}) {
                JsonNode o = mapper.get(field);
                if (o != null && o.isObject()) {
                    Map<String, Object> expected = ModelFile.JSON.convertValue(o, MAP);
                    Map<String, Object> got = ModelTrees.toMap(own.get(field));
                    sameValue(expected, got, name + " " + field);
                    // and back: the writer's conversion of what a fit reports
                    sameTree(ModelFile.JSON.valueToTree(expected), ModelTrees.valueToTree(got), name + " " + field);
                }
            }
        }
    }

    @Test
    void edgeCasesOfTheSyntaxReadAsTheMapperReadsThem() throws Exception {
        String deep = "[".repeat(3000) + "]".repeat(3000);
        String[] texts = {"", "  \n", "null", "5", "\"s\"", "[1, -0, 2.5, -0.0, 1e400, 2147483648, -9223372036854775809, "
                + "123456789012345678901234567890, 1.7976931348623157E308, 4.9E-324, true, false, null, \"\\u00e9\"]",
                "{\"a\": 1, \"a\": 2, \"b\": {}, \"c\": [], \"d\": null}", "{\"a\": [1, 2]} trailing words",
                "{\"a\": NaN}", "{\"a\": [1,", "{\"a\" 1}", "{\"a\": 01}", "{\"a\": 1.}", "[1, 2]]", deep,
                "{\"format\": \"psdkit-model\", \"x\": 0.30000000000000004}",
                // what the compact reader (PlainJson) takes, and where it hands over to Jackson
                "[1E5, 1e+5, -1.5e-3, 0.0, -0.0, 0, 123456789012345678, -123456789012345678, 1234567890123456789, "
                + "-2147483648, 2147483647, -2147483649, 2147483648, 5e-324, 2.4703282292062328E-324, 1e-400]",
                "\t[1,\r\n2 ,3\n]\n", "[1 2]", "[1,]", "{\"a\": 1,}", "[,1]", "{,}", "[tru]", "[nulls]", "[truex]",
                "[-]", "[.5]", "[+1]", "[1e]", "[1e+]", "[1.e5]", "[0x10]", "[1_0]", "[-01]", "[00]", "123abc", "123 abc",
                "[1]x", "\uFEFF{\"a\": 1}", "[\"é\"]", "[\"a\\\"b\"]", "[\"a\u0001b\"]", "[\"x" + "y".repeat(20000) + "\"]",
                "{\"" + "k".repeat(60000) + "\": 1}", "{\"a\": {\"b\": [[[]], {}], \"c\": \"\"}, \"\": false}",
                "[".repeat(150) + "]".repeat(150), "[".repeat(250) + "]".repeat(250), "[" + "9".repeat(120) + ".5]",
                "{\"a\" : 1 , \"b\":[ ] }", "[1,2", "{\"a\"", "\"open", "[1]]",
                // the longest number PlainJson reads itself (100 characters) and one more; exponents with zeros
                "[1." + "2".repeat(98) + ", -1." + "2".repeat(97) + "]", "[1." + "2".repeat(99) + "]",
                "[1E+0007, 2e-0, -999999999999999999, 999999999999999999, -1000000000000000000]"};
        int i = 0;
        int plainTook = 0;
        for (String t : texts) {
            Path p = dir.resolve("t" + (i++) + ".json");
            Files.writeString(p, t);
            JsonNode expected = null;
            JsonNode got = null;
            Exception ee = null;
            Exception ge = null;
            try {
                expected = ModelFile.JSON.readTree(p.toFile());
            } catch (Exception e) {
                ee = e;
            }
            try {
                got = ModelTrees.readTree(p.toFile());
            } catch (Exception e) {
                ge = e;
            }
            String what = t.length() > 60 ? t.substring(0, 60) : t;
            // the compact reader never takes a text Jackson refuses, and gives Jackson's tree for what it takes
            JsonNode plain = PlainJson.read(Files.readAllBytes(p));
            if (plain != null) {
                plainTook++;
                assertEquals(null, ee, what + ": PlainJson took a text the mapper refuses");
                sameTree(expected, plain, what + " (PlainJson)");
            }
            if (ee != null) {
                assertNotNull(ge, what + ": the mapper failed with " + ee);
                assertEquals(ee.getClass(), ge.getClass(), what);
                assertEquals(ee.getMessage(), ge.getMessage(), what);
            } else {
                assertEquals(null, ge, what);
                sameTree(expected, got, what);
            }
            // what ModelFile.read tells the user is the same message as before
            JsonNode tree = expected;
            Exception error = ee;
            String readExpected = message(() -> check(tree, error, p));
            String readGot = message(() -> ModelFile.read(p));
            assertEquals(readExpected, readGot, what);
        }
        assertTrue(plainTook >= 16, "texts PlainJson read itself: " + plainTook);
    }

    /**
     * A model read from a pipe (a shell's {@code --model <(…)}) can be read once only: it goes to Jackson's parser
     * directly, also when its text is one the compact reader would hand over (a non-ASCII name).
     */
    @Test
    void aPipeIsReadOnceWhateverItsText() throws Exception {
        for (String text : new String[] {"{\"format\": \"psdkit-model\", \"names\": [\"x1\"], \"v\": [1.5, -2]}",
            "{\"format\": \"psdkit-model\", \"names\": [\"t\u00e9\"], \"v\": [1.5, -2]}"}) {
            Path regular = dir.resolve("regular.json");
            Files.writeString(regular, text);
            Path fifo = dir.resolve("pipe.json");
            Files.deleteIfExists(fifo);
            Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
            assertEquals(0, mk.waitFor(), "mkfifo");
            Thread writer = new Thread(() -> {
                try {
                    Files.writeString(fifo, text);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            writer.start();
            JsonNode fromPipe;
            try {
                // a second open of the drained pipe would wait for a writer for ever: a failure, not a hang
                fromPipe = assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                        () -> ModelTrees.readTree(fifo.toFile()), text);
            } finally {
                writer.join(20_000);
                new ProcessBuilder("sh", "-c", "exec 3<>\"$0\"", fifo.toString()).start().waitFor(); // frees a reader
            }
            sameTree(ModelFile.JSON.readTree(regular.toFile()), fromPipe, text);
        }
    }

    @Test
    void plainJavaValuesBecomeTheMappersTrees() throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("d", 0.1);
        m.put("nan", Double.NaN);
        m.put("inf", Double.NEGATIVE_INFINITY);
        m.put("i", 3);
        m.put("l", 3L);
        m.put("f", 1.5f);
        m.put("s", "x");
        m.put("b", true);
        m.put("none", null);
        m.put("da", new double[] {1.0, -0.0, 1e-300});
        m.put("ia", new int[] {1, 2});
        m.put("la", new long[] {1L << 40});
        m.put("list", List.of(1, 2.0, "three", List.of()));
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("z", 1);
        inner.put("a", new ArrayList<>(List.of(0.5)));
        m.put("map", inner);
        m.put("enum", java.time.DayOfWeek.MONDAY); // not a plain value: through the mapper
        sameTree(ModelFile.JSON.valueToTree(m), ModelTrees.valueToTree(m), "map with an enum");
        m.remove("enum");
        sameTree(ModelFile.JSON.valueToTree(m), ModelTrees.valueToTree(m), "plain map");
        assertArrayEquals(ModelFile.JSON.writeValueAsBytes(ModelFile.JSON.valueToTree(m)),
                ModelTrees.bytes(ModelTrees.valueToTree(m)));
    }

    private interface Failing {
        void run() throws Exception;
    }

    private static String message(Failing f) {
        try {
            f.run();
            return "ok";
        } catch (Exception e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }

    /** ModelFile.read's result as it was: the mapper's tree or error, then the format check. */
    private static void check(JsonNode tree, Exception error, Path p) throws Exception {
        if (error != null) {
            if (error instanceof com.fasterxml.jackson.core.JsonProcessingException j) {
                throw new IllegalArgumentException("model file " + p + " is not valid JSON: " + ModelFile.describe(j));
            }
            throw error;
        }
        ModelFile.check(tree, "model file " + p);
    }

    /** The same node classes and values, fields in the same order. */
    private static void sameTree(JsonNode a, JsonNode b, String what) {
        assertEquals(a == null, b == null, what);
        if (a == null) {
            return;
        }
        assertEquals(a.getClass(), b.getClass(), what);
        assertEquals(a, b, what);
        if (a.isObject()) {
            Iterator<String> ia = a.fieldNames();
            Iterator<String> ib = b.fieldNames();
            while (ia.hasNext()) {
                String k = ia.next();
                assertEquals(k, ib.next(), what);
                sameTree(a.get(k), b.get(k), what + "." + k);
            }
        } else if (a.isArray()) {
            for (int i = 0; i < a.size(); i++) {
                sameTree(a.get(i), b.get(i), what + "[" + i + "]");
            }
        } else if (a.isNumber()) {
            assertEquals(a.numberValue(), b.numberValue(), what);
            assertEquals(Double.doubleToRawLongBits(a.doubleValue()), Double.doubleToRawLongBits(b.doubleValue()), what);
        }
    }

    /** The same Java classes and values, map keys in the same order. */
    private static void sameValue(Object a, Object b, String what) {
        assertEquals(a == null ? null : a.getClass(), b == null ? null : b.getClass(), what);
        assertEquals(a, b, what);
        if (a instanceof Map<?, ?> ma) {
            List<?> ka = new ArrayList<>(ma.keySet());
            List<?> kb = new ArrayList<>(((Map<?, ?>) b).keySet());
            assertEquals(ka, kb, what);
            for (Object k : ka) {
                sameValue(ma.get(k), ((Map<?, ?>) b).get(k), what + "." + k);
            }
        } else if (a instanceof List<?> la) {
            for (int i = 0; i < la.size(); i++) {
                sameValue(la.get(i), ((List<?>) b).get(i), what + "[" + i + "]");
            }
        }
    }
}
