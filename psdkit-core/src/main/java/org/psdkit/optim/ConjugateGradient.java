package org.psdkit.optim;

import org.psdkit.linalg.Linalg;

/**
 * Preconditioned conjugate gradient for A x = b with A symmetric positive definite (Hestenes &amp; Stiefel 1952;
 * preconditioned form: Saad 2003, Alg. 9.1), with a true-residual check: when the recursive residual r_k (updated
 * as r_k = r_{k−1} − a A p) meets the tolerance, r = b − A x is recomputed from x (one more product with A) and CG
 * stops only if that one meets it too; otherwise it restarts from the true residual (p = M⁻¹r). The residual
 * reported is always a recomputed one, never the recursion's, which drifts from the truth in floating point
 * (Greenbaum 1997, Sec. 7.3).
 *
 * <p>The stopping rule is ‖r‖_N ≤ tol · ‖b‖_N for a norm N the caller chooses ({@link Norm}; Euclidean by
 * default), so that a solve run on an equivalent system (e.g. the unpreconditioned one, with the preconditioner
 * moved into M⁻¹) can keep the stopping rule of the original one. Without a preconditioner the iterates satisfy
 * the classic bound ‖x_k − x*‖_A ≤ 2 ((√κ − 1)/(√κ + 1))^k ‖x_0 − x*‖_A (κ the condition number of A; Saad 2003,
 * Thm. 6.29).
 */
public final class ConjugateGradient {

    /** The product v ↦ A v with the SPD operator A (a new array). */
    @FunctionalInterface
    public interface Operator {
        double[] apply(double[] v);
    }

    /** The preconditioner r ↦ M⁻¹ r (a new array; M SPD). */
    @FunctionalInterface
    public interface Preconditioner {
        double[] apply(double[] r);

        /** M = I: a copy of r. */
        Preconditioner IDENTITY = double[]::clone;
    }

    /** The norm of the stopping rule. */
    @FunctionalInterface
    public interface Norm {
        double of(double[] r);

        /** The Euclidean norm √(rᵀr). */
        Norm EUCLIDEAN = r -> Math.sqrt(Linalg.dot(r, r));
    }

    /**
     * The outcome of a solve.
     *
     * @param x          the last iterate
     * @param iterations CG iterations (products with A in the recursion; the true-residual checks not counted)
     * @param residual   ‖b − A x‖_N / ‖b‖_N recomputed from x (0 when b = 0)
     * @param converged  whether residual ≤ tolerance
     */
    public record Result(double[] x, int iterations, double residual, boolean converged) {
    }

    private ConjugateGradient() {
    }

    /** Unpreconditioned CG from x = 0, Euclidean norm. */
    public static Result solve(Operator a, double[] b, double tolerance, int maxIterations) {
        return solve(a, Preconditioner.IDENTITY, Norm.EUCLIDEAN, b, null, tolerance, maxIterations);
    }

    /**
     * Solves A x = b.
     *
     * @param a             the SPD operator
     * @param m             M⁻¹ ({@link Preconditioner#IDENTITY}: none)
     * @param norm          the norm of the stopping rule
     * @param b             the right-hand side
     * @param x0            the start (not modified; null: 0). With a start, CG first computes its true residual
     *                      (one product with A) and returns at once if it is within the tolerance
     * @param tolerance     relative residual to reach, &gt; 0
     * @param maxIterations cap on iterations, ≥ 0
     */
    public static Result solve(Operator a, Preconditioner m, Norm norm, double[] b, double[] x0, double tolerance,
                               int maxIterations) {
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance must be > 0, got " + tolerance);
        }
        if (maxIterations < 0) {
            throw new IllegalArgumentException("maxIterations must be >= 0, got " + maxIterations);
        }
        if (x0 != null && x0.length != b.length) {
            throw new IllegalArgumentException("start has " + x0.length + " entries, right-hand side " + b.length);
        }
        int n = b.length;
        double[] x = x0 == null ? new double[n] : x0.clone();
        double bNorm = norm.of(b);
        if (!(bNorm > 0)) {
            return new Result(x, 0, 0, true);
        }
        double[] r = b.clone();
        int it = 0;
        double res = 0;
        boolean checked = false; // res is the true residual of the current x
        if (x0 != null) {
            res = trueResidual(a, norm, b, x, bNorm, r);
            checked = true;
        }
        double[] z = m.apply(r);
        double[] p = z.clone();
        double rz = Linalg.dot(r, z);
        while (it < maxIterations && !(checked && res <= tolerance)) {
            double[] q = a.apply(p);
            double pq = Linalg.dot(p, q);
            if (!(pq > 0)) {
                break; // A numerically singular along p: stop with the residual so far
            }
            double step = rz / pq;
            for (int j = 0; j < n; j++) {
                x[j] += step * p[j];
                r[j] -= step * q[j];
            }
            it++;
            checked = false;
            if (norm.of(r) <= tolerance * bNorm) {
                // the recursive residual is small: check the true one, and restart from it if it is not
                res = trueResidual(a, norm, b, x, bNorm, r);
                checked = true;
                if (res <= tolerance) {
                    break;
                }
                z = m.apply(r);
                rz = Linalg.dot(r, z);
                p = z.clone();
                continue;
            }
            z = m.apply(r);
            double rzNew = Linalg.dot(r, z);
            double beta = rzNew / rz;
            rz = rzNew;
            for (int j = 0; j < n; j++) {
                p[j] = z[j] + beta * p[j];
            }
        }
        if (!checked) { // the true residual of the final x (one more product)
            res = trueResidual(a, norm, b, x, bNorm, new double[n]);
        }
        return new Result(x, it, res, res <= tolerance);
    }

    /** r = b − A x into {@code r}; returns ‖r‖_N / ‖b‖_N. */
    private static double trueResidual(Operator a, Norm norm, double[] b, double[] x, double bNorm, double[] r) {
        double[] ax = a.apply(x);
        for (int j = 0; j < r.length; j++) {
            r[j] = b[j] - ax[j];
        }
        return norm.of(r) / bNorm;
    }

    /**
     * The CG bound on iterations to reduce the A-norm error by {@code reduction} for condition number κ:
     * k = ⌈ln(2/reduction) / ln((√κ + 1)/(√κ − 1))⌉ (Saad 2003, Thm. 6.29).
     */
    public static int iterationBound(double kappa, double reduction) {
        if (!(kappa >= 1)) {
            throw new IllegalArgumentException("condition number must be >= 1, got " + kappa);
        }
        if (kappa == 1) {
            return 1;
        }
        double s = Math.sqrt(kappa);
        return (int) Math.ceil(Math.log(2 / reduction) / Math.log((s + 1) / (s - 1)));
    }
}
