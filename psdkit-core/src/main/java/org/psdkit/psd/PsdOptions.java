package org.psdkit.psd;

/**
 * Options of the PSD-model dual solver. Regulariser Ω(A) = λ₁ Tr A + (λ₂/2)‖A‖²_F on A ⪰ 0 (App. B's form of
 * eq. 6: the nuclear norm equals the trace on the PSD cone).
 *
 * @param lambda1           trace weight λ₁ ≥ 0
 * @param lambda2           Frobenius weight λ₂ &gt; 0 (the dual is smooth only then)
 * @param tolerance         stop when (primal − dual)/max(|primal|, |dual|) ≤ tolerance
 * @param maxIterations     FISTA iteration budget
 * @param timeLimitSeconds  wall-clock budget (may be infinite)
 * @param relativeThreshold relative eigenvalue threshold of the empirical feature map
 */
public record PsdOptions(double lambda1, double lambda2, double tolerance, int maxIterations,
                         double timeLimitSeconds, double relativeThreshold) {

    /** Default relative duality-gap tolerance: six digits of the objective, enough for predictions. */
    public static final double DEFAULT_TOLERANCE = 1e-6;
    /**
     * Default relative eigenvalue threshold of the feature map of a PSD model, 1e-8·λ_max: the density family
     * measured that with cuts at 1e-10 and below the closed-form integral of f and its quadrature in double drift
     * apart (7.6e-9 at n = 50), since the coefficient factor divides by √λ; the same cut serves every PSD family so
     * that "the problem restricted to the eigen-directions above 1e-8·λ_max" means one thing.
     */
    public static final double DEFAULT_RANK_THRESHOLD = 1e-8;
    /**
     * Below this relative threshold the directions kept are beneath double-precision resolution of K (dsyevd's
     * absolute eigenvalue error is n·ε·λ_max, 2.2e-13 at n = 1000); the CLI warns.
     */
    public static final double RANK_THRESHOLD_WARNING = 1e-12;
    /** Default FISTA iteration budget. */
    public static final int DEFAULT_MAX_ITERATIONS = 5000;

    public PsdOptions {
        org.psdkit.model.ParameterException.nonNegative("lambda1", lambda1);
        if (!(lambda2 > 0) || !Double.isFinite(lambda2)) {
            throw new org.psdkit.model.ParameterException("lambda2", "must be > 0 (the dual needs a Frobenius term), "
                    + "got " + lambda2);
        }
        if (!(tolerance >= 0) || !Double.isFinite(tolerance)) {
            throw new org.psdkit.model.ParameterException("tolerance", "must be >= 0, got " + tolerance);
        }
        org.psdkit.model.ParameterException.atLeast("maxIterations", maxIterations, 1);
        if (!(timeLimitSeconds > 0)) {
            throw new org.psdkit.model.ParameterException("timeLimitSeconds", "must be > 0 seconds, got "
                    + timeLimitSeconds);
        }
        if (!(relativeThreshold > 0 && relativeThreshold < 1)) {
            throw new org.psdkit.model.ParameterException("relativeThreshold", "must be in (0, 1), got "
                    + relativeThreshold);
        }
    }

    /** λ₁, λ₂ with the default tolerance, budget and threshold. */
    public static PsdOptions of(double lambda1, double lambda2) {
        return new PsdOptions(lambda1, lambda2, DEFAULT_TOLERANCE, DEFAULT_MAX_ITERATIONS,
                Double.POSITIVE_INFINITY, DEFAULT_RANK_THRESHOLD);
    }

    /**
     * The paper's convention λ(‖A‖_* + c‖A‖²_F) (App. E uses c = 0.05; Sec. 6 writes λ(‖A‖_* + (0.01/2)‖A‖²_F),
     * i.e. c = 0.005): λ₁ = λ, λ₂ = 2λc.
     */
    public static PsdOptions paper(double lambda, double frobeniusRatio) {
        if (!(lambda > 0) || !(frobeniusRatio > 0)) {
            throw new IllegalArgumentException("lambda and frobenius ratio must be > 0, got " + lambda + " and "
                    + frobeniusRatio);
        }
        return of(lambda, 2 * lambda * frobeniusRatio);
    }

    public PsdOptions withTolerance(double tol) {
        return new PsdOptions(lambda1, lambda2, tol, maxIterations, timeLimitSeconds, relativeThreshold);
    }

    public PsdOptions withMaxIterations(int it) {
        return new PsdOptions(lambda1, lambda2, tolerance, it, timeLimitSeconds, relativeThreshold);
    }

    public PsdOptions withTimeLimit(double s) {
        return new PsdOptions(lambda1, lambda2, tolerance, maxIterations, s, relativeThreshold);
    }

    public PsdOptions withRelativeThreshold(double t) {
        return new PsdOptions(lambda1, lambda2, tolerance, maxIterations, timeLimitSeconds, t);
    }
}
