package org.psdkit.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.model.Model;

/**
 * Runs every example program ({@code *Example} classes of this module, found on disk so that a new example needs no
 * registration): each must finish, print something and return a model that predicts finite numbers.
 */
class ExamplesTest {
    @TempDir
    Path dir;

    @TestFactory
    Stream<DynamicTest> everyExampleRuns() throws Exception {
        Path classes = Path.of(KrrExample.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("org/psdkit/examples");
        List<String> names = new ArrayList<>();
        try (Stream<Path> s = Files.list(classes)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith("Example.class"))
                    .forEach(n -> names.add(n.substring(0, n.length() - ".class".length())));
        }
        assertFalse(names.isEmpty());
        return names.stream().sorted().map(n -> DynamicTest.dynamicTest(n, () -> {
            Class<?> c = Class.forName("org.psdkit.examples." + n);
            Method run = c.getMethod("run", Path.class, PrintStream.class);
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            Path sub = Files.createDirectory(dir.resolve(n));
            Object m;
            try (PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
                m = run.invoke(null, sub, ps);
            }
            assertTrue(buf.size() > 0, n + " printed nothing");
            Model model = (Model) m;
            double[] row = new double[model.featureNames().size()];
            for (double v : model.predict(row)) {
                assertTrue(Double.isFinite(v), n + " predicts " + v);
            }
            assertEquals(model.type(), org.psdkit.io.ModelIO.load(Files.list(sub)
                    .filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow()).type());
        }));
    }

    /**
     * Issue 29: a program for every family written against the trainer convention. Every trainer class of
     * psdkit-core ({@code *Trainer}, found on disk or in its jar) is named by at least one example's class file.
     */
    @Test
    void everyTrainerHasAnExample() throws Exception {
        Path examples = Path.of(KrrExample.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("org/psdkit/examples");
        StringBuilder used = new StringBuilder();
        try (Stream<Path> s = Files.list(examples)) {
            for (Path p : s.filter(f -> f.getFileName().toString().endsWith("Example.class")).toList()) {
                used.append(new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1));
            }
        }
        Path core = Path.of(org.psdkit.model.Trainer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> trainers = new ArrayList<>();
        if (Files.isDirectory(core)) {
            try (Stream<Path> s = Files.walk(core)) {
                s.map(p -> core.relativize(p).toString().replace(java.io.File.separatorChar, '/'))
                        .filter(n -> n.endsWith("Trainer.class") && !n.contains("$")).forEach(trainers::add);
            }
        } else {
            try (java.util.jar.JarFile jar = new java.util.jar.JarFile(core.toFile())) {
                jar.stream().map(java.util.jar.JarEntry::getName)
                        .filter(n -> n.endsWith("Trainer.class") && !n.contains("$")).forEach(trainers::add);
            }
        }
        trainers.remove("org/psdkit/model/Trainer.class"); // the interface
        assertTrue(trainers.size() >= 15, trainers.toString());
        List<String> missing = trainers.stream().map(n -> n.substring(0, n.length() - ".class".length()))
                .filter(n -> !used.toString().contains(n)).toList();
        assertEquals(List.of(), missing, "trainers without an example program");
    }
}
