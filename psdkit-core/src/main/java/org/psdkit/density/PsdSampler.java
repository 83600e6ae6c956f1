package org.psdkit.density;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;
import org.psdkit.optim.ProgressListener;

/**
 * Exact draws from a PSD density p = f·ν / Z, f(x) = ‖Rᵀ φ(x)‖², φ(x)_i = k(x, x_i) (Gaussian kernel), by rejection
 * from an envelope e(x) ≥ f(x)ν(x) that is proven, cheap to draw from and evaluated exactly at each proposal: a
 * proposal x ~ e/∫e is accepted with probability f(x)ν(x)/e(x), so the accepted draws follow p exactly (von Neumann's
 * rejection method; Devroye 1986, Ch. II.3) whatever the envelope, which only sets the expected number of proposals
 * per draw, ∫e / Z. Two envelopes:
 *
 * <ul>
 *   <li><b>pairs</b> (any d): the positive part of the pair expansion, f(x) = Σ_ij B_ij k_i(x) k_j(x) ≤
 *       Σ_ij max(B_ij, 0) k_i(x) k_j(x), since every k_i k_j ν ≥ 0. Each term is a Gaussian bump N((x_i+x_j)/2, σ²/2)
 *       (times ν: a normal for a diagonal Gaussian ν, a truncated normal for a box), so the envelope is a Gaussian
 *       mixture with weights max(B_ij, 0)·M_ij, M_ij = ∫ k_i k_j dν in closed form. Good when B has little sign
 *       cancellation (d = 10, σ = 0.44: ∫e/Z = 1.50); the 2-D models of docs/benchmarks/psd-scale.md §4 have 1.4e5.
 *   <li><b>grid</b> (d ≤ {@link #GRID_MAX_DIM}): a piecewise-constant envelope on an adaptive grid of boxes. With
 *       g_k = Σ_i R_ik k(·, x_i) in the RKHS H and Γ: H → ℝ^q, Γu = (⟨g_k, u⟩)_k, f(x) = ‖Γ k_x‖² (reproducing
 *       property), so √f(x) ≤ √f(c) + ‖Γ‖ ‖k_x − k_c‖_H with ‖Γ‖² = λ_max(Rᵀ K R) and ‖k_x − k_c‖²_H =
 *       2(1 − exp(−|x − c|²/(2σ²))) for the Gaussian kernel; far from the points √f(x) ≤ Σ_i ‖R_i·‖ k(x, x_i). Boxes
 *       are split where the bound exceeds f most. Outside a bounding box the mass of p is below {@link #TAIL_MASS}
 *       (bound below), which is the stated truncation of this envelope.
 * </ul>
 *
 * Each draw s has its own random stream (the s-th split of the seed's stream): its proposals and its uniform come
 * only from it, so the same seed gives the same draws whatever the batching and the thread count (the BLAS products
 * change only rounding).
 */
final class PsdSampler {

    /** Which method {@link #sample} uses. */
    enum Method {
        /**
         * grid for d ≤ {@link #GRID_MAX_DIM}, else pairs when its envelope ratio is ≤ {@link #PAIR_MAX_RATIO},
         * else sequential.
         */
        AUTO,
        GRID,
        PAIRS,
        /** The sequential conditional-CDF inversion (O(n²) pair terms per Newton step): the old sampler. */
        SEQUENTIAL
    }

    /** Largest dimension for the grid envelope: 2^d children per split and (ρ/σ)-sized cells grow as (1/ρ)^d. */
    static final int GRID_MAX_DIM = 2;
    /**
     * The pair envelope is used up to this expected number of proposals per draw: a proposal costs O(n²) flops in a
     * BLAS product, the sequential inversion O(n² d) special-function calls per Newton step (tens of steps), so
     * pairs stay cheaper up to ratios of ~10³·d; 1000 keeps a margin.
     */
    static final double PAIR_MAX_RATIO = 1000;
    /** The pair envelope stores the positive pairs and B⁺: O(n²) memory, allowed up to this many points. */
    static final int PAIR_MAX_POINTS = 5000;
    /**
     * Mass of p outside the grid's bounding box that the grid envelope ignores (a total-variation error of the draws
     * of at most this): below the rounding of a double sum of order-one terms times 100.
     */
    static final double TAIL_MASS = 1e-14;
    /** The grid stops refining at this ∫e/Z (expected proposals per draw). */
    static final double GRID_TARGET_RATIO = 1.5;
    /** The grid refines up to max(this, number of draws) boxes: a box costs one density evaluation, like a proposal. */
    static final int GRID_MIN_CELL_BUDGET = 2048;
    /** Proposals evaluated together (one BLAS product each batch). */
    static final int BATCH = 1024;
    /** Rounds without a single acceptance after which sampling reports failure instead of looping. */
    static final int MAX_BARREN_ROUNDS = 10_000;
    /** Unit roundoff of double precision (Higham 2002, §2.2). */
    static final double UNIT_ROUNDOFF = 0x1p-53;

