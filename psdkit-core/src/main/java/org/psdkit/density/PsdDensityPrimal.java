package org.psdkit.density;

import java.util.ArrayDeque;
import java.util.Deque;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.PartialEigen;
import org.psdkit.optim.ProgressListener;

/**
 * The primal solver of the PSD density problem (Marteau-Ferey, Bach &amp; Rudi 2020 eq. 12, in the solver's scale of
 * {@link PsdDensityEstimator}): minimise P(A) = −(1/n) Σ log v_iᵀAv_i + λ₁ Tr A + (λ₂/2)‖A‖_F² over A ⪰ 0 with
 * Tr(AW) = 1, over a factor A = S Sᵀ / Tr(SᵀWS) (S r×q; the constraint is removed by the scale, and P is a smooth,
 * scale-invariant function φ(S) wherever every f_i = ‖Sᵀv_i‖² &gt; 0; Burer &amp; Monteiro 2003 for the factor).
 * L-BFGS (Nocedal &amp; Wright 2006, Alg. 7.4) with a strong-Wolfe line search that is cheap because each f_i is a
 * quadratic along a direction D ({@link DensityRows#line}: one n·r·q product for Dᵀv_i, then O(n) per trial step).
 *
 * <p><b>Certificate.</b> From the iterate, the dual point β_i = 1/(n f̂_i) (f̂ the values of the feasible Â =
 * SSᵀ/Tr(SᵀWS)) and the μ maximising the dual (a 1-D concave maximisation, safeguarded Newton with the exact second
 * derivative of the positive part, one r×r eigen-decomposition per μ) give the dual value D(β, μ) = (1/n) Σ (1 +
 * log nβ_i) + μ − ‖[μW + V Diag(β) Vᵀ − λ₁I]_+‖²/(2λ₂), exactly as {@link LogLikelihoodDual} defines it. The
 * sums of logs cancel in P − D, which is computed as λ₁ Tr Â + (λ₂/2)‖Â‖² − 1 − μ + ‖[·]_+‖²/(2λ₂) (no
 * cancellation of the data terms); the relative gap is (P − D)/max(1, |P|), the definition of
 * {@link LogLikelihoodDual}. The solver stops on it. The number p of positive eigenvalues of the dual matrix is the
 * rank of the dual's candidate [·]_+/λ₂; when p ≥ q and q &lt; r the factor gets more columns.
 */
final class PsdDensityPrimal {

    /** L-BFGS memory (pairs kept); 10: Nocedal &amp; Wright 2006 Sec. 7.2 recommend 3–20. */
    static final int MEMORY = 10;
    /** Armijo constant of the strong Wolfe conditions (Nocedal &amp; Wright 2006, Sec. 3.1: 1e-4). */
    static final double WOLFE_C1 = 1e-4;
    /** Curvature constant of the strong Wolfe conditions; 0.9 is the usual quasi-Newton value (Nocedal &amp; Wright 2006, Sec. 3.1). */
    static final double WOLFE_C2 = 0.9;
    /** Trial steps of one line search at most (each O(n)); the step is taken as is after that. */
    static final int LINE_SEARCH_STEPS = 40;
    /** A certificate (one weighted Gram pass and a few r×r eigen-decompositions) every this many iterations. */
    static final int CERTIFICATE_EVERY = 10;
    /** Fewest and most iterations between certificates when the schedule is predicted from the gap's decay. */
    static final int CERTIFICATE_MIN_EVERY = 5;
    static final int CERTIFICATE_MAX_EVERY = 40;

    /**
     * Iterations until the next certificate: where the gap's geometric decay between the last two certificates
     * predicts it reaches the target, clamped to [{@link #CERTIFICATE_MIN_EVERY}, {@link #CERTIFICATE_MAX_EVERY}];
     * {@link #CERTIFICATE_EVERY} without a decay to go by. Each certificate costs a weighted Gram pass and a few
     * r×r eigen-decompositions, more than an iteration at r ≈ n.
     */
    static int nextCertificate(Certificate prev, int prevIt, Certificate cur, int it, double target) {
        if (prev == null || !(cur.gap() > 0) || !(prev.gap() > cur.gap()) || it <= prevIt) {
            return CERTIFICATE_EVERY;
        }
        double rate = Math.log(cur.gap() / prev.gap()) / (it - prevIt); // < 0
        double k = Math.log(target / cur.gap()) / rate;
        if (!(k > 0)) {
            return CERTIFICATE_MIN_EVERY;
        }
        return (int) Math.max(CERTIFICATE_MIN_EVERY, Math.min(CERTIFICATE_MAX_EVERY, Math.ceil(k)));
    }

