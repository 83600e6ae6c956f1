package org.psdkit.model;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;

/**
 * What every fitted model carries besides its own numbers: its type, the raw feature columns and target, the feature
 * scaler fitted on the training data, the kernel string, the hyper-parameters of the fit and the shape of the
 * training data. This is the common part of every model file.
 *
 * @param type            model type ({@code krr})
 * @param featureNames    input columns, in the order the model uses them (no duplicates)
 * @param targetName      target column or {@code null}
 * @param scaler          the fitted scaler (identity for no scaling)
 * @param kernelSpec      kernel string or {@code null}
 * @param hyperParameters the options of the fit, in a stable order (written as {@code options})
 * @param training        the training data's shape and source
 */
public record ModelHeader(String type, List<String> featureNames, String targetName, Scaler scaler, String kernelSpec,
                          Map<String, Object> hyperParameters, Training training) {

    /** Number of rows, columns and the source of the training data ({@code training} in model files). */
    public record Training(int n, int d, String source) {
    }

    public ModelHeader {
        if (type == null || type.isBlank()) {
            throw new IllegalArgumentException("model type must not be empty");
        }
        featureNames = List.copyOf(featureNames);
        if (featureNames.isEmpty()) {
            throw new IllegalArgumentException("featureNames is empty");
        }
        Set<String> seen = new HashSet<>();
        for (String f : featureNames) {
            if (!seen.add(f)) {
                throw new IllegalArgumentException("duplicate feature name '" + f + "'");
            }
        }
        if (scaler == null) {
            scaler = Scaler.identity(featureNames.size());
        }
        if (scaler.dimension() != featureNames.size()) {
            throw new IllegalArgumentException("scaler has " + scaler.dimension() + " features but featureNames has "
                    + featureNames.size());
        }
        hyperParameters = Collections.unmodifiableMap(new LinkedHashMap<>(hyperParameters));
    }

    /** The header of a model fitted on {@code rawTrain} (names, target, n, d and source taken from it). */
    public static ModelHeader of(String type, Dataset rawTrain, Scaler scaler, String kernelSpec,
                                 Map<String, Object> hyperParameters) {
        return new ModelHeader(type, List.of(rawTrain.featureNames()), rawTrain.targetName(), scaler, kernelSpec,
                hyperParameters, new Training(rawTrain.n(), rawTrain.d(), rawTrain.source()));
    }

    /** The same header with more hyper-parameters appended (or replaced). */
    public ModelHeader withHyperParameters(Map<String, Object> more) {
        Map<String, Object> m = new LinkedHashMap<>(hyperParameters);
        m.putAll(more);
        return new ModelHeader(type, featureNames, targetName, scaler, kernelSpec, m, training);
    }

    /** The number of features. */
    public int d() {
        return featureNames.size();
    }

    /** Checks that raw inputs have {@link #d()} columns and maps them to the model's scaled space. */
    public org.psdkit.linalg.Matrix scale(org.psdkit.linalg.Matrix rawX) {
        if (rawX.cols() != featureNames.size()) {
            throw new IllegalArgumentException("the model takes " + featureNames.size() + " features, got "
                    + rawX.cols());
        }
        return scaler.apply(rawX);
    }
}
