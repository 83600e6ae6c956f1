package org.psdkit.density;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.RowBlocks;

/**
 * GLM density p(x) = exp(g(x) − log Z)·ν(x), g(x) = Σ α_i k(x, x_i). A fit ({@link Baselines#glm}) sets log Z to the
 * importance-sampling estimate of log ∫ exp(g) dν ({@link #normaliser}) and records its relative standard error
 * ({@link #logZStandardError()}) and the Monte-Carlo normaliser of eq. 33 that training used
 * ({@link #trainingLogZ()}). {@link #integral} re-estimates ∫ exp(g − log Z) dν independently of both: in 1-D with
 * a box measure by a 2000-node Gauss–Legendre rule (accurate to rounding for smooth g), otherwise by
 * {@link #importanceIntegral()} with other draws. {@link #normaliserCheck()} is that importance estimate with its
 * standard error, in every dimension.
 */
public final class GlmDensity implements DensityModel {
    /** Nodes of the 1-D check rule (g is a smooth sum of bumps; 2000 nodes resolve widths down to ~1e-3 of the box). */
    static final int CHECK_NODES_1D = 2000;
    private final Kernel kernel;
    private final Matrix points;
    private final double[] alpha;
    private final double logZ;
    private final double logZStandardError;
    private final double trainingLogZ;
    private final BaseMeasure base;
    private final DensityDiagnostics diagnostics;
    private final long seed;
    /** {@link #normaliserCheck()}, computed once (the same seeded draws every time). */
    private volatile ImportanceIntegral.Estimate check;

    /** A GLM density whose log Z comes without a standard error (a model file written before it was recorded). */
    public GlmDensity(Kernel kernel, Matrix points, double[] alpha, double logZ, BaseMeasure base,
                      DensityDiagnostics diagnostics, long seed) {
        this(kernel, points, alpha, logZ, Double.NaN, Double.NaN, base, diagnostics, seed);
    }

    /**
     * @param logZStandardError the relative standard error of the estimate Z (≈ the standard error of log Z), NaN if
     *                          unknown
     * @param trainingLogZ      log of eq. 33's Monte-Carlo normaliser at the end of training, NaN if unknown
     */
    public GlmDensity(Kernel kernel, Matrix points, double[] alpha, double logZ, double logZStandardError,
                      double trainingLogZ, BaseMeasure base, DensityDiagnostics diagnostics, long seed) {
        this.kernel = kernel;
        this.points = points;
        this.alpha = alpha.clone();
        this.logZ = logZ;
        this.logZStandardError = logZStandardError;
        this.trainingLogZ = trainingLogZ;
        this.base = base;
        this.diagnostics = diagnostics;
        this.seed = seed;
    }

    /**
     * Z = ∫ exp(g) dν for g = Σ α_i k(·, x_i) by defensive importance sampling from ν, around the points and at the
     * maxima of exp(g)·ν ({@link ImportanceIntegral#estimateWithModes}), {@link Baselines#GLM_NORMALISER_SAMPLES}
     * draws seeded by {@code seed} mixed with {@link Baselines#GLM_NORMALISER_SEED_MIX} (other draws than the
     * training's and {@link #normaliserCheck()}'s).
     */
    static ImportanceIntegral.Estimate normaliser(Kernel kernel, Matrix points, double[] alpha, BaseMeasure base,
                                                  long seed) {
        return ImportanceIntegral.estimateWithModes(points, base, x -> RowBlocks.apply(x, points.rows(),
                xb -> Linalg.gemv(kernel.cross(points, xb), true, alpha)), seed ^ Baselines.GLM_NORMALISER_SEED_MIX,
                Baselines.GLM_NORMALISER_SAMPLES);
    }

    @Override
    public String type() {
        return Baselines.GLM;
    }

    @Override
    public int dimension() {
        return points.cols();
    }

    @Override
    public BaseMeasure base() {
        return base;
    }

    public Kernel kernel() {
        return kernel;
    }

    public Matrix points() {
        return points.copy();
    }

    public double[] alpha() {
        return alpha.clone();
    }

    public double logZ() {
        return logZ;
    }

    /** The relative standard error of the estimate of Z (≈ the standard error of log Z); NaN if not recorded. */
    public double logZStandardError() {
        return logZStandardError;
    }

    /** log of eq. 33's Monte-Carlo normaliser over the training draws of ν; NaN if not recorded. */
    public double trainingLogZ() {
        return trainingLogZ;
    }

    public long seed() {
        return seed;
    }

    public DensityDiagnostics diagnostics() {
        return diagnostics;
    }

    @Override
    public double[] logDensity(Matrix x) {
        double[] g = KernelProducts.transposedTimes(kernel, points, x, alpha);
        double[] ln = base.logDensity(x);
        for (int i = 0; i < g.length; i++) {
            g[i] = g[i] - logZ + ln[i];
        }
        return g;
    }

    @Override
    public double[] density(Matrix x) {
        double[] l = logDensity(x);
        for (int i = 0; i < l.length; i++) {
            l[i] = Math.exp(l[i]);
        }
        return l;
    }

    @Override
    public double integral() {
        int d = points.cols();
        if (d == 1 && base instanceof BaseMeasure.Box b) {
            double[][] gl = KernelIntegrals.gaussLegendre(CHECK_NODES_1D);
            double a = b.lo()[0];
            double c = b.hi()[0];
            Matrix nodes = Matrix.zeros(CHECK_NODES_1D, 1);
            for (int q = 0; q < CHECK_NODES_1D; q++) {
                nodes.set(q, 0, 0.5 * (a + c) + 0.5 * (c - a) * gl[0][q]);
            }
            double[] p = density(nodes); // includes ν = 1/(c − a)
            double s = 0;
            for (int q = 0; q < CHECK_NODES_1D; q++) {
                s += 0.5 * (c - a) * gl[1][q] * p[q];
            }
            return s;
        }
        return importanceIntegral();
    }

    /**
     * ∫ exp(g − log Z) dν by defensive importance sampling from ν, around the expansion points and at the maxima of
     * exp(g)·ν ({@link ImportanceIntegral#estimateWithModes}), seeded, {@link Baselines#GLM_CHECK_SAMPLES} draws.
     */
    public double importanceIntegral() {
        return normaliserCheck().value();
    }

    /**
     * The estimate of {@link #importanceIntegral()} with its logarithm (finite when the value overflows) and its
     * relative standard error; 1 up to that error when log Z is right.
     */
    public ImportanceIntegral.Estimate normaliserCheck() {
        ImportanceIntegral.Estimate c = check;
        if (c == null) {
            c = ImportanceIntegral.estimateWithModes(points, base, this::logG, seed ^ 0x5DEECE66DL,
                    Baselines.GLM_CHECK_SAMPLES);
            check = c;
        }
        return c;
    }

    /** g(x) − log Z (log of f with respect to ν). */
    private double[] logG(Matrix x) {
        double[] g = RowBlocks.apply(x, points.rows(), xb -> Linalg.gemv(kernel.cross(points, xb), true, alpha));
        for (int i = 0; i < g.length; i++) {
            g[i] -= logZ;
        }
        return g;
    }
}
