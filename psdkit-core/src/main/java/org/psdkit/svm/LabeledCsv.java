package org.psdkit.svm;

import java.nio.file.Path;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * A classification table read from CSV: one header row, numeric feature columns, the class label in the last
 * column (any text). Rows with an empty field can be dropped (the reproduction of Colbert &amp; Peet drops the 16
 * breast-cancer rows with a missing value) or rejected. Parsing and its error messages are {@link CsvReader}'s.
 *
 * @param x        features (n×d)
 * @param labels   raw label tokens
 * @param features feature names
 * @param dropped  number of rows dropped for missing values
 * @param source   file name
 */
public record LabeledCsv(Matrix x, String[] labels, String[] features, int dropped, String source) {

    public static LabeledCsv read(Path file, boolean dropMissing) {
        CsvReader.Options opts = new CsvReader.Options(null, false, true);
        Dataset d;
        int dropped = 0;
        if (dropMissing) {
            CsvReader.Filtered f = CsvReader.readDroppingIncomplete(file, opts);
            d = f.data();
            dropped = f.dropped();
        } else {
            d = CsvReader.read(file, opts);
        }
        if (d.n() < 2) {
            throw new IllegalArgumentException(file + ": need at least two data rows, found " + d.n());
        }
        return new LabeledCsv(d.x(), d.labels(), d.featureNames(), dropped, file.getFileName().toString());
    }
}
