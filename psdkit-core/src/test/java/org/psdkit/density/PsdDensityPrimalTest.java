package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class PsdDensityPrimalTest {

    private static Matrix gaussian(int n, int d, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            double shift = rnd.nextBoolean() ? 1.0 : -1.0;
            for (int j = 0; j < d; j++) {
                x.set(i, j, (j == 0 ? shift : 0) + 0.5 * rnd.nextGaussian());
            }
        }
        return x;
    }

    /**
     * The reported gap recomputed by brute force from the returned factor and dual point: the primal value of
     * A = SSᵀ/Tr(SᵀWS) (Tr(AW) = 1 checked) from its own f_i, the dual value of (β_i = 1/(n f_i), μ) from a full
     * eigen-decomposition, with no shared code path but the features.
     */
    @Test
    void reportedGapIsTheTrueDualityGap() {
        Matrix x = gaussian(30, 1, 3);
        GaussianKernel k = new GaussianKernel(0.5);
        FeatureBasis fb = FeatureBasis.of(k, x);
        Matrix m = KernelIntegrals.products(k, x, new BaseMeasure.Lebesgue(), null, null);
        Matrix w = fb.congruence(m);
        w = w.scale(1.0 / w.normF());
        double l1 = 1e-2;
        double l2 = 1e-3;
        for (double tol : new double[] {1e-3, 1e-8}) {
            PsdDensityPrimal.Result res = PsdDensityPrimal.solve(LocalDensityRows.of(fb.v), w, l1, l2, null, tol,
                    10000, 60, null);
            assertTrue(res.converged(), "converged at tol " + tol);
            // the certificates after the first decompose only the positive part (dsyevr); the brute force below
            // uses the full decomposition, so the two agree to rounding
            assertTrue(res.partialEigenCalls() > 0 && res.partialEigenCalls() < res.eigenCalls(),
                    res.partialEigenCalls() + " partial of " + res.eigenCalls());
            double[] pg = bruteForce(fb, w, l1, l2, res);
            double primal = pg[0];
            double gap = pg[1];
            assertTrue(gap >= -1e-10, "gap " + gap);
            assertEquals(primal, res.primal(), 1e-10 * Math.max(1, Math.abs(primal)));
            assertEquals(gap, res.relativeGap(), 1e-9);
            assertTrue(gap <= tol);
        }
    }

    /**
     * {primal, relative gap} recomputed by brute force from the returned factor and dual point: the primal value of
     * A = SSᵀ/Tr(SᵀWS) from its own f_i, the dual value of (β_i = 1/(n f_i), μ) from a full eigen-decomposition.
     */
    private static double[] bruteForce(FeatureBasis fb, Matrix w, double l1, double l2, PsdDensityPrimal.Result res) {
        int n = fb.v.cols();
        int r = fb.rank();
        Matrix a = Linalg.gemm(1.0, res.s(), false, res.s(), true);
        double tw = 0;
        for (int i = 0; i < r; i++) {
            for (int j = 0; j < r; j++) {
                tw += a.get(i, j) * w.get(j, i);
            }
        }
        a = a.scale(1.0 / tw);
        double tr = 0;
        double fro = 0;
        for (int i = 0; i < r; i++) {
            tr += a.get(i, i);
            for (int j = 0; j < r; j++) {
                fro += a.get(i, j) * a.get(i, j);
            }
        }
        double[] f = new double[n];
        double primal = l1 * tr + 0.5 * l2 * fro;
        Matrix c = w.scale(res.mu());
        c.addToDiagonal(-l1);
        double dualH = 0;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int p = 0; p < r; p++) {
                for (int q = 0; q < r; q++) {
                    s += fb.v.get(p, i) * a.get(p, q) * fb.v.get(q, i);
                }
            }
            f[i] = s;
            primal -= Math.log(s) / n;
            double beta = 1.0 / (n * s);
            dualH += (1 + Math.log(n * beta)) / n;
            for (int p = 0; p < r; p++) {
                for (int q = 0; q < r; q++) {
                    c.add(p, q, beta * fb.v.get(p, i) * fb.v.get(q, i));
                }
            }
        }
        c.symmetrizeInPlace();
        Eigen e = Linalg.eigh(c);
        double pos = 0;
        for (double lam : e.values()) {
            pos += lam > 0 ? lam * lam : 0;
        }
        double dual = dualH + res.mu() - pos / (2 * l2);
        return new double[] {primal, (primal - dual) / Math.max(1, Math.abs(primal))};
    }

    /**
     * A solve stopped before the target reports a gap certified by the k×k bound of {@link DualCompression} at a μ
     * that was not decomposed: it is an upper bound on the true duality gap of the returned points.
     */
    @Test
    void reportedGapBoundsTheTrueGapBeforeConvergence() {
        Matrix x = gaussian(150, 2, 8);
        GaussianKernel k = new GaussianKernel(0.3);
        FeatureBasis fb = FeatureBasis.of(k, x);
        Matrix m = KernelIntegrals.products(k, x, new BaseMeasure.Lebesgue(), null, null);
        Matrix w = fb.congruence(m);
        w = w.scale(1.0 / w.normF());
        double l1 = 1e-3;
        double l2 = 1e-4;
        for (int iters : new int[] {12, 25, 45, 80}) {
            PsdDensityPrimal.Result res = PsdDensityPrimal.solve(LocalDensityRows.of(fb.v), w, l1, l2, null, 1e-13,
                    iters, 60, null);
            double[] pg = bruteForce(fb, w, l1, l2, res);
            String where = iters + " iterations (rank " + fb.rank() + ")";
            assertTrue(!res.converged(), where);
            assertTrue(pg[1] >= -1e-10, where + ": gap " + pg[1]);
            assertTrue(pg[1] <= res.relativeGap() + 1e-10, where + ": true gap " + pg[1] + " > reported "
                    + res.relativeGap());
            // the bound is close to the truth (second order in the distance to the decomposed μ)
            assertTrue(res.relativeGap() <= 1.5 * pg[1] + 1e-9, where + ": reported " + res.relativeGap()
                    + " vs true " + pg[1]);
        }
    }

    /** The primal solver reaches the dual FISTA's optimum on small exact problems. */
    @Test
    void sameOptimumAsTheDualFista() {
        int[][] cases = {{50, 1}, {120, 2}, {300, 2}, {80, 10}};
        for (int[] cs : cases) {
            int n = cs[0];
            int d = cs[1];
            Matrix x = gaussian(n, d, 11 + n + d);
            GaussianKernel k = new GaussianKernel(d == 10 ? 1.0 : 0.4);
            PsdDensityOptions o = PsdDensityOptions.of(1e-2, 0.1).withTolerance(1e-9).withMaxIterations(200000);
            PsdDensity pr = PsdDensityEstimator.fit(x, k, new BaseMeasure.Lebesgue(), o);
            PsdDensity du = PsdDensityEstimator.fit(x, k, new BaseMeasure.Lebesgue(),
                    o.withSolver(PsdDensityOptions.Solver.DUAL_FISTA));
            String where = "n=" + n + " d=" + d;
            assertTrue(pr.diagnostics().converged(), where);
            assertTrue(du.diagnostics().converged(), where);
            assertEquals(du.diagnostics().objective(), pr.diagnostics().objective(), 1e-6, where);
            assertEquals(1.0, pr.integral(), 1e-9, where);
        }
    }

    /** LocalDensityRows: the line's quadratics and step agree with a fresh evaluation at S + tD. */
    @Test
    void stepEqualsFreshEvaluation() {
        Matrix x = gaussian(200, 2, 5);
        FeatureBasis fb = FeatureBasis.of(new GaussianKernel(0.5), x);
        int r = fb.rank();
        SplittableRandom rnd = new SplittableRandom(1);
        Matrix s = Matrix.zeros(r, 3);
        Matrix d = Matrix.zeros(r, 3);
        for (int i = 0; i < s.data().length; i++) {
            s.data()[i] = rnd.nextGaussian();
            d.data()[i] = rnd.nextGaussian();
        }
        LocalDensityRows rows = LocalDensityRows.of(fb.v);
        rows.at(s);
        rows.direction(d);
        DensityRows.Line line = rows.line(new double[] {0.3});
        DensityRows.Sums stepped = rows.step(0.3);
        DensityRows.Sums fresh = LocalDensityRows.of(fb.v).at(s.plus(d.scale(0.3)));
        assertEquals(fresh.sumLog(), line.sumLog()[0], 1e-9 * Math.abs(fresh.sumLog()));
        assertEquals(fresh.sumLog(), stepped.sumLog(), 1e-9 * Math.abs(fresh.sumLog()));
        assertEquals(fresh.minF(), stepped.minF(), 1e-12);
        for (int i = 0; i < fresh.gradient().data().length; i++) {
            assertEquals(fresh.gradient().data()[i], stepped.gradient().data()[i], 1e-8);
        }
    }
    /**
     * Nyström rows with the float cache: a subsample drawn from the cache (copied columns) gives the same sums and
     * weighted Gram matrix as Nyström rows computed afresh on the same rows; blocks fill whole G1 regions.
     */
    @Test
    void cachedSubsampleEqualsFreshNystromRows() {
        Matrix x = gaussian(3000, 3, 7);
        GaussianKernel k = new GaussianKernel(0.8);
        Matrix anchors = x.selectRows(new int[] {3, 50, 400, 999, 1500, 2100, 2500, 2999});
        FeatureBasis fb = FeatureBasis.of(k, anchors, null, 1e-8);
        LocalDensityRows rows = LocalDensityRows.nystrom(k, anchors, fb.t, x);
        assertEquals("float", rows.storage());
        DensityRows sub = rows.sample(700, 14L);
        int[] perm = org.psdkit.data.Splits.permutation(3000, 14L);
        int[] idx = java.util.Arrays.copyOf(perm, 700);
        java.util.Arrays.sort(idx);
        LocalDensityRows fresh = LocalDensityRows.nystrom(k, anchors, fb.t, x.selectRows(idx));
        assertEquals(700, sub.rows());
        Matrix s = Matrix.zeros(fb.rank(), 2);
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < s.data().length; i++) {
            s.data()[i] = rnd.nextGaussian();
        }
        DensityRows.Sums a = sub.at(s);
        DensityRows.Sums b = fresh.at(s);
        assertEquals(b.sumLog(), a.sumLog(), 1e-12 * Math.abs(b.sumLog()));
        Matrix ga = sub.weightedGram();
        Matrix gb = fresh.weightedGram();
        for (int i = 0; i < ga.data().length; i++) {
            assertEquals(gb.data()[i], ga.data()[i], 1e-9 * Math.abs(gb.data()[i]) + 1e-12);
        }
        long region = LocalDensityRows.g1RegionBytes();
        if (region > 0) {
            long bytes = (long) LocalDensityRows.floatBlockWidth(1000) * 1000 * Float.BYTES
                    + LocalDensityRows.ARRAY_HEADER_BYTES;
            assertTrue(bytes % region > region - 4000 || bytes % region == 0, bytes + " bytes in regions of " + region);
        }
    }
    /**
     * A solve started from a subsample's factor and its L-BFGS curvature pairs (the warm-start ladder) reaches the
     * cold solve's optimum, and its reported gap stays the true one (the identity P − D = gap at the returned point).
     */
    @Test
    void curvatureCarriedFromASubsampleReachesTheSameOptimum() {
        Matrix x = gaussian(600, 2, 11);
        GaussianKernel k = new GaussianKernel(0.6);
        FeatureBasis fb = FeatureBasis.of(k, x);
        Matrix m = KernelIntegrals.products(k, x, new BaseMeasure.Lebesgue(), null, null);
        Matrix w = fb.congruence(m);
        w = w.scale(1.0 / w.normF());
        double l1 = 1e-2;
        double l2 = 1e-3;
        double tol = 1e-7;
        LocalDensityRows rows = LocalDensityRows.of(fb.v);
        PsdDensityPrimal.Result cold = PsdDensityPrimal.solve(rows, w, l1, l2, null, tol, 10000, 60, null);
        PsdDensityPrimal.Curvature cv = new PsdDensityPrimal.Curvature();
        PsdDensityPrimal.Result sub = PsdDensityPrimal.solve(rows.sample(150, 3L), w, l1, l2, null, cv, tol, 10000,
                60, null);
        assertTrue(sub.converged() && !cv.pairs.isEmpty(), "subsample solve left " + cv.pairs.size() + " pairs");
        PsdDensityPrimal.Result warm = PsdDensityPrimal.solve(LocalDensityRows.of(fb.v), w, l1, l2, sub.s(), cv,
                tol, 10000, 60, null);
        assertTrue(cold.converged() && warm.converged());
        assertEquals(cold.primal(), warm.primal(), 2 * tol * Math.max(1, Math.abs(cold.primal())));
        assertTrue(warm.relativeGap() >= 0 && warm.relativeGap() <= tol, "gap " + warm.relativeGap());
    }

    /**
     * The second certificate's schedule from the objective's decay: on φ_k = φ* + c·ρ^k the estimated rate is ρ
     * exactly, so the interval is the iterations for the gap to fall to the target at that rate (times the
     * margin), clamped; without a decaying history it is the fixed interval.
     */
    @Test
    void firstIntervalFollowsTheObjectiveDecay() {
        double[] phi = new double[40];
        for (int k = 0; k < phi.length; k++) {
            phi[k] = 2.5 + 0.3 * Math.pow(0.7, k);
        }
        int it = 25;
        double gap = 1e-2;
        double target = 1e-6;
        int expected = (int) Math.ceil(PsdDensityPrimal.SCHEDULE_MARGIN * Math.log(target / gap) / Math.log(0.7));
        assertTrue(expected > PsdDensityPrimal.CERTIFICATE_MIN_EVERY
                && expected < PsdDensityPrimal.CERTIFICATE_MAX_EVERY, "expected " + expected);
        assertEquals(expected, PsdDensityPrimal.firstInterval(phi, it, gap, target));
        // a slow decay is clamped to the longest interval, a gap at the target to the shortest
        double[] slow = new double[40];
        for (int k = 0; k < slow.length; k++) {
            slow[k] = 2.5 + 0.3 * Math.pow(0.99, k);
        }
        assertEquals(PsdDensityPrimal.CERTIFICATE_MAX_EVERY, PsdDensityPrimal.firstInterval(slow, it, gap, target));
        assertEquals(PsdDensityPrimal.CERTIFICATE_MIN_EVERY,
                PsdDensityPrimal.firstInterval(phi, it, 1.01 * target, target));
        // too short a history, a flat one, or a decrease that speeds up: the fixed interval
        assertEquals(PsdDensityPrimal.CERTIFICATE_EVERY, PsdDensityPrimal.firstInterval(phi, 9, gap, target));
        double[] flat = new double[40];
        java.util.Arrays.fill(flat, 2.5);
        assertEquals(PsdDensityPrimal.CERTIFICATE_EVERY, PsdDensityPrimal.firstInterval(flat, it, gap, target));
        double[] faster = new double[40];
        for (int k = 0; k < faster.length; k++) {
            faster[k] = 2.5 - 1e-3 * k * k;
        }
        assertEquals(PsdDensityPrimal.CERTIFICATE_EVERY, PsdDensityPrimal.firstInterval(faster, it, gap, target));
    }

    /** The cold start's width: 64 columns, at most r/8, at least 8 (at most r). */
    @Test
    void startColumnsAreCappedByTheRank() {
        assertEquals(64, PsdDensityPrimal.startColumns(1000));
        assertEquals(64, PsdDensityPrimal.startColumns(2000));
        assertEquals(28, PsdDensityPrimal.startColumns(226));
        assertEquals(8, PsdDensityPrimal.startColumns(30));
        assertEquals(5, PsdDensityPrimal.startColumns(5));
    }

    /**
     * A cold solve certifies first after {@link PsdDensityPrimal#FIRST_CERTIFICATE} iterations (one progress event
     * per certificate), and its start factor has {@link PsdDensityPrimal#startColumns} columns (the optimum's
     * rank here is below it, so the factor is not widened).
     */
    @Test
    void coldStartCertifiesFirstAfterTheFirstInterval() {
        Matrix x = gaussian(200, 2, 4);
        GaussianKernel k = new GaussianKernel(0.4);
        FeatureBasis fb = FeatureBasis.of(k, x);
        Matrix m = KernelIntegrals.products(k, x, new BaseMeasure.Lebesgue(), null, null);
        Matrix w = fb.congruence(m);
        w = w.scale(1.0 / w.normF());
        java.util.List<Long> steps = new java.util.ArrayList<>();
        PsdDensityPrimal.Result res = PsdDensityPrimal.solve(LocalDensityRows.of(fb.v), w, 1e-2, 1e-3, null, 1e-8,
                10000, 60, e -> steps.add(e.step()));
        assertTrue(res.converged());
        assertEquals(PsdDensityPrimal.FIRST_CERTIFICATE, steps.get(0));
        assertEquals(steps.size(), res.certificates());
        assertTrue(res.rankPositive() < res.s().cols(), res.rankPositive() + " of " + res.s().cols());
        assertEquals(PsdDensityPrimal.startColumns(fb.rank()), res.s().cols());
    }
    /**
     * Certificates computed beside the iterations ({@code overlap}) give the solve without it: the same iterations,
     * certificates (at the same iterations), factor and objective up to rounding, and a true duality gap. The solve
     * is made to run {@link PsdDensityPrimal#OVERLAP_MAX_AHEAD} iterations past every certificate before it waits,
     * so that it rolls back to the scheduled certificate, to a widening (the narrow start) and to the converged
     * point whatever the timing.
     */
    @Test
    void overlappedCertificatesGiveTheSameSolve() {
        Matrix x = gaussian(120, 2, 5);
        GaussianKernel k = new GaussianKernel(0.3);
        FeatureBasis fb = FeatureBasis.of(k, x);
        Matrix m = KernelIntegrals.products(k, x, new BaseMeasure.Lebesgue(), null, null);
        Matrix w = fb.congruence(m);
        w = w.scale(1.0 / w.normF());
        double l1 = 1e-3;
        double l2 = 1e-5;
        boolean before = PsdDensityPrimal.aheadToTheLimit;
        try {
            for (boolean narrow : new boolean[] {false, true}) {
                java.util.List<Long> syncSteps = new java.util.ArrayList<>();
                PsdDensityPrimal.Result a = PsdDensityPrimal.solve(LocalDensityRows.of(fb.v), w, l1, l2, null, null,
                        1e-8, 10000, 60, e -> syncSteps.add(e.step()), narrow, false);
                for (boolean limit : new boolean[] {true, false}) {
                    PsdDensityPrimal.aheadToTheLimit = limit;
                    java.util.List<Long> steps = new java.util.ArrayList<>();
                    PsdDensityPrimal.Result b = PsdDensityPrimal.solve(LocalDensityRows.of(fb.v), w, l1, l2, null,
                            null, 1e-8, 10000, 60, e -> steps.add(e.step()), narrow, true);
                    String what = "narrow " + narrow + ", ahead to the limit " + limit;
                    assertTrue(a.converged() && b.converged(), what);
                    assertEquals(a.s().cols(), b.s().cols(), what);
                    if (!narrow) {
                        assertEquals(syncSteps, steps, what);
                        assertEquals(a.iterations(), b.iterations(), what);
                        assertEquals(a.certificates(), b.certificates(), what);
                        assertEquals(a.primal(), b.primal(), 1e-11 * Math.abs(a.primal()), what);
                        assertEquals(a.relativeGap(), b.relativeGap(), 1e-11, what);
                        assertTrue(a.s().minus(b.s()).normF() <= 1e-6 * a.s().normF(), what);
                    } else {
                        // ~750 iterations of a slowly converging solve amplify the rounding of the rows' state
                        // recomputed after a rollback (relative 1e-10 in the gap at iteration 460, 10 % at gap
                        // 1e-8): the first ten certificates agree, the optima to the tolerance
                        assertEquals(syncSteps.subList(0, 10), steps.subList(0, 10), what);
                        assertEquals(a.primal(), b.primal(), 2e-8 * Math.max(1, Math.abs(a.primal())), what);
                    }
                    double[] pg = bruteForce(fb, w, l1, l2, b);
                    assertTrue(pg[1] >= -1e-10 && pg[1] <= 1e-8, what + ": gap " + pg[1]);
                    assertEquals(pg[1], b.relativeGap(), 1e-9, what);
                }
            }
        } finally {
            PsdDensityPrimal.aheadToTheLimit = before;
        }
    }

    /**
     * The exact fit on one thread and on two (the rows' passes and W D split over the workers, the certificates
     * beside the iterations, one BLAS thread each) is the same fit up to rounding: iterations, objective, gap and
     * density values.
     */
    @Test
    void exactFitIsTheSameOnOneAndTwoThreads() {
        Matrix x = gaussian(300, 10, 6);
        PsdDensityOptions o = new PsdDensityOptions(1e-3, 1e-3, PsdDensityOptions.LambdaScale.RAW, 1e-7,
                PsdDensityOptions.DEFAULT_MAX_ITERATIONS, Double.POSITIVE_INFINITY);
        int before = org.psdkit.linalg.Threads.get();
        PsdDensity[] fits = new PsdDensity[2];
        try {
            for (int t = 1; t <= 2; t++) {
                org.psdkit.linalg.Threads.set(t);
                fits[t - 1] = PsdDensityEstimator.fit(x, new GaussianKernel(0.44), new BaseMeasure.Lebesgue(), o,
                        null);
            }
        } finally {
            org.psdkit.linalg.Threads.set(before);
        }
        var d1 = fits[0].diagnostics();
        var d2 = fits[1].diagnostics();
        assertTrue(d1.rank() >= PsdDensityPrimal.SPLIT_MIN_RANK, "rank " + d1.rank() + ": W D is split");
        assertTrue(d1.converged() && d2.converged());
        assertEquals(d1.iterations(), d2.iterations());
        assertEquals(d1.objective(), d2.objective(), 1e-10 * Math.abs(d1.objective()));
        assertEquals(d1.relativeGap(), d2.relativeGap(), 1e-10);
        double[] p1 = fits[0].density(x);
        double[] p2 = fits[1].density(x);
        for (int i = 0; i < p1.length; i++) {
            assertEquals(p1[i], p2[i], 1e-6 * p1[i]);
        }
    }
    private static Matrix random(SplittableRandom rnd, int len) {
        Matrix a = Matrix.zeros(len, 1);
        for (int k = 0; k < len; k++) {
            a.set(k, 0, rnd.nextGaussian());
        }
        return a;
    }

    private static double dotOf(double[] a, double[] b) {
        double s = 0;
        for (int k = 0; k < a.length; k++) {
            s += a[k] * b[k];
        }
        return s;
    }
}
