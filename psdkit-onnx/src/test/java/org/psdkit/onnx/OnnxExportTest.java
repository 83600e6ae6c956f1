package org.psdkit.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.psdkit.classify.MulticlassSvm;
import org.psdkit.classify.OneClassSvmTrainer;
import org.psdkit.classify.OvoDecision;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.classify.mkl.LearnedOneVsOne;
import org.psdkit.classify.mkl.SimpleMklTrainer;
import org.psdkit.classify.mkl.TkSvmTrainer;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
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
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.RidgeTrainer;
import org.psdkit.regression.SvrTrainer;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.Baselines;
import org.psdkit.regression.psd.PsdRegressionTrainer;
import org.psdkit.sos.KernelSosTrainer;

/**
 * Every exportable family, exported and run by ONNX Runtime: its outputs equal psdkit's predictions to 1e-9 relative
 * in double precision (plus 1e-12 of the column's largest value, for outputs that cross zero), on the training rows
 * and on points far from them. Every model type of {@link ModelIO} must have a case here or be listed as not
 * exportable.
 */
class OnnxExportTest {
    static final double RELATIVE = 1e-9;

    /** One case per exportable model type (a type may have several, with other kernels, scalers or measures). */
    static final Map<String, Supplier<Case>> CASES = new LinkedHashMap<>();

    record Case(String type, Model model, Matrix x) {
    }

    /**
     * Cases left out of the single-precision check: a degree-3 polynomial kernel on unscaled features has values
     * up to ~10³ whose float rounding (6e-8 relative) the coefficients' cancellation amplifies beyond 1e-5; the GLM
     * density is exp(g − log Z), which turns the float rounding of g and log Z into a relative error of the density
     * of the same absolute size (4.4e-5 measured on this case).
     */
    static final Set<String> DOUBLE_ONLY = Set.of("krr-polynomial-unscaled", "glm-density");

