/**
 * Data in and out: the table of points {@link org.psdkit.data.Dataset}, read from CSV
 * ({@link org.psdkit.data.CsvReader}) or LIBSVM files ({@link org.psdkit.data.LibsvmReader}) with messages that name
 * file, line and column, written by {@link org.psdkit.data.CsvWriter} and {@link org.psdkit.data.OutputFiles} (atomic
 * writes); the per-feature scaling every model stores ({@link org.psdkit.data.Scaler}) and seeded splits and folds
 * ({@link org.psdkit.data.Splits}). Typical use: {@code Dataset train = CsvReader.read(path,
 * CsvReader.Options.regression())}, then a trainer's {@code fit(train)}.
 */
package org.psdkit.data;
