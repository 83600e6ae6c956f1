package org.psdkit.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs the CLI in-process with stdout and stderr captured (tests must not print to stdout). The one runner of the
 * command-line tests: psdkit-cli's test-jar ({@code maven-jar-plugin test-jar}) carries it to examples'
 * {@code CliParityTest} and psdkit-spark-submit's {@code SparkCliTest}.
 *
 * <pre>{@code
 * CliRun r = CliRun.run("fit", "krr", "--train", file, "--out", out, "--json");
 * assertEquals(0, r.status(), r.err());
 * JsonNode j = r.json();
 * }</pre>
 */
public record CliRun(int status, String out, String err) {

    /** Runs {@code psdkit args...}; System.out/err are restored afterwards. */
    public static CliRun run(String... args) {
        return run(Main::execute, args);
    }

    /**
     * Runs {@code main} (a CLI entry point returning the exit status, such as {@code Main::execute}) on
     * {@code args}; System.out/err are restored afterwards.
     */
    public static synchronized CliRun run(java.util.function.ToIntFunction<String[]> main, String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int status;
        try (PrintStream po = new PrintStream(o, true, StandardCharsets.UTF_8);
             PrintStream pe = new PrintStream(e, true, StandardCharsets.UTF_8)) {
            System.setOut(po);
            System.setErr(pe);
            status = main.applyAsInt(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new CliRun(status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    /** Stdout parsed as exactly one JSON object. */
    public com.fasterxml.jackson.databind.JsonNode json() {
        try {
            com.fasterxml.jackson.databind.JsonNode n = org.psdkit.io.ModelFile.JSON.readTree(out);
            if (n == null || !n.isObject() || out.strip().lines().count() != 1) {
                throw new AssertionError("stdout is not exactly one JSON object: " + out);
            }
            return n;
        } catch (java.io.IOException ex) {
            throw new AssertionError("stdout is not JSON: " + out + "\nstderr: " + err, ex);
        }
    }
}
