package org.psdkit.cli;

import java.nio.file.Path;
import java.util.Locale;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.LibsvmReader;

/**
 * Reads data files for the CLI: CSV with a header, or the LIBSVM sparse format when the file name ends in
 * {@code .svm} or {@code .libsvm} (features named {@code x1..xd}, target {@code label}).
 */
public final class DataReaders {
    private DataReaders() {
    }

    /** True for the LIBSVM file-name endings. */
    public static boolean isLibsvm(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        return n.endsWith(".svm") || n.endsWith(".libsvm");
    }

    /** Training data (see {@link CsvReader#read(Path, CsvReader.Options)}). */
    public static Dataset readTraining(Path file, CsvReader.Options opts) {
        if (!isLibsvm(file)) {
            return CsvReader.read(file, opts);
        }
        if (opts.noTarget() || opts.targetName() != null) {
            throw new IllegalArgumentException(file + ": LIBSVM files always carry the target in front; "
                    + "--target and --no-target do not apply");
        }
        return LibsvmReader.read(file, 0);
    }

    /** Data for a fitted model: its feature columns (by name) and, if required, its target. */
    public static Dataset readForModel(Path file, LoadedModel m, boolean requireTarget) {
        if (!isLibsvm(file)) {
            return CsvReader.readColumns(file, m.featureNames(), m.targetName(), requireTarget, m.classifier());
        }
        String[] names = m.featureNames();
        for (int j = 0; j < names.length; j++) {
            if (!names[j].equals("x" + (j + 1))) {
                throw new IllegalArgumentException(file + ": a LIBSVM file has unnamed features x1..xd, but the model "
                        + "was trained on named columns (" + String.join(",", names) + ")");
            }
        }
        Dataset d = LibsvmReader.read(file, names.length);
        if (d.d() != names.length) {
            throw new IllegalArgumentException(file + ": feature index " + d.d() + " exceeds the model's " + names.length
                    + " features");
        }
        return d;
    }
}
