package org.psdkit.examples;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;
import org.psdkit.onnx.OnnxExport;
import org.psdkit.regression.KrrTrainer;

/**
 * psdkit models outside the JVM's psdkit: a three-class SVM with probabilities and a kernel ridge regression are
 * fitted, written as ONNX files by {@link OnnxExport#write}, scored by ONNX Runtime (one input per feature, [N, 1]
 * each; one output per output column, plus {@code label}), and compared with psdkit's own predictions.
 */
public final class OnnxExample {
    private OnnxExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the SVM read back from its model file. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // three classes by the angle of (x1, x2), 150 rows, and 40 new points to score
        Random r = new Random(3);
        double[][] x = new double[150][2];
        String[] labels = new String[x.length];
        String[] names = {"red", "green", "blue"};
        for (int i = 0; i < x.length; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = 4 * r.nextDouble() - 2;
            labels[i] = names[(int) Math.floor((Math.atan2(x[i][1], x[i][0]) + Math.PI) / (2 * Math.PI / 3)) % 3];
        }
        Dataset train = new Dataset(Matrix.of(x), null, labels, new String[] {"x1", "x2"}, "sector", "(memory)");
        double[][] fresh = new double[40][2];
        for (double[] row : fresh) {
            row[0] = 5 * r.nextDouble() - 2.5;
            row[1] = 5 * r.nextDouble() - 2.5;
        }

        // the SVM: one-vs-one, with Platt probabilities coupled by Wu, Lin & Weng
        Classifier svm = new SvmTrainer(SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10)
                .withScale(Scaler.Kind.ZSCORE).withProbability(true)).fit(train);
        Path svmJson = dir.resolve("svm.json");
        ModelIO.save(svm, svmJson);
        Path svmOnnx = dir.resolve("svm.onnx");
        OnnxExport.write(svm, svmOnnx);

        Map<String, Object> scored = score(svmOnnx, svm.featureNames(), fresh);
        double[][] psdkit = svm.predict(fresh);
        String[] psdkitLabels = svm.predictLabels(Matrix.of(fresh));
        String[][] onnxLabels = (String[][]) scored.get("label");
        int sameLabels = 0;
        for (int i = 0; i < fresh.length; i++) {
            sameLabels += onnxLabels[i][0].equals(psdkitLabels[i]) ? 1 : 0;
        }
        out.printf("svm: %s -> %s (%d bytes), outputs %s%n", svmJson.getFileName(), svmOnnx.getFileName(),
                Files.size(svmOnnx), svm.outputColumns());
        out.printf("  ONNX Runtime on %d new points: %d labels as psdkit's, largest relative difference %.1e%n",
                fresh.length, sameLabels, largestRelativeDifference(svm.outputColumns(), scored, psdkit));
        out.printf("  first point: label %s, p(red) %.6f, p(green) %.6f, p(blue) %.6f%n", onnxLabels[0][0],
                ((double[][]) scored.get("p(red)"))[0][0], ((double[][]) scored.get("p(green)"))[0][0],
                ((double[][]) scored.get("p(blue)"))[0][0]);

        // kernel ridge regression on the same points, target sin(x1) + x2 / 2
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            y[i] = Math.sin(x[i][0]) + x[i][1] / 2;
        }
        Model krr = new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=1) + 0.1*linear"), 1e-3)
                .withScale(Scaler.Kind.MINMAX)).fit(Dataset.of(Matrix.of(x), y));
        Path krrOnnx = dir.resolve("krr.onnx");
        OnnxExport.write(krr, krrOnnx);
        out.printf("krr: largest relative difference ONNX Runtime vs psdkit %.1e%n",
                largestRelativeDifference(krr.outputColumns(), score(krrOnnx, krr.featureNames(), fresh),
                        krr.predict(fresh)));
        if (sameLabels != fresh.length) {
            throw new IllegalStateException("ONNX Runtime's labels differ from psdkit's");
        }
        return ModelIO.load(svmJson);
    }

    /** Runs the ONNX file on rows: one [N, 1] double input per feature; every output by name. */
    static Map<String, Object> score(Path onnx, List<String> features, double[][] rows) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession session = env.createSession(onnx.toString(), new OrtSession.SessionOptions())) {
            Map<String, OnnxTensor> in = new HashMap<>();
            try {
                for (int j = 0; j < features.size(); j++) {
                    double[][] column = new double[rows.length][1];
                    for (int i = 0; i < rows.length; i++) {
                        column[i][0] = rows[i][j];
                    }
                    in.put(features.get(j), OnnxTensor.createTensor(env, column));
                }
                Map<String, Object> out = new HashMap<>();
                try (OrtSession.Result result = session.run(in)) {
                    for (Map.Entry<String, OnnxValue> e : result) {
                        out.put(e.getKey(), e.getValue().getValue());
                    }
                }
                return out;
            } finally {
                in.values().forEach(OnnxTensor::close);
            }
        }
    }

    /**
     * max |onnx − psdkit| / (|psdkit| + 10⁻³ m) over every output column and row, m the column's largest |psdkit|
     * (so that a decision value crossing zero is measured against its column's scale); an error above 1e-9.
     */
    static double largestRelativeDifference(List<String> columns, Map<String, Object> onnx, double[][] psdkit) {
        double worst = 0;
        for (int j = 0; j < columns.size(); j++) {
            double[][] got = (double[][]) onnx.get(columns.get(j));
            double m = 0;
            for (double[] row : psdkit) {
                m = Math.max(m, Math.abs(row[j]));
            }
            for (int i = 0; i < psdkit.length; i++) {
                double e = psdkit[i][j];
                worst = Math.max(worst, Math.abs(got[i][0] - e) / (Math.abs(e) + 1e-3 * m));
            }
        }
        if (!(worst <= 1e-9)) {
            throw new IllegalStateException("ONNX Runtime differs from psdkit by " + worst + " (relative)");
        }
        return worst;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
