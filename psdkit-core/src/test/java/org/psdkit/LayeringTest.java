package org.psdkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package layering of psdkit-core, stated as a test over the main sources: every reference to an
 * {@code org.psdkit} class (an import or a fully qualified name in code) must go to the same package, a lower layer,
 * or, inside the family layer, to an enclosing package of the same family ({@code cone.quantile → cone}). Families
 * never reference each other. A new package must be placed in {@link #LAYERS} before it compiles past this test, and
 * given an export decision in {@link #EXPORTS} (API, or exported only to named psdkit modules) that
 * {@code module-info.java} states; every exported package has a {@code package-info.java}.
 */
class LayeringTest {

    /** Layer of every main package; a package may reference only strictly lower layers (and itself). */
    static final Map<String, Integer> LAYERS = Map.ofEntries(
            Map.entry("linalg", 0), Map.entry("linalg.internal", 0), Map.entry("linalg.reference", 1),
            Map.entry("data", 1), Map.entry("kernel", 1), Map.entry("optim", 1),
            Map.entry("optim.sdp", 2), Map.entry("optim.smo", 2),
            Map.entry("model", 3),
            Map.entry("psd", 4), Map.entry("select", 4),
            Map.entry("regression", 5), Map.entry("regression.nystrom", 5),
            Map.entry("regression.nystrom.internal", 5), Map.entry("regression.psd", 5),
            Map.entry("sos", 5),
            Map.entry("cone", 5), Map.entry("cone.hetero", 5), Map.entry("cone.quantile", 5),
            Map.entry("classify", 5), Map.entry("classify.mkl", 5), Map.entry("density", 5),
            Map.entry("io", 6), Map.entry("engine", 6));
    static final int FAMILIES = 5;

    /** Exported to every module: the API. */
    static final String API = "*";
    /** Not exported at all (internal to psdkit-core). */
    static final String NONE = "";

    /**
     * The decision for every main package, as {@code module-info.java} must state it: {@link #API}, {@link #NONE}, or
     * the psdkit modules a qualified export ({@code exports … to}) names, comma-separated, for a package that is not
     * API but another psdkit module needs. A new package fails {@link #moduleInfoExportsWhatWasDecided} until it has
     * an entry here.
     */
    static final Map<String, String> EXPORTS = Map.ofEntries(
            Map.entry("linalg", API), Map.entry("linalg.internal", "org.psdkit.spark"),
            Map.entry("linalg.reference", "org.psdkit.bench"),
            Map.entry("data", API), Map.entry("kernel", API), Map.entry("optim", API),
            Map.entry("optim.sdp", API), Map.entry("optim.smo", API),
            Map.entry("model", API),
            Map.entry("psd", API), Map.entry("select", API),
            Map.entry("regression", API), Map.entry("regression.nystrom", API),
            Map.entry("regression.nystrom.internal", "org.psdkit.spark"), Map.entry("regression.psd", API),
            Map.entry("sos", API),
            Map.entry("cone", API), Map.entry("cone.hetero", API), Map.entry("cone.quantile", API),
            Map.entry("classify", API), Map.entry("classify.mkl", API), Map.entry("density", API),
            Map.entry("io", API), Map.entry("engine", API));

    private static final Pattern EXPORT = Pattern.compile(
            "^\\s*exports\\s+org\\.psdkit\\.([\\w.]+)(?:\\s+to\\s+([\\w.,\\s]+?))?\\s*;", Pattern.MULTILINE);

    private static final Pattern PACKAGE = Pattern.compile("^package org\\.psdkit\\.([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern REFERENCE = Pattern.compile("(?<![\\w.])org\\.psdkit\\.((?:[a-z]\\w*\\.)*[a-z]\\w*)\\.[A-Z]");

    /** Whether code in package {@code from} may reference a class of package {@code to} (both without "org.psdkit."). */
    static boolean allowed(String from, String to) {
        if (owner(from).equals(owner(to))) { // an internal package is the hidden half of the package that owns it
            return true;
        }
        if (from.equals(to)) {
            return true;
        }
        int a = LAYERS.get(from);
        int b = LAYERS.get(to);
        if (a == FAMILIES && b == FAMILIES) {
            return from.startsWith(to + ".");
        }
        return b < a;
    }

    /** The package an {@code ….internal} package belongs to (itself for any other package). */
    static String owner(String pkg) {
        return pkg.endsWith(".internal") ? pkg.substring(0, pkg.length() - ".internal".length()) : pkg;
    }

    @Test
    void theRuleRejectsWhatTheIssueForbids() {
        assertFalse(allowed("cone.hetero", "cone.quantile"), "family → family");
        assertFalse(allowed("classify.mkl", "regression"), "family → family");
        assertFalse(allowed("cone", "cone.hetero"), "a family's shared blocks → one of its members");
        assertFalse(allowed("model", "select"), "contract → cross-validation");
        assertFalse(allowed("psd", "regression.psd"), "building block → family");
        assertFalse(allowed("linalg", "kernel"), "lower → higher");
        assertFalse(allowed("kernel", "linalg.reference"), "lower → higher");
        assertFalse(allowed("linalg.internal", "kernel"), "an internal package keeps its owner's layer");
        assertTrue(allowed("linalg", "linalg.internal"));
        assertTrue(allowed("linalg.internal", "linalg"));
        assertTrue(allowed("classify.mkl", "classify"));
        assertTrue(allowed("density", "psd"));
        assertTrue(allowed("io", "density"));
    }

    @Test
    void mainSourcesFollowTheLayers() throws IOException {
        Path root = Path.of(System.getProperty("basedir", "."), "src", "main", "java", "org", "psdkit");
        List<String> violations = new ArrayList<>();
        TreeSet<String> seen = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String src = Files.readString(f);
                Matcher pm = PACKAGE.matcher(src);
                if (!pm.find()) {
                    violations.add(f + ": no org.psdkit package line");
                    continue;
                }
                String from = pm.group(1);
                seen.add(from);
                if (!LAYERS.containsKey(from)) {
                    violations.add(f + ": package " + from + " has no layer in LayeringTest.LAYERS");
                    continue;
                }
                Matcher rm = REFERENCE.matcher(stripCommentsAndStrings(src));
                while (rm.find()) {
                    String to = rm.group(1);
                    if (!LAYERS.containsKey(to)) {
                        violations.add(f.getFileName() + ": references unknown package " + to);
                    } else if (!allowed(from, to)) {
                        violations.add(f.getFileName() + " (" + from + ") → " + to);
                    }
                }
            }
        }
        assertEquals(List.of(), violations);
        assertEquals(new TreeSet<>(LAYERS.keySet()), seen, "every layer is a package of the main sources");
    }

    @Test
    void moduleInfoExportsWhatWasDecided() throws IOException {
        Path main = Path.of(System.getProperty("basedir", "."), "src", "main", "java");
        assertEquals(new TreeSet<>(LAYERS.keySet()), new TreeSet<>(EXPORTS.keySet()),
                "every package of LAYERS has an export decision in EXPORTS");
        Map<String, String> decided = new TreeMap<>(EXPORTS);
        decided.values().removeIf(NONE::equals);
        Map<String, String> stated = exports(Files.readString(main.resolve("module-info.java")));
        assertEquals(decided, new TreeMap<>(stated), "module-info.java's exports");
        for (String pkg : stated.keySet()) {
            Path info = main.resolve("org/psdkit/" + pkg.replace('.', '/')).resolve("package-info.java");
            assertTrue(Files.isRegularFile(info), "exported package " + pkg + " has no package-info.java");
            assertTrue(Files.readString(info).contains("/**"), info + " has no Javadoc comment");
        }
    }

    @Test
    void exportsAreReadWithTheirTargets() {
        String src = "module m {\n    exports org.psdkit.a;\n    exports org.psdkit.b.c to x.y,\n        z;\n"
                + "    // exports org.psdkit.d;\n}";
        assertEquals(Map.of("a", API, "b.c", "x.y, z"), exports(src));
    }

    /** Package (without "org.psdkit.") → {@link #API} or its sorted target modules, from a module declaration. */
    static Map<String, String> exports(String moduleInfo) {
        Map<String, String> out = new TreeMap<>();
        Matcher m = EXPORT.matcher(stripCommentsAndStrings(moduleInfo));
        while (m.find()) {
            String targets = m.group(2) == null ? API
                    : String.join(", ", new TreeSet<>(List.of(m.group(2).trim().split("\\s*,\\s*"))));
            assertEquals(null, out.put(m.group(1), targets), "exported twice: " + m.group(1));
        }
        return out;
    }

    /**
     * Modules psdkit-spark must not depend on, in any scope: it is an engine of the library (psdkit-core alone), so a
     * Spark user needs neither the command line nor the benchmarks and experiments; the launcher module
     * psdkit-spark-submit joins it with the command line.
     */
    static final List<String> SPARK_FORBIDDEN = List.of("psdkit-cli", "psdkit-bench", "psdkit-experiments");

    private static final Pattern DEPENDENCY = Pattern.compile("(?s)<dependency>(.*?)</dependency>");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>\\s*([^<\\s]+)\\s*</artifactId>");

    /** The artifactIds of a pom's {@code <dependency>} elements (comments removed first). */
    static List<String> dependencies(String pom) {
        String text = pom.replaceAll("(?s)<!--.*?-->", " ");
        List<String> out = new ArrayList<>();
        Matcher d = DEPENDENCY.matcher(text);
        while (d.find()) {
            Matcher a = ARTIFACT.matcher(d.group(1));
            if (a.find()) {
                out.add(a.group(1));
            }
        }
        return out;
    }

    /**
     * Declarations that mark a general-purpose optimiser: L-BFGS (its two-loop recursion), a Wolfe line search (its
     * zoom phase and constants), conjugate gradient. These live in {@code org.psdkit.optim} ({@code Lbfgs},
     * {@code WolfeLineSearch}, {@code ConjugateGradient}); a family states its problem and calls them.
     */
    static final Pattern GENERAL_OPTIMISER = Pattern.compile(
            "\\b(?:class|interface|record|enum)\\s+\\w*(?:Lbfgs|LBFGS|Bfgs|BFGS|Wolfe|ConjugateGradient)\\w*"
            + "|\\b(?:twoLoop|twoLoopRecursion|lbfgs\\w*|bfgs\\w*|wolfe\\w*|zoom|conjugateGradient|pcg)\\s*\\("
            + "|\\bWOLFE_C[12]\\b");

    /** The general optimisers a family file declares (comments and strings removed first). */
    static List<String> generalOptimisers(String source) {
        List<String> out = new ArrayList<>();
        Matcher m = GENERAL_OPTIMISER.matcher(stripCommentsAndStrings(source));
        while (m.find()) {
            out.add(m.group().trim());
        }
        return out;
    }

    @Test
    void theOptimiserCheckFindsWhatItForbids() {
        assertEquals(List.of("twoLoop("), generalOptimisers("static Matrix twoLoop(Matrix g, Deque<Matrix[]> h) {"));
        assertEquals(List.of("zoom(", "WOLFE_C1"), generalOptimisers(
                "double zoom(Line l) { return phi0 + WOLFE_C1 * t; }"));
        assertEquals(List.of("class PreconditionedConjugateGradient"),
                generalOptimisers("final class PreconditionedConjugateGradient {"));
        assertEquals(List.of(), generalOptimisers("// twoLoop( in a comment\nString s = \"zoom(\"; "
                + "ConjugateGradient.solve(a, b, 1e-6, 10); Lbfgs.direction(g, s, y);"));
    }

    @Test
    void noFamilyDefinesAGeneralOptimiser() throws IOException {
        Path root = Path.of(System.getProperty("basedir", "."), "src", "main", "java", "org", "psdkit");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                String src = Files.readString(f);
                Matcher pm = PACKAGE.matcher(src);
                if (pm.find() && LAYERS.getOrDefault(pm.group(1), -1) == FAMILIES) {
                    for (String g : generalOptimisers(src)) {
                        found.add(f.getFileName() + ": " + g);
                    }
                }
            }
        }
        assertEquals(List.of(), found, "general optimisers belong in org.psdkit.optim");
    }

    /** The forbidden modules among a pom's dependencies. */
    static List<String> forbiddenSparkDependencies(String pom) {
        return dependencies(pom).stream().filter(SPARK_FORBIDDEN::contains).toList();
    }

    @Test
    void theSparkRuleRejectsACommandLineBenchOrExperimentsDependency() {
        String pom = "<project><dependencies><!-- <dependency><artifactId>psdkit-cli</artifactId></dependency> -->"
                + "<dependency><groupId>org.psdkit</groupId><artifactId>psdkit-core</artifactId></dependency>"
                + "%s</dependencies></project>";
        assertEquals(List.of(), forbiddenSparkDependencies(String.format(pom, "")), "a comment is no dependency");
        for (String m : SPARK_FORBIDDEN) {
            String dep = "<dependency>\n  <groupId>org.psdkit</groupId>\n  <artifactId>" + m
                    + "</artifactId><type>test-jar</type><scope>test</scope>\n</dependency>";
            assertEquals(List.of(m), forbiddenSparkDependencies(String.format(pom, dep)), m);
        }
    }

    @Test
    void psdkitSparkDependsOnTheLibraryAlone() throws IOException {
        Path pom = Path.of(System.getProperty("basedir", "."), "..", "psdkit-spark", "pom.xml");
        assertTrue(Files.exists(pom), pom + " is missing");
        String text = Files.readString(pom);
        assertTrue(dependencies(text).contains("psdkit-core"), "psdkit-spark depends on psdkit-core");
        assertEquals(List.of(), forbiddenSparkDependencies(text), pom + " depends on a module above the library");
    }

    /** The psdkit modules among a pom's dependencies (artifactIds starting with {@code psdkit-}). */
    static List<String> psdkitDependencies(String pom) {
        return dependencies(pom).stream().filter(a -> a.startsWith("psdkit-")).toList();
    }

    @Test
    void thePsdkitDependencyRuleSeesEveryPsdkitModule() {
        String pom = "<project><dependencies><!-- <dependency><artifactId>psdkit-cli</artifactId></dependency> -->"
                + "<dependency><groupId>org.psdkit</groupId><artifactId>psdkit-core</artifactId></dependency>"
                + "<dependency><groupId>org.tribuo</groupId><artifactId>tribuo-core</artifactId></dependency>"
                + "<dependency><artifactId>psdkit-spark</artifactId><scope>test</scope></dependency>"
                + "</dependencies></project>";
        assertEquals(List.of("psdkit-core", "psdkit-spark"), psdkitDependencies(pom));
    }

    /**
     * psdkit-tribuo depends on psdkit-core alone among psdkit's modules, in any scope: a Tribuo user needs neither
     * the command line, the benchmarks, the experiments nor Spark.
     */
    @Test
    void psdkitTribuoDependsOnTheLibraryAlone() throws IOException {
        Path pom = Path.of(System.getProperty("basedir", "."), "..", "psdkit-tribuo", "pom.xml");
        assertTrue(Files.exists(pom), pom + " is missing");
        assertEquals(List.of("psdkit-core"), psdkitDependencies(Files.readString(pom)), pom.toString());
    }

    @Test
    void psdkitOnnxDependsOnTheLibraryAlone() throws IOException {
        Path pom = Path.of(System.getProperty("basedir", "."), "..", "psdkit-onnx", "pom.xml");
        assertTrue(Files.exists(pom), pom + " is missing");
        String text = Files.readString(pom);
        List<String> psdkit = dependencies(text).stream().filter(a -> a.startsWith("psdkit-")).toList();
        assertEquals(List.of("psdkit-core"), psdkit, pom + ": psdkit-onnx depends on psdkit-core alone");
    }

    /**
     * Removes comments and string literals, so that a javadoc link or a message naming a class is not a reference: a
     * comment becomes one space, a string or text block {@code ""}, a character literal {@code ''}. One pass over the
     * source (a regular expression with an alternation per character recursed once per character of a literal and
     * overflowed the stack on long string literals).
     */
    static String stripCommentsAndStrings(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                int end = s.indexOf('\n', i);
                i = end < 0 ? n : end; // the newline itself is kept
                out.append(' ');
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (s.startsWith("\"\"\"", i)) {
                i = literalEnd(s, i + 3, "\"\"\"");
                out.append("\"\"");
            } else if (c == '"') {
                i = literalEnd(s, i + 1, "\"");
                out.append("\"\"");
            } else if (c == '\'') {
                i = literalEnd(s, i + 1, "'");
                out.append("''");
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** The index after the {@code close} that ends the literal whose text starts at {@code from} (escapes skipped). */
    private static int literalEnd(String s, int from, String close) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == '\\') {
                i += 2;
            } else if (s.startsWith(close, i)) {
                return i + close.length();
            } else {
                i++;
            }
        }
        return s.length();
    }

    @Test
    void stripperRemovesCommentsAndLiteralsInOnePass() {
        assertEquals("a   b\nc \"\" d '' e \"\" f", stripCommentsAndStrings(
                "a /* org.psdkit.x */ b\nc \"org.psdkit.\\\"y\" d '\"' e \"\"\"\n org.psdkit.z \"\"\" f"));
        assertEquals("x  \ny", stripCommentsAndStrings("x // org.psdkit.q\ny"));
        String longLiteral = "String s = \"" + "org.psdkit.cli.x ".repeat(200_000) + "\";";
        assertEquals("String s = \"\";", stripCommentsAndStrings(longLiteral));
    }
}
