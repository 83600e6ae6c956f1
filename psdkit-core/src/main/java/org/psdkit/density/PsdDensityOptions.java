package org.psdkit.density;

import org.psdkit.model.ParameterException;

/**
 * Options of {@link PsdDensityEstimator}: regulariser λ₁ Tr(A) + (λ₂/2)‖A‖_F² of Marteau-Ferey, Bach and Rudi 2020 eq. (6)/(12).
 *
 * <p>{@code scale} says which A the λ's apply to. {@link LambdaScale#RAW}: the A of eq. (12), with
 * Tr(A W) = 1. {@link LambdaScale#NORMALIZED}: Ã = ‖W‖_F·A (so Tr(Ã W/‖W‖_F) = 1), as the authors' public code
 * does internally; a raw (λ₁, λ₂) equals a normalised (λ₁/‖W‖_F, λ₂/‖W‖_F²). With a 10-D Gaussian base measure
 * ‖W‖_F is ~1e-11, so only the normalised scale gives grids of λ that mean the same thing across σ and ν.
 *
 * @param lambda1            weight of the nuclear norm (trace, A ⪰ 0), ≥ 0
 * @param lambda2            weight of (1/2)‖A‖_F², &gt; 0 (strong convexity, needed by the dual)
 * @param scale              which A the λ's refer to
 * @param tolerance          stop when the relative duality gap (P − D)/max(1, |P|) is at most this
 * @param maxIterations      FISTA iteration budget
 * @param timeLimitSeconds   wall-clock budget
 * @param rankThreshold      eigen-directions of the expansion points' Gram matrix at or below this fraction of its
 *                           largest eigenvalue are dropped: the problem (objective, constraint, gap) is eq. (12)
 *                           restricted to the remaining ones, in (0, 1)
 * @param solver             the method ({@link Solver#PRIMAL_LBFGS} by default)
 */
