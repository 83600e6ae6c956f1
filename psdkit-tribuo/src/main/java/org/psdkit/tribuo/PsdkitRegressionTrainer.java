package org.psdkit.tribuo;

import java.util.Arrays;
import org.psdkit.linalg.Matrix;
import org.tribuo.Dataset;
import org.tribuo.Example;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.provenance.ModelProvenance;
import org.tribuo.regression.Regressor;

/**
 * The common part of psdkit's regression trainers in Tribuo: one target dimension (psdkit's families fit one
 * target; a data set with several dimensions is refused, naming them), fitted into a {@link PsdkitRegressionModel}.
 */
public abstract class PsdkitRegressionTrainer extends PsdkitTrainer<Regressor> {

    /** The defaults of {@link PsdkitTrainer}. */
    protected PsdkitRegressionTrainer() {
    }

    @Override
    protected org.psdkit.data.Dataset dataset(Matrix x, String[] featureNames, Dataset<Regressor> examples) {
        ImmutableOutputInfo<Regressor> info = examples.getOutputIDInfo();
        if (info.size() != 1) {
            String[] dims = new String[info.size()];
            for (int k = 0; k < dims.length; k++) {
                dims[k] = info.getOutput(k).getNames()[0];
            }
            throw new IllegalArgumentException(getClass().getSimpleName() + " fits one target; the data set "
                    + examples.getSourceDescription() + " has " + dims.length + " dimensions "
                    + Arrays.toString(dims));
        }
        String target = info.getOutput(0).getNames()[0];
        double[] y = new double[examples.size()];
        int i = 0;
        for (Example<Regressor> e : examples) {
            y[i++] = e.getOutput().getValues()[0];
        }
        return new org.psdkit.data.Dataset(x, y, null, featureNames, target, examples.getSourceDescription());
    }

    @Override
    protected PsdkitRegressionModel wrap(ModelProvenance provenance, ImmutableFeatureMap features,
                                         ImmutableOutputInfo<Regressor> outputs, org.psdkit.model.Model fitted) {
        return new PsdkitRegressionModel("psdkit-" + fitted.type(), provenance, features,
                PsdkitRegressionModel.outputInfo(fitted, outputs), fitted);
    }

    @Override
    protected Class<PsdkitRegressionModel> modelClass() {
        return PsdkitRegressionModel.class;
    }
}
