package org.psdkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Library code writes nothing to the console: no {@code System.out}, {@code System.err} or argument-less
 * {@code printStackTrace()} in the main sources of any library module (every module of the parent pom but the
 * applications of {@link PomMetadataTest#APPLICATIONS}). Progress goes through {@code optim.ProgressListener}, results
 * and warnings are returned (reports, diagnostics); printing them is the command line's job. The exceptions are
 * listed in {@link #ALLOWED} with their reason.
 */
class NoConsoleOutputTest {

    /** Source files (relative to the repository) allowed to name a standard stream, and why. */
    static final Map<String, String> ALLOWED = Map.of(
            "psdkit-core/src/main/java/org/psdkit/data/OutputFiles.java",
            "writes the user's output to the standard stream the user named as the output file (--out /dev/stdout), "
                    + "flushing System.out first so that the order of the bytes is kept; it prints nothing itself");

    private static final Pattern CONSOLE = Pattern.compile("\\bSystem\\s*\\.\\s*(out|err)\\b|\\.printStackTrace\\(\\s*\\)");

    /** The console references of a source text, comments and string literals left out. */
    static List<String> consoleUses(String source) {
        List<String> out = new ArrayList<>();
        Matcher m = CONSOLE.matcher(code(source));
        while (m.find()) {
            out.add(m.group().replaceAll("\\s+", ""));
        }
        return out;
    }

    /**
     * The source with comments, string and character literals (text blocks too) blanked, by one left-to-right scan
     * (a regular expression over long literals overflows the stack).
     */
    static String code(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '/') {
                while (i < n && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                out.append(' ');
            } else if (s.startsWith("\"\"\"", i)) {
                int end = s.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && s.charAt(i) != c) {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append("\"\"");
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    @Test
    void theRuleFindsWhatItForbids() {
        assertEquals(List.of("System.out"), consoleUses("class A { void f() { System.out.println(1); } }"));
        assertEquals(List.of("System.err"), consoleUses("class A { void f() { System . err.print(1); } }"));
        assertEquals(List.of(".printStackTrace()"), consoleUses("class A { void f(Exception e) { e.printStackTrace(); } }"));
        assertEquals(List.of(), consoleUses("class A { /** System.out */ String s = \"System.err \\\" System.out\"; "
                + "char q = '\"'; // System.out\n void f(Exception e, java.io.PrintWriter w) { e.printStackTrace(w); } }"));
        assertEquals(List.of("System.out"), consoleUses("class A { String t = \"\"\"\n System.err \"\"\"; "
                + "void f() { System.out.flush(); } }"));
    }

    @Test
    void noLibrarySourceWritesToTheConsole() throws IOException {
        Path root = PomMetadataTest.root();
        String parent = PomMetadataTest.pom(root.resolve("pom.xml"));
        Map<String, List<String>> found = new TreeMap<>();
        int files = 0;
        for (String module : PomMetadataTest.modules(parent)) {
            if (PomMetadataTest.APPLICATIONS.contains(module)) {
                continue;
            }
            Path main = root.resolve(module).resolve("src").resolve("main").resolve("java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            List<Path> sources;
            try (Stream<Path> s = Files.walk(main)) {
                sources = s.filter(p -> p.toString().endsWith(".java")).toList();
            }
            for (Path p : sources) {
                files++;
                String rel = root.relativize(p).toString().replace('\\', '/');
                List<String> uses = consoleUses(Files.readString(p));
                if (!uses.isEmpty() && !ALLOWED.containsKey(rel)) {
                    found.put(rel, uses);
                }
            }
        }
        assertTrue(files > 200, "read only " + files + " library sources from " + root);
        assertEquals(Map.of(), found, "library code writes to the console (return it, report it through a "
                + "ProgressListener, or let the command line print it)");
    }

    @Test
    void everyAllowedFileStillNeedsIt() throws IOException {
        for (String rel : ALLOWED.keySet()) {
            Path p = PomMetadataTest.root().resolve(rel);
            assertTrue(Files.exists(p), rel + " no longer exists: remove it from ALLOWED");
            assertTrue(!consoleUses(Files.readString(p)).isEmpty(), rel + " no longer names a standard stream: "
                    + "remove it from ALLOWED");
        }
    }
}
