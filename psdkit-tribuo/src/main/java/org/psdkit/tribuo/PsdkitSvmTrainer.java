package org.psdkit.tribuo;

import com.oracle.labs.mlrg.olcut.config.Config;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.tribuo.Dataset;
import org.tribuo.Example;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.ImmutableOutputInfo;
import org.tribuo.WeightedExamples;
import org.tribuo.classification.Label;
import org.tribuo.provenance.ModelProvenance;

/**
 * The soft-margin SVM as a Tribuo {@code Trainer<Label>}: psdkit's {@link SvmTrainer} (SMO with a fixed kernel).
 * Two classes are one SVM, more are LIBSVM's one-vs-one (Hsu &amp; Lin 2002), and with {@code probability} the model
 * gives class probabilities: Platt sigmoids per pair on out-of-fold decision values, coupled by Wu, Lin &amp; Weng
 * 2004 (a probability model is one-vs-one even for two classes). {@code classWeight} multiplies C per class
 * ({@link ClassWeights#parse}: {@code label=weight,...} or {@code balanced}), and Tribuo's example weights are
 * psdkit's sample weights, C_i = C·w_i, when any of them differs from 1 (so an unweighted data set is fitted exactly
 * as psdkit fits it without weights). Every example's label goes to psdkit as its class token. The model's scores
 * ({@link PsdkitClassificationModel}) are the decision value as a margin (binary), the votes (one-vs-one) or the
 * probabilities p(label) (with {@code probability}).
 */
public final class PsdkitSvmTrainer extends PsdkitTrainer<Label> implements WeightedExamples {

    /** C when none is configured. */
    public static final double DEFAULT_C = 1.0;

    @Config(description = "Box constraint C > 0.")
    private double c = DEFAULT_C;

    @Config(description = "Stopping tolerance of SMO (LIBSVM's).")
    private double tolerance = SvmTrainer.Options.DEFAULT_TOLERANCE;

    @Config(description = "Memory for kernel values, MB.")
    private int cacheMb = SvmTrainer.DEFAULT_CACHE_MB;

    @Config(description = "Fit class probabilities (Platt sigmoids on 5-fold out-of-fold decision values, coupled "
            + "by Wu, Lin & Weng 2004); the model is then one-vs-one even for two classes.")
    private boolean probability = false;

    @Config(description = "Per-class weights of C: 'label=weight,label=weight,...' or 'balanced'; empty: none.")
    private String classWeight = "";

    @Config(description = "Seed of the probability folds.")
    private long seed = SvmTrainer.Options.DEFAULT_SEED;

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
        if (options.isNu()) {
            throw new ParameterException("nu", "selects psdkit's nu-SVC, which this trainer does not fit; use C");
        }
        this.probability = options.probability();
        this.classWeight = options.classWeight() == null ? "" : options.classWeight().toString();
        this.seed = options.seed();
        check();
    }

    @Override
    public Trainer<? extends Model> psdkitTrainer() {
        ClassWeights weights = classWeight == null || classWeight.isBlank() ? null : ClassWeights.parse(classWeight);
        return new SvmTrainer(new SvmTrainer.Options(parsedKernel(), c, tolerance, cacheMb, scale,
                SvmTrainer.Options.C_SVC, probability, weights, seed));
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

    /** psdkit's SVM takes sample weights: row i's bound is C_i = C·w_i. */
    @Override
    protected Model fit(Trainer<? extends Model> trainer, org.psdkit.data.Dataset data, double[] weights) {
        return ((SvmTrainer) trainer).fit(data, weights, ProgressListener.NONE);
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
