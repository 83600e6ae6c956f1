package org.psdkit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.OutputFiles;

/**
 * The files a benchmark generates in a folder the user names ({@code bench krr-scale --dir}, {@code bench psd-scale
 * --dir}, {@code bench svm --data-dir}). Each is written atomically ({@link OutputFiles}: a temporary sibling renamed
 * over the target), so an interrupted run leaves no half-written file, and is then recorded with its size and
 * modification time in the folder's {@link #MANIFEST}. A later run may replace a file recorded there and unchanged
 * since (re-runs with the same folder keep working); any other existing file of the same name is refused before the
 * benchmark starts, so that a folder holding the user's own data is never overwritten.
 *
 * <pre>{@code
 * GeneratedFiles.requireReplaceable(dir, List.of("krr-scale-train-20000.csv"), "--dir");
 * GeneratedFiles.write(dir, "krr-scale-train-20000.csv", out -> ...);
 * }</pre>
 */
public final class GeneratedFiles {

    /** The record of generated files, one line per file: size, modification time (ms), name, tab-separated. */
    public static final String MANIFEST = ".psdkit-bench-files";

    private GeneratedFiles() {
    }

    /**
     * Refuses (IllegalArgumentException naming the file) the first of {@code names} that exists in {@code dir} but is
     * not a file a benchmark wrote there and left unchanged.
     *
     * @param option the option that named the folder, for the message ({@code --dir})
     */
    public static void requireReplaceable(Path dir, Collection<String> names, String option) {
        if (names.isEmpty()) {
            return;
        }
        Map<String, String> written = read(dir);
        for (String name : names) {
            Path p = dir.resolve(name);
            if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            String now = Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) ? stamp(p) : null;
            if (now == null || !now.equals(written.get(name))) {
                throw new IllegalArgumentException(option + " " + dir + ": " + p + " exists and was not written "
                        + "there by a psdkit benchmark (or was changed since); the benchmark would overwrite it with "
                        + "generated data: move it away or choose another " + option);
            }
        }
    }

    /**
     * Writes {@code dir/name} atomically from {@code content} and records it in the folder's {@link #MANIFEST} (also
     * written atomically).
     */
    public static Path write(Path dir, String name, OutputFiles.Content content) throws IOException {
        Path p = dir.resolve(name);
        OutputFiles.writeAtomically(p, content);
        Map<String, String> written = read(dir);
        written.put(name, stamp(p));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> e : written.entrySet()) {
            sb.append(e.getValue()).append('\t').append(e.getKey()).append('\n');
        }
        OutputFiles.writeAtomically(dir.resolve(MANIFEST), sb.toString().getBytes(StandardCharsets.UTF_8));
        return p;
    }

    /** "size \t mtime" of a regular file, or null if it cannot be read. */
    private static String stamp(Path p) {
        try {
            return Files.size(p) + "\t" + Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis();
        } catch (IOException e) {
            return null;
        }
    }

    /** The manifest as name → stamp; empty when there is none (malformed lines are skipped). */
    private static Map<String, String> read(Path dir) {
        Map<String, String> m = new LinkedHashMap<>();
        Path f = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(f)) {
            return m;
        }
        try {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                String[] parts = line.split("\t", 3);
                if (parts.length == 3 && !parts[2].isEmpty()) {
                    m.put(parts[2], parts[0] + "\t" + parts[1]);
                }
            }
        } catch (IOException e) {
            // unreadable: nothing counts as generated, so nothing is overwritten
            m.clear();
        }
        return m;
    }
}