public record PsdDensityOptions(double lambda1, double lambda2, LambdaScale scale, double tolerance,
                                int maxIterations, double timeLimitSeconds, double rankThreshold, Solver solver) {

    /**
     * The solver. {@code PRIMAL_LBFGS} (default): L-BFGS over a factor A = SSᵀ/Tr(SᵀWS) with a dual certificate
     * ({@code PsdDensityPrimal}); {@code DUAL_FISTA}: FISTA on the dual with one variable per data point
     * ({@link LogLikelihoodDual#solveFixedMetric}), kept as the benchmark baseline. Both stop on the same relative
     * duality gap. The measurements behind the default are in docs/benchmarks/psd-scale.md ("solver").
     */
    public enum Solver {
        PRIMAL_LBFGS, DUAL_FISTA;

        /** {@code primal-lbfgs} (or {@code primal}), {@code dual-fista} (or {@code dual}). */
        public static Solver parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(java.util.Locale.ROOT);
            return switch (t) {
                case "primal-lbfgs", "primal", "lbfgs" -> PRIMAL_LBFGS;
                case "dual-fista", "dual", "fista" -> DUAL_FISTA;
                default -> throw new IllegalArgumentException("solver must be primal-lbfgs or dual-fista, got '"
                        + s + "'");
            };
        }

        /** The name {@link #parse} reads and the fit reports. */
        public String id() {
            return this == PRIMAL_LBFGS ? "primal-lbfgs" : "dual-fista";
        }
    }

    /** The options with the default solver. */
    public PsdDensityOptions(double lambda1, double lambda2, LambdaScale scale, double tolerance, int maxIterations,
                             double timeLimitSeconds, double rankThreshold) {
        this(lambda1, lambda2, scale, tolerance, maxIterations, timeLimitSeconds, rankThreshold,
                Solver.PRIMAL_LBFGS);
    }

    /**
     * Default rank threshold, 1e-8 relative to λ_max (see {@link FeatureBasis#RELATIVE_RANK_THRESHOLD} for the
     * measurement behind it).
     */
    public static final double DEFAULT_RANK_THRESHOLD = FeatureBasis.RELATIVE_RANK_THRESHOLD;

    /** Below this relative threshold callers (the CLI) warn ({@link org.psdkit.psd.PsdOptions#RANK_THRESHOLD_WARNING}). */
    public static final double RANK_THRESHOLD_WARNING = org.psdkit.psd.PsdOptions.RANK_THRESHOLD_WARNING;

    /** The options with the default rank threshold. */
    public PsdDensityOptions(double lambda1, double lambda2, LambdaScale scale, double tolerance, int maxIterations,
                             double timeLimitSeconds) {
        this(lambda1, lambda2, scale, tolerance, maxIterations, timeLimitSeconds, DEFAULT_RANK_THRESHOLD);
    }

    /** Default relative duality gap: 1e-6, the accuracy the benchmark is asked to reach. */
    public static final double DEFAULT_TOLERANCE = 1e-6;
    public static final int DEFAULT_MAX_ITERATIONS = 20000;
    /** Frobenius weight of Marteau-Ferey, Bach and Rudi 2020 Sec. 6: Ω = λ(‖A‖_* + (0.01/2)‖A‖_F²), i.e. λ₂ = 0.01 λ. */
    public static final double SEC6_FROBENIUS_RATIO = 0.01;
    /** Frobenius weight of Marteau-Ferey, Bach and Rudi 2020 App. E: Ω = λ(‖A‖_* + 0.05‖A‖_F²), i.e. λ₂/2 = 0.05 λ, λ₂ = 0.1 λ. */
    public static final double APPE_FROBENIUS_RATIO = 0.1;

    /**
     * Which A the λ's apply to. {@code RAW}: A of eq. (12). {@code NORMALIZED}: ‖W‖_F·A (the authors' code).
     * {@code TRACE}: Tr(W)·A, the scale on which the reference density A₀ = I/Tr W (∫f dν = 1) is f̃(x_i) = k(x_i,
     * x_i) at every data point, whatever σ, d and ν are. The dual FISTA's condition number at a data multiplier is
     * about Σ_j k̃_ij²/(λ₂ n f̃(x_i)²) (the metric of {@code PsdDensityEstimator.metric} against the curvature
     * n f̃² of the log barrier's prox at the optimum), so with f̃ = O(1) the iteration count depends on λ₂·n only;
     * on the Frobenius scale f̃ = ‖W‖_F·f, and data with ‖W‖_F &lt; 1 get a problem regularised ‖W‖_F² times less
     * than raw, taking 1/‖W‖_F times the iterations (docs/benchmarks/psd-scale.md). Tr W ≥ ‖W‖_F for W ⪰ 0.
     */
    public enum LambdaScale { RAW, NORMALIZED, TRACE }

    public PsdDensityOptions {
        ParameterException.nonNegative("lambda1", lambda1);
        if (!(lambda2 > 0) || !Double.isFinite(lambda2)) {
            throw new ParameterException("lambda2", "must be > 0 and finite (the dual needs strong convexity), got "
                    + lambda2);
        }
        if (scale == null) {
            throw new ParameterException("scale", "must be given (trace, raw or normalized)");
        }
        if (!(tolerance > 0)) {
            throw new ParameterException("tolerance", "must be > 0, got " + tolerance);
        }
        ParameterException.atLeast("maxIterations", maxIterations, 1);
        if (!(timeLimitSeconds > 0)) {
            throw new ParameterException("timeLimitSeconds", "must be > 0, got " + timeLimitSeconds);
        }
        ParameterException.unitOpen("rankThreshold", rankThreshold);
        if (solver == null) {
            solver = Solver.PRIMAL_LBFGS;
        }
    }

    /** Ω = λ(Tr A + (ratio/2)‖A‖_F²) on the normalised scale, default tolerance and budgets. */
    public static PsdDensityOptions of(double lambda, double frobeniusRatio) {
        return new PsdDensityOptions(lambda, lambda * frobeniusRatio, LambdaScale.NORMALIZED, DEFAULT_TOLERANCE,
                DEFAULT_MAX_ITERATIONS, Double.POSITIVE_INFINITY);
    }

    public PsdDensityOptions withTolerance(double tol) {
        return new PsdDensityOptions(lambda1, lambda2, scale, tol, maxIterations, timeLimitSeconds, rankThreshold, solver);
    }

    public PsdDensityOptions withMaxIterations(int it) {
        return new PsdDensityOptions(lambda1, lambda2, scale, tolerance, it, timeLimitSeconds, rankThreshold, solver);
    }

    public PsdDensityOptions withTimeLimit(double s) {
        return new PsdDensityOptions(lambda1, lambda2, scale, tolerance, maxIterations, s, rankThreshold, solver);
    }

    public PsdDensityOptions withScale(LambdaScale s) {
        return new PsdDensityOptions(lambda1, lambda2, s, tolerance, maxIterations, timeLimitSeconds, rankThreshold, solver);
    }

    public PsdDensityOptions withSolver(Solver s) {
        return new PsdDensityOptions(lambda1, lambda2, scale, tolerance, maxIterations, timeLimitSeconds, rankThreshold,
                s);
    }

    public PsdDensityOptions withRankThreshold(double t) {
        return new PsdDensityOptions(lambda1, lambda2, scale, tolerance, maxIterations, timeLimitSeconds, t, solver);
    }
}