    /** Newton steps of the 1-D maximisation over μ at most. */
    static final int MU_STEPS = 30;
    /**
     * μ steps of the certificate at the identity that only picks the start (its dual candidate's eigenvectors);
     * the gap there is far from the target and need not be tight.
     */
    static final int INITIAL_MU_STEPS = 4;
    /** The μ search stops when its predicted further gain is below this fraction of max(tol·max(1, |P|), gap). */
    static final double MU_GAIN_FRACTION = 1e-2;
    /** Columns added to a too-narrow factor start at this fraction of the mean column norm (a small escape step). */
    static final double NEW_COLUMN_SCALE = 1e-2;
    /**
     * Partial decompositions (dsyevr, the positive eigenpairs only) when the last certificate had at most this
     * fraction of r positive eigenvalues; above it the full dsyevd is as cheap (the tridiagonal reduction dominates
     * both; measured 0.21 vs 0.27–0.30 s at r = 1,000 with 40 positive, PartialEigenTest's matrix).
     */
    static final double PARTIAL_MAX_FRACTION = 0.25;

    private PsdDensityPrimal() {
    }

    record Result(Matrix s, double traceSW, double primal, double dual, double relativeGap, int iterations,
                  int passes, double seconds, boolean converged, double eigenSeconds, int rankPositive, double mu,
                  int eigenCalls, int partialEigenCalls) {
    }

    /** The certificate of a point. */
    record Certificate(double dual, double gap, double relativeGap, double mu, int positive, Eigen eigen,
                       Matrix matrix) {

        /** The k top eigenvectors of the dual matrix (r×k, ascending), from a new partial decomposition if needed. */
        Matrix top(int k) {
            int have = eigen.size();
            int r = matrix.rows();
            Matrix v = have >= k ? eigen.vectors() : PartialEigen.top(matrix, k).vectors();
            int cols = v.cols();
            Matrix out = Matrix.zeros(r, k);
            System.arraycopy(v.data(), (cols - k) * r, out.data(), 0, r * k);
            return out;
        }

        /** The k top eigenvalues, ascending (as {@link #top}). */
        double[] topValues(int k) {
            double[] lam = eigen.size() >= k ? eigen.values() : PartialEigen.top(matrix, k).values();
            return java.util.Arrays.copyOfRange(lam, lam.length - k, lam.length);
        }
    }

    private static double dot(Matrix a, Matrix b) {
        double[] x = a.data();
        double[] y = b.data();
        double s = 0;
        for (int k = 0; k < x.length; k++) {
            s += x[k] * y[k];
        }
        return s;
    }

    /** The scalars of φ at S that do not depend on the data. */
    private static final class Shape {
        final Matrix ws;   // W S
        final Matrix m;    // SᵀS
        final double t;    // Tr(SᵀWS)
        final double a;    // ‖S‖²
        final double b;    // ‖SᵀS‖²

        Shape(Matrix w, Matrix s) {
            ws = Linalg.gemm(1.0, w, false, s, false);
            m = Linalg.gemm(1.0, s, true, s, false);
            t = dot(s, ws);
            a = dot(s, s);
            b = dot(m, m);
        }
    }

    private final static class Problem {
        final DensityRows rows;
        final Matrix w;
        final double l1;
        final double l2;
        final double n;
        int passes;
        double eigenSeconds;
        int eigenCalls;
        int partialEigenCalls;
        /** Positive eigenvalues at the last certificate (−1: none yet; the first one is a full decomposition). */
        int lastPositive = -1;
        /** The last secant estimate of D''(μ) in the partial mode (0: none yet). */
        double lastD2;

        Problem(DensityRows rows, Matrix w, double l1, double l2) {
            this.rows = rows;
            this.w = w;
            this.l1 = l1;
            this.l2 = l2;
            this.n = rows.rows();
        }

