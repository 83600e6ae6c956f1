package org.psdkit.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.psdkit.data.OutputFiles;

/**
 * The checks every command runs on an output option ({@code --out}, {@code --solution}) before it does any work:
 * the output's folder exists, and the output does not name one of the command's own inputs. Paths are compared by
 * the file a write would really replace ({@link OutputFiles#target}): {@code ./in.csv}, {@code dir/../in.csv}, a
 * symbolic link to the input, or a hard link to it all count as the input; an output that does not exist yet
 * compares by its real folder plus its name.
 *
 * <pre>{@code
 * OutputPaths.check("--out", out, "--model", model, "--data", data);
 * }</pre>
 */
public final class OutputPaths {
    private OutputPaths() {
    }

    /**
     * Fails with an {@link IllegalArgumentException} (exit 2) naming both options if {@code out} is the same file as
     * one of the inputs, or naming the folder if it does not exist.
     *
     * @param optionsAndInputs pairs of option name (String) and input path (Path, may be null: not given)
     */
    public static void check(String outOption, Path out, Object... optionsAndInputs) {
        if (optionsAndInputs.length % 2 != 0) {
            throw new IllegalArgumentException("optionsAndInputs must hold (option, path) pairs");
        }
        Path dir = out.toAbsolutePath().getParent();
        Path outTarget = target(out, outOption);
        Path targetDir = outTarget.getParent();
        if (dir == null || !Files.isDirectory(dir) || targetDir == null || !Files.isDirectory(targetDir)) {
            throw new IllegalArgumentException(outOption + " " + out + ": folder "
                    + (dir != null && Files.isDirectory(dir) ? targetDir : dir) + " does not exist");
        }
        if (Files.isDirectory(outTarget)) {
            throw new IllegalArgumentException(outOption + " " + out + " is a directory; give a file name");
        }
        for (int k = 0; k < optionsAndInputs.length; k += 2) {
            String option = (String) optionsAndInputs[k];
            Path in = (Path) optionsAndInputs[k + 1];
            if (in != null && same(outTarget, in)) {
                throw new IllegalArgumentException(outOption + " " + out + " is the same file as " + option + " "
                        + in + "; writing it would destroy the input (choose another " + outOption + ")");
            }
        }
    }

    /**
     * Creates the output folder {@code dir} of option {@code option} (a results folder such as {@code reproduce
     * density-1d --out}) if it is missing, or fails with an {@link IllegalArgumentException} (exit 2) naming the
     * option: the path is an existing file, or the folder cannot be created.
     */
    public static void folder(String option, Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException(option + " " + dir + " exists and is not a directory");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + dir + ": cannot create the folder ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
    }

    /** True if a write to the output (already resolved to its target) would replace the input file {@code in}. */
    private static boolean same(Path outTarget, Path in) {
        try {
            Path inTarget = OutputFiles.target(in);
            if (inTarget.equals(outTarget)) {
                return true;
            }
            // hard links: two names, one file
            return Files.exists(outTarget) && Files.exists(inTarget) && Files.isSameFile(outTarget, inTarget);
        } catch (IOException e) {
            return false; // an unreadable input is reported by its reader, with its own message
        }
    }

    private static Path target(Path out, String option) {
        try {
            return OutputFiles.target(out);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + out + ": " + e.getMessage());
        }
    }
}
