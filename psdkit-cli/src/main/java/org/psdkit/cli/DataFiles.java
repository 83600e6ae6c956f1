package org.psdkit.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the shared benchmark data folder ({@code shared/data}, e.g. {@code ../shared/data} next to the repository)
 * for commands whose {@code --data} option was not given: first in the ancestors of the running jar's folder, then in
 * the ancestors of the working directory.
 */
public final class DataFiles {
    private DataFiles() {
    }

    /** The file {@code name} of the shared data folder; an error names the places tried and the option to use. */
    public static Path shared(String name, String option) {
        java.util.List<Path> tried = new java.util.ArrayList<>();
        try {
            Path jar = Path.of(DataFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // <repo>/psdkit-cli/target/psdkit.jar (or target/classes): look for shared/data in the repo's ancestors
            for (Path p = jar.getParent(); p != null; p = p.getParent()) {
                tried.add(p.resolve("shared").resolve("data").resolve(name));
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // fall through to the working-directory guesses
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            tried.add(p.resolve("shared").resolve("data").resolve(name));
        }
        for (Path p : tried) {
            if (Files.isRegularFile(p)) {
                return p.normalize();
            }
        }
        throw new IllegalArgumentException("cannot find " + name + " in a shared/data folder above the repository or the "
                + "working directory; give it with " + option);
    }
}