        double value(DensityRows.Sums sums, Shape sh) {
            if (!Double.isFinite(sums.sumLog())) {
                return Double.POSITIVE_INFINITY;
            }
            return -sums.sumLog() / n + Math.log(sh.t) + l1 * sh.a / sh.t + 0.5 * l2 * sh.b / (sh.t * sh.t);
        }

        Matrix gradient(Matrix s, DensityRows.Sums sums, Shape sh) {
            double t = sh.t;
            Matrix g = sums.gradient().scale(-2.0 / n);
            double cw = 2 / t - 2 * l1 * sh.a / (t * t) - 2 * l2 * sh.b / (t * t * t);
            double[] gd = g.data();
            double[] wd = sh.ws.data();
            double[] sd = s.data();
            for (int k = 0; k < gd.length; k++) {
                gd[k] += cw * wd[k] + 2 * l1 / t * sd[k];
            }
            Linalg.gemmInPlace(2 * l2 / (t * t), s, false, sh.m, false, 1.0, g);
            return g;
        }

        /** Â = SSᵀ/T: λ₁ Tr Â + (λ₂/2)‖Â‖². */
        double regulariser(Shape sh) {
            return l1 * sh.a / sh.t + 0.5 * l2 * sh.b / (sh.t * sh.t);
        }

