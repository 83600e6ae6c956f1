package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import com.oracle.labs.mlrg.olcut.config.PropertyException;
import com.oracle.labs.mlrg.olcut.provenance.Provenance;
import java.time.OffsetDateTime;
import java.util.Map;
import java.util.TreeMap;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.tribuo.Dataset;
import org.tribuo.Example;
import org.tribuo.Feature;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.Output;
import org.tribuo.Trainer;
import org.tribuo.provenance.ModelProvenance;
import org.tribuo.provenance.TrainerProvenance;
import org.tribuo.provenance.impl.TrainerProvenanceImpl;

/**
 * The common part of psdkit's Tribuo trainers: the {@code @Config} fields every family has (the kernel as psdkit's
 * kernel string, the feature scaling), Tribuo's invocation count and provenance ({@link TrainerProvenanceImpl} over
 * the {@code @Config} fields, as Tribuo's own trainers), and the fit: the Tribuo data set becomes a psdkit
 * {@link org.psdkit.data.Dataset} (one column per feature of the data set's feature map, in its id order; a feature an
 * example lacks is 0), the psdkit trainer of {@link #psdkitTrainer()} fits it, and the fitted model is wrapped in a
 * {@link PsdkitModel}. Example weights go to the families that take sample weights (those overriding
 * {@link #fit(org.psdkit.model.Trainer, org.psdkit.data.Dataset, double[])}); the others do not use them.
 *
 * <p>The {@code @Config} fields are the psdkit options record's components, under the same names; they are checked
 * by the record ({@link #postConfig()} turns its {@link ParameterException} into OLCUT's {@link PropertyException},
 * naming the field).
 *
 * @param <T> the Tribuo output type
 */
public abstract class PsdkitTrainer<T extends Output<T>> implements Trainer<T> {

    /** The kernel when none is configured. */
    public static final String DEFAULT_KERNEL = "gaussian(sigma=1)";

    @Config(description = "The kernel, as psdkit's kernel string: gaussian(sigma=1), laplacian(sigma=0.5), "
            + "polynomial(degree=2,c=1), sums and products of kernels, ... (docs/kernels.md).")
    protected String kernel = DEFAULT_KERNEL;

    @Config(description = "The feature scaling fitted on the training data: NONE, MINMAX or ZSCORE.")
    protected Scaler.Kind scale = Scaler.Kind.NONE;

    private int invocationCount = 0;

    /** The defaults: {@value #DEFAULT_KERNEL}, no scaling. */
    protected PsdkitTrainer() {
    }

    /** The psdkit trainer of the configured options (checked by the options record: {@link ParameterException}). */
    public abstract org.psdkit.model.Trainer<? extends org.psdkit.model.Model> psdkitTrainer();

    /** The psdkit data set of a Tribuo one: the target (numeric or labels) added to the feature matrix. */
    protected abstract org.psdkit.data.Dataset dataset(Matrix x, String[] featureNames, Dataset<T> examples);

    /** The Tribuo model around a fitted psdkit model. */
    protected abstract PsdkitModel<T> wrap(ModelProvenance provenance, ImmutableFeatureMap features,
                                           ImmutableOutputInfo<T> outputs, org.psdkit.model.Model fitted);

    /** The Tribuo model class, as the provenance names it. */
    protected abstract Class<? extends PsdkitModel<T>> modelClass();

    /** The configured kernel, parsed. */
    protected Kernel parsedKernel() {
        try {
            return Kernels.parse(kernel);
        } catch (ParameterException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new ParameterException("kernel", "is not a psdkit kernel string: " + e.getMessage());
        }
    }

    /**
     * Checks the fields by building the psdkit options record (the constructors call it).
     *
     * @throws ParameterException naming the field, as the options record does
     */
    protected final void check() {
        psdkitTrainer();
    }

    /** Checks the configured fields as {@link #check()}, reporting a bad one as OLCUT does. */
    @Override
    public void postConfig() {
        try {
            psdkitTrainer();
        } catch (ParameterException e) {
            throw new PropertyException("", e.parameter(), e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new PropertyException("", "", e.getMessage());
        }
    }

    @Override
    public PsdkitModel<T> train(Dataset<T> examples) {
        return train(examples, java.util.Collections.emptyMap());
    }

    @Override
    public PsdkitModel<T> train(Dataset<T> examples, Map<String, Provenance> runProvenance) {
        return train(examples, runProvenance, INCREMENT_INVOCATION_COUNT);
    }

    @Override
    public synchronized PsdkitModel<T> train(Dataset<T> examples, Map<String, Provenance> runProvenance,
                                             int invocationCount) {
        if (examples.size() == 0) {
            throw new IllegalArgumentException("the training data set " + examples.getSourceDescription()
                    + " is empty");
        }
        if (invocationCount != INCREMENT_INVOCATION_COUNT) {
            setInvocationCount(invocationCount);
        }
        org.psdkit.model.Trainer<? extends org.psdkit.model.Model> trainer = psdkitTrainer();
        TrainerProvenance trainerProvenance = getProvenance();
        ModelProvenance provenance = new ModelProvenance(modelClass().getName(), OffsetDateTime.now(),
                examples.getProvenance(), trainerProvenance, runProvenance);
        this.invocationCount++;
        ImmutableFeatureMap features = examples.getFeatureIDMap();
        String[] names = new String[features.size()];
        for (int j = 0; j < names.length; j++) {
            names[j] = features.get(j).getName();
        }
        double[][] rows = new double[examples.size()][names.length];
        double[] weights = new double[examples.size()];
        boolean weighted = false;
        int i = 0;
        for (Example<T> e : examples) {
            weights[i] = e.getWeight();
            weighted |= weights[i] != 1;
            for (Feature f : e) {
                int j = features.getID(f.getName());
                if (j >= 0) {
                    rows[i][j] = f.getValue();
                }
            }
            i++;
        }
        org.psdkit.data.Dataset data = dataset(Matrix.of(rows), names, examples);
        org.psdkit.model.Model fitted = weighted ? fit(trainer, data, weights) : trainer.fit(data);
        return wrap(provenance, features, examples.getOutputIDInfo(), fitted);
    }

    /**
     * Fits data whose examples carry weights other than 1. A family that takes sample weights overrides this (and
     * its trainer implements Tribuo's {@link org.tribuo.WeightedExamples}); the others fit without them.
     */
    protected org.psdkit.model.Model fit(org.psdkit.model.Trainer<? extends org.psdkit.model.Model> trainer,
                                         org.psdkit.data.Dataset data, double[] weights) {
        return trainer.fit(data);
    }

    @Override
    public int getInvocationCount() {
        return invocationCount;
    }

    @Override
    public synchronized void setInvocationCount(int invocationCount) {
        if (invocationCount < 0) {
            throw new IllegalArgumentException("The supplied invocationCount is less than zero.");
        }
        this.invocationCount = invocationCount;
    }

    @Override
    public TrainerProvenance getProvenance() {
        return new TrainerProvenanceImpl(this);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + new TreeMap<>(getProvenance().getConfiguredParameters());
    }
}
