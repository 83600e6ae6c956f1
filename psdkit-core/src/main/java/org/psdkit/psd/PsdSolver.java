package org.psdkit.psd;

import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ConjugateLoss;
import org.psdkit.optim.Fista;
import org.psdkit.optim.FistaOptions;
import org.psdkit.optim.FistaResult;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.PsdDualTerm;

/**
 * Solves min_{A⪰0} L(f_A(x_1), …, f_A(x_n)) + λ₁ Tr A + (λ₂/2)‖A‖²_F for any loss given by the prox of its
 * conjugate, through the dual max_α −L*(α) − (1/(2λ₂))‖[−V Diag(α) Vᵀ − λ₁I]₊‖²_F (Thm 2 / Thm 8, eq. 10) with
 * FISTA (fixed step 1/L, L = λ_max(K̃∘K̃)/λ₂, adaptive restart). The primal point of every iterate is
 * A(α) = [−V Diag(α)Vᵀ − λ₁I]₊/λ₂ (eq. 11); the run stops when the relative duality gap between A(α) and α falls
 * below the tolerance, and returns the iterate with the smallest gap seen.
 *
 * <p>Progress: one event per FISTA iteration, task {@value #TASK}, measure {@code "gap"} = that relative duality
 * gap.
 */
public final class PsdSolver {
    /** Task name of the progress events. */
    public static final String TASK = "psd";

    private PsdSolver() {
    }

    /** Result of {@link #solve}: the model and the dual variable at which it was recovered. */
    public record Solution(PsdModel model, double[] alpha) {
    }

    public static Solution solve(EmpiricalFeatureMap map, ConjugateLoss loss, PsdOptions options,
                                 ProgressListener listener, String modelType) {
        int n = map.size();
        if (loss.size() != n) {
            throw new IllegalArgumentException("loss over " + loss.size() + " values for " + n + " points");
        }
        long start = System.nanoTime();
        try (PsdDualTerm h = new PsdDualTerm(map.trainingFeatures(), options.lambda1(), options.lambda2())) {
            double lip = h.lipschitz();
            double[] best = new double[n];
            double[] bestGap = {Double.POSITIVE_INFINITY};
            double[] bestPrimalDual = {Double.NaN, Double.NaN};
            double[] relGap = {Double.NaN};
            ProgressListener lis = ProgressListener.orNone(listener).relabelled(TASK, "gap", () -> relGap[0]);
            FistaOptions fo = new FistaOptions(options.maxIterations(), options.timeLimitSeconds(), lip, true);
            FistaResult res = Fista.minimize(h, loss.conjugateAsProx(), new double[n], fo,
                    (it, y, hv, grad) -> {
                        double conj = loss.conjugate(y);
                        if (!Double.isFinite(conj)) {
                            relGap[0] = Double.NaN;
                            return false;
                        }
                        double primal = loss.value(h.predictions()) + h.regulariser();
                        double dual = -conj - hv;
                        double gap = primal - dual;
                        if (gap < bestGap[0]) {
                            bestGap[0] = gap;
                            System.arraycopy(y, 0, best, 0, n);
                            bestPrimalDual[0] = primal;
                            bestPrimalDual[1] = dual;
                        }
                        relGap[0] = SolverDiagnostics.relative(gap, primal, dual);
                        return relGap[0] <= options.tolerance();
                    }, lis);
            String status = res.status().name();
            if (bestGap[0] == Double.POSITIVE_INFINITY) {
                // no iterate inside the domain of L*: fall back on the last one
                System.arraycopy(res.x(), 0, best, 0, n);
            }
            h.evaluate(best);
            double primal = loss.value(h.predictions()) + h.regulariser();
            double dual = -loss.conjugate(best) - h.value();
            Matrix r = map.coefficientFactor(h.primalFactor());
            double seconds = (System.nanoTime() - start) * 1e-9;
            SolverDiagnostics diag = new SolverDiagnostics(res.iterations(), primal - dual, primal, dual, seconds,
                    r.cols(), map.rank(), status, map.relativeThreshold(), map.expansionPoints());
            return new Solution(new PsdModel(modelType, map.kernel(), map.pointsView(), r, diag), best);
        }
    }
}
