package org.psdkit.optim.sdp;

/**
 * The constants of the primal–dual interior-point method, in one place: the double-precision {@link SdpSolver}, its
 * double-double restart {@link DdSdpSolver} and the Kernel SoS solver ({@code org.psdkit.sos}) all read them from
 * {@link #DEFAULT}. Each component says where its value comes from; the measurements cited are in
 * docs/benchmarks/sdp.md.
 *
 * @param startScale               initial point X₀ = ξI, Z₀ = ηI with ξ = 10·n·max_i (1+|b_i|)/(1+‖A_i‖_F) and
 *                                 η = 10·(1 + max(‖A_i‖_F, ‖C‖_F))/√n: the starting point of CSDP (Borchers 1999),
 *                                 whose factor 10 keeps the start well inside both cones ({@link StartingPoint})
 * @param stepFraction             fraction of the step to the boundary of the cone that is taken (0.95, the value
 *                                 used by CSDP and, for the corrector, by SDPT3): far enough to converge quickly,
 *                                 short enough to keep Cholesky factors well conditioned
 * @param baselineSigma            centring parameter of the baseline without corrector: 0.1 is the usual long-step
 *                                 path-following choice
 * @param mehrotraExponent         exponent of Mehrotra's heuristic σ = (μ_aff/μ)^3 (Mehrotra 1992)
 * @param stallStep                both steps shorter than this (1e-10) for {@code stallIterations} (3) iterations in
 *                                 a row means the method is stuck (no progress in double precision)
 * @param stallIterations          see {@code stallStep}
 * @param stagnationIterations     stop when the best iterate (by the larger of gap/tolerance and
 *                                 infeasibility/tolerance) has not improved for 15 iterations: on SDPLIB an
 *                                 interior-point method that stops improving for that long never recovered
 * @param nearOptimalFactor        a stopped run whose best iterate meets every tolerance within this factor (100, i.e.
 *                                 1e-6 with the default 1e-8) is reported as {@link SdpStatus#NEAR_OPTIMAL} rather than
 *                                 as a failure
 * @param componentProgressFactor  the stagnation test also counts as progress an iteration at which one of the
 *                                 measures (relative gap, primal or dual infeasibility), while still above its
 *                                 tolerance, falls below half of its last recorded value. The best iterate is judged
 *                                 by the worst measure, which can stay flat while another one still falls by orders of
 *                                 magnitude: on SDPLIB's hinf12 the gap stays ~0.2 from iteration 26 to 41 while the
 *                                 primal infeasibility falls 1.9e-4 → 8.6e-6, after which the gap falls to 1e-4;
 *                                 stopping at iteration 41 returned the value 22.5 instead of ~1e-4. A factor 2 is the
 *                                 same "less than 2-fold is no progress" rule as {@code slowProgressFactor}
 * @param slowProgressFactor       a run that reaches the iteration limit far from the tolerances (score ≥
 *                                 {@code nearOptimalFactor}) counts as stalled, and may be continued by a
 *                                 double-double restart, when its best score improved less than 2-fold over the last
 *                                 {@code stagnationIterations} iterations: a converging interior-point method gains
 *                                 orders of magnitude in that many iterations, while the stalled runs seen on SDPLIB
 *                                 (qap9, qap10) crawl by 1–25% per 15 iterations until the limit. The double-double
 *                                 iteration applies the same rule once near-optimal
 *                                 ({@link IterateMonitor#slowNearOptimal(int)})
 * @param refineThreshold          refine dy when the Schur system's residual exceeds 1e-12 × (1 + ‖rhs‖): about 1e4
 *                                 machine epsilons, the level at which an ill-conditioned Schur complement starts to
 *                                 cost primal feasibility near the optimum
 * @param refineSteps              at most 4 refinement steps of dy: with a jittered Schur factor each step gains
 *                                 ~log10(1/jitter) digits
 * @param nearOptimalRestartWork   a {@link SdpStatus#NEAR_OPTIMAL} double-precision result is restarted in
 *                                 double-double only when one double-double iteration costs at most 1e7 (the estimate
 *                                 of {@code DdSdpSolver.applicable}): all hinf problems, not arch8 (4.5e7), where the
 *                                 restart took many times the double run to turn a result already 6e-9 from CSDP's
 *                                 into an "optimal" one (docs/benchmarks/sdp.md)
 * @param warmStartCentrality      the double-double restart starts from the best-scoring double iterate with
 *                                 λ_min(X^½ Z X^½) ≥ 3e-2·μ (30× inside the wide neighbourhood
 *                                 {@code ddNeighbourhood}) when there is one, rather than from the standard start. On
 *                                 qap9 the double run loses centrality at iteration 12 (5e-2 → 4e-3 → 9e-4) and never
 *                                 regains it; on qap6 a restart from an iterate at 1e-2 (iteration 17) stalled at gap
 *                                 4e-8, one from iteration 11 (≥ 3e-2) reached 8e-9
 * @param handoverStep             the double run hands over to the double-double restart at once when, in one
 *                                 iteration, the Schur complement needed jitter (numerically singular: the primal
 *                                 degeneracy diagnosed in docs/benchmarks/sdp.md) and the primal step was shorter than
 *                                 0.1, provided a well-centred iterate to restart from exists and the restart will
 *                                 run. Without the rule the double run went on with primal steps of 1e-3…1e-5 until
 *                                 the stagnation test stopped it; on SDPLIB the rule took control5 from 72 to 33
 *                                 iterations, qap6 126 → 76, truss7 55 → 37, control3 48 → 38, all still certified.
 *                                 Handing over at the first jittered factor alone sent gpp124-1, whose double run
 *                                 recovers from jitter with long steps, into the restart (four times slower); 0.1 is
 *                                 the round value below which none of the measured runs recovered
 * @param standardRestartScore     the double-double restart runs a second time, from the standard start, only when
 *                                 the one from the warm double iterate scored ≥ 100 (not certified to 1e-6 with the
 *                                 default tolerances): on SDPLIB (hinf5, 8, 10, 11, 13, 14) the second run took as long
 *                                 as the first and ended at most one digit better
 * @param illPosedRatio            a run that did not converge is reported {@link SdpStatus#ILL_POSED} when an iterate
 *                                 grew 1e6 times beyond the data and its objective (see {@code Diagnosis}). The value
 *                                 1e6 is a round "far beyond the data" level, not a tuned one; the two SDPLIB runs it
 *                                 flags reach 1e11 (hinf12) and 1.7e7 (hinf15)
 * @param boundChecks              at most 10 dual iterates (those with dual infeasibility below tolerance and the
 *                                 largest bᵀy first) are checked for a verified lower bound: each check costs an
 *                                 eigenvalue decomposition per block
 * @param ddJitter                 first relative diagonal shift of a Schur complement that is not positive definite in
 *                                 double-double: 1e-28 is ~100 units of double-double rounding (2⁻¹⁰⁶ ≈ 1.2e-32) times
 *                                 the condition numbers seen on hinf (≈ 1e2–1e4)
 * @param ddMaxJitter              largest shift tried (1e-16): beyond it the refined solve no longer converges for the
 *                                 conditioning seen
 * @param ddRefineSteps            refinement steps of the double-double Schur solve: 3 steps recover the accuracy lost
 *                                 to a shift of up to ~1e-16·κ
 * @param ddNeighbourhood          wide-neighbourhood parameter γ of the double-double iteration: steps are shortened
 *                                 until λ_min(X^½ Z X^½) ≥ γμ. 1e-3 (a value in the usual range 1e-4–1e-2 of
 *                                 wide-neighbourhood methods) stopped the collapse of the primal step seen on hinf5
 *                                 and hinf8 without slowing the problems that converge anyway
 * @param backtrack                step shrink factor (0.8) of the neighbourhood search and of a step whose Cholesky
 *                                 check fails (Kernel SoS)
 * @param neighbourhoodBacktracks  number of neighbourhood shrinks (20, down to ~1% of the step)
 * @param maxShrinks              halve a double-double step at most 30 times (2⁻³⁰ ≈ 1e-9) when the updated point
 *                                 fails the positive-definiteness test; also the number of 0.8-shrinks (0.8³⁰ ≈ 1e-3)
 *                                 of a Kernel SoS step whose Cholesky check fails
 */
