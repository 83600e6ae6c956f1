package org.psdkit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.classify.mkl.KernelLearning;
import org.psdkit.classify.mkl.SimpleMklTrainer;
import org.psdkit.classify.mkl.TkSvmTrainer;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.RidgeTrainer;
import org.psdkit.regression.SvrTrainer;
import org.psdkit.sos.KernelSosTrainer;

/**
 * The trainers of the options-record convention (issue 29) fit what the trainers they replaced fitted: the stored
 * numbers are the bits of the predictions at five points, and the hyper-parameters, that the former constructors
 * (flat scalars, boxed null for cross-validation, positional parameters) gave on the same data.
 */
class TrainerGoldenTest {

    static Dataset regression(long seed, int n) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = r.nextGaussian();
            y[i] = Math.sin(x[i][0]) + x[i][1] * x[i][1] + 0.1 * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    static Dataset classes(long seed, int n) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = 4 * r.nextDouble() - 2;
            y[i] = x[i][0] * x[i][0] + x[i][1] * x[i][1] + 0.3 * r.nextGaussian() < 1.5 ? 1 : -1;
        }
        return Dataset.of(Matrix.of(x), y);
    }

    static final double[][] QUERY = {{0, 0}, {1, -0.5}, {-1.5, 1}, {0.3, 0.7}, {1.9, 1.9}};

    /** The model's first output at {@link #QUERY} equals the stored bits, and its hyper-parameters the stored text. */
    static void same(Model m, String hyperParameters, String... bits) {
        double[][] p = m.predict(QUERY);
        for (int i = 0; i < bits.length; i++) {
            assertEquals(Double.longBitsToDouble(Long.parseUnsignedLong(bits[i], 16)), p[i][0], 0,
                    "prediction at " + java.util.Arrays.toString(QUERY[i]));
        }
        assertEquals(hyperParameters, m.hyperParameters().toString());
    }

    @Test
    void ridge() {
        Dataset r = regression(11, 40);
        same(new RidgeTrainer(RidgeTrainer.Options.of(0.3).withScale(Scaler.Kind.ZSCORE)).fit(r),
                "{lambda=0.3, intercept=true, form=primal}",
                "3ff32c465da93dd4", "3fffab17370bbfda", "bfb5a9f585cbc900", "3ff0db3abbdc0eff", "3ff693f231b4bdb7");
        same(new RidgeTrainer(RidgeTrainer.Options.of(0.3).withIntercept(false).withForm(RidgeTrainer.Form.DUAL)
                        .withFeatures(Kernels.parse("polynomial(degree=2, offset=1)")).withScale(Scaler.Kind.MINMAX))
                        .fit(r), "{lambda=0.3, intercept=false, form=dual}",
                "3fe9ab46c21cb535", "3ffa2394a734c52a", "3fcfd2ce4e394770", "3fecaaad59a348a5", "400043d44285275c");
    }

    @Test
    void krr() {
        Dataset r = regression(11, 40);
        same(new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.8)"), 0.01).withCenter(true)
                        .withScale(Scaler.Kind.ZSCORE)).fit(r), "{lambda=0.01, form=standard, nugget=0.0, center=true}",
                "3fc5129fa1d39c78", "3ff1016e12f1f187", "3fc0b688711f9ab8", "3fef707e0a53dd8c", "400c81b487e70d86");
        same(new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.8)"), 0.01)
                        .withForm(KernelRidge.Form.REPRESENTER).withNugget(0.05)).fit(r),
                "{lambda=0.01, form=representer, nugget=0.05, center=false}",
                "3fb9a64b8d18763c", "3ff0791fb84d0fb1", "3fb6748e1ae91d84", "3fee8b661a955c1d", "3fffe56b584e988c");
    }

    @Test
    void svr() {
        same(new SvrTrainer(SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10, 0.05)
                        .withScale(Scaler.Kind.MINMAX)).fit(regression(11, 40)),
                "{C=10.0, epsilon=0.05, tolerance=0.001}",
                "3fa773e834023480", "3ff17bad33e8ad1c", "bfaf64fc88dd6c00", "3fe84eec42040e28", "4010362241419743");
    }

    @Test
    void kernelSos() {
        Random r = new Random(3);
        double[][] x = new double[25][2];
        double[] y = new double[25];
        for (int i = 0; i < 25; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            x[i][1] = 2 * r.nextDouble() - 1;
            y[i] = x[i][0] * x[i][0] + 0.02 * r.nextGaussian();
        }
        same(new KernelSosTrainer(KernelSosTrainer.Options.of(Kernels.parse("gaussian(sigma=0.5) + 0.01*delta"), 0.01)
                        .withScale(Scaler.Kind.MINMAX)).fit(Dataset.of(Matrix.of(x), y)), "{lambda=0.01}",
                "3fd670dfe81c39b3", "3fcddfe06ae75735", "3fa4727fbc752859", "3fd2ebf1b963f621", "3f80c28ec2c5113b");
    }

    @Test
    void svm() {
        Dataset c = classes(12, 60);
        SvmTrainer.Options o = SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10)
                .withScale(Scaler.Kind.ZSCORE);
        same(new SvmTrainer(o).fit(c), "{C=10.0}",
                "40145ebdcdd148dd", "3fe33227e8ea0ce6", "bffc13d938a9bda3", "4002d063e739b850", "c003fafd1959a3bb");
        // the former SvmTrainer.chooseC(kernel, 1e-3, ZSCORE, data, {0.1, 1, 10, 100}, 5, 7, null) and its refit
        var search = SvmTrainer.cSearch(o, c, new double[] {0.1, 1, 10, 100}, 5, 7).search(c, null);
        SvmTrainer.CChoice ch = SvmTrainer.choice(search, 5);
        assertEquals(1.0, ch.c());
        assertEquals(0.9333333333333333, ch.accuracy());
        assertEquals("[{C=0.1, accuracy=0.7}, {C=1.0, accuracy=0.9333333333333333}, {C=10.0, "
                + "accuracy=0.9333333333333333}, {C=100.0, accuracy=0.9333333333333333}]", ch.grid().toString());
        same(search.model(), "{C=1.0}",
                "40013e397562d2e9", "3fb078ea15b21270", "bff5deeb65ec080e", "3ff5215fdee8b7ea", "bff525210edd6869");
    }

    @Test
    void tkSvm() {
        Dataset t = classes(13, 40);
        same(new TkSvmTrainer(TkSvmTrainer.Options.of(20, 0.1, 1)).fit(t),
                "{degree=1, orthant=lower, gap=0.01, epsilon=0.1, C=20.0}",
                "3ff95c4548902aec", "3fc62fb5d634efc0", "bfe1821110be5fac", "3ff16a5114b4e200", "bffe487aaef83c1a");
        // the former new TkSvmTrainer(null, {0.1, 10}, null, {0.1, 1}, 1, null, 0.01, 42): C and epsilon by CV
        SvmClassifier cv = TkSvmTrainer.Search.of(TkSvmTrainer.Options.of(1, 0, 1), new double[] {0.1, 10},
                new double[] {0.1, 1}).fit(t);
        same(cv, "{degree=1, orthant=lower, gap=0.01, epsilon=1.0, C=4.39860927793048}",
                "3ff674bb3fb28e1c", "3fc491ad6140bde0", "bfef28b77529f168", "3ff0fb4757fdef7c", "c006aeb156417431");
        assertEquals("{folds=5, accuracy=0.95, cRelative=true, grid=[{c=0.1, epsilon=0.1, accuracy=0.775}, "
                + "{c=10.0, epsilon=0.1, accuracy=0.9}, {c=0.1, epsilon=1.0, accuracy=0.775}, {c=10.0, epsilon=1.0, "
                + "accuracy=0.95}]}", cv.fitReport().get("cv").toString());
        assertEquals("CV chose c (relative) = 10.0, epsilon = 1.0 (mean accuracy 0.9500)",
                cv.fitReport().get("cvChoice"));
    }

    @Test
    void simpleMkl() {
        Dataset t = classes(13, 40);
        same(new SimpleMklTrainer(SimpleMklTrainer.Options.gaussPoly(1000)).fit(t),
                "{degree=1, orthant=lower, gap=0.01, C=1000.0, epsilon=0.0}",
                "3ffe9ed52e41355c", "3f9a048c2a707e60", "bfe6f3480805a924", "3ff74f4b0a3d0050", "bfeb26845a6a881c");
        // the former new SimpleMklTrainer(SIMPLEMKL_TK, 8, false, null, null, {0.1, 10}, null, {0.1, 1}, 1, null,
        // 0.01, 3): C and epsilon by CV
        SvmClassifier cv = new SimpleMklTrainer.Search(SimpleMklTrainer.Options.builder(
                KernelLearning.Method.SIMPLEMKL_TK).librarySize(8).seed(3).build(), new double[] {0.1, 10},
                new double[] {0.1, 1}).fit(t);
        same(cv, "{degree=1, orthant=lower, gap=0.01, epsilon=0.1, C=400.0}",
                "3ff8d0e8b4bbc87b", "3fc273dc9e9bd650", "bfe582805adb0410", "3ff18e8e6d0de76b", "c00399bfe770fbde");
        assertEquals("CV chose c (relative) = 10.0, epsilon = 0.1 (mean accuracy 0.9000)",
                cv.fitReport().get("cvChoice"));
    }
}
