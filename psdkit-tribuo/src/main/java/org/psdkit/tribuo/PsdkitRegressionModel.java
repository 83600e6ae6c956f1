package org.psdkit.tribuo;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.ArrayList;
import java.util.List;
import org.psdkit.linalg.Matrix;
import org.tribuo.Example;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.Model;
import org.tribuo.MutableOutputInfo;
import org.tribuo.Prediction;
import org.tribuo.provenance.ModelProvenance;
import org.tribuo.regression.RegressionFactory;
import org.tribuo.regression.Regressor;

/**
 * A psdkit regression model in Tribuo. Its {@link Regressor} outputs follow the psdkit model's output columns:
 * <ul>
 *   <li>one column ({@code prediction}: KRR, Nyström KRR, PSD regression): the training target's dimension;</li>
 *   <li>{@code mean}, {@code variance} (heteroscedastic regression): the training target's dimension with the mean
 *       as its value and the predicted variance as its variance, so that Tribuo's evaluators score the mean;</li>
 *   <li>any other set of columns ({@code q0.1}, {@code q0.5}, … of quantile regression): one dimension per column,
 *       named as the column.</li>
 * </ul>
 */
public final class PsdkitRegressionModel extends PsdkitModel<Regressor> {
    private static final long serialVersionUID = 1L;

    /** How the psdkit outputs map to a {@link Regressor}. */
    enum Shape {
        /** One output column, one dimension named as the target. */
        SINGLE,
        /** {@code mean}, {@code variance}: one dimension named as the target, with its variance. */
        MEAN_VARIANCE,
        /** One dimension per output column, named as the column. */
        COLUMNS
    }

    private final Shape shape;
    /** The dimension names of the predicted {@link Regressor} (before Tribuo sorts them), one per output column. */
    private final String[] dimensions;

    PsdkitRegressionModel(String name, ModelProvenance provenance, ImmutableFeatureMap featureIDMap,
                          ImmutableOutputInfo<Regressor> outputIDInfo, org.psdkit.model.Model model) {
        super(name, provenance, featureIDMap, outputIDInfo, false, model);
        this.shape = shape(model);
        this.dimensions = shape == Shape.COLUMNS ? model.outputColumns().toArray(new String[0])
                : new String[] {outputIDInfo.getOutput(0).getNames()[0]};
    }

    /** The output shape of a psdkit model. */
    static Shape shape(org.psdkit.model.Model model) {
        List<String> c = model.outputColumns();
        if (c.size() == 1) {
            return Shape.SINGLE;
        }
        if (c.equals(List.of("mean", "variance"))) {
            return Shape.MEAN_VARIANCE;
        }
        return Shape.COLUMNS;
    }

    /**
     * The output domain of the model: the training data's for one dimension named as the target, else one dimension
     * per psdkit output column.
     */
    static ImmutableOutputInfo<Regressor> outputInfo(org.psdkit.model.Model model,
                                                      ImmutableOutputInfo<Regressor> training) {
        if (shape(model) != Shape.COLUMNS) {
            return training;
        }
        List<String> c = model.outputColumns();
        MutableOutputInfo<Regressor> info = new RegressionFactory().generateInfo();
        info.observe(new Regressor(c.toArray(new String[0]), new double[c.size()]));
        return info.generateImmutableOutputInfo();
    }

    @Override
    protected List<Prediction<Regressor>> predictions(Matrix outputs, int[] used, List<Example<Regressor>> examples) {
        List<Prediction<Regressor>> out = new ArrayList<>(examples.size());
        for (int i = 0; i < examples.size(); i++) {
            Regressor r = switch (shape) {
                case SINGLE -> new Regressor(dimensions[0], outputs.get(i, 0));
                case MEAN_VARIANCE -> new Regressor(dimensions[0], outputs.get(i, 0), outputs.get(i, 1));
                case COLUMNS -> {
                    double[] v = new double[dimensions.length];
                    for (int k = 0; k < v.length; k++) {
                        v[k] = outputs.get(i, k);
                    }
                    yield new Regressor(dimensions, v);
                }
            };
            out.add(new Prediction<>(r, used[i], examples.get(i)));
        }
        return out;
    }

    @Override
    protected Model<Regressor> copy(String newName, ModelProvenance newProvenance) {
        return new PsdkitRegressionModel(newName, newProvenance, featureIDMap, outputIDInfo, unwrap());
    }

    /** Tribuo's protobuf loader ({@link Model#deserialize}) calls this. */
    public static PsdkitRegressionModel deserializeFromProto(int version, String className, Any message)
            throws InvalidProtocolBufferException {
        Parts p = parts(version, className, message);
        if (!(p.carrier().outputDomain().getOutput(0) instanceof Regressor)) {
            throw new IllegalStateException("Invalid protobuf, output domain is not a regression domain, found "
                    + p.carrier().outputDomain().getClass());
        }
        @SuppressWarnings("unchecked") // checked above
        ImmutableOutputInfo<Regressor> info = (ImmutableOutputInfo<Regressor>) p.carrier().outputDomain();
        return new PsdkitRegressionModel(p.carrier().name(), p.carrier().provenance(), p.carrier().featureDomain(),
                info, p.model());
    }
}