        /** The dual point of the current point of rows and its best μ. */
        Certificate certificate(Shape sh, double primal, double tol, double muStart, int muSteps) {
            Matrix gw = rows.weightedGram();
            passes++;
            int r = gw.rows();
            Matrix c0 = gw.scale(sh.t / n);
            c0.addToDiagonal(-l1);
            c0.symmetrizeInPlace();
            double base = regulariser(sh) - 1; // P − D = base − μ + ‖[C]_+‖²/(2λ₂)
            double scaleP = Math.max(1.0, Math.abs(primal));
            double mu = Double.isFinite(muStart) ? muStart : l2 * sh.b / (sh.t * sh.t) + l1 * sh.a / sh.t - 1;
            double lo = Double.NEGATIVE_INFINITY;
            double hi = Double.POSITIVE_INFINITY;
            double bestGap = Double.POSITIVE_INFINITY;
            double bestMu = mu;
            int bestPos = 0;
            Eigen bestEig = null;
            // partial decompositions (the positive eigenpairs only, dsyevr) once the last certificate showed few
            boolean partial = lastPositive >= 0 && lastPositive <= PARTIAL_MAX_FRACTION * r;
            double prevMu = Double.NaN;
            double prevD1 = Double.NaN;
            Matrix bestC = null;
            for (int step = 0; step < muSteps; step++) {
                Matrix cm = c0.copy();
                double[] cd = cm.data();
                double[] wd = w.data();
                for (int k = 0; k < cd.length; k++) {
                    cd[k] += mu * wd[k];
                }
                long t0 = System.nanoTime();
                Eigen e = partial ? PartialEigen.above(cm, 0.0) : Linalg.eigh(cm);
                eigenSeconds += (System.nanoTime() - t0) * 1e-9;
                eigenCalls++;
                partialEigenCalls += partial ? 1 : 0;
                double[] lam = e.values();
                int m = lam.length;
                int first = 0;
                while (first < m && !(lam[first] > 0)) {
                    first++;
                }
                double sq = 0;
                for (int k = first; k < m; k++) {
                    sq += lam[k] * lam[k];
                }
                double gap = base - mu + sq / (2 * l2);
                if (gap < bestGap) {
                    bestGap = gap;
                    bestMu = mu;
                    bestPos = m - first;
                    bestEig = e;
                    bestC = cm;
                }
                // D'(μ) = 1 − Tr(W[C]_+)/λ₂;  D''(μ) = −(1/λ₂) Σ_jk (QᵀWQ)_jk² Γ_jk (Daleckii–Krein)
                double d1;
                double d2;
                if (first == m) {
                    d1 = 1;
                    d2 = 0;
                } else if (partial) {
                    // only Q₊ is known: Tr(W[C]_+) exactly; D'' from the secant of D' when two μ are known, else
                    // its bound with every Γ_jk ≤ 1 (a short, safe Newton step): h ≤ 2Σ_j‖Wq_j‖² − ‖Q₊ᵀWQ₊‖²
                    Matrix wq = Linalg.gemm(1.0, w, false, e.vectors(), false);
                    Matrix qwq = Linalg.gemm(1.0, e.vectors(), true, wq, false);
                    double tr = 0;
                    for (int j = first; j < m; j++) {
                        tr += lam[j] * qwq.get(j, j);
                    }
                    d1 = 1 - tr / l2;
                    if (Double.isFinite(prevD1) && mu != prevMu && (d1 - prevD1) / (mu - prevMu) < 0) {
                        d2 = (d1 - prevD1) / (mu - prevMu);
                        lastD2 = d2;
                    } else if (lastD2 < 0) {
                        // the last certificate's secant: μ and the dual matrix change little between certificates
                        d2 = lastD2;
                    } else {
                        double hpp = dot(qwq, qwq);
                        d2 = -(2 * dot(wq, wq) - hpp) / l2;
                    }
                } else {
                    // only the positive eigenvectors enter: W Q₊ (r×p), then Qᵀ(W Q₊) (r×p), O(r²p)
                    int p = r - first;
                    Matrix qp = Matrix.zeros(r, p);
                    System.arraycopy(e.vectors().data(), first * r, qp.data(), 0, r * p);
                    Matrix wq = Linalg.gemm(1.0, w, false, qp, false);
                    Matrix qwq = Linalg.gemm(1.0, e.vectors(), true, wq, false); // row k, column j − first
                    double tr = 0;
                    double h = 0;
                    for (int j = first; j < r; j++) {
                        tr += lam[j] * qwq.get(j, j - first);
                        for (int k = 0; k < r; k++) {
                            double gamma = k >= first ? 1.0 : lam[j] / (lam[j] - lam[k]);
                            double x = qwq.get(k, j - first);
                            // ordered pairs: (j,k) with j positive; (k,j) with k non-positive adds the same
                            h += (k >= first ? 1 : 2) * gamma * x * x;
                        }
                    }
                    d1 = 1 - tr / l2;
                    d2 = -h / l2;
                    if (d2 < 0) {
                        lastD2 = d2;
                    }
                }
                prevMu = mu;
                prevD1 = d1;
                if (d1 > 0) {
                    lo = Math.max(lo, mu);
                } else {
                    hi = Math.min(hi, mu);
                }
                double gain = d2 < 0 ? d1 * d1 / (-2 * d2) : Double.POSITIVE_INFINITY;
                // μ need only be as exact as the gap is small: far from the target a coarse μ certifies as well
                if (gain <= MU_GAIN_FRACTION * Math.max(tol * scaleP, bestGap) || d1 == 0) {
                    break;
                }
                double next = d2 < 0 ? mu - d1 / d2 : mu + Math.max(1.0, Math.abs(mu));
                if (!(next > lo && next < hi)) {
                    if (Double.isFinite(lo) && Double.isFinite(hi)) {
                        next = 0.5 * (lo + hi);
                    } else if (Double.isFinite(lo)) {
                        next = lo + 2 * Math.max(1.0, Math.abs(next - lo));
                    } else {
                        next = hi - 2 * Math.max(1.0, Math.abs(hi - next));
                    }
                }
                if (next == mu) {
                    break;
                }
                mu = next;
            }
            double dual = primal - bestGap;
            lastPositive = bestPos;
            return new Certificate(dual, bestGap, bestGap / scaleP, bestMu, bestPos, bestEig, bestC);
        }
    }

    /**
     * Solves from the start factor {@code s0} (r×q; null: the old dual solver's first candidate, see
     * {@link #initial}).
     */
    static Result solve(DensityRows rows, Matrix w, double l1, double l2, Matrix s0, double tol, int maxIter,
                        double timeLimitSeconds, ProgressListener listener) {
        return solve(rows, w, l1, l2, s0, null, tol, maxIter, timeLimitSeconds, listener);
    }

