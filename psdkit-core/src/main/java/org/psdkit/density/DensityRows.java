package org.psdkit.density;

import org.psdkit.linalg.Matrix;

/**
 * The n data rows of a PSD density fit as the primal solver of {@link PsdDensityEstimator} sees them: only through
 * data-sized sums whose results are r- or r×r-sized (modelled on {@code regression.nystrom.KnmOperator}). Row i is the feature
 * vector v_i ∈ ℝʳ (Marteau-Ferey, Bach &amp; Rudi 2020 eq. 8, r the rank kept by the feature map); the solver's
 * iterate is a factor S (r×q) of A = S Sᵀ, and f_i = ‖Sᵀv_i‖² = v_iᵀ A v_i.
 *
 * <p>The protocol is stateful, one fit at a time: {@link #at} sets the <em>current point</em> S, {@link #direction}
 * the <em>current direction</em> D; {@link #line} evaluates the line S + tD for several t; {@link #step} moves the
 * current point to S + tD. An implementation may keep per-row vectors (Sᵀv_i, Dᵀv_i) between calls, addressed by row
 * block or partition (the local one does, in memory), or recompute them from S and D, which it must then keep
 * itself: the results must be the same up to rounding. Nothing here ever needs an n×n matrix or returns a
 * length-n vector.
 *
 * <p>Sums are over all n rows in double precision, whatever the storage of the features. Rows may carry sample
 * weights w_i &gt; 0 (the weighted log-likelihood Σ w_i log f(x_i) / Σ w_i, {@link #weightSum}); then every sum
 * below is the weighted one, Σ_i w_i (·)_i, and the minimum stays unweighted. Without weights w_i = 1.
 */
public interface DensityRows {

    /** The number n of data rows. */
    long rows();

    /**
     * Σ_i w_i, the total weight of the rows: the solver's objective is −(1/Σ w_i) Σ w_i log f_i + its regulariser.
     * Without weights n, exactly.
     */
    default double weightSum() {
        return rows();
    }

    /** The feature dimension r (rows of every factor S and direction D). */
    int rank();

    /** Where the features live, for the diagnostics ({@code double}, {@code float}, {@code recompute}, ...). */
    String storage();

    /**
     * Sets the current point to the factor {@code s} (r×q, any q ≥ 1; the caller does not modify it afterwards) and
     * returns its sums: Σ_i w_i log f_i, min_i f_i and the r×q matrix Σ_i w_i v_i (v_iᵀ S) / f_i (the data part of
     * the gradient of −Σ w_i log f_i with respect to S is −2 times it). When some f_i ≤ 0 (or is not finite) the sum of logs
     * is −∞ and the gradient may be null.
     */
    Sums at(Matrix s);

    /**
     * Sets the current direction to {@code d} (r×q, the shape of the current point's factor; the caller does not
     * modify it afterwards). Then, along the line, f_i(t) = ‖(S + tD)ᵀv_i‖² = f_i + 2t⟨Sᵀv_i, Dᵀv_i⟩ +
     * t²‖Dᵀv_i‖², a quadratic per row. Must follow {@link #at} or {@link #step}.
     */
    void direction(Matrix d);

    /**
     * For each trial step t_k of {@code steps}: Σ_i w_i log f_i(t_k), Σ_i w_i f_i'(t_k)/f_i(t_k) (the derivative
     * of the former) and min_i f_i(t_k), on the line of the current point and direction. A t_k at which some f_i(t_k) ≤ 0
     * gives −∞ for the sum of logs (and NaN for the slope). Cost: O(n) per step size when the per-row quadratics
     * are kept.
     */
    Line line(double[] steps);

    /**
     * Moves the current point to S + tD (D the current direction) and returns the same sums as
     * {@code at(S + t D)} would, up to rounding; the current direction is then undefined until the next
     * {@link #direction}.
     */
    Sums step(double t);

    /**
     * The r×r matrix Σ_i w_i v_i v_iᵀ / f_i at the current point (with β_i = w_i/(W f_i), W = {@link #weightSum},
     * the data block V Diag(β) Vᵀ of the dual, Marteau-Ferey, Bach &amp; Rudi 2020 Thm. 2, is this divided by W;
     * unweighted β_i = 1/(n f_i)). Symmetric.
     */
    Matrix weightedGram();

    /**
     * About {@code count} rows drawn at random with this {@code seed} (the same seed, the same rows), as a new
     * independent DensityRows for a warm start (with their own weights, if the rows are weighted); {@code null} when the implementation does not offer it or
     * {@code count} is not smaller than n.
     */
    default DensityRows sample(int count, long seed) {
        return null;
    }

    /**
     * Sums at a point.
     *
     * @param sumLog   Σ_i w_i log f_i (−∞ if some f_i ≤ 0)
     * @param minF     min_i f_i
     * @param gradient Σ_i w_i v_i (v_iᵀ S) / f_i, r×q (null when sumLog is −∞)
     */
    record Sums(double sumLog, double minF, Matrix gradient) {
    }

    /**
     * Values along the current line, one entry per trial step.
     *
     * @param sumLog Σ_i w_i log f_i(t_k)
     * @param slope  Σ_i w_i f_i'(t_k) / f_i(t_k)
     * @param minF   min_i f_i(t_k)
     */
    record Line(double[] sumLog, double[] slope, double[] minF) {

        /**
         * The line from the combined per-step sums, with the rule every implementation applies: a trial step at
         * which some f_i is not positive (or the sum is NaN) leaves the domain of log, so its Σ log f is −∞ and its
         * slope NaN. The arrays are changed in place.
         */
        public static Line ofSums(double[] sumLog, double[] slope, double[] minF) {
            for (int j = 0; j < sumLog.length; j++) {
                if (!(minF[j] > 0) || Double.isNaN(sumLog[j])) {
                    sumLog[j] = Double.NEGATIVE_INFINITY;
                    slope[j] = Double.NaN;
                }
            }
            return new Line(sumLog, slope, minF);
        }
    }
}
