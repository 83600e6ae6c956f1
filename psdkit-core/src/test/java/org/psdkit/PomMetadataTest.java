package org.psdkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The poms have what Maven Central requires of a published artifact (name, description, url, licenses, scm,
 * developers; Sonatype's "Requirements" page), and every library module builds a sources jar and a Javadoc jar: the
 * parent declares both plugins with their executions in {@code <build><plugins>} (so every module inherits them),
 * and only the application modules switch them off. A new module is a library unless it says otherwise, so it
 * inherits the jars; it must then state its own name and description. {@code .ci/check-artifacts} builds the jars
 * of every library module and checks their contents.
 */
class PomMetadataTest {

    /** Modules that are applications (no sources or Javadoc jar): they set maven.javadoc.skip and maven.source.skip. */
    static final Set<String> APPLICATIONS = Set.of("psdkit-cli", "psdkit-bench", "psdkit-spark-submit", "examples",
            "examples/spark");
    /** Library modules that exist today; a module added later is a library too unless listed above. */
    static final Set<String> LIBRARIES = Set.of("psdkit-core", "psdkit-spark", "psdkit-experiments", "psdkit-onnx");

    static Path root() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    }

    /** The pom's text without comments. */
    static String pom(Path file) throws IOException {
        return Files.readString(file).replaceAll("(?s)<!--.*?-->", " ");
    }

    /** The text of the first {@code <tag>…</tag>} outside {@code <parent>} and {@code <dependencies>}, or null. */
    static String element(String pom, String tag) {
        String top = pom.replaceAll("(?s)<parent>.*?</parent>", " ").replaceAll("(?s)<dependencies>.*?</dependencies>",
                " ").replaceAll("(?s)<dependencyManagement>.*?</dependencyManagement>", " ")
                .replaceAll("(?s)<build>.*?</build>", " ").replaceAll("(?s)<properties>.*?</properties>", " ");
        Matcher m = Pattern.compile("(?s)<" + tag + "(?:\\s[^>]*)?>(.*?)</" + tag + ">").matcher(top);
        return m.find() ? m.group(1).trim() : null;
    }

    static List<String> modules(String parent) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(parent);
        while (m.find()) {
            out.add(m.group(1).trim());
        }
        return out;
    }

    static boolean skips(String pom, String property) {
        return Pattern.compile("<" + Pattern.quote(property) + ">\\s*true\\s*</" + Pattern.quote(property) + ">")
                .matcher(pom).find();
    }

    @Test
    void theParentHasWhatCentralRequires() throws IOException {
        String parent = pom(root().resolve("pom.xml"));
        for (String tag : List.of("name", "description", "url")) {
            String v = element(parent, tag);
            assertTrue(v != null && !v.isBlank(), "parent pom: <" + tag + "> is missing");
        }
        String licenses = element(parent, "licenses");
        assertTrue(licenses != null && licenses.contains("<name>Apache License, Version 2.0</name>")
                && licenses.contains("<url>"), "parent pom: the Apache-2.0 licence with its url");
        String scm = element(parent, "scm");
        assertTrue(scm != null && scm.contains("<connection>") && scm.contains("<developerConnection>")
                && scm.contains("<url>"), "parent pom: scm needs connection, developerConnection and url");
        String developers = element(parent, "developers");
        assertTrue(developers != null && developers.contains("<developer>") && developers.contains("<name>"),
                "parent pom: at least one developer with a name");
    }

    @Test
    void theParentAttachesSourcesAndJavadocToEveryModule() throws IOException {
        String parent = pom(root().resolve("pom.xml"));
        String build = parent.replaceAll("(?s)<pluginManagement>.*?</pluginManagement>", " ");
        Matcher plugins = Pattern.compile("(?s)<build>.*?<plugins>(.*?)</plugins>").matcher(build);
        assertTrue(plugins.find(), "parent pom: no <build><plugins>");
        String p = plugins.group(1);
        assertTrue(p.contains("<artifactId>maven-source-plugin</artifactId>") && p.contains("<goal>jar-no-fork</goal>"),
                "parent pom: maven-source-plugin jar-no-fork in <build><plugins>");
        assertTrue(p.contains("<artifactId>maven-javadoc-plugin</artifactId>") && p.contains("<goal>jar</goal>"),
                "parent pom: maven-javadoc-plugin jar in <build><plugins>");
        assertFalse(skips(parent, "maven.javadoc.skip") || skips(parent, "maven.source.skip"),
                "the parent must not switch the jars off for everyone");
    }

    @Test
    void everyLibraryModuleHasNameDescriptionOneVersionAndItsJars() throws IOException {
        String parent = pom(root().resolve("pom.xml"));
        Matcher v = Pattern.compile("<artifactId>psdkit-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(parent);
        assertTrue(v.find(), "parent version");
        String version = v.group(1);
        Set<String> libraries = new TreeSet<>();
        for (String module : modules(parent)) {
            String text = pom(root().resolve(module).resolve("pom.xml"));
            assertTrue(text.matches("(?s).*<parent>\\s*<groupId>org\\.psdkit</groupId>\\s*<artifactId>psdkit-parent"
                    + "</artifactId>\\s*<version>" + Pattern.quote(version) + "</version>.*"),
                    module + ": parent psdkit-parent " + version + " (one version for every module)");
            assertFalse(text.replaceAll("(?s)<parent>.*?</parent>", "").replaceAll("(?s)<dependencies>.*?"
                    + "</dependencies>", "").replaceAll("(?s)<plugin>.*?</plugin>", "")
                    .matches("(?s).*<artifactId>[^<]+</artifactId>\\s*<version>.*"),
                    module + ": the version comes from the parent");
            boolean app = skips(text, "maven.javadoc.skip") && skips(text, "maven.source.skip");
            assertEquals(APPLICATIONS.contains(module), app, module + (app ? " skips its sources and Javadoc jars "
                    + "but is not an application" : " must skip both jars (application) or neither (library)"));
            assertFalse(!app && (skips(text, "maven.javadoc.skip") || skips(text, "maven.source.skip")),
                    module + ": a library builds both jars");
            if (!app) {
                libraries.add(module);
                for (String tag : List.of("name", "description")) {
                    String value = element(text, tag);
                    assertTrue(value != null && !value.isBlank(), module + ": <" + tag + "> is missing");
                }
            }
        }
        assertTrue(libraries.containsAll(LIBRARIES), "library modules " + libraries + " lack some of " + LIBRARIES);
    }

    @Test
    void theChecksFindWhatTheyForbid() {
        assertTrue(skips("<properties><maven.javadoc.skip>true</maven.javadoc.skip></properties>",
                "maven.javadoc.skip"));
        assertFalse(skips("<properties><maven.javadoc.skip>false</maven.javadoc.skip></properties>",
                "maven.javadoc.skip"));
        String pom = "<project><parent><name>p</name></parent><name>m</name><!-- <description>x</description> -->"
                + "</project>";
        assertEquals("m", element(pom, "name"));
        assertEquals(null, element(pom.replaceAll("(?s)<!--.*?-->", " "), "description"));
        assertEquals(List.of("a", "b"), modules("<modules><module>a</module>\n<module> b </module></modules>"));
    }
}
