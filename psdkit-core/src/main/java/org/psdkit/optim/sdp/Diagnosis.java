package org.psdkit.optim.sdp;

import java.util.ArrayList;
import java.util.List;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * What a double-precision run that did not converge says about its problem: the divergence of the iterates
 * (status {@link SdpStatus#ILL_POSED}, {@link IpmSettings#illPosedRatio()}), a verified lower bound on (P)'s optimal
 * value from the dual iterates ({@link SdpResult#lowerBound()}), and a warning when the data's magnitudes are beyond
 * what double precision carries through an iteration ({@link #scaleDiagnosis}).
 *
 * <p>A run that did not converge is reported ill-posed when an iterate grew 1e6 times beyond the data and its
 * objective: ‖Σ y_i A_i‖_F ≥ 1e6·(1 + ‖C‖_F + ‖R_d‖_F + |bᵀy|), or ‖X‖_F ≥ 1e6·(1 + ‖b‖ + ‖r_p‖ + |⟨C,X⟩|). Then
 * W = −Σ y_i A_i/‖Σ y_i A_i‖ is a unit-norm matrix, PSD up to 1e-6 (W = (Z − C + R_d)/‖·‖), with
 * |bᵀy|/‖Σ y_i A_i‖ ≤ 1e-6, so every feasible X has ⟨W, X⟩ ≈ 0 and lies within 1e-6 of a proper face of the cone:
 * (P) has (to that accuracy) no strictly feasible point, and (D)'s optimum is approached only as y grows
 * (symmetrically for X). Every other SDPLIB run ends optimal, near-optimal or infeasible, where the test is not made.
 */
final class Diagnosis {

    /** out += scale · Σ_i y_i A_i in block storage. */
    interface Adjoint {
        void add(double[] y, double scale, double[][] out);
    }

    private final SdpProblem p;
    private final IpmSettings s;
    private final double[][] cDense;
    private final int[] n;
    private final boolean[] lp;
    private final int m;
    private final int nb;
    private final Adjoint adjoint;
    /** The largest divergence ratios seen ({@link IpmSettings#illPosedRatio()}). */
    private double divergenceY;
    private double divergenceX;
    /** Dual iterates with dual infeasibility below tolerance and increasing bᵀy: candidates for a lower bound. */
    private final List<double[]> boundCandidates = new ArrayList<>();
    private double boundCandidateObj = Double.NEGATIVE_INFINITY;

    Diagnosis(SdpProblem p, IpmSettings s, double[][] cDense, int[] n, boolean[] lp, Adjoint adjoint) {
        this.p = p;
        this.s = s;
        this.cDense = cDense;
        this.n = n;
        this.lp = lp;
        this.m = p.constraints();
        this.nb = n.length;
        this.adjoint = adjoint;
    }

    /**
     * Records iterate (X, Z, y) with dual residual R_d, primal residual r_p and objectives: its divergence ratios,
     * and y as a bound candidate when it is dual feasible to tolerance and improves bᵀy.
     */
    void track(double[][] x, double[][] z, double[] y, double[][] rd, double[] rp, double pobj, double dobj,
               boolean dualFeasible, double normB, double normC) {
        double normRd = SdpSolver.norm(rd);
        // ‖Σ y_i A_i‖ = ‖C − Z − R_d‖, summed in place (no block-sized copy per iteration)
        double aty2 = 0;
        for (int b = 0; b < nb; b++) {
            for (int k = 0; k < cDense[b].length; k++) {
                double v = cDense[b][k] - (z[b][k] + rd[b][k]);
                aty2 += v * v;
            }
        }
        divergenceY = Math.max(divergenceY, Math.sqrt(aty2) / (1 + normC + normRd + Math.abs(dobj)));
        divergenceX = Math.max(divergenceX, SdpSolver.norm(x) / (1 + normB + SdpSolver.norm(rp) + Math.abs(pobj)));
        if (dualFeasible && dobj > boundCandidateObj) {
            boundCandidateObj = dobj;
            boundCandidates.add(y.clone());
        }
    }

    private double[][] zeros() {
        double[][] out = new double[nb][];
        for (int b = 0; b < nb; b++) {
            out[b] = new double[lp[b] ? n[b] : n[b] * n[b]];
        }
        return out;
    }

    /**
     * Whether the iterates so far (the double run's ratios and the first restart's point) already mark the problem
     * ill-posed ({@link IpmSettings#illPosedRatio()}): then the double-double restart does not run a second time from the
     * standard start; the answer is then reported {@link SdpStatus#ILL_POSED} with the lower bound verified from the
     * iterates. On SDPLIB's hinf15 the second run took 100 iterations, 55% of the solve, and
     * was "not better", on hinf12 100 iterations for a point that misses the tolerances too (score 842 → 150).
     */
    boolean illPosed(SdpResult dd) {
        double[] ratios = divergence(dd);
        return Math.max(divergenceY, ratios[0]) >= s.illPosedRatio() || Math.max(divergenceX, ratios[1]) >= s.illPosedRatio();
    }

    /**
     * The divergence ratios of a result's point: ‖Σ y_i A_i‖ against the data, dual residual and objective, and
     * ‖X‖ against b, primal residual and objective ({@link IpmSettings#illPosedRatio()}).
     */
    double[] divergence(SdpResult r) {
        double[][] aty = zeros();
        adjoint.add(r.y(), 1.0, aty);
        double normC = SdpSolver.norm(cDense);
        double rdNorm = r.dualInfeasibility() * (1 + normC);
        double ry = SdpSolver.norm(aty) / (1 + normC + rdNorm + Math.abs(r.dualObjective()));
        double normX = 0;
        for (Matrix xb : r.x()) {
            normX += xb.normF() * xb.normF();
        }
        double normB = SdpSolver.norm(p.b());
        double rx = Math.sqrt(normX) / (1 + normB + r.primalInfeasibility() * (1 + normB)
                + Math.abs(r.primalObjective()));
        return new double[] {ry, rx};
    }

    /**
     * For a run that did not end optimal or infeasible: a verified lower bound on (P)'s optimal value from the
     * dual iterates, and the {@link SdpStatus#ILL_POSED} status when the iterates diverged (see
     * {@link IpmSettings#illPosedRatio()}). Other results are returned unchanged.
     */
    SdpResult diagnose(SdpResult r) {
        double divergenceY = this.divergenceY;
        double divergenceX = this.divergenceX;
        SdpStatus st = r.status();
        if (st == SdpStatus.OPTIMAL || st == SdpStatus.NEAR_OPTIMAL || st == SdpStatus.PRIMAL_INFEASIBLE
                || st == SdpStatus.DUAL_INFEASIBLE) {
            return r;
        }
        List<double[]> all = new ArrayList<>(boundCandidates);
        all.add(r.y()); // the returned y may come from the double-double phase
        double bound = Double.NaN;
        int checks = st == SdpStatus.TIME_LIMIT ? s.boundChecks() : 0; // no eigenvalue work past the time limit
        for (int k = all.size() - 1; k >= 0 && checks < s.boundChecks(); k--) {
            double[] yk = all.get(k);
            double obj = Linalg.dot(p.b(), yk);
            if (Double.isFinite(bound) && obj <= bound) {
                continue;
            }
            checks++;
            if (verifiedDualFeasible(yk)) {
                bound = Double.isFinite(bound) ? Math.max(bound, obj) : obj;
            }
        }
        // the returned point's own ratios, in case it comes from the double-double phase
        double[] ratios = divergence(r);
        divergenceY = Math.max(divergenceY, ratios[0]);
        divergenceX = Math.max(divergenceX, ratios[1]);
        String msg = r.message();
        if (divergenceY >= s.illPosedRatio() || divergenceX >= s.illPosedRatio()) {
            st = SdpStatus.ILL_POSED;
            if (divergenceY >= s.illPosedRatio()) {
                msg += String.format(java.util.Locale.ROOT, "; ill-posed: the dual iterate diverged "
                        + "(||sum y_i A_i|| up to %.1e times the data and objective), so (P) has no strictly "
                        + "feasible point to that accuracy and the optimum of (D) is not attained", divergenceY);
            }
            if (divergenceX >= s.illPosedRatio()) {
                msg += String.format(java.util.Locale.ROOT, "; ill-posed: the primal iterate diverged "
                        + "(||X|| up to %.1e times the data and objective), so (D) has no strictly feasible point "
                        + "to that accuracy and the optimum of (P) is not attained", divergenceX);
            }
        }
        if (Double.isFinite(bound)) {
            msg += "; verified lower bound on the optimal value of (P): " + bound;
        }
        return r.with(st, msg, bound);
    }

    /**
     * Whether C − Σ y_i A_i, formed in double from the data, is positive semidefinite with a margin that covers
     * the rounding errors of forming it and of the eigenvalue computation: λ_min ≥ (m + 2 n_max)·u·(‖C‖_F +
     * Σ_i |y_i| ‖A_i‖_F), the a-priori bound γ_k ≈ k·u for sums of k products (Higham, Accuracy and Stability of
     * Numerical Algorithms, §3.1) plus the backward error ~n·u·‖Z‖ of a symmetric eigensolver, with u = 2^-53.
     * Then bᵀy is a lower bound on (P)'s optimal value (weak duality), up to the rounding of bᵀy itself.
     */
    static boolean verifiedDualFeasible(SdpProblem problem, double[] yv) {
        return SdpSolver.diagnosis(problem).verifiedDualFeasible(yv);
    }

    boolean verifiedDualFeasible(double[] yv) {
        double[][] zz = SdpSolver.copy(cDense);
        adjoint.add(yv, -1.0, zz);
        double scale = SdpSolver.norm(cDense);
        double[] normA = new double[m];
        int maxBlock = 1;
        for (int b = 0; b < nb; b++) {
            maxBlock = Math.max(maxBlock, n[b]);
            for (SdpProblem.Term t : p.terms(b)) {
                double f = t.coefficient().normF();
                normA[t.constraint()] += f * f;
            }
        }
        for (int i = 0; i < m; i++) {
            scale += Math.abs(yv[i]) * Math.sqrt(normA[i]);
        }
        double margin = (m + 2.0 * maxBlock) * 0x1p-53 * scale;
        for (int b = 0; b < nb; b++) {
            double lmin;
            if (lp[b]) {
                lmin = Double.POSITIVE_INFINITY;
                for (double v : zz[b]) {
                    lmin = Math.min(lmin, v);
                }
            } else {
                SdpSolver.symmetrize(n[b], zz[b]);
                lmin = Linalg.eigvalsh(Matrix.wrap(n[b], n[b], zz[b]))[0];
            }
            if (!(lmin >= margin)) {
                return false;
            }
        }
        return true;
    }

    /** Data magnitudes beyond which the products of an interior-point iteration (X A_i Z⁻¹, ‖·‖²) overflow. */
    static final double EXTREME_MAGNITUDE = 1e100;

    /**
     * The data's scale in the message where it explains the outcome: a run whose objectives or residuals are not
     * finite gets the largest |b_i| and the range of the nonzero entries of C and the A_i, and any run on data with
     * magnitudes beyond 1e±100 gets a warning to rescale (with c = F_0 = 1e120 and F_1 = 1e-120 the optimum 1e360 is
     * not a double, and the method reports an infeasibility certificate instead).
     */
    static SdpResult scaleDiagnosis(SdpProblem p, SdpResult r) {
        boolean nonFinite = !(Double.isFinite(r.primalObjective()) && Double.isFinite(r.dualObjective())
                && Double.isFinite(r.relativeGap()) && Double.isFinite(r.primalInfeasibility())
                && Double.isFinite(r.dualInfeasibility()));
        double bMax = 0;
        for (int i = 0; i < p.constraints(); i++) {
            bMax = Math.max(bMax, Math.abs(p.bAt(i)));
        }
        double[] range = {Double.POSITIVE_INFINITY, 0}; // smallest and largest nonzero |entry|
        for (int k = 0; k < p.blocks(); k++) {
            entryRange(p.c(k), range);
            for (SdpProblem.Term t : p.terms(k)) {
                entryRange(t.coefficient(), range);
            }
        }
        double lo = range[1] > 0 ? range[0] : 0;
        boolean extreme = !(bMax < EXTREME_MAGNITUDE) || !(range[1] < EXTREME_MAGNITUDE)
                || (lo > 0 && lo < 1 / EXTREME_MAGNITUDE);
        if (!nonFinite && !extreme) {
            return r;
        }
        String msg = r.message() + String.format(java.util.Locale.ROOT, "; %sdata scale: |b_i| up to %.3g, nonzero "
                + "entries of C and the A_i from %.3g to %.3g in magnitude", nonFinite
                ? "the objectives or residuals are not finite; " : "", bMax, lo, range[1])
                + (extreme ? ": magnitudes beyond 1e+-100 are more than double precision carries through the "
                        + "products of an interior-point iteration, so this outcome is not reliable; rescale b, C "
                        + "and the A_i towards 1" : "");
        return r.with(r.status(), msg, r.lowerBound());
    }

    private static void entryRange(Coefficient c, double[] range) {
        if (c instanceof Coefficient.Sparse s) {
            for (int k = 0; k < s.entries(); k++) {
                double a = Math.abs(s.value(k));
                if (a > 0 || Double.isNaN(a)) {
                    range[0] = Math.min(range[0], a);
                    range[1] = Double.isNaN(a) ? Double.NaN : Math.max(range[1], a);
                }
            }
        } else if (c != null) {
            double f = c.normF(); // a low-rank term: its norm stands for its entries
            if (f > 0 || Double.isNaN(f)) {
                range[0] = Math.min(range[0], f);
                range[1] = Math.max(range[1], f);
            }
        }
    }
}