public record IpmSettings(double startScale, double stepFraction, double baselineSigma, double mehrotraExponent,
                          double stallStep, int stallIterations, int stagnationIterations, double nearOptimalFactor,
                          double componentProgressFactor, double slowProgressFactor, double refineThreshold,
                          int refineSteps, double nearOptimalRestartWork, double warmStartCentrality,
                          double handoverStep, double standardRestartScore, double illPosedRatio, int boundChecks,
                          double ddJitter, double ddMaxJitter, int ddRefineSteps, double ddNeighbourhood,
                          double backtrack, int neighbourhoodBacktracks, int maxShrinks) {

    /** The values every solver of the project uses (see the components for their sources). */
    public static final IpmSettings DEFAULT = new IpmSettings(
            10.0,   // startScale: CSDP (Borchers 1999)
            0.95,   // stepFraction: CSDP, SDPT3
            0.1,    // baselineSigma: long-step path following
            3.0,    // mehrotraExponent: Mehrotra (1992)
            1e-10,  // stallStep
            3,      // stallIterations
            15,     // stagnationIterations
            100,    // nearOptimalFactor: 1e-6 with the default 1e-8 tolerances
            2.0,    // componentProgressFactor: hinf12
            2.0,    // slowProgressFactor: qap9, qap10
            1e-12,  // refineThreshold: ~1e4 machine epsilons
            4,      // refineSteps
            1e7,    // nearOptimalRestartWork: hinf in, arch8 out
            3e-2,   // warmStartCentrality: qap6, qap9
            0.1,    // handoverStep: control5, qap6, truss7, control3; gpp124-1 not
            100,    // standardRestartScore: = nearOptimalFactor (hinf5, 8, 10, 11, 13, 14)
            1e6,    // illPosedRatio: hinf12, hinf15
            10,     // boundChecks
            1e-28,  // ddJitter: ~100 double-double units × hinf's conditioning
            1e-16,  // ddMaxJitter
            3,      // ddRefineSteps
            1e-3,   // ddNeighbourhood: hinf5, hinf8
            0.8,    // backtrack
            20,     // neighbourhoodBacktracks
            30);    // maxShrinks
}