    private PsdSampler() {
    }

    static Matrix sample(PsdDensity p, int m, long seed, Method method, ProgressListener listener) {
        if (m < 1) {
            throw new IllegalArgumentException("number of samples must be >= 1, got " + m);
        }
        requireSamplable(p);
        if (method == Method.SEQUENTIAL) {
            return p.sampleSequential(m, seed, listener);
        }
        int d = p.dimension();
        double z = p.integral();
        if (!(z > 0) || !Double.isFinite(z)) {
            throw new IllegalArgumentException("psd density: cannot sample, its integral is " + z);
        }
        Envelope env;
        if (method == Method.GRID || (method == Method.AUTO && d <= GRID_MAX_DIM)) {
            if (d > GRID_MAX_DIM) {
                throw new IllegalArgumentException("grid sampler: dimension " + d + " > " + GRID_MAX_DIM);
            }
            env = new Grid(p, z, m);
        } else {
            if (p.points().rows() > PAIR_MAX_POINTS && method == Method.AUTO) {
                return p.sampleSequential(m, seed, listener);
            }
            Pairs pairs = new Pairs(p);
            if (method == Method.AUTO && pairs.mass / z > PAIR_MAX_RATIO) {
                return p.sampleSequential(m, seed, listener);
            }
            env = pairs;
        }
        return reject(p, env, m, seed, listener);
    }

    /** Checks the model: Gaussian kernel, product base measure, finite numbers. */
    static void requireSamplable(PsdDensity p) {
        if (!(p.kernel() instanceof GaussianKernel)) {
            throw new IllegalArgumentException("sampling needs the Gaussian kernel, model has " + p.kernel().spec());
        }
        if (p.base() instanceof BaseMeasure.Gaussian g && !g.isDiagonal()) {
            throw new IllegalArgumentException("sampling needs a diagonal Gaussian base measure");
        }
        requireFinite(p.pointsView(), "points");
        requireFinite(p.factorView(), "factor");
    }

    private static void requireFinite(Matrix a, String what) {
        for (int j = 0; j < a.cols(); j++) {
            for (int i = 0; i < a.rows(); i++) {
                if (!Double.isFinite(a.get(i, j))) {
                    throw new IllegalArgumentException("psd density: cannot sample, " + what + " has the non-finite "
                            + "value " + a.get(i, j) + " at row " + i + ", column " + j);
                }
            }
        }
    }

    /** An envelope e ≥ f·ν that can be drawn from and compared with f·ν at its proposals. */
    interface Envelope {
        /** Writes a proposal into x; returns a tag passed back to {@link #acceptance}. */
        double propose(SplittableRandom rng, double[] x);

        /**
         * f(x_j)ν(x_j)/e(x_j) for the proposals (rows of x) with tags, given K = k(points, x) (n×b) and f(x_j).
         */
        double[] acceptance(Matrix x, Matrix kx, double[] f, double[] tags);
    }