    static {
        Dataset reg3 = regression(1, 25, 3);
        Dataset reg2 = regression(2, 20, 2);
        Dataset cls = classes(3, 24, 2);
        addFit("krr", "krr", () -> new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 1e-2)
                .withScale(Scaler.Kind.ZSCORE)).fit(reg3), reg3);
        addFit("krr-laplacian-minmax", "krr", () -> new KrrTrainer(KrrTrainer.Options.of(
                Kernels.parse("laplacian(sigma=1.5)"), 1e-2).withScale(Scaler.Kind.MINMAX)).fit(reg3), reg3);
        addFit("krr-polynomial-unscaled", "krr", () -> new KrrTrainer(KrrTrainer.Options.of(
                Kernels.parse("polynomial(degree=3, offset=1)"), 1e-1).withScale(Scaler.Kind.NONE)).fit(reg2), reg2);
        addFit("krr-exponential-linear", "krr", () -> new KrrTrainer(KrrTrainer.Options.of(
                Kernels.parse("exponential(a=0.3) + 0.5*linear"), 1e-1).withScale(Scaler.Kind.ZSCORE)).fit(reg3), reg3);
        addFit("krr-sum-product-constant", "krr", () -> new KrrTrainer(KrrTrainer.Options.of(
                Kernels.parse("2*gaussian(sigma=1)*polynomial(degree=2) + laplacian(sigma=2) + 0.1*constant"), 1e-2)
                .withScale(Scaler.Kind.ZSCORE)).fit(reg3), reg3);
        addFit("krr-nystrom", "krr", () -> new NystromKrrTrainer(NystromKrrTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.8)"), 1e-3, 8, 7)).fit(reg3), reg3);
        addFit("svm", "svm", () -> new SvmTrainer(SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.8)"), 5)
                .withTolerance(1e-3).withScale(Scaler.Kind.ZSCORE)).fit(cls), cls);
        Dataset three = labelled(13, 45, 2, 3);
        Dataset four = labelled(14, 48, 3, 4);
        addFit("svm-three-classes", "svm", () -> new SvmTrainer(SvmTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.8)"), 5).withTolerance(1e-3).withScale(Scaler.Kind.ZSCORE))
                .fit(three), three);
        addFit("svm-four-classes-polynomial", "svm", () -> new SvmTrainer(SvmTrainer.Options.of(
                Kernels.parse("polynomial(degree=2, offset=1)"), 1).withScale(Scaler.Kind.MINMAX)).fit(four), four);
        addFit("svm-three-classes-probability", "svm", () -> new SvmTrainer(SvmTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.8)"), 5).withTolerance(1e-3).withScale(Scaler.Kind.ZSCORE)
                .withProbability(true)).fit(three), three);
        addFit("svm-four-classes-probability", "svm", () -> new SvmTrainer(SvmTrainer.Options.of(
                Kernels.parse("laplacian(sigma=1.5)"), 2).withScale(Scaler.Kind.ZSCORE).withProbability(true)
                .withSeed(3)).fit(four), four);
        addFit("svm-two-classes-probability", "svm", () -> new SvmTrainer(SvmTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.8)"), 5).withScale(Scaler.Kind.ZSCORE).withProbability(true))
                .fit(cls), cls);
        addFit("svm-coupling-by-iteration", "svm", () -> pairwiseOneHalf((MulticlassSvm) CASES.get(
                "svm-four-classes-probability").get().model()), four);
        addFit("one-class-svm", "one-class-svm", () -> new OneClassSvmTrainer(OneClassSvmTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.8)"), 0.3).withScale(Scaler.Kind.ZSCORE)).fit(
                Dataset.of(reg3.x(), null)), reg3);
        addFit("ridge", "ridge", () -> new RidgeTrainer(RidgeTrainer.Options.of(0.5).withScale(Scaler.Kind.MINMAX))
                .fit(reg3), reg3);
        Dataset twoTargets = Dataset.ofTargets(reg3.x(), new String[] {"x1", "x2", "x3"}, Matrix.of(
                java.util.stream.IntStream.range(0, reg3.n()).mapToObj(i -> new double[] {reg3.y()[i],
                        reg3.x().get(i, 0) - 2 * reg3.y()[i]}).toArray(double[][]::new)), new String[] {"y", "z"},
                "two-targets");
        addFit("ridge-two-targets-unscaled", "ridge", () -> new RidgeTrainer(RidgeTrainer.Options.of(0.1))
                .fit(twoTargets), twoTargets);
        addFit("simplemkl-three-classes", "simplemkl", () -> new LearnedOneVsOne(SimpleMklTrainer.gaussPoly(10))
                .fit(three), three);
        addFit("simplemkl", "simplemkl", () -> SimpleMklTrainer.gaussPoly(10).fit(classes(4, 16, 2)),
                classes(4, 16, 2));
        addFit("svr", "svr", () -> new SvrTrainer(SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10,
                0.05).withTolerance(1e-3).withScale(Scaler.Kind.MINMAX)).fit(reg2), reg2);
        addFit("psd-regression", "psd-regression", () -> new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.7)"), PsdOptions.of(1e-3, 1e-3).withMaxIterations(300))
                .withScale(Scaler.Kind.ZSCORE)).fit(reg2), reg2);
        addFit("ncm", "ncm", () -> baseline(BaselineTrainer.Method.NCM, reg2), reg2);
        addFit("pnm", "pnm", () -> baseline(BaselineTrainer.Method.PNM, reg2), reg2);
        addFit("glm", "glm", () -> baseline(BaselineTrainer.Method.GLM, reg2), reg2);
        addFit("kernel-sos", "kernel-sos", () -> new KernelSosTrainer(KernelSosTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.7)"), 0.01).withScale(Scaler.Kind.ZSCORE))
                .fit(regression(5, 12, 2)), regression(5, 12, 2));
        addFit("hetero", "hetero", () -> new HeteroTrainer(new HeteroscedasticRegression.Options(
                Kernels.parse("gaussian(sigma=0.8)"), 1e-2, 0.05, HeteroscedasticRegression.Method.PSD, 1, 6,
                ConeDualSolver.Options.defaults().withGapTolerance(1e-2)).withScale(Scaler.Kind.ZSCORE))
                .fit(regression(6, 10, 2)), regression(6, 10, 2));
        addFit("hetero-pnm", "hetero", () -> new HeteroTrainer(new HeteroscedasticRegression.Options(
                Kernels.parse("gaussian(sigma=0.8)"), 1e-2, 0.05, HeteroscedasticRegression.Method.PNM, 1, 6,
                ConeDualSolver.Options.defaults().withGapTolerance(1e-2)).withScale(Scaler.Kind.ZSCORE))
                .fit(regression(6, 10, 2)), regression(6, 10, 2));
        addFit("quantile", "quantile", () -> new QuantileTrainer(new QuantileRegression.Options(
                new double[] {0.2, 0.5, 0.8}, Kernels.parse("gaussian(sigma=0.8)"), 1e-2, 0.05,
                QuantileRegression.Method.PSD, false, 1, 7, ConeDualSolver.Options.defaults().withGapTolerance(1e-2))
                .withScale(Scaler.Kind.MINMAX)).fit(regression(7, 10, 2)), regression(7, 10, 2));
        addFit("psd-density", "psd-density", () -> new PsdDensityTrainer(new PsdDensityTrainer.Options(
                Kernels.parse("gaussian(sigma=0.8)"), new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-2, 0.01)
                .withTolerance(1e-4).withMaxIterations(300), Nystrom.of(8, Anchors.Method.UNIFORM, 8),
                Scaler.Kind.ZSCORE)).fit(regression(8, 12, 2)), regression(8, 12, 2));
        addFit("psd-density-gaussian-base", "psd-density", () -> new PsdDensityTrainer(new PsdDensityTrainer.Options(
                Kernels.parse("gaussian(sigma=0.8)"), BaseMeasure.parse("gaussian(mu=0,sd=2)", 2),
                PsdDensityOptions.of(1e-2, 0.01).withTolerance(1e-4).withMaxIterations(300),
                Nystrom.of(8, Anchors.Method.UNIFORM, 8), Scaler.Kind.MINMAX)).fit(regression(8, 12, 2)),
                regression(8, 12, 2));
        addFit("ncm-density", "ncm-density", () -> new NcmDensityTrainer(BaselineOptions.of(
                Kernels.parse("gaussian(sigma=0.8)"), new BaseMeasure.Lebesgue(), 1e-2).withTolerance(1e-4)
                .withMaxIterations(300).withScale(Scaler.Kind.MINMAX)).fit(regression(9, 12, 2)),
                regression(9, 12, 2));
        addFit("pnm-density", "pnm-density", () -> new PnmDensityTrainer(BaselineOptions.of(
                Kernels.parse("gaussian(sigma=0.8)"), BaseMeasure.parse("gaussian(mu=0,sd=2)", 2), 1e-2)
                .withTolerance(1e-4).withMaxIterations(300).withScale(Scaler.Kind.ZSCORE))
                .fit(regression(10, 12, 2)), regression(10, 12, 2));
        addFit("glm-density", "glm-density", () -> new GlmDensityTrainer(BaselineOptions.of(
                Kernels.parse("gaussian(sigma=0.8)"), BaseMeasure.parse("box(a=-3,b=3)", 1), 1e-2)
                .withTolerance(1e-4).withMaxIterations(200).withSeed(11).withScale(Scaler.Kind.ZSCORE))
                .fit(regression(11, 10, 1)), regression(11, 10, 1));
        addFit("kde", "kde", () -> new KdeTrainer(KdeTrainer.Options.leaveOneOut().withScale(Scaler.Kind.ZSCORE))
                .fit(regression(12, 15, 2)), regression(12, 15, 2));
    }

    /**
     * The model with every pair's sigmoid A = B = 0: every pairwise probability is exactly 1/2, the coupling matrix Q
     * is singular (Q e = 0), so psdkit's Cholesky factorisation meets a non-positive pivot on every row and couples
     * by Wu, Lin &amp; Weng's iteration instead ({@link #choleskyFails} checks it).
     */
    static MulticlassSvm pairwiseOneHalf(MulticlassSvm m) {
        OvoDecision d = m.inner();
        double[] zero = new double[d.pairs()];
        return new MulticlassSvm(m.header(), new OvoDecision(d.labels(), d.kernel(), d.supportVectors(),
                d.classCounts(), d.coef(), d.bias(), zero, zero), m.diagnostics());
    }

    /** Whether psdkit's Cholesky factorisation of the coupling matrix of pairwise probabilities r fails. */
    static boolean choleskyFails(double[][] r) {
        int k = r.length;
        double[][] q = new double[k][k];
        for (int t = 0; t < k; t++) {
            for (int j = 0; j < k; j++) {
                if (j != t) {
                    q[t][t] += r[j][t] * r[j][t];
                    q[t][j] = -r[j][t] * r[t][j];
                }
            }
        }
        double[][] lo = new double[k][k];
        for (int i = 0; i < k; i++) {
            for (int j = 0; j <= i; j++) {
                double s = q[i][j];
                for (int t = 0; t < j; t++) {
                    s -= lo[i][t] * lo[j][t];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        return true;
                    }
                    lo[i][i] = Math.sqrt(s);
                } else {
                    lo[i][j] = s / lo[j][j];
                }
            }
        }
        return false;
    }

    @Test
    void theIterationCaseCouplesByIteration() throws OrtException {
        Case c = CASES.get("svm-coupling-by-iteration").get();
        int k = ((Classifier) c.model()).labels().size();
        double[][] half = new double[k][k];
        for (double[] row : half) {
            java.util.Arrays.fill(row, 0.5);
        }
        assertTrue(choleskyFails(half), "the case must reach the iteration");
        double[][] rows = points(c.x(), 13);
        Map<String, Object> out = run(OnnxExport.toBytes(c.model()), c.model().featureNames(), rows);
        for (String l : ((Classifier) c.model()).labels()) {
            for (double v : column((double[][]) out.get("p(" + l + ")"))) {
                assertEquals(1.0 / k, v, 1e-12);
            }
        }
    }

    /** Every form of {@link OnnxExport#exportableForms()} has a case here, and every case's form is one of them. */
    @Test
    void everyExportableFormHasACase() {
        Set<String> tested = new LinkedHashSet<>();
        for (String name : CASES.keySet()) {
            String form = OnnxExport.form(CASES.get(name).get().model());
            assertTrue(OnnxExport.exportableForms().contains(form), name + ": form " + form + " is not exportable");
            tested.add(form);
        }
        assertEquals(OnnxExport.exportableForms(), tested);
    }

    @Test
    void aRidgeModelInAKernelsFeatureSpaceIsRefusedNamingTheKernel() {
        Model m = new RidgeTrainer(RidgeTrainer.Options.of(0.5).withFeatures(Kernels.parse("polynomial(degree=2)")))
                .fit(regression(1, 12, 2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnnxExport.toBytes(m));
        assertTrue(e.getMessage().contains("polynomial(degree=2"), e.getMessage());
    }

    /** Fitted models by case name: each case is fitted once per test run. */
    private static final Map<String, Case> FITTED = new java.util.concurrent.ConcurrentHashMap<>();

    private static void addFit(String name, String type, Supplier<Model> fit, Dataset data) {
        CASES.put(name, () -> FITTED.computeIfAbsent(name, k -> new Case(type, fit.get(), data.x())));
    }

    private static Model baseline(BaselineTrainer.Method method, Dataset d) {
        return new BaselineTrainer(BaselineTrainer.Options.of(method, Kernels.parse("gaussian(sigma=0.7)"),
                Baselines.Options.of(1e-2).withMaxIterations(300)).withScale(Scaler.Kind.ZSCORE)).fit(d);
    }

    static Stream<Arguments> cases() {
        return CASES.keySet().stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void onnxRuntimePredictsAsPsdkit(String name) throws OrtException {
        Case c = CASES.get(name).get();
        assertEquals(c.type(), c.model().type(), name);
        double[][] rows = points(c.x(), 13);
        Map<String, Object> out = run(OnnxExport.toBytes(c.model()), c.model().featureNames(), rows);
        double[][] expected = c.model().predict(rows);
        List<String> cols = c.model().outputColumns();
        for (int j = 0; j < cols.size(); j++) {
            double[] got = column((double[][]) out.get(cols.get(j)));
            double max = 0;
            for (double[] e : expected) {
                max = Math.max(max, Math.abs(e[j]));
            }
            for (int i = 0; i < rows.length; i++) {
                double e = expected[i][j];
                assertTrue(Math.abs(got[i] - e) <= RELATIVE * Math.abs(e) + 1e-12 * max,
                        name + " " + cols.get(j) + " row " + i + ": onnx " + got[i] + ", psdkit " + e);
            }
        }
        if (c.model() instanceof Classifier k) {
            String[] labels = column((String[][]) out.get("label"));
            assertArrayEquals(k.labelsOf(Matrix.of(expected)), labels, name + " labels");
        }
    }

    /** The float graph: the same outputs to 1e-5 relative to the column's largest value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theFloatGraphAgreesToSinglePrecision(String name) throws OrtException {
        if (DOUBLE_ONLY.contains(name)) {
            return;
        }
        Case c = CASES.get(name).get();
        double[][] rows = points(c.x(), 17);
        Map<String, Object> out = run(OnnxExport.toBytes(c.model(), Precision.FLOAT), c.model().featureNames(),
                rows, Precision.FLOAT);
        double[][] expected = c.model().predict(rows);
        List<String> cols = c.model().outputColumns();
        for (int j = 0; j < cols.size(); j++) {
            float[][] got = (float[][]) out.get(cols.get(j));
            double max = 0;
            for (double[] e : expected) {
                max = Math.max(max, Math.abs(e[j]));
            }
            for (int i = 0; i < rows.length; i++) {
                double e = expected[i][j];
                assertTrue(Math.abs(got[i][0] - e) <= 1e-5 * max,
                        name + " " + cols.get(j) + " row " + i + ": onnx " + got[i][0] + ", psdkit " + e);
            }
        }
    }

    /** Fails when a model type is registered in ModelIO with neither an ONNX case here nor a "not exportable" entry. */
    @Test
    void everyModelTypeIsExportedAndTestedOrRefusedWithAReason() {
        Set<String> tested = new LinkedHashSet<>();
        for (String name : CASES.keySet()) {
            tested.add(CASES.get(name).get().type());
        }
        for (String type : ModelIO.types()) {
            boolean exportable = OnnxExport.exportableTypes().contains(type);
            boolean refused = OnnxExport.notExportable().containsKey(type);
            assertTrue(exportable ^ refused, type + ": neither exportable nor listed as not exportable (or both)");
            assertEquals(exportable, tested.contains(type), type + ": exportable but without a test case here");
        }
        assertTrue(ModelIO.types().containsAll(OnnxExport.exportableTypes()), "exporters of unknown types");
        assertTrue(ModelIO.types().containsAll(OnnxExport.notExportable().keySet()), "refusals of unknown types");
    }

    @Test
    void aTessellatedKernelModelIsRefusedNamingTheKernelAndNothingIsWritten(@TempDir Path dir) {
        Model tk = new TkSvmTrainer(TkSvmTrainer.Options.of(10, 0.1, 1)).fit(classes(3, 16, 2));
        Path out = dir.resolve("tk.onnx");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnnxExport.write(tk, out));
        assertTrue(e.getMessage().contains("tessellated"), e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void aKernelWithNoOnnxFormIsRefusedByName() {
        Dataset d = regression(1, 12, 2);
        Model m = new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7) + 0.01*delta"), 1e-2))
                .fit(d);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OnnxExport.toBytes(m));
        assertTrue(e.getMessage().contains("delta kernel"), e.getMessage());
    }

    @Test
    void inputsAreTheFeaturesByNameAndOutputsTheColumns() throws OrtException {
        Case c = CASES.get("quantile").get();
        try (OrtSession s = env().createSession(OnnxExport.toBytes(c.model()), new OrtSession.SessionOptions())) {
            assertEquals(new LinkedHashSet<>(c.model().featureNames()), s.getInputNames());
            assertEquals(new LinkedHashSet<>(List.of("q0.2", "q0.5", "q0.8")), s.getOutputNames());
        }
    }

    @Test
    void exportedQuantilesDoNotCrossAndDensitiesAreNonNegative() throws OrtException {
        Random r = new Random(5);
        double[][] far = new double[200][2];
        for (double[] row : far) {
            row[0] = 6 * r.nextGaussian();
            row[1] = 6 * r.nextGaussian();
        }
        Case q = CASES.get("quantile").get();
        Map<String, Object> out = run(OnnxExport.toBytes(q.model()), q.model().featureNames(), far);
        double[] lo = column((double[][]) out.get("q0.2"));
        double[] mid = column((double[][]) out.get("q0.5"));
        double[] hi = column((double[][]) out.get("q0.8"));
        for (int i = 0; i < far.length; i++) {
            assertTrue(lo[i] <= mid[i] && mid[i] <= hi[i], "row " + i + " crosses");
        }
        Case d = CASES.get("psd-density").get();
        double[] p = column((double[][]) run(OnnxExport.toBytes(d.model()), d.model().featureNames(), far)
                .get("density"));
        for (double v : p) {
            assertTrue(v >= 0, "negative density " + v);
        }
    }

    // ---------------------------------------------------------------- helpers

    static OrtEnvironment env() {
        return OrtEnvironment.getEnvironment();
    }

    /** Runs the graph on rows (one [N, 1] input per feature) and returns every output's value. */
    static Map<String, Object> run(byte[] model, List<String> features, double[][] rows) throws OrtException {
        return run(model, features, rows, Precision.DOUBLE);
    }

    /** As {@link #run(byte[], List, double[][])}, the inputs of a graph of the given precision. */
    static Map<String, Object> run(byte[] model, List<String> features, double[][] rows, Precision precision)
            throws OrtException {
        OrtEnvironment env = env();
        boolean isFloat = precision == Precision.FLOAT;
        try (OrtSession s = env.createSession(model, new OrtSession.SessionOptions())) {
            Map<String, OnnxTensor> in = new HashMap<>();
            try {
                for (int j = 0; j < features.size(); j++) {
                    if (isFloat) {
                        float[][] col = new float[rows.length][1];
                        for (int i = 0; i < rows.length; i++) {
                            col[i][0] = (float) rows[i][j];
                        }
                        in.put(features.get(j), OnnxTensor.createTensor(env, col));
                    } else {
                        double[][] col = new double[rows.length][1];
                        for (int i = 0; i < rows.length; i++) {
                            col[i][0] = rows[i][j];
                        }
                        in.put(features.get(j), OnnxTensor.createTensor(env, col));
                    }
                }
                Map<String, Object> out = new LinkedHashMap<>();
                try (OrtSession.Result r = s.run(in)) {
                    for (Map.Entry<String, OnnxValue> e : r) {
                        out.put(e.getKey(), e.getValue().getValue());
                    }
                }
                return out;
            } finally {
                in.values().forEach(OnnxTensor::close);
            }
        }
    }

    static double[] column(double[][] a) {
        double[] c = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            assertEquals(1, a[i].length);
            c[i] = a[i][0];
        }
        return c;
    }

    static String[] column(String[][] a) {
        String[] c = new String[a.length];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i][0];
        }
        return c;
    }

    /** The training rows and as many random points spread twice as wide. */
    static double[][] points(Matrix x, long seed) {
        List<double[]> rows = new ArrayList<>(List.of(x.toRowArrays()));
        Random r = new Random(seed);
        for (int i = 0; i < x.rows(); i++) {
            double[] p = new double[x.cols()];
            for (int j = 0; j < p.length; j++) {
                p[j] = 2 * r.nextGaussian() * (j + 1) + j;
            }
            rows.add(p);
        }
        return rows.toArray(new double[0][]);
    }

    /** n rows of d normal features labelled by the sector of (x1, x2) around the data's mean: k classes a, b, … */
    static Dataset labelled(long seed, int n, int d, int k) {
        Dataset r = regression(seed, n, d);
        String[] labels = new String[n];
        for (int i = 0; i < n; i++) {
            double angle = Math.atan2(r.x().get(i, 1) - 1, r.x().get(i, 0)) + Math.PI;
            int c = i < k ? i : Math.min(k - 1, (int) (angle / (2 * Math.PI) * k));
            labels[i] = String.valueOf((char) ('a' + c));
        }
        String[] names = new String[d];
        for (int j = 0; j < d; j++) {
            names[j] = "x" + (j + 1);
        }
        return new Dataset(r.x(), null, labels, names, "class", "labelled-" + seed);
    }

    /** n rows of d features with ±1 classes split by a circle (both classes always present). */
    static Dataset classes(long seed, int n, int d) {
        Dataset r = regression(seed, n, d);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = i < 2 ? (i == 0 ? 1 : -1)
                    : r.x().get(i, 0) * r.x().get(i, 0) + 0.5 * r.x().get(i, d - 1) < 1.5 ? 1 : -1;
        }
        return Dataset.of(r.x(), y);
    }

    /** n rows of d normal features (column j with mean j and sd j + 1) and a smooth noisy target. */
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
}
