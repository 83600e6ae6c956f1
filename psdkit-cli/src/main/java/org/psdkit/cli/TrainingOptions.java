package org.psdkit.cli;

import java.nio.file.Path;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import picocli.CommandLine.Option;

/**
 * Options every training-like command shares ({@code fit <model>}, {@code cv <model>}): the training file, which
 * column is the target, feature scaling, the seed and {@code --json}. Use it through {@link CommonFitOptions} (fit)
 * or as a {@code @Mixin} directly (cv and similar commands that write no model file).
 */
public class TrainingOptions {

    /** Minimum training rows: a single point determines no model (and no scaler spread). */
    public static final int MIN_TRAIN_ROWS = 2;

    @Option(names = "--train", required = true, paramLabel = "FILE",
            description = "Training data: CSV with a header row (the target is the last column unless --target), "
                    + "or LIBSVM sparse format (*.svm, *.libsvm).")
    public Path train;

    @Option(names = "--target", paramLabel = "NAME", description = "Name of the target column (default: last column); "
            + "krr and ridge take several, comma-separated (y1,y2,y3), fitted in one solve.")
    public String target;

    /** Whether the command fits a model of several targets ({@link #acceptTargets()}). */
    private boolean targetsAccepted;

    @Option(names = "--no-target", description = "Unsupervised: every column is a feature.")
    public boolean noTarget;

    @Option(names = "--weight", paramLabel = "COLUMN",
            description = "Per-row sample weights from this column, not a feature (each >= 0 and finite; "
                    + "scikit-learn's sample_weight), for the models that take them (krr, ridge, psd density, svm, svr; "
                    + "cv: krr, ridge, svr, svm, psd density, with weighted held-out scores).")
    public String weight;

    /** Whether the command fits a model that takes sample weights ({@link #acceptWeights()}). */
    private boolean weightsAccepted;

    @Option(names = "--scale", paramLabel = "none|minmax|zscore", defaultValue = "none",
            description = "Feature scaling fitted on the training data and stored with the model (default: ${DEFAULT-VALUE}).")
    public String scale;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
    public long seed;

    @Option(names = "--json", description = "Print exactly one JSON object on stdout (all other output goes to stderr).")
    public boolean json;

    /**
     * Loads the training set: numeric features, numeric target (or, if {@code classifier}, any tokens kept in
     * {@link Dataset#labels()}), or no target with {@code --no-target}. Throws {@link IllegalArgumentException}
     * (exit 2) on every bad-input class, including fewer than {@link #MIN_TRAIN_ROWS} rows.
     */
    public Dataset loadTrain(boolean classifier) {
        scaleKind(); // validate early, before reading a large file
        String w = weightColumn();
        Dataset ds = DataReaders.readTraining(train, new CsvReader.Options(target, noTarget, classifier, w));
        if (ds.targets() != null && !targetsAccepted) {
            throw new IllegalArgumentException("--target " + target + ": this model takes one target column (the "
                    + "models that take several: krr, ridge)");
        }
        if (ds.n() < MIN_TRAIN_ROWS) {
            throw new IllegalArgumentException(train + ": " + ds.n() + " data row; at least " + MIN_TRAIN_ROWS
                    + " are needed to fit a model");
        }
        if (ds.d() == 0) {
            throw new IllegalArgumentException(train + ": no feature columns");
        }
        return ds;
    }

    /**
     * Loads a training set without a target (densities, KDE; their samplers): every CSV column is a feature, with or
     * without {@code --no-target}; {@code --target} is refused, since such a model would silently drop a column
     * (a LIBSVM file's label is not a feature).
     */
    public Dataset loadUnsupervised(String model) {
        if (target != null) {
            throw new IllegalArgumentException("--target " + target + ": " + model + " takes no target; every "
                    + "column of --train is a feature (remove the column from the file to leave it out)");
        }
        // a LIBSVM file's leading label is part of its format, not a column: it stays out of the features
        noTarget = !DataReaders.isLibsvm(train);
        return loadTrain(false);
    }

    /** Loads a training set that must have a target (regression or classification). */
    public Dataset loadSupervised(boolean classifier) {
        if (noTarget) {
            throw new IllegalArgumentException("--no-target: this model needs a target column");
        }
        return loadTrain(classifier);
    }

    /**
     * Declares that the command's model takes sample weights: the data loaded next carries the {@code --weight}
     * column in {@link Dataset#weights()}. The one call a fit command needs to support {@code --weight}; without
     * it {@code --weight} is refused (exit 2).
     */
    public void acceptWeights() {
        weightsAccepted = true;
    }

    /**
     * Declares that the command's model takes several targets: {@code --target y1,y2,…} then reads them all into
     * {@link Dataset#targets()}; without it a list of targets is refused (exit 2).
     */
    public void acceptTargets() {
        targetsAccepted = true;
    }

    /** The {@code --weight} column to read, checked against the other options (null without {@code --weight}). */
    private String weightColumn() {
        if (weight == null) {
            return null;
        }
        if (!weightsAccepted) {
            throw new IllegalArgumentException("--weight " + weight + ": this model takes no sample weights "
                    + "(the models that do: krr, ridge, psd density, svm, svr)");
        }
        if (DataReaders.isLibsvm(train)) {
            throw new IllegalArgumentException("--weight " + weight + ": a LIBSVM file has no named columns; use a "
                    + "CSV file with a weight column");
        }
        if (weight.equals(target)) {
            throw new IllegalArgumentException("--weight " + weight + ": is also the --target column");
        }
        return weight;
    }

    /** The scaling kind chosen by {@code --scale}. */
    public Scaler.Kind scaleKind() {
        return Scaler.Kind.parse(scale);
    }

    /** The scaler chosen by {@code --scale}, fitted on the given (raw training) data. */
    public Scaler fitScaler(Dataset rawTrain) {
        return Scaler.fit(scaleKind(), rawTrain.x());
    }

    /** Prints the command's result: one JSON object on stdout with {@code --json}, else a summary on stderr. */
    public void report(java.util.Map<String, ?> result) {
        Reports.print(result, json);
    }
}