    private static Matrix reject(PsdDensity p, Envelope env, int m, long seed, ProgressListener listener) {
        long t0 = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        int d = p.dimension();
        SplittableRandom master = new SplittableRandom(seed);
        SplittableRandom[] streams = new SplittableRandom[m];
        for (int s = 0; s < m; s++) {
            streams[s] = master.split();
        }
        Matrix out = Matrix.zeros(m, d);
        int[] pending = new int[m];
        for (int s = 0; s < m; s++) {
            pending[s] = s;
        }
        int npend = m;
        int done = 0;
        int barren = 0;
        while (npend > 0) {
            int kept = 0;
            int before = done;
            int rounds = (npend + BATCH - 1) / BATCH;
            int np = npend;
            // each batch reads and advances only its own draws' streams, so the batches run on the workers in any
            // order and the round's outcome is the one of a loop over them
            List<Batch> res = batches(rounds, k -> {
                int start = k * BATCH;
                int b = Math.min(BATCH, np - start);
                Matrix x = Matrix.zeros(b, d);
                double[] xs = new double[d];
                double[] tags = new double[b];
                for (int j = 0; j < b; j++) {
                    tags[j] = env.propose(streams[pending[start + j]], xs);
                    for (int t = 0; t < d; t++) {
                        x.set(j, t, xs[t]);
                    }
                }
                Matrix kx = p.kernel().cross(p.pointsView(), x);
                double[] f = fFromCross(p.factorView(), kx);
                double[] acc = env.acceptance(x, kx, f, tags);
                boolean[] accepted = new boolean[b];
                for (int j = 0; j < b; j++) {
                    accepted[j] = streams[pending[start + j]].nextDouble() < acc[j];
                }
                return new Batch(x, accepted);
            });
            for (int k = 0; k < rounds; k++) {
                Batch bt = res.get(k);
                int start = k * BATCH;
                for (int j = 0; j < bt.accepted.length; j++) {
                    int s = pending[start + j];
                    if (bt.accepted[j]) {
                        for (int t = 0; t < d; t++) {
                            out.set(s, t, bt.x.get(j, t));
                        }
                        done++;
                    } else {
                        pending[kept++] = s;
                    }
                }
            }
            npend = kept;
            for (int c = before + 1; c <= done; c++) {
                lis.onProgress(ProgressListener.Event.of("sample", c, m, (System.nanoTime() - t0) * 1e-9));
            }
            barren = done == before ? barren + 1 : 0;
            if (barren > MAX_BARREN_ROUNDS) {
                throw new IllegalStateException("psd density sampling: no proposal accepted in " + MAX_BARREN_ROUNDS
                        + " rounds (" + done + " of " + m + " draws done); the envelope is too loose for this model");
            }
        }
        return out;
    }

    /** One batch of proposals of a rejection round: the proposals (rows) and which were accepted. */
    private record Batch(Matrix x, boolean[] accepted) {
    }

