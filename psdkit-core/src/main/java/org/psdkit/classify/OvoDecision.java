package org.psdkit.classify;

import java.util.List;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

/**
 * The decision functions of a one-vs-one SVM on k classes, stored as LIBSVM stores them (Chang &amp; Lin 2011, Sec.
 * 7; Hsu &amp; Lin 2002): the support vectors of all k(k−1)/2 pairs once, grouped by class ({@code classCounts}); for the
 * pair (i, j), i &lt; j in class order, f_ij(x) = Σ_{s in class i} coef[j−1][s] k(s, x) + Σ_{s in class j}
 * coef[i][s] k(s, x) + bias_ij, positive for class i. Pairs are ordered (0,1), (0,2), …, (0,k−1), (1,2), … The label
 * is the class with the most votes (f_ij &gt; 0 votes for i, otherwise for j), the first in class order on ties, as
 * LIBSVM's {@code svm_predict_values}; with probabilities (a sigmoid per pair, see {@link Platt}), the class of the
 * largest probability, the first on ties.
 *
 * <p>Output columns: {@code decision(a|b)} per pair (a, b the labels), then {@code p(label)} per class when the model
 * has probabilities.
 *
 * @param labels         the k class labels in class order
 * @param kernel         the kernel on scaled features
 * @param supportVectors the support vectors (scaled), class by class
 * @param classCounts    support vectors per class
 * @param coef           k−1 rows of one coefficient per support vector (LIBSVM's {@code sv_coef})
 * @param bias           one bias per pair (−ρ of LIBSVM)
 * @param probA          the sigmoids' A per pair, or {@code null} without probabilities
 * @param probB          the sigmoids' B per pair, or {@code null}
 */
