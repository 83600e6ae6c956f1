package org.psdkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No method (or constructor, or initializer) of the interior-point packages {@code optim.sdp} and {@code sos} is
 * longer than {@link #MAX_LINES} lines, from its declaration to its closing brace (issue 29: one interior-point core,
 * its steps small enough to read; a loop written out three times had grown to 460 lines).
 */
class MethodSizeTest {

    /** The longest method allowed, in source lines. */
    static final int MAX_LINES = 150;

    static final Path MAIN = Path.of("src/main/java/org/psdkit");
    static final List<String> PACKAGES = List.of("optim/sdp", "sos");

    private static final Pattern TYPE = Pattern.compile("\\b(class|interface|enum|record)\\s+\\w+");

    /** A method body found in a source: where it starts and how many lines it spans. */
    record Body(String file, int line, int lines) {
    }

    @Test
    void interiorPointMethodsAreAtMostMaxLines() throws IOException {
        List<String> tooLong = new ArrayList<>();
        int files = 0;
        for (String pkg : PACKAGES) {
            try (Stream<Path> s = Files.list(MAIN.resolve(pkg))) {
                for (Path f : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    files++;
                    for (Body b : bodies(f.getFileName().toString(), Files.readString(f))) {
                        if (b.lines() > MAX_LINES) {
                            tooLong.add(pkg + "/" + b.file() + ":" + b.line() + " (" + b.lines() + " lines)");
                        }
                    }
                }
            }
        }
        assertTrue(files >= 10, "sources not found under " + MAIN.toAbsolutePath());
        assertTrue(tooLong.isEmpty(), "methods over " + MAX_LINES + " lines: " + tooLong);
    }

    /** The scanner finds methods, constructors and compact constructors, and ignores braces in comments and text. */
    @Test
    void scannerMeasuresMethods() {
        String src = """
                package x;
                /** { not code */
                public final class A {
                    record R(int a) {
                        R {
                            if (a < 0) {
                                throw new IllegalArgumentException("}");
                            }
                        }
                    }
                    // }
                    static int f(int a) {
                        Runnable r = () -> {
                            System.out.println('{');
                        };
                        return a;
                    }

                    A() {
                    }
                }
                """;
        List<Body> b = bodies("A.java", src);
        assertEquals(List.of(new Body("A.java", 5, 5), new Body("A.java", 12, 6), new Body("A.java", 19, 2)), b);
    }

    /**
     * The outermost code blocks directly inside a type declaration (methods, constructors, initializers), found by
     * matching braces in the source with comments, strings and character literals blanked out.
     */
    static List<Body> bodies(String file, String source) {
        String code = blank(source);
        List<Body> out = new ArrayList<>();
        Deque<Boolean> typeScopes = new ArrayDeque<>(); // per open brace: whether it opened a type body
        Deque<Integer> starts = new ArrayDeque<>();
        int line = 1;
        int statementStart = 0; // index after the last ; { or }
        int methodDepth = -1;
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '\n') {
                line++;
            } else if (c == '{') {
                String prefix = code.substring(statementStart, i);
                boolean inType = !typeScopes.isEmpty() && typeScopes.peek();
                boolean isType = TYPE.matcher(prefix).find() && !prefix.contains("(")
                        || TYPE.matcher(prefix).find() && prefix.trim().matches("(?s).*\\brecord\\s+\\w+\\s*\\(.*");
                typeScopes.push(isType && methodDepth < 0);
                if (!isType && inType && methodDepth < 0 && !prefix.contains("=") && !prefix.contains("->")) {
                    methodDepth = typeScopes.size();
                    starts.push(firstCodeLine(code, statementStart, line, i));
                }
                statementStart = i + 1;
            } else if (c == '}') {
                if (typeScopes.size() == methodDepth) {
                    int start = starts.pop();
                    out.add(new Body(file, start, line - start + 1));
                    methodDepth = -1;
                }
                typeScopes.pop();
                statementStart = i + 1;
            } else if (c == ';') {
                statementStart = i + 1;
            }
        }
        return out;
    }

    /** The line of the first non-blank character in code[from, to), given that {@code to} is on line {@code toLine}. */
    private static int firstCodeLine(String code, int from, int toLine, int to) {
        int k = from;
        while (k < to && Character.isWhitespace(code.charAt(k))) {
            k++;
        }
        int lines = 0;
        for (int j = k; j < to; j++) {
            if (code.charAt(j) == '\n') {
                lines++;
            }
        }
        return toLine - lines;
    }

    /** The source with comments, string, text-block and character literals replaced by spaces (newlines kept). */
    static String blank(String s) {
        StringBuilder b = new StringBuilder(s);
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int end;
            if (s.startsWith("//", i)) {
                end = s.indexOf('\n', i);
                end = end < 0 ? s.length() : end;
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2) + 2;
            } else if (s.startsWith("\"\"\"", i)) {
                end = s.indexOf("\"\"\"", i + 3) + 3;
            } else if (c == '"' || c == '\'') {
                end = i + 1;
                while (s.charAt(end) != c) {
                    end += s.charAt(end) == '\\' ? 2 : 1;
                }
                end++;
            } else {
                i++;
                continue;
            }
            for (int k = i; k < end; k++) {
                if (b.charAt(k) != '\n') {
                    b.setCharAt(k, ' ');
                }
            }
            i = end;
        }
        return b.toString();
    }
}