    /**
     * What one solve hands to the next on more rows (the warm-start rungs of {@link PsdDensityEstimator}): the
     * L-BFGS curvature pairs (s_k, y_k) — a subsample's objective has the full one's Hessian up to sampling error, so
     * its last pairs start the next solve with a curvature model instead of a gradient step — and the last
     * certificate's μ (the start of the next μ search). Filled at the end of a solve; used, when not empty and of the
     * start factor's shape, at the start of the next, whose first certificate then waits
     * {@link #CERTIFICATE_MIN_EVERY} iterations: on more rows the start's dual point β_i = 1/(n f_i) is spoiled by
     * the rows the subsample did not see (relative gap 130 at iteration 0 of n = 200,000 from a 20,000-row
     * optimum at gap 4e-5, docs/benchmarks/psd-scale.md §8), and that certificate costs a weighted Gram pass.
     */
    static final class Curvature {
        final Deque<Matrix[]> pairs = new ArrayDeque<>();
        double mu = Double.NaN;
    }

    /** As the other solve, with curvature pairs in and out ({@code curvature} null: none). */
    static Result solve(DensityRows rows, Matrix w, double l1, double l2, Matrix s0, Curvature curvature, double tol,
                        int maxIter, double timeLimitSeconds, ProgressListener listener) {
        long start = System.nanoTime();
        Problem pb = new Problem(rows, w, l1, l2);
        int r = rows.rank();
        if (w.rows() != r || w.cols() != r) {
            throw new IllegalArgumentException("density solver: W is " + w.rows() + "x" + w.cols() + ", rank " + r);
        }
        Matrix s = s0 == null ? initial(pb, tol) : s0.copy();
        Matrix unscaled = s;
        s = normalise(w, s);
        Deque<Matrix[]> hist = new ArrayDeque<>();
        if (curvature != null && s0 != null) {
            // φ is scale-invariant: at c·S the pairs are (c·s_k, y_k/c)
            double c = Math.sqrt(dot(s, s) / dot(unscaled, unscaled));
            for (Matrix[] p : curvature.pairs) {
                if (p[0].rows() == s.rows() && p[0].cols() == s.cols()) {
                    hist.addLast(new Matrix[] {p[0].scale(c), p[1].scale(1.0 / c)});
                }
            }
        }
        DensityRows.Sums sums = rows.at(s);
        pb.passes++;
        if (!Double.isFinite(sums.sumLog())) {
            // a start that vanishes at some data point: fall back to the identity (f_i = ‖v_i‖² > 0)
            s = normalise(w, Matrix.identity(r));
            sums = rows.at(s);
            pb.passes++;
            hist.clear();
        }
        Shape sh = new Shape(w, s);
        double phi = pb.value(sums, sh);
        Matrix grad = pb.gradient(s, sums, sh);
        Certificate cert = null;
        double muStart = curvature != null ? curvature.mu : Double.NaN;
        int it = 0;
        int sinceCert = hist.isEmpty() ? CERTIFICATE_EVERY : CERTIFICATE_EVERY - CERTIFICATE_MIN_EVERY;
        int certEvery = CERTIFICATE_EVERY;
        int certIt = 0;
        boolean converged = false;
        while (true) {
            double elapsed = (System.nanoTime() - start) * 1e-9;
            boolean last = it >= maxIter || elapsed > timeLimitSeconds;
            if (sinceCert >= certEvery || last) {
                Certificate prev = cert;
                int prevIt = certIt;
                cert = pb.certificate(sh, phi, tol, muStart, MU_STEPS);
                certIt = it;
                certEvery = nextCertificate(prev, prevIt, cert, it, tol * Math.max(1, Math.abs(phi)));
                muStart = cert.mu();
                sinceCert = 0;
                if (listener != null) {
                    listener.onProgress(new ProgressListener.Event(LogLikelihoodDual.TASK, it, 0, "gap",
                            cert.relativeGap(), (System.nanoTime() - start) * 1e-9));
                }
                if (cert.relativeGap() <= tol) {
                    converged = true;
                    break;
                }
                if (last) {
                    break;
                }
                if (cert.positive() >= s.cols() && s.cols() < r) {
                    s = widen(s, cert, r);
                    sums = rows.at(s);
                    pb.passes++;
                    sh = new Shape(w, s);
                    phi = pb.value(sums, sh);
                    grad = pb.gradient(s, sums, sh);
                    hist.clear();
                }
            }
            it++;
            sinceCert++;
            Matrix dir = twoLoop(grad, hist, null);
            double slope0 = dot(dir, grad);
            if (!(slope0 < 0)) {
                hist.clear();
                dir = grad.scale(-1);
                slope0 = -dot(grad, grad);
            }
            if (slope0 == 0) {
                sinceCert = certEvery;
                continue;
            }
            rows.direction(dir);
            pb.passes++;
            double first = hist.isEmpty() ? Math.min(1.0, 1.0 / Math.sqrt(dot(grad, grad))) * Math.sqrt(
                    dot(s, s)) : 1.0;
            double step = lineSearch(pb, s, dir, sh, phi, slope0, first);
            if (!(step > 0)) {
                // no decrease along this direction: restart from the gradient, and certify
                hist.clear();
                sinceCert = certEvery;
                continue;
            }
            sums = rows.step(step);
            pb.passes++;
            Matrix sNew = s.plus(dir.scale(step));
            Shape shNew = new Shape(w, sNew);
            double phiNew = pb.value(sums, shNew);
            if (!(phiNew <= phi + 1e-12 * Math.abs(phi)) || sums.gradient() == null) {
                // rounding in the quadratic model: recompute at s and restart
                sums = rows.at(s);
                pb.passes++;
                hist.clear();
                sinceCert = certEvery;
                continue;
            }
            Matrix gNew = pb.gradient(sNew, sums, shNew);
            Matrix sk = dir.scale(step);
            Matrix yk = gNew.minus(grad);
            if (dot(sk, yk) > 0) {
                hist.addLast(new Matrix[] {sk, yk});
                if (hist.size() > MEMORY) {
                    hist.removeFirst();
                }
            }
            s = sNew;
            sh = shNew;
            phi = phiNew;
            grad = gNew;
        }
        if (curvature != null) {
            curvature.pairs.clear();
            curvature.pairs.addAll(hist);
            curvature.mu = cert.mu();
        }
        double secs = (System.nanoTime() - start) * 1e-9;
        return new Result(s, sh.t, phi, phi - cert.gap(), cert.relativeGap(), it, pb.passes, secs, converged,
                pb.eigenSeconds, cert.positive(), cert.mu(), pb.eigenCalls, pb.partialEigenCalls);
    }