    /**
     * {@code task(0..count-1)}, results in index order: on the density rows' workers with one BLAS thread each when
     * the library runs on several threads (each task is a product of a few hundred columns, too small for a second
     * BLAS thread to gain, and on a busy machine its barrier waits cost 2–3×: docs/benchmarks/psd-scale.md §14), else
     * in a loop. The tasks must not share mutable state.
     */
    static <T> List<T> batches(int count, java.util.function.IntFunction<T> task) {
        if (count > 1 && Threads.get() > 1) {
            return LocalDensityRows.onWorkers(count, task);
        }
        List<T> out = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            out.add(task.apply(k));
        }
        return out;
    }

    /** f = ‖Rᵀ k‖² per column of kx (n×b). */
    static double[] fFromCross(Matrix factor, Matrix kx) {
        Matrix zq = Linalg.gemm(1.0, factor, true, kx, false);
        int q = zq.rows();
        double[] zd = zq.data();
        double[] out = new double[kx.cols()];
        for (int j = 0; j < out.length; j++) {
            double s = 0;
            for (int k = 0; k < q; k++) {
                double v = zd[k + j * q];
                s += v * v;
            }
            out[j] = s;
        }
        return out;
    }

    // ------------------------------------------------------------------ pairs

    /** The positive part of the pair expansion as a Gaussian mixture (see the class comment). */
    static final class Pairs implements Envelope {
        final double mass;
        private final Matrix bPlus;
        private final int[] pi;
        private final int[] pj;
        private final double[] cum;
        private final Matrix points;
        private final BaseMeasure base;
        private final double q;

        Pairs(PsdDensity p) {
            this.points = p.pointsView();
            this.base = p.base();
            double sigma = ((GaussianKernel) p.kernel()).sigma();
            this.q = sigma * sigma / 2;
            int n = points.rows();
            Matrix b = p.coefficients();
            Matrix mm = KernelIntegrals.gaussianProducts(sigma, points, base);
            int count = 0;
            for (int j = 0; j < n; j++) {
                for (int i = j; i < n; i++) {
                    if (b.get(i, j) > 0 && mm.get(i, j) > 0) {
                        count++;
                    }
                }
            }
            pi = new int[count];
            pj = new int[count];
            cum = new double[count];
            double acc = 0;
            int c = 0;
            for (int j = 0; j < n; j++) {
                for (int i = j; i < n; i++) {
                    double v = b.get(i, j);
                    if (v > 0 && mm.get(i, j) > 0) {
                        acc += v * mm.get(i, j) * (i == j ? 1 : 2); // both triangles
                        pi[c] = i;
                        pj[c] = j;
                        cum[c] = acc;
                        c++;
                    }
                }
            }
            mass = acc;
            double[] bd = b.data();
            for (int k = 0; k < bd.length; k++) {
                bd[k] = Math.max(bd[k], 0.0);
            }
            bPlus = b;
        }

        @Override
        public double propose(SplittableRandom rng, double[] x) {
            double u = rng.nextDouble() * mass;
            int k = Arrays.binarySearch(cum, u);
            k = k >= 0 ? Math.min(k + 1, cum.length - 1) : Math.min(-k - 1, cum.length - 1);
            int i = pi[k];
            int j = pj[k];
            for (int t = 0; t < x.length; t++) {
                double mt = 0.5 * (points.get(i, t) + points.get(j, t));
                if (base instanceof BaseMeasure.Gaussian g) {
                    double v = g.variances()[t];
                    double s = q + v;
                    x[t] = (mt * v + g.mean()[t] * q) / s + Math.sqrt(q * v / s) * rng.nextGaussian();
                } else if (base instanceof BaseMeasure.Box box) {
                    x[t] = SpecialFunctions.truncatedNormal(rng, mt, Math.sqrt(q), box.lo()[t], box.hi()[t]);
                } else {
                    x[t] = mt + Math.sqrt(q) * rng.nextGaussian();
                }
            }
            return 0;
        }

        @Override
        public double[] acceptance(Matrix x, Matrix kx, double[] f, double[] tags) {
            Matrix e = Linalg.gemm(1.0, bPlus, false, kx, false);
            int n = kx.rows();
            double[] kd = kx.data();
            double[] ed = e.data();
            double[] out = new double[f.length];
            for (int j = 0; j < f.length; j++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += kd[i + j * n] * ed[i + j * n];
                }
                out[j] = s > 0 ? f[j] / s : 0.0; // ν cancels: e = (φᵀB⁺φ)·ν
            }
            return out;
        }
    }

    // ------------------------------------------------------------------ grid

    /** The adaptive piecewise-constant envelope of the class comment (d ≤ {@link #GRID_MAX_DIM}). */
    static final class Grid implements Envelope {
        private final int d;
        private final double sigma;
        private final double gammaNorm;
        private final double roundingSlack;
        private final double[] rowNorms;
        private final Matrix points;
        private final BaseMeasure base;
        // cells: centre and half-width per coordinate, bound U (of f·ν) and mass U·volume
        private double[][] centre;
        private double[][] half;
        private double[] bound;
        private double[] cum;
        final double ratio;
        final int cells;

        Grid(PsdDensity p, double z, int draws) {
            this.points = p.pointsView();
            this.base = p.base();
            this.d = points.cols();
            this.sigma = ((GaussianKernel) p.kernel()).sigma();
            int n = points.rows();
            Matrix r = p.factorView();
            int q = r.cols();
            Matrix kr = Linalg.gemm(1.0, p.kernel().gram(points), false, r, false);
            Matrix g = Linalg.gemm(1.0, r, true, kr, false);
            g.symmetrizeInPlace();
            double[] ev = Linalg.eigvalsh(g);
            double lmax = 0;
            for (double v : ev) {
                lmax = Math.max(lmax, v);
            }
            this.gammaNorm = Math.sqrt(lmax);
            // rounding of z_k = Σ_i R_ik φ_i: |fl − exact| ≤ γ_{n+d+2} Σ_i |R_ik| (Higham 2002, eq. 3.5, φ ≤ 1 and the
            // kernel's own exp and distance rounding folded in by the extra d + 2), so ‖fl(Rᵀφ) − Rᵀφ‖ ≤ √q·max
            double maxCol = 0;
            rowNorms = new double[n];
            for (int k = 0; k < q; k++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += Math.abs(r.get(i, k));
                }
                maxCol = Math.max(maxCol, s);
            }
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k < q; k++) {
                    s += r.get(i, k) * r.get(i, k);
                }
                rowNorms[i] = Math.sqrt(s);
            }
            double gamma = (n + d + 2) * UNIT_ROUNDOFF / (1 - (n + d + 2) * UNIT_ROUNDOFF);
            this.roundingSlack = 4 * Math.sqrt(q) * gamma * maxCol;
            // bounding box: the points' box widened by L σ, L from the tail bound
            double[] a = new double[d];
            double[] bb = new double[d];
            for (int t = 0; t < d; t++) {
                a[t] = Double.POSITIVE_INFINITY;
                bb[t] = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < n; i++) {
                    a[t] = Math.min(a[t], points.get(i, t));
                    bb[t] = Math.max(bb[t], points.get(i, t));
                }
            }
            double sumNorms = 0;
            for (double v : rowNorms) {
                sumNorms += v;
            }
            double nuSup = nuSupremum();
            double widen = TAIL_START;
            while (widen < TAIL_MAX && tailBound(sumNorms, nuSup, a, bb, widen) > TAIL_MASS * z) {
                widen += TAIL_STEP;
            }
            double[] lo = new double[d];
            double[] hi = new double[d];
            for (int t = 0; t < d; t++) {
                lo[t] = a[t] - widen * sigma;
                hi[t] = bb[t] + widen * sigma;
                if (base instanceof BaseMeasure.Box box) {
                    lo[t] = Math.max(lo[t], box.lo()[t]);
                    hi[t] = Math.min(hi[t], box.hi()[t]);
                }
                if (!(lo[t] < hi[t])) {
                    throw new IllegalArgumentException("psd density: the base measure's box misses the points in "
                            + "coordinate " + t);
                }
            }
            // initial cells of side ≈ σ
            int[] per = new int[d];
            int total = 1;
            for (int t = 0; t < d; t++) {
                per[t] = Math.max(1, (int) Math.ceil((hi[t] - lo[t]) / sigma));
                total *= per[t];
            }
            List<double[]> cs = new ArrayList<>();
            List<double[]> hs = new ArrayList<>();
            for (int c = 0; c < total; c++) {
                double[] ce = new double[d];
                double[] hw = new double[d];
                int rem = c;
                for (int t = 0; t < d; t++) {
                    int k = rem % per[t];
                    rem /= per[t];
                    double w = (hi[t] - lo[t]) / per[t];
                    ce[t] = lo[t] + (k + 0.5) * w;
                    hw[t] = 0.5 * w;
                }
                cs.add(ce);
                hs.add(hw);
            }
            double[][] fj = evaluate(p, cs);
            double[] fc = fj[0];
            List<Double> fl = new ArrayList<>();
            List<Double> bl = new ArrayList<>(); // each box's bound, computed once
            for (int c = 0; c < fc.length; c++) {
                fl.add(fc[c]);
                bl.add(cellBound(cs.get(c), hs.get(c), fc[c], fj[1][c]));
            }
            int budget = Math.max(GRID_MIN_CELL_BUDGET, draws);
            int children = 1 << d;
            while (true) {
                int nc = cs.size();
                double[] mass = new double[nc];
                double[] excess = new double[nc];
                double totalMass = 0;
                for (int c = 0; c < nc; c++) {
                    double vol = volume(hs.get(c));
                    mass[c] = bl.get(c) * vol;
                    excess[c] = mass[c] - fl.get(c) * nuAt(cs.get(c)) * vol;
                    totalMass += mass[c];
                }
                if (totalMass <= GRID_TARGET_RATIO * z || nc + children > budget) {
                    break;
                }
                // split the boxes holding the larger half of the excess (at least one), within the budget
                Integer[] order = new Integer[nc];
                for (int c = 0; c < nc; c++) {
                    order[c] = c;
                }
                Arrays.sort(order, (u, v) -> Double.compare(excess[v], excess[u]));
                double sumEx = 0;
                for (double v : excess) {
                    sumEx += v;
                }
                int maxSplits = (budget - nc) / (children - 1);
                boolean[] split = new boolean[nc];
                double acc = 0;
                int ns = 0;
                for (int k = 0; k < nc && ns < maxSplits && (ns == 0 || acc < 0.5 * sumEx); k++) {
                    split[order[k]] = true;
                    acc += excess[order[k]];
                    ns++;
                }
                List<double[]> ncs = new ArrayList<>();
                List<double[]> nhs = new ArrayList<>();
                List<Double> nfl = new ArrayList<>();
                List<Double> nbl = new ArrayList<>();
                List<double[]> fresh = new ArrayList<>();
                List<double[]> freshH = new ArrayList<>();
                for (int c = 0; c < nc; c++) {
                    if (!split[c]) {
                        ncs.add(cs.get(c));
                        nhs.add(hs.get(c));
                        nfl.add(fl.get(c));
                        nbl.add(bl.get(c));
                        continue;
                    }
                    double[] ce = cs.get(c);
                    double[] hw = hs.get(c);
                    for (int ch = 0; ch < children; ch++) {
                        double[] cc = new double[d];
                        double[] hh = new double[d];
                        for (int t = 0; t < d; t++) {
                            hh[t] = 0.5 * hw[t];
                            cc[t] = ce[t] + (((ch >> t) & 1) == 0 ? -hh[t] : hh[t]);
                        }
                        fresh.add(cc);
                        freshH.add(hh);
                    }
                }
                double[][] ffj = evaluate(p, fresh);
                double[] ff = ffj[0];
                for (int k = 0; k < fresh.size(); k++) {
                    ncs.add(fresh.get(k));
                    nhs.add(freshH.get(k));
                    nfl.add(ff[k]);
                    nbl.add(cellBound(fresh.get(k), freshH.get(k), ff[k], ffj[1][k]));
                }
                cs = ncs;
                hs = nhs;
                fl = nfl;
                bl = nbl;
            }
            int nc = cs.size();
            centre = cs.toArray(new double[0][]);
            half = hs.toArray(new double[0][]);
            bound = new double[nc];
            cum = new double[nc];
            double acc = 0;
            for (int c = 0; c < nc; c++) {
                bound[c] = bl.get(c);
                acc += bound[c] * volume(half[c]);
                cum[c] = acc;
            }
            if (!(acc > 0)) {
                throw new IllegalArgumentException("psd density: cannot sample, the envelope has no mass");
            }
            ratio = acc / z;
            cells = nc;
        }

        /** Widening of the points' box in units of σ: start, step and cap of the search for the tail bound. */
        static final double TAIL_START = 3;
        private static final double SQRT3_HALF = Math.sqrt(3) / 2;
        static final double TAIL_STEP = 0.25;
        static final double TAIL_MAX = 60;

        /** f and ‖J‖_F at the box centres, J_kt = ∂_t g_k(c) = Σ_i R_ik (x_it − c_t)/σ² k(c, x_i). */
        private static double[][] evaluate(PsdDensity p, List<double[]> cs) {
            double[] out = new double[cs.size()];
            double[] jn = new double[cs.size()];
            int d = p.dimension();
            Matrix pts = p.pointsView();
            int n = pts.rows();
            double s2 = Math.pow(((GaussianKernel) p.kernel()).sigma(), 2);
            int count = (cs.size() + BATCH - 1) / BATCH;
            // batches write disjoint ranges of out and jn
            batches(count, k -> {
                int start = k * BATCH;
                int b = Math.min(BATCH, cs.size() - start);
                Matrix x = Matrix.zeros(b, d);
                for (int j = 0; j < b; j++) {
                    for (int t = 0; t < d; t++) {
                        x.set(j, t, cs.get(start + j)[t]);
                    }
                }
                Matrix kx = p.kernel().cross(pts, x);
                double[] f = fFromCross(p.factorView(), kx);
                System.arraycopy(f, 0, out, start, b);
                double[] kd = kx.data();
                double[] pd = pts.data();
                for (int t = 0; t < d; t++) {
                    Matrix dk = Matrix.zeros(n, b);
                    double[] dd = dk.data();
                    for (int j = 0; j < b; j++) {
                        double ct = x.get(j, t);
                        for (int i = 0; i < n; i++) {
                            dd[i + j * n] = kd[i + j * n] * (pd[i + t * n] - ct) / s2;
                        }
                    }
                    double[] g = fFromCross(p.factorView(), dk);
                    for (int j = 0; j < b; j++) {
                        jn[start + j] += g[j];
                    }
                }
                return null;
            });
            for (int j = 0; j < jn.length; j++) {
                jn[j] = Math.sqrt(jn[j]);
            }
            return new double[][] {out, jn};
        }

        /** sup over the box of f·ν (see the class comment). */
        private double cellBound(double[] c, double[] h, double fc, double jNorm) {
            double rho2 = 0;
            for (int t = 0; t < d; t++) {
                rho2 += h[t] * h[t];
            }
            double rho = Math.sqrt(rho2);
            double s2 = sigma * sigma;
            double dist = Math.sqrt(2 * -Math.expm1(-rho2 / (2 * s2)));
            double root = Math.sqrt(Math.max(fc, 0));
            double lip = root + gammaNorm * dist + roundingSlack;
            // second order: Γk_x = Γk_c + J(x − c) + r with ‖r‖ ≤ ‖Γ‖ (1/2) ρ² ‖(u·∇)²k‖_H/|u|² = ‖Γ‖ (√3/2) ρ²/σ²
            // (⟨(u·∇)²k_y, (u·∇)²k_y⟩_H = κ⁗(0)|u|⁴ = 3|u|⁴/σ⁴ for κ(r) = exp(−r²/(2σ²)))
            double taylor = root + jNorm * rho + gammaNorm * SQRT3_HALF * rho2 / s2
                    + roundingSlack * (1 + rho * Math.sqrt(d) / sigma);
            lip = Math.min(Math.min(lip, taylor), gammaNorm + roundingSlack); // ‖k_x‖_H = 1
            // far field: √f(x) ≤ Σ_i ‖R_i·‖ k(x, x_i) ≤ Σ_i ‖R_i·‖ exp(−dist(box, x_i)²/(2σ²))
            double far = 0;
            int n = points.rows();
            for (int i = 0; i < n && far < lip; i++) {
                double e = 0;
                for (int t = 0; t < d; t++) {
                    double g = Math.abs(points.get(i, t) - c[t]) - h[t];
                    if (g > 0) {
                        e += g * g;
                    }
                }
                far += rowNorms[i] * Math.exp(-e / (2 * sigma * sigma));
            }
            double s = Math.min(lip, far * (1 + 4 * (n + 2) * UNIT_ROUNDOFF));
            return s * s * nuMax(c, h);
        }

        private double volume(double[] h) {
            double v = 1;
            for (double w : h) {
                v *= 2 * w;
            }
            return v;
        }

        private double nuAt(double[] x) {
            return Math.exp(base.logDensity(x));
        }

        /** sup of ν's density over the box. */
        private double nuMax(double[] c, double[] h) {
            if (base instanceof BaseMeasure.Gaussian g) {
                double[] y = new double[d];
                for (int t = 0; t < d; t++) {
                    y[t] = Math.max(c[t] - h[t], Math.min(c[t] + h[t], g.mean()[t]));
                }
                return Math.exp(base.logDensity(y));
            }
            if (base instanceof BaseMeasure.Box b) {
                return Math.exp(-b.logVolume());
            }
            return 1.0;
        }

        private double nuSupremum() {
            if (base instanceof BaseMeasure.Gaussian g) {
                return Math.exp(base.logDensity(g.mean()));
            }
            if (base instanceof BaseMeasure.Box b) {
                return Math.exp(-b.logVolume());
            }
            return 1.0;
        }

        /**
         * Bound on ∫ f ν outside the points' box [a, b] widened by L σ: f(x) ≤ S² exp(−δ(x)²/σ²) with S = Σ_i ‖R_i·‖
         * and δ(x) the distance to [a, b]; ∫ over {δ_t ≥ Lσ} of exp(−δ_t²/σ²) is σ√π erfc(L), the other coordinates
         * give at most (b_s − a_s + σ√π) each, and a union bound over t sums them.
         */
        private double tailBound(double sumNorms, double nuSup, double[] a, double[] b, double widen) {
            double sp = sigma * Math.sqrt(Math.PI);
            double total = 0;
            for (int t = 0; t < d; t++) {
                double term = sp * SpecialFunctions.erfc(widen);
                for (int s = 0; s < d; s++) {
                    if (s != t) {
                        term *= b[s] - a[s] + sp;
                    }
                }
                total += term;
            }
            return sumNorms * sumNorms * nuSup * total;
        }

        @Override
        public double propose(SplittableRandom rng, double[] x) {
            double u = rng.nextDouble() * cum[cum.length - 1];
            int k = Arrays.binarySearch(cum, u);
            k = k >= 0 ? Math.min(k + 1, cum.length - 1) : Math.min(-k - 1, cum.length - 1);
            for (int t = 0; t < d; t++) {
                x[t] = centre[k][t] + half[k][t] * (2 * rng.nextDouble() - 1);
            }
            return k;
        }

        @Override
        public double[] acceptance(Matrix x, Matrix kx, double[] f, double[] tags) {
            double[] out = new double[f.length];
            for (int j = 0; j < f.length; j++) {
                double nu = Math.exp(base.logDensity(x.row(j)));
                out[j] = f[j] * nu / bound[(int) tags[j]];
            }
            return out;
        }
    }
}
