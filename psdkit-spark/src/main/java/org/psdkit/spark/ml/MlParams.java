package org.psdkit.spark.ml;

import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.Params;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.Identifiable;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.ParameterException;

/**
 * The params the estimators share, built for one owner (spark.ml params belong to the instance whose uid they
 * carry), with the same names and documentation everywhere so that {@code copyValues} carries them from an estimator
 * to its model and {@code ParamGridBuilder} grids apply to each.
 */
final class MlParams {

    /** Default kernel: the command line's {@code --kernel} default. */
    static final String DEFAULT_KERNEL = "gaussian(sigma=1)";

    private MlParams() {
    }

    static Param<String> featuresCol(Identifiable p) {
        return new Param<>(p, "featuresCol", "features column name: a vector column (e.g. VectorAssembler's output)");
    }

    static Param<String> labelCol(Identifiable p) {
        return new Param<>(p, "labelCol", "label column name: a numeric column");
    }

    static Param<String> weightCol(Identifiable p) {
        return new Param<>(p, "weightCol", "sample weight column name: a numeric column of weights >= 0 and finite "
                + "(unset or empty: equal weights)");
    }

    static IntParam blockRows(Identifiable p) {
        return new IntParam(p, "blockRows", "rows of a partition scored by one Model.predict call (a partition of at "
                + "most this many rows is scored as Model.predict scores those rows, bit for bit); >= 1",
                ParamValidators.gtEq(1));
    }

    static Param<String> predictionCol(Identifiable p) {
        return new Param<>(p, "predictionCol", "prediction column name");
    }

    static Param<String> densityCol(Identifiable p) {
        return new Param<>(p, "densityCol", "density column name");
    }

    static DoubleArrayParam taus(Params p) {
        return new DoubleArrayParam(p, "taus", "quantile levels, strictly increasing in (0, 1)");
    }

    static StringArrayParam quantileCols(Params p) {
        return new StringArrayParam(p, "quantileCols", "output column names, one per level (unset: q and the "
                + "level with '_' for '.', e.g. q0_25)");
    }

    static Param<String> kernel(Identifiable p) {
        return new Param<>(p, "kernel", "the kernel as a psdkit kernel string, e.g. gaussian(sigma=1) or "
                + "laplacian(sigma=2) + 0.01*delta (org.psdkit.kernel.Kernels)");
    }

    static DoubleParam sigma(Identifiable p) {
        return new DoubleParam(p, "sigma", "kernel width: when set, replaces every sigma of the kernel string (the "
                + "grid parameter of a CrossValidator); > 0", ParamValidators.gt(0));
    }

    static DoubleParam lambda(Identifiable p, String what) {
        return new DoubleParam(p, "lambda", what + "; >= 0", ParamValidators.gtEq(0));
    }

    static IntParam anchors(Identifiable p) {
        return new IntParam(p, "anchors", "number m of Nystrom anchors (uniform rows of the training data, the "
                + "single-machine trainer's choice for the same seed); >= 1", ParamValidators.gtEq(1));
    }

    static LongParam seed(Identifiable p) {
        return new LongParam(p, "seed", "seed of the anchor choice");
    }

    static IntParam maxIter(Identifiable p, String what) {
        return new IntParam(p, "maxIter", what + "; >= 1", ParamValidators.gtEq(1));
    }

    static DoubleParam tol(Identifiable p, String what) {
        return new DoubleParam(p, "tol", what + "; in (0, 1)", ParamValidators.inRange(0, 1, false, false));
    }

    static BooleanParam center(Identifiable p) {
        return new BooleanParam(p, "center", "subtract the training mean of the label and add it back");
    }

    /**
     * The kernel of {@code kernel}, with {@code sigma} applied when set ({@link Kernel#withParameter}); an error names
     * the param.
     */
    static Kernel kernel(Params owner, Param<String> kernel, DoubleParam sigma) {
        String spec = owner.getOrDefault(kernel);
        Kernel k;
        try {
            k = Kernels.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new ParameterException("kernel", "is not a kernel string: " + e.getMessage());
        }
        if (owner.isDefined(sigma)) {
            try {
                k = k.withParameter("sigma", (Double) owner.getOrDefault(sigma));
            } catch (IllegalArgumentException e) {
                throw new ParameterException("sigma", "does not apply to the kernel " + spec + ": " + e.getMessage());
            }
        }
        return k;
    }
}
