package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.tribuo.Dataset;
import org.tribuo.Example;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.classification.Label;
import org.tribuo.provenance.ModelProvenance;

/**
 * The soft-margin SVM as a Tribuo {@code Trainer<Label>}: psdkit's {@link SvmTrainer} (SMO with a fixed kernel).
 * Every example's label goes to psdkit as its class token, so the trainer takes as many classes as psdkit's SVM
 * does (two today: psdkit refuses a third, naming the classes); the model's scores are the decision value as a
 * margin, or per-class scores and probabilities when the psdkit classifier outputs them
 * ({@link PsdkitClassificationModel}).
 */
public final class PsdkitSvmTrainer extends PsdkitTrainer<Label> {

    /** C when none is configured. */
    public static final double DEFAULT_C = 1.0;

    @Config(description = "Box constraint C > 0.")
    private double c = DEFAULT_C;

    @Config(description = "Stopping tolerance of SMO (LIBSVM's).")
    private double tolerance = SvmTrainer.Options.DEFAULT_TOLERANCE;

    @Config(description = "Memory for kernel values, MB.")
    private int cacheMb = SvmTrainer.DEFAULT_CACHE_MB;

    /** For Tribuo's configuration system: the defaults, {@value PsdkitTrainer#DEFAULT_KERNEL}, C = 1. */
    public PsdkitSvmTrainer() {
    }

    /** The SVM with {@code kernel} (psdkit's kernel string) and C, no scaling. */
    public PsdkitSvmTrainer(String kernel, double c) {
        this.kernel = kernel;
        this.c = c;
        check();
    }

    /** The fit of psdkit's options. */
    public PsdkitSvmTrainer(SvmTrainer.Options options) {
        this.kernel = options.kernel().spec();
        this.scale = options.scale();
        this.c = options.c();
        this.tolerance = options.tolerance();
        this.cacheMb = options.cacheMb();
        check();
    }

    @Override
    public Trainer<? extends Model> psdkitTrainer() {
        return new SvmTrainer(new SvmTrainer.Options(parsedKernel(), c, tolerance, cacheMb, scale));
    }

    @Override
    protected org.psdkit.data.Dataset dataset(Matrix x, String[] featureNames, Dataset<Label> examples) {
        String[] labels = new String[examples.size()];
        int i = 0;
        for (Example<Label> e : examples) {
            labels[i++] = e.getOutput().getLabel();
        }
        return new org.psdkit.data.Dataset(x, null, labels, featureNames, "label", examples.getSourceDescription());
    }

    @Override
    protected PsdkitClassificationModel wrap(ModelProvenance provenance, ImmutableFeatureMap features,
                                             ImmutableOutputInfo<Label> outputs, Model fitted) {
        if (!(fitted instanceof Classifier classifier)) {
            throw new IllegalStateException("psdkit's " + fitted.type() + " trainer returned no classifier");
        }
        return new PsdkitClassificationModel("psdkit-" + fitted.type(), provenance, features, outputs, classifier);
    }

    @Override
    protected Class<PsdkitClassificationModel> modelClass() {
        return PsdkitClassificationModel.class;
    }
}