    /** S scaled so that Tr(SᵀWS) = 1. */
    static Matrix normalise(Matrix w, Matrix s) {
        double t = dot(s, Linalg.gemm(1.0, w, false, s, false));
        if (!(t > 0) || !Double.isFinite(t)) {
            throw new IllegalStateException("density solver: the factor has Tr(SᵀWS) = " + t);
        }
        return s.scale(1.0 / Math.sqrt(t));
    }

    /**
     * The start when none is given: at S = I, the certificate's dual matrix C (the old dual solver's first
     * candidate is [C]_+/λ₂ at β = 1/n); S = its eigenvectors scaled by √[λ]_+, with q = 1.25p + 4 columns
     * (p positive eigenvalues; the others get a small scale so that every f_i &gt; 0).
     */
    static Matrix initial(Problem pb, double tol) {
        int r = pb.rows.rank();
        Matrix s = normalise(pb.w, Matrix.identity(r));
        DensityRows.Sums sums = pb.rows.at(s);
        pb.passes++;
        Shape sh = new Shape(pb.w, s);
        double phi = pb.value(sums, sh);
        Certificate c = pb.certificate(sh, phi, tol, Double.NaN, INITIAL_MU_STEPS);
        int p = c.positive();
        int q = Math.min(r, Math.max(p + p / 4 + 4, 8));
        return columns(c, q, r);
    }

    /** The q top eigenvectors scaled by √λ (positive ones) or a small fraction of the largest. */
    private static Matrix columns(Certificate c, int q, int r) {
        double[] lam = c.topValues(q);
        Matrix ev = c.top(q);
        double top = Math.sqrt(Math.max(lam[q - 1], 0));
        if (!(top > 0)) {
            top = 1;
        }
        Matrix s = Matrix.zeros(r, q);
        for (int k = 0; k < q; k++) {
            int src = q - 1 - k;
            double sc = lam[src] > 0 ? Math.sqrt(lam[src]) : 0;
            sc = Math.max(sc, NEW_COLUMN_SCALE * top);
            for (int i = 0; i < r; i++) {
                s.set(i, k, ev.get(i, src) * sc);
            }
        }
        return s;
    }