public record OvoDecision(List<String> labels, Kernel kernel, Matrix supportVectors, int[] classCounts,
                          double[][] coef, double[] bias, double[] probA, double[] probB) implements Predictor {

    public OvoDecision {
        int k = labels.size();
        labels = List.copyOf(labels);
        if (k < 2 || classCounts.length != k || coef.length != k - 1 || bias.length != k * (k - 1) / 2) {
            throw new IllegalArgumentException("a one-vs-one SVM of " + k + " classes needs " + k + " class counts, "
                    + (k - 1) + " coefficient rows and " + k * (k - 1) / 2 + " biases; got " + classCounts.length
                    + ", " + coef.length + " and " + bias.length);
        }
        int l = 0;
        for (int c : classCounts) {
            if (c < 0) {
                throw new IllegalArgumentException("negative support-vector count " + c);
            }
            l += c;
        }
        if (supportVectors.rows() != l) {
            throw new IllegalArgumentException(supportVectors.rows() + " support vectors but class counts sum to " + l);
        }
        for (double[] row : coef) {
            if (row.length != l) {
                throw new IllegalArgumentException("coefficient rows must hold " + l + " values, got " + row.length);
            }
        }
        if ((probA == null) != (probB == null) || (probA != null && (probA.length != bias.length
                || probB.length != bias.length))) {
            throw new IllegalArgumentException("probA and probB must both hold one value per pair, or be absent");
        }
        classCounts = classCounts.clone();
        double[][] c = new double[coef.length][];
        for (int i = 0; i < c.length; i++) {
            c[i] = coef[i].clone();
        }
        coef = c;
        bias = bias.clone();
        probA = probA == null ? null : probA.clone();
        probB = probB == null ? null : probB.clone();
    }

    /** The number of classes k. */
    public int classes() {
        return labels.size();
    }

    /** Whether the model has probabilities. */
    public boolean probability() {
        return probA != null;
    }

    /** The number of pairs k(k−1)/2. */
    public int pairs() {
        return bias.length;
    }

    @Override
    public String type() {
        return "svm";
    }

    @Override
    public String[] outputColumns() {
        int k = classes();
        String[] out = new String[pairs() + (probability() ? k : 0)];
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                out[p++] = "decision(" + labels.get(i) + "|" + labels.get(j) + ")";
            }
        }
        if (probability()) {
            for (int i = 0; i < k; i++) {
                out[p++] = "p(" + labels.get(i) + ")";
            }
        }
        return out;
    }

    @Override
    public Matrix predict(Matrix xScaled) {
        int n = xScaled.rows();
        int k = classes();
        int np = pairs();
        Matrix out = Matrix.zeros(n, np + (probability() ? k : 0));
        int[] start = new int[k];
        for (int i = 1; i < k; i++) {
            start[i] = start[i - 1] + classCounts[i - 1];
        }
        double[] kr = new double[supportVectors.rows()];
        double[] dec = new double[np];
        if (supportVectors.rows() == 0) {
            for (int r = 0; r < n; r++) {
                row(out, r, kr, start, dec);
            }
            return out;
        }
        // K(x, SV) in row blocks (KernelProducts): no n × l matrix beyond one block
        KernelProducts.crossBlocks(kernel, xScaled, supportVectors, (r0, kv) -> {
            for (int i = 0; i < kv.rows(); i++) {
                for (int s = 0; s < kr.length; s++) {
                    kr[s] = kv.get(i, s);
                }
                row(out, r0 + i, kr, start, dec);
            }
        });
        return out;
    }

    /** Row r of the output from the point's kernel values with the support vectors. */
    private void row(Matrix out, int r, double[] kr, int[] start, double[] dec) {
        int k = classes();
        int np = pairs();
        decisions(kr, start, dec);
        for (int p = 0; p < np; p++) {
            out.set(r, p, dec[p]);
        }
        if (probability()) {
            double[] pr = probabilities(dec);
            for (int i = 0; i < k; i++) {
                out.set(r, np + i, pr[i]);
            }
        }
    }

    /** The pairs' decision values of one point from its kernel values with the support vectors. */
    private void decisions(double[] kr, int[] start, double[] dec) {
        int k = classes();
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                double sum = 0;
                double[] ci = coef[j - 1];
                for (int s = start[i], e = start[i] + classCounts[i]; s < e; s++) {
                    sum += ci[s] * kr[s];
                }
                double[] cj = coef[i];
                for (int s = start[j], e = start[j] + classCounts[j]; s < e; s++) {
                    sum += cj[s] * kr[s];
                }
                dec[p] = sum + bias[p];
                p++;
            }
        }
    }

    /** The class probabilities of one point's pair decision values (sigmoids, then {@link Platt#couple}). */
    public double[] probabilities(double[] dec) {
        int k = classes();
        double[][] r = new double[k][k];
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                double v = new Platt.Sigmoid(probA[p], probB[p]).probability(dec[p]);
                v = Math.min(Math.max(v, Platt.MIN_PROB), 1 - Platt.MIN_PROB);
                r[i][j] = v;
                r[j][i] = 1 - v;
                p++;
            }
        }
        return Platt.couple(r);
    }

    /** The winning class of one row of outputs: by probability when there are probabilities, else by votes. */
    public int winner(double[] outputs) {
        int k = classes();
        int np = pairs();
        if (probability()) {
            int best = 0;
            for (int i = 1; i < k; i++) {
                if (outputs[np + i] > outputs[np + best]) {
                    best = i;
                }
            }
            return best;
        }
        return voteWinner(outputs, k);
    }

    /**
     * LIBSVM's one-vs-one vote ({@code svm_predict_values}): the pairs' decision values in pair order (0,1), (0,2),
     * …, (1,2), … at the start of {@code decisions}; f_ij &gt; 0 votes for class i, otherwise for j; the class with the
     * most votes wins, the first in class order on ties.
     *
     * @param decisions at least k(k−1)/2 decision values
     * @param k         the number of classes
     * @return the winning class index
     */
    public static int voteWinner(double[] decisions, int k) {
        int[] vote = new int[k];
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                if (decisions[p++] > 0) {
                    vote[i]++;
                } else {
                    vote[j]++;
                }
            }
        }
        int best = 0;
        for (int i = 1; i < k; i++) {
            if (vote[i] > vote[best]) {
                best = i;
            }
        }
        return best;
    }
}
