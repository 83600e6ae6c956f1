package org.psdkit.engine;

import java.util.Locale;

/**
 * Where an engine reads its training rows: a location the engine's file systems resolve (a path, a directory of part
 * files or a glob; for Spark any Hadoop-compatible URI such as {@code hdfs://}, {@code s3a://} or {@code file:}),
 * kept as the caller wrote it, and its format. A CSV source has a header row of distinct column names; every value
 * is a finite number. Rows are numbered in the order the engine reads them (for one file, the file's order), which
 * is the order the anchors' row indices refer to.
 *
 * @param location the data's location, as given (never normalised: {@code hdfs://host/p} must stay as it is)
 * @param format   the format, or {@link Format#AUTO}
 */
public record DataSource(String location, Format format) {

    /** A source's format. */
    public enum Format {
        /** Parquet when the location ends in {@code .parquet} or is a directory of {@code *.parquet} files, else CSV. */
        AUTO,
        /** CSV with a header row. */
        CSV,
        /** Parquet; every column used must be numeric. */
        PARQUET;

        /** {@code auto}, {@code csv} or {@code parquet} (case-insensitive). */
        public static Format parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "auto" -> AUTO;
                case "csv" -> CSV;
                case "parquet" -> PARQUET;
                default -> throw new IllegalArgumentException("format: '" + s + "' is not auto, csv or parquet");
            };
        }
    }

    public DataSource {
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException("data source: the location must not be empty");
        }
        if (format == null) {
            format = Format.AUTO;
        }
    }

    /** The location with its format told by its name or contents ({@link Format#AUTO}). */
    public static DataSource of(String location) {
        return new DataSource(location, Format.AUTO);
    }

    @Override
    public String toString() {
        return location;
    }
}
