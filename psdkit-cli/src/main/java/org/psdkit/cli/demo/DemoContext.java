package org.psdkit.cli.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;

/** What a {@link DemoPart} gets: output folder, seed, narrative output and access to data inside the jar. */
public final class DemoContext {
    private final Path outDir;
    private final long seed;
    private final boolean json;

    DemoContext(Path outDir, long seed, boolean json) {
        this.outDir = outDir;
        this.seed = seed;
        this.json = json;
    }

    public Path outDir() {
        return outDir;
    }

    public long seed() {
        return seed;
    }

    /** One line of narrative on stderr (suppressed with {@code --json}). */
    public void say(String line) {
        if (!json) {
            System.err.println(line);
        }
    }

    /** Reads a CSV shipped under {@code org/psdkit/cli/data/} in the jar. */
    public Dataset resourceCsv(String name, CsvReader.Options opts) throws IOException {
        try (InputStream in = DemoContext.class.getResourceAsStream("/org/psdkit/cli/data/" + name)) {
            if (in == null) {
                throw new IllegalStateException("demo data " + name + " is missing from the jar");
            }
            return CsvReader.read(new InputStreamReader(in, StandardCharsets.UTF_8), "jar:" + name, opts);
        }
    }

    /** Saves a figure as {@code demo-<name>.png} in the output folder and returns the path. */
    public Path png(Figure fig, String name) throws IOException {
        Path p = outDir.resolve("demo-" + name + ".png");
        fig.save(p);
        return p;
    }
}
