package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.LongFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.constraints.LongRange;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.BaselineOptions;
import org.psdkit.density.GlmDensityTrainer;
import org.psdkit.density.KdeTrainer;
import org.psdkit.density.NcmDensityTrainer;
import org.psdkit.density.PnmDensityTrainer;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.sos.KernelSosTrainer;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.model.Model;
import org.psdkit.regression.RidgeTrainer;
import org.psdkit.model.Trainer;
import org.psdkit.classify.mkl.SimpleMklTrainer;
import org.psdkit.classify.mkl.TkSvmTrainer;
import org.psdkit.classify.OneClassSvmTrainer;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.Baselines;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.PsdRegressionTrainer;
import org.psdkit.regression.SvrTrainer;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;

/**
 * Every family: fit on random data → {@link ModelIO#save} → {@link ModelIO#load} → the loaded model predicts
 * bit-identically, has the same type, feature names, hyper-parameters and output columns, and writes the same
 * document again.
 */
class ModelRoundTripTest {

    /** A trainer and its training data for one family, made from a seed. */
    record Case(Trainer<?> trainer, Dataset train) {
    }

    /** One entry per family. Keep one entry per line. */
    static final Map<String, LongFunction<Case>> FAMILIES = new LinkedHashMap<>();

    static {
        FAMILIES.put("krr", seed -> new Case(new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7) + 0.01*delta"), 1e-2).withCenter(true).withScale(Scaler.Kind.ZSCORE)), regression(seed, 25, 3)));
        FAMILIES.put("svm", seed -> new Case(new SvmTrainer(SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.8)"), 5).withTolerance(1e-3).withScale(Scaler.Kind.ZSCORE)), classes(seed, 24, 2)));
        FAMILIES.put("tk-svm", seed -> new Case(new TkSvmTrainer(TkSvmTrainer.Options.of(10, 0.1, 1)), classes(seed, 16, 2)));
        FAMILIES.put("simplemkl", seed -> new Case(SimpleMklTrainer.gaussPoly(10), classes(seed, 16, 2)));
        FAMILIES.put("ridge", seed -> new Case(new RidgeTrainer(RidgeTrainer.Options.of(0.5).withForm(RidgeTrainer.Form.DUAL).withFeatures(Kernels.parse("polynomial(degree=2, offset=1)")).withScale(Scaler.Kind.ZSCORE)), regression(seed, 25, 3)));
        FAMILIES.put("svr", seed -> new Case(new SvrTrainer(SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10, 0.05).withTolerance(1e-3).withScale(Scaler.Kind.MINMAX)), regression(seed, 25, 2)));
        FAMILIES.put("nu-svr", seed -> new Case(new SvrTrainer(SvrTrainer.Options.nu(Kernels.parse("gaussian(sigma=0.7)"), 10, 0.4).withScale(Scaler.Kind.MINMAX)), regression(seed, 25, 2)));
        FAMILIES.put("nu-svm", seed -> new Case(new SvmTrainer(SvmTrainer.Options.nu(Kernels.parse("gaussian(sigma=0.8)"), 0.5).withScale(Scaler.Kind.ZSCORE)), classes(seed, 24, 2)));
        FAMILIES.put("one-class-svm", seed -> new Case(new OneClassSvmTrainer(OneClassSvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.8)"), 0.2).withScale(Scaler.Kind.ZSCORE)), unlabelled(seed, 24, 2)));
        FAMILIES.put("psd-regression", seed -> new Case(new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), PsdOptions.of(1e-3, 1e-3).withMaxIterations(300)).withScale(Scaler.Kind.ZSCORE)), regression(seed, 20, 2)));
        FAMILIES.put("ncm", seed -> new Case(new BaselineTrainer(BaselineTrainer.Options.of(BaselineTrainer.Method.NCM, Kernels.parse("gaussian(sigma=0.7)"), Baselines.Options.of(1e-2).withMaxIterations(300)).withScale(Scaler.Kind.ZSCORE)), regression(seed, 20, 2)));
        FAMILIES.put("pnm", seed -> new Case(new BaselineTrainer(BaselineTrainer.Options.of(BaselineTrainer.Method.PNM, Kernels.parse("gaussian(sigma=0.7)"), Baselines.Options.of(1e-2).withMaxIterations(300)).withScale(Scaler.Kind.ZSCORE)), regression(seed, 20, 2)));
        FAMILIES.put("glm", seed -> new Case(new BaselineTrainer(BaselineTrainer.Options.of(BaselineTrainer.Method.GLM, Kernels.parse("gaussian(sigma=0.7)"), Baselines.Options.of(1e-2).withMaxIterations(100)).withScale(Scaler.Kind.ZSCORE)), regression(seed, 20, 2)));
        FAMILIES.put("kernel-sos", seed -> new Case(new KernelSosTrainer(KernelSosTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7) + 0.01*delta"), 0.01).withScale(Scaler.Kind.ZSCORE)), regression(seed, 12, 2)));
        FAMILIES.put("hetero", seed -> new Case(new HeteroTrainer(new HeteroscedasticRegression.Options(Kernels.parse("gaussian(sigma=0.8)"), 1e-2, 0.05, HeteroscedasticRegression.Method.PSD, 1, seed, ConeDualSolver.Options.defaults().withGapTolerance(1e-2)).withScale(Scaler.Kind.ZSCORE)), regression(seed, 10, 2)));
        FAMILIES.put("quantile", seed -> new Case(new QuantileTrainer(new QuantileRegression.Options(new double[] {0.2, 0.5, 0.8}, Kernels.parse("gaussian(sigma=0.8)"), 1e-2, 0.05, QuantileRegression.Method.PSD, false, 1, seed, ConeDualSolver.Options.defaults().withGapTolerance(1e-2)).withScale(Scaler.Kind.MINMAX)), regression(seed, 10, 2)));
        FAMILIES.put("psd-density", seed -> new Case(new PsdDensityTrainer(new PsdDensityTrainer.Options(Kernels.parse("gaussian(sigma=0.8)"), new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-2, 0.01).withTolerance(1e-4).withMaxIterations(300), org.psdkit.psd.Nystrom.of(8, org.psdkit.psd.Anchors.Method.UNIFORM, seed), Scaler.Kind.ZSCORE)), regression(seed, 12, 2)));
        FAMILIES.put("ncm-density", seed -> new Case(new NcmDensityTrainer(BaselineOptions.of(Kernels.parse("gaussian(sigma=0.8)"), new BaseMeasure.Lebesgue(), 1e-2).withTolerance(1e-4).withMaxIterations(300).withScale(Scaler.Kind.MINMAX)), regression(seed, 12, 2)));
        FAMILIES.put("pnm-density", seed -> new Case(new PnmDensityTrainer(BaselineOptions.of(Kernels.parse("gaussian(sigma=0.8)"), BaseMeasure.parse("gaussian(mu=0,sd=2)", 2), 1e-2).withTolerance(1e-4).withMaxIterations(300).withScale(Scaler.Kind.ZSCORE)), regression(seed, 12, 2)));
        FAMILIES.put("glm-density", seed -> new Case(new GlmDensityTrainer(BaselineOptions.of(Kernels.parse("gaussian(sigma=0.8)"), BaseMeasure.parse("box(a=-3,b=3)", 1), 1e-2).withTolerance(1e-4).withMaxIterations(200).withSeed(seed).withScale(Scaler.Kind.ZSCORE)), regression(seed, 10, 1)));
        FAMILIES.put("kde", seed -> new Case(new KdeTrainer(KdeTrainer.Options.leaveOneOut().withScale(Scaler.Kind.ZSCORE)), regression(seed, 15, 2)));
    }

    /** n rows of d features without a target (every column a feature). */
    static Dataset unlabelled(long seed, int n, int d) {
        return Dataset.of(regression(seed, n, d).x(), null);
    }

    /** n rows of d features with ±1 classes split by a circle (both classes always present). */
    static Dataset classes(long seed, int n, int d) {
        Dataset r = regression(seed, n, d);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = i < 2 ? (i == 0 ? 1 : -1) : r.x().get(i, 0) * r.x().get(i, 0) + 0.5 * r.x().get(i, d - 1) < 1.5 ? 1 : -1;
        }
        return Dataset.of(r.x(), y);
    }

    /** n rows of d standard-normal features and a smooth noisy target named x1..xd, y. */
    static Dataset regression(long seed, int n, int d) {
        Random r = new Random(seed);
        double[][] x = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[i][j] = r.nextGaussian() * (j + 1) + j;
            }
            y[i] = Math.sin(x[i][0]) + 0.1 * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    @Provide
    Arbitrary<String> family() {
        return Arbitraries.of(FAMILIES.keySet());
    }

    @Property(tries = 30, seed = "20261126")
    void saveLoadPredictIsBitIdentical(@ForAll("family") String family, @ForAll @LongRange(min = 1, max = 1000) long seed)
            throws IOException {
        Case c = FAMILIES.get(family).apply(seed);
        Model m = c.trainer().fit(c.train());
        Path dir = Files.createTempDirectory("psdkit-roundtrip");
        try {
            Path file = dir.resolve(family + ".json");
            ModelIO.save(m, file);
            Model back = ModelIO.load(file);
            assertEquals(m.type(), back.type());
            assertEquals(m.featureNames(), back.featureNames());
            assertEquals(m.targetName(), back.targetName());
            assertEquals(m.outputColumns(), back.outputColumns());
            assertEquals(m.hyperParameters(), back.hyperParameters());
            Random r = new Random(seed + 1);
            double[][] rows = new double[7][m.featureNames().size()];
            for (double[] row : rows) {
                for (int j = 0; j < row.length; j++) {
                    row[j] = 2 * r.nextGaussian();
                }
            }
            double[][] p = m.predict(rows);
            double[][] q = back.predict(rows);
            for (int i = 0; i < rows.length; i++) {
                assertArrayEquals(p[i], q[i], 0.0, family + " row " + i);
            }
            assertEquals(ModelIO.toJson(m), ModelIO.toJson(back));
        } finally {
            try (var s = Files.list(dir)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
