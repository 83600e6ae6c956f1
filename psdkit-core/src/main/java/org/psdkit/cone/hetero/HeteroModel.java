package org.psdkit.cone.hetero;

import java.util.List;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.Diagnostics;
import org.psdkit.cone.ScalarFunction;
import org.psdkit.cone.TargetScaling;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

/**
 * A fitted heteroscedastic Gaussian model: η(x), θ(x) from the blocks, mean = center + scale·η/θ and
 * variance = scale²/θ, both returned.
 *
 * <p>For the PSD, NCM and GLM methods θ ≥ 0 everywhere; θ is floored at {@link #PRECISION_FLOOR} times the largest
 * fitted training precision so that the outputs stay finite where the model has no information (far outside the
 * data every kernel value underflows). PNM is returned unfloored: its θ can be ≤ 0 away from the training points,
 * which is the defect the comparison shows.
 */
public record HeteroModel(HeteroscedasticRegression.Method method, Kernel kernel, double lambda,
                          double frobeniusWeight, List<ScalarFunction> functions, double[][] directions,
                          TargetScaling scaling, double thetaMaxTrain, Diagnostics diagnostics) implements Predictor {

    public static final String TYPE = "hetero";

    /**
     * Smallest precision used for prediction, relative to the largest training precision: the predicted variance is
     * at most 1e12 times the smallest fitted training variance, far beyond any data-supported value.
     */
    public static final double PRECISION_FLOOR = 1e-12;

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public String[] outputColumns() {
        return new String[] {"mean", "variance"};
    }

    /** Natural parameters (η, θ) in standardised units, n×2, unfloored. */
    public Matrix natural(Matrix x) {
        return ConeDualSolver.combine(functions, directions, x);
    }

    @Override
    public Matrix predict(Matrix x) {
        Matrix z = natural(x);
        Matrix out = Matrix.zeros(x.rows(), 2);
        double floor = PRECISION_FLOOR * thetaMaxTrain;
        for (int i = 0; i < x.rows(); i++) {
            double eta = z.get(i, 0);
            double th = z.get(i, 1);
            if (method != HeteroscedasticRegression.Method.PNM && th < floor) {
                th = floor;
            }
            out.set(i, 0, scaling.center() + scaling.scale() * eta / th);
            out.set(i, 1, scaling.scale() * scaling.scale() / th);
        }
        return out;
    }

    /** Mean Gaussian negative log-likelihood of (x, y) under the predicted mean and variance (+∞ if v ≤ 0). */
    public static double nll(Matrix pred, double[] y) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            double v = pred.get(i, 1);
            if (!(v > 0) || !Double.isFinite(v)) {
                return Double.POSITIVE_INFINITY;
            }
            double r = y[i] - pred.get(i, 0);
            s += 0.5 * Math.log(2 * Math.PI * v) + r * r / (2 * v);
        }
        return s / y.length;
    }
}
