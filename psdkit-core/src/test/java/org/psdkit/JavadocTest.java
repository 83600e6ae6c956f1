package org.psdkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * The Javadoc build of psdkit-core: the javadoc tool over the module's exported packages with doclint on (every
 * group but {@code missing}: HTML, syntax, references, accessibility), warnings as errors. The HTML goes to
 * {@code target/apidocs}. A broken {@code {@link}}, a bare {@code &} or {@code <} in a comment, an unclosed tag or a
 * heading out of order fails this test with javadoc's message.
 */
class JavadocTest {

    @Test
    void exportedPackagesPassDoclint() {
        Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
        Path out = base.resolve("target").resolve("apidocs");
        ToolProvider javadoc = ToolProvider.findFirst("javadoc").orElseThrow(
                () -> new AssertionError("no javadoc tool in this JDK (module jdk.javadoc)"));
        List<String> args = List.of("-quiet", "-Xdoclint:all,-missing", "-Werror", "-Xmaxerrs", "10000",
                "-Xmaxwarns", "10000", "-encoding", "UTF-8", "-d", out.toString(),
                "--module-path", libraries(base),
                "--module-source-path", "org.psdkit.core=" + base.resolve("src").resolve("main").resolve("java"),
                "--module", "org.psdkit.core");
        StringWriter log = new StringWriter();
        PrintWriter w = new PrintWriter(log);
        int rc = javadoc.run(w, w, args.toArray(String[]::new));
        w.flush();
        assertEquals(0, rc, "javadoc (doclint) over org.psdkit.core, output in " + out + ":\n" + log);
        assertTrue(out.resolve("index.html").toFile().isFile(), "javadoc wrote no index.html to " + out);
    }

    /** The test run's libraries (module path and class path) without psdkit-core's own output folders. */
    private static String libraries(Path base) {
        Set<String> libs = new LinkedHashSet<>();
        for (String property : new String[] {"jdk.module.path", "java.class.path"}) {
            String value = System.getProperty(property, "");
            for (String entry : value.split(File.pathSeparator)) {
                if (!entry.isBlank() && !Path.of(entry).toAbsolutePath().startsWith(base.resolve("target"))) {
                    libs.add(entry);
                }
            }
        }
        return String.join(File.pathSeparator, new ArrayList<>(libs));
    }
}
