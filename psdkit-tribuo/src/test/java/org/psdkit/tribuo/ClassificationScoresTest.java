package org.psdkit.tribuo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.Evaluation;
import org.psdkit.model.HyperParameters;

/**
 * The scores a psdkit classifier's output columns give in Tribuo: a binary decision value as ±margin, one-vs-one
 * pair decisions as votes (LIBSVM's rule), {@code p(<label>)} columns as probabilities.
 */
class ClassificationScoresTest {

    /** A classifier that only names its labels and output columns (its outputs are given to the test directly). */
    record Columns(List<String> labels, List<String> outputColumns) implements Classifier {
        @Override
        public String type() {
            return "svm";
        }

        @Override
        public List<String> featureNames() {
            return List.of("x1");
        }

        @Override
        public String targetName() {
            return "label";
        }

        @Override
        public Matrix predict(Matrix rawX) {
            throw new UnsupportedOperationException();
        }

        @Override
        public HyperParameters hyperParameters() {
            return HyperParameters.NONE;
        }

        @Override
        public Diagnostics diagnostics() {
            return Diagnostics.recorded(Map.of());
        }

        @Override
        public Evaluation evaluate(Dataset raw) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String[] labelsOf(Matrix outputs) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aBinaryDecisionIsAMargin() {
        Columns c = new Columns(List.of("neg", "pos"), List.of("decision"));
        double[][] s = PsdkitClassificationModel.scores(c, Matrix.of(new double[][] {{0.75}, {-2}}));
        assertArrayEquals(new double[] {-0.75, 0.75}, s[0]);
        assertArrayEquals(new double[] {2, -2}, s[1]);
        assertFalse(PsdkitClassificationModel.probabilityColumns(c));
    }

    @Test
    void pairDecisionsAreVotes() {
        Columns c = new Columns(List.of("a", "b", "c"),
                List.of("decision(a|b)", "decision(a|c)", "decision(b|c)"));
        // a beats b, c beats a, b beats c: one vote each; then a beats both
        double[][] s = PsdkitClassificationModel.scores(c, Matrix.of(new double[][] {{1, -1, 1}, {0.5, 2, -3}}));
        assertArrayEquals(new double[] {1, 1, 1}, s[0]);
        assertArrayEquals(new double[] {2, 0, 1}, s[1]);
        assertFalse(PsdkitClassificationModel.probabilityColumns(c));
    }

    @Test
    void probabilityColumnsAreProbabilities() {
        Columns c = new Columns(List.of("a", "b", "c"),
                List.of("decision(a|b)", "decision(a|c)", "decision(b|c)", "p(a)", "p(b)", "p(c)"));
        double[][] s = PsdkitClassificationModel.scores(c,
                Matrix.of(new double[][] {{1, -1, 1, 0.2, 0.3, 0.5}}));
        assertArrayEquals(new double[] {0.2, 0.3, 0.5}, s[0]);
        assertTrue(PsdkitClassificationModel.probabilityColumns(c));
        Columns binary = new Columns(List.of("x", "y"), List.of("decision(x|y)", "p(x)", "p(y)"));
        assertArrayEquals(new double[] {0.9, 0.1}, PsdkitClassificationModel.scores(binary,
                Matrix.of(new double[][] {{2, 0.9, 0.1}}))[0]);
    }

    @Test
    void unknownColumnsAreRefusedNamingThem() {
        Columns c = new Columns(List.of("a", "b", "c"), List.of("margin"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PsdkitClassificationModel.scores(c, Matrix.of(new double[][] {{1}})));
        assertTrue(e.getMessage().contains("[margin]"), e.getMessage());
    }
}