    /** More columns: the certificate's top eigenvectors not yet matched, at a small scale. */
    private static Matrix widen(Matrix s, Certificate c, int r) {
        int q = s.cols();
        int qNew = Math.min(r, Math.max(2 * q, c.positive() + c.positive() / 4 + 4));
        Matrix out = Matrix.zeros(r, qNew);
        System.arraycopy(s.data(), 0, out.data(), 0, r * q);
        double norm = Math.sqrt(dot(s, s) / q) * NEW_COLUMN_SCALE;
        int add = qNew - q;
        Matrix ev = c.top(add);
        for (int k = q; k < qNew; k++) {
            int src = add - 1 - (k - q);
            for (int i = 0; i < r; i++) {
                out.set(i, k, ev.get(i, src) * norm);
            }
        }
        return out;
    }

    /** L-BFGS two-loop recursion: −H∇ (Nocedal &amp; Wright 2006, Alg. 7.4). */
    private static Matrix twoLoop(Matrix grad, Deque<Matrix[]> hist, double[] h) {
        Matrix q = grad.scale(-1);
        if (hist.isEmpty()) {
            applyDiag(h, q);
            return q;
        }
        int m = hist.size();
        double[] alpha = new double[m];
        double[] rho = new double[m];
        Matrix[][] hs = hist.toArray(new Matrix[0][]);
        for (int i = m - 1; i >= 0; i--) {
            rho[i] = 1.0 / dot(hs[i][0], hs[i][1]);
            alpha[i] = rho[i] * dot(hs[i][0], q);
            axpy(-alpha[i], hs[i][1], q);
        }
        Matrix[] lastPair = hs[m - 1];
        Matrix hy = lastPair[1].copy();
        applyDiag(h, hy);
        double gamma = dot(lastPair[0], lastPair[1]) / dot(lastPair[1], hy);
        applyDiag(h, q);
        q.scaleInPlace(gamma);
        for (int i = 0; i < m; i++) {
            double beta = rho[i] * dot(hs[i][1], q);
            axpy(alpha[i] - beta, hs[i][0], q);
        }
        return q;
    }

    /** Divides row k of q by h_k (no-op for null h). */
    private static void applyDiag(double[] h, Matrix q) {
        if (h == null) {
            return;
        }
        int r = q.rows();
        double[] d = q.data();
        for (int k = 0; k < d.length; k++) {
            d[k] /= h[k % r];
        }
    }

    private static void axpy(double a, Matrix x, Matrix y) {
        double[] xd = x.data();
        double[] yd = y.data();
        for (int k = 0; k < xd.length; k++) {
            yd[k] += a * xd[k];
        }
    }

    /** φ and φ' along S + tD for the current direction of the rows. */
    private static final class LineModel {
        final Problem pb;
        final double t0, t1, t2;     // Tr((S+tD)ᵀW(S+tD))
        final double a0, a1, a2;     // ‖S+tD‖²
        final double[] bc = new double[5];

        LineModel(Problem pb, Matrix s, Matrix d, Shape sh) {
            this.pb = pb;
            Matrix wd = Linalg.gemm(1.0, pb.w, false, d, false);
            t0 = sh.t;
            t1 = 2 * dot(s, wd);
            t2 = dot(d, wd);
            a0 = sh.a;
            a1 = 2 * dot(s, d);
            a2 = dot(d, d);
            Matrix m0 = sh.m;
            Matrix sd = Linalg.gemm(1.0, s, true, d, false);
            Matrix m1 = sd.plus(sd.transpose());
            Matrix m2 = Linalg.gemm(1.0, d, true, d, false);
            bc[0] = dot(m0, m0);
            bc[1] = 2 * dot(m0, m1);
            bc[2] = dot(m1, m1) + 2 * dot(m0, m2);
            bc[3] = 2 * dot(m1, m2);
            bc[4] = dot(m2, m2);
        }

