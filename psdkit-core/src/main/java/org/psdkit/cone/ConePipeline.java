package org.psdkit.cone;

import java.util.Map;
import java.util.Random;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Predictor;

/**
 * A fitted vector-valued (cone) model on raw features: the {@link Pipeline} of a heteroscedastic or quantile model,
 * plus the training points its kernel functions expand on (in the scaled space), the raw training box (for the dense
 * checks of {@code eval}: crossings, smallest variance) and, right after a fit that cross-validated, the selection.
 *
 * @param <P> the inner model
 */
public class ConePipeline<P extends Predictor> extends Pipeline<P> {
    /** Points of the dense check: a 1-D grid, or seeded uniform points in the bounding box for d > 1. */
    public static final int CHECK_POINTS = 2000;
    /** Seed of the bounding-box points of the dense check (fixed so that eval is reproducible). */
    public static final long CHECK_SEED = 20200707L;

    private final Matrix points;
    private final double[] rangeMin;
    private final double[] rangeMax;
    private final ConeGrid.Outcome selection;

    /**
     * @param header      common model fields
     * @param inner       the model in the scaled space
     * @param diagnostics what the fit reported (written to model files)
     * @param points      the (scaled) training points shared by the inner model's kernel functions
     * @param rangeMin    smallest raw training value per feature
     * @param rangeMax    largest raw training value per feature
     * @param selection   the cross-validation that chose kernel and λ, or null (given, or loaded from a file)
     */
    public ConePipeline(ModelHeader header, P inner, org.psdkit.model.Diagnostics diagnostics, Matrix points,
                        double[] rangeMin, double[] rangeMax, ConeGrid.Outcome selection) {
        this(header, inner, null, diagnostics, points, rangeMin, rangeMax, selection);
    }

    /**
     * As {@link #ConePipeline(ModelHeader, Predictor, org.psdkit.model.Diagnostics, Matrix, double[], double[],
     * ConeGrid.Outcome)} with the family's view of the header's options (null: as recorded).
     */
    protected ConePipeline(ModelHeader header, P inner, org.psdkit.model.HyperParameters hyperParameters,
                           org.psdkit.model.Diagnostics diagnostics, Matrix points, double[] rangeMin,
                           double[] rangeMax, ConeGrid.Outcome selection) {
        super(header, inner, hyperParameters, diagnostics);
        int d = header.d();
        if (points.cols() != d || rangeMin.length != d || rangeMax.length != d) {
            throw new IllegalArgumentException("points and the training range need " + d + " features");
        }
        this.points = points;
        this.rangeMin = rangeMin.clone();
        this.rangeMax = rangeMax.clone();
        this.selection = selection;
    }

    /** The training points in the scaled space (the model file's {@code numbers.points}). */
    public Matrix points() {
        return points;
    }

    /** Smallest raw training value per feature. */
    public double[] rangeMin() {
        return rangeMin.clone();
    }

    /** Largest raw training value per feature. */
    public double[] rangeMax() {
        return rangeMax.clone();
    }

    /** How kernel and λ were chosen by cross-validation, or null when they were given (or the model was loaded). */
    public ConeGrid.Outcome selection() {
        return selection;
    }

    /** Smallest and largest value per column of x: {lo, hi}. */
    public static double[][] range(Matrix x) {
        int d = x.cols();
        double[] lo = new double[d];
        double[] hi = new double[d];
        java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
        java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < x.rows(); i++) {
            for (int j = 0; j < d; j++) {
                lo[j] = Math.min(lo[j], x.get(i, j));
                hi[j] = Math.max(hi[j], x.get(i, j));
            }
        }
        return new double[][] {lo, hi};
    }

    /** {@link #CHECK_POINTS} raw points over the training box: an even grid for d = 1, seeded uniform otherwise. */
    public Matrix densePoints() {
        return densePoints(rangeMin, rangeMax);
    }

    /** {@link #CHECK_POINTS} raw points over the box [lo, hi]. */
    public static Matrix densePoints(double[] lo, double[] hi) {
        int d = lo.length;
        Matrix g = Matrix.zeros(CHECK_POINTS, d);
        if (d == 1) {
            for (int i = 0; i < CHECK_POINTS; i++) {
                g.set(i, 0, lo[0] + (hi[0] - lo[0]) * i / (CHECK_POINTS - 1));
            }
        } else {
            Random rnd = new Random(CHECK_SEED);
            for (int i = 0; i < CHECK_POINTS; i++) {
                for (int j = 0; j < d; j++) {
                    g.set(i, j, lo[j] + (hi[j] - lo[j]) * rnd.nextDouble());
                }
            }
        }
        return g;
    }
}