        /** {φ(t), φ'(t)} from the rows' line values. */
        double[] eval(double t, double sumLog, double slope) {
            if (!Double.isFinite(sumLog)) {
                return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
            }
            double tt = t0 + t * (t1 + t * t2);
            double dt = t1 + 2 * t * t2;
            double a = a0 + t * (a1 + t * a2);
            double da = a1 + 2 * t * a2;
            double b = bc[0] + t * (bc[1] + t * (bc[2] + t * (bc[3] + t * bc[4])));
            double db = bc[1] + t * (2 * bc[2] + t * (3 * bc[3] + t * 4 * bc[4]));
            if (!(tt > 0)) {
                return new double[] {Double.POSITIVE_INFINITY, Double.NaN};
            }
            double n = pb.n;
            double v = -sumLog / n + Math.log(tt) + pb.l1 * a / tt + 0.5 * pb.l2 * b / (tt * tt);
            double dv = -slope / n + dt / tt + pb.l1 * (da / tt - a * dt / (tt * tt))
                    + 0.5 * pb.l2 * (db / (tt * tt) - 2 * b * dt / (tt * tt * tt));
            return new double[] {v, dv};
        }

        double[] at(double t) {
            DensityRows.Line l = pb.rows.line(new double[] {t});
            return eval(t, l.sumLog()[0], l.slope()[0]);
        }
    }

    /**
     * Strong-Wolfe line search (Nocedal &amp; Wright 2006, Alg. 3.5 with a bisection/secant zoom) on the rows' exact
     * per-row quadratics; returns the step, or 0 when no decrease was found.
     */
    private static double lineSearch(Problem pb, Matrix s, Matrix d, Shape sh, double phi0, double slope0,
                                     double first) {
        LineModel lm = new LineModel(pb, s, d, sh);
        double prevT = 0;
        double prevV = phi0;
        double prevD = slope0;
        double t = first;
        double bestT = 0;
        double bestV = phi0;
        for (int k = 0; k < LINE_SEARCH_STEPS; k++) {
            double[] vd = lm.at(t);
            if (vd[0] < bestV) {
                bestV = vd[0];
                bestT = t;
            }
            if (!(vd[0] <= phi0 + WOLFE_C1 * t * slope0) || (k > 0 && vd[0] >= prevV)) {
                return zoom(lm, phi0, slope0, prevT, prevV, prevD, t, vd[0], vd[1], bestT, bestV);
            }
            if (Math.abs(vd[1]) <= -WOLFE_C2 * slope0) {
                return t;
            }
            if (vd[1] >= 0) {
                return zoom(lm, phi0, slope0, t, vd[0], vd[1], prevT, prevV, prevD, bestT, bestV);
            }
            prevT = t;
            prevV = vd[0];
            prevD = vd[1];
            t *= 2;
        }
        return bestT;
    }

    private static double zoom(LineModel lm, double phi0, double slope0, double lo, double vLo, double dLo,
                               double hi, double vHi, double dHi, double bestT, double bestV) {
        for (int k = 0; k < LINE_SEARCH_STEPS; k++) {
            double t;
            // secant on φ' when both ends have finite slopes of opposite sign, else bisection
            if (Double.isFinite(dLo) && Double.isFinite(dHi) && dLo * dHi < 0) {
                t = lo - dLo * (hi - lo) / (dHi - dLo);
                double lower = Math.min(lo, hi);
                double width = Math.abs(hi - lo);
                if (!(t > lower + 0.1 * width && t < lower + 0.9 * width)) {
                    t = 0.5 * (lo + hi);
                }
            } else {
                t = 0.5 * (lo + hi);
            }
            double[] vd = lm.at(t);
            if (vd[0] < bestV) {
                bestV = vd[0];
                bestT = t;
            }
            if (!(vd[0] <= phi0 + WOLFE_C1 * t * slope0) || vd[0] >= vLo) {
                hi = t;
                vHi = vd[0];
                dHi = vd[1];
            } else {
                if (Math.abs(vd[1]) <= -WOLFE_C2 * slope0) {
                    return t;
                }
                if (vd[1] * (hi - lo) >= 0) {
                    hi = lo;
                    vHi = vLo;
                    dHi = dLo;
                }
                lo = t;
                vLo = vd[0];
                dLo = vd[1];
            }
        }
        return bestT;
    }
}
