package org.psdkit.examples;

import com.oracle.labs.mlrg.olcut.util.Pair;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Model;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.tribuo.PsdkitKrrTrainer;
import org.psdkit.tribuo.PsdkitModel;
import org.psdkit.tribuo.PsdkitQuantileTrainer;
import org.psdkit.tribuo.PsdkitSvmTrainer;
import org.tribuo.MutableDataset;
import org.tribuo.Prediction;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.evaluation.LabelEvaluation;
import org.tribuo.classification.evaluation.LabelEvaluator;
import org.tribuo.data.csv.CSVLoader;
import org.tribuo.evaluation.CrossValidation;
import org.tribuo.regression.RegressionFactory;
import org.tribuo.regression.Regressor;
import org.tribuo.regression.evaluation.RegressionEvaluation;
import org.tribuo.regression.evaluation.RegressionEvaluator;

/**
 * psdkit in Tribuo: a CSV file through Tribuo's CSVLoader, Nyström kernel ridge regression cross-validated by
 * Tribuo, non-crossing quantiles, evaluation, provenance, the model saved in Tribuo's protobuf form, and a three-class
 * SVM with probabilities and balanced class weights.
 */
public final class TribuoExample {
    private TribuoExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the psdkit model inside the Tribuo one. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = sin(x1) + x2/2 + noise on 300 rows, written as a CSV file
        Random r = new Random(1);
        List<String> lines = new ArrayList<>(List.of("x1,x2,y"));
        for (int i = 0; i < 300; i++) {
            double a = 6 * r.nextDouble() - 3;
            double b = r.nextGaussian();
            lines.add(a + "," + b + "," + (Math.sin(a) + b / 2 + 0.1 * r.nextGaussian()));
        }
        Path csv = dir.resolve("train.csv");
        Files.write(csv, lines);
        MutableDataset<Regressor> data = new MutableDataset<>(
                new CSVLoader<>(new RegressionFactory()).loadDataSource(csv, "y"));

        // a Tribuo trainer from psdkit's options: Nyström KRR on 50 anchors, z-scored features
        PsdkitKrrTrainer krr = new PsdkitKrrTrainer(
                NystromKrrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 1e-3, 50, 42)
                        .withScale(Scaler.Kind.ZSCORE));
        double rmse = 0;
        for (Pair<RegressionEvaluation, org.tribuo.Model<Regressor>> fold
                : new CrossValidation<>(krr, data, new RegressionEvaluator(), 5).evaluate()) {
            rmse += fold.getA().averageRMSE() / 5;
        }
        out.printf("tribuo: %s%n  5-fold CV RMSE %.4f%n", krr, rmse);

        PsdkitModel<Regressor> model = krr.train(data);
        Prediction<Regressor> p = model.predict(data.getExample(0));
        out.printf("  first row: %s, model %s with %s%n", p.getOutput(), model.unwrap().type(),
                model.unwrap().hyperParameters());
        out.printf("  trained by %s%n", model.getProvenance().getTrainerProvenance().getConfiguredParameters()
                .get("lambda"));

        // quantiles τ = 0.1, 0.5, 0.9 on the first 100 rows: one Regressor dimension per level, never crossing
        Path small = dir.resolve("first-100.csv");
        Files.write(small, lines.subList(0, 101));
        PsdkitModel<Regressor> q = new PsdkitQuantileTrainer(new double[] {0.1, 0.5, 0.9}, "gaussian(sigma=1)",
                1e-2).train(new MutableDataset<>(new CSVLoader<>(new RegressionFactory()).loadDataSource(small, "y")));
        out.printf("  quantiles of the first row: %s%n", q.predict(data.getExample(0)).getOutput());

        // Tribuo's protobuf form holds the psdkit model; the psdkit model file is there too
        Path tribuoFile = dir.resolve("krr.tribuo");
        model.serializeToFile(tribuoFile);
        PsdkitModel<?> back = (PsdkitModel<?>) org.tribuo.Model.deserializeFromFile(tribuoFile);
        Path psdkitFile = dir.resolve("krr.json");
        ModelIO.save(back.unwrap(), psdkitFile);
        out.printf("  saved %s (%d bytes) and %s%n", tribuoFile.getFileName(), Files.size(tribuoFile),
                psdkitFile.getFileName());

        svm(dir, out);
        return back.unwrap();
    }

    /**
     * Three classes: the one-vs-one SVM with probabilities and balanced class weights, evaluated by Tribuo's
     * LabelEvaluator; each prediction's scores are psdkit's p(label).
     */
    static void svm(Path dir, PrintStream out) throws Exception {
        Random r = new Random(2);
        String[] cultivars = {"barolo", "grignolino", "barbera"};
        List<String> lines = new ArrayList<>(List.of("alcohol,flavanoids,cultivar"));
        for (int i = 0; i < 150; i++) {
            int c = i % 7 == 0 ? 2 : r.nextInt(2);    // barbera is the rare class
            double alcohol = c + r.nextGaussian();
            double flavanoids = (c == 1 ? 1 : 0) + r.nextGaussian();
            lines.add(alcohol + "," + flavanoids + "," + cultivars[c]);
        }
        Path csv = dir.resolve("wine.csv");
        Files.write(csv, lines);
        MutableDataset<Label> wine = new MutableDataset<>(
                new CSVLoader<>(new LabelFactory()).loadDataSource(csv, "cultivar"));
        PsdkitSvmTrainer svm = new PsdkitSvmTrainer(SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 10)
                .withScale(Scaler.Kind.ZSCORE).withProbability(true)
                .withClassWeight(ClassWeights.balancedWeights()));
        PsdkitModel<Label> model = svm.train(wine);
        LabelEvaluation ev = new LabelEvaluator().evaluate(model, wine);
        Prediction<Label> first = model.predict(wine.getExample(0));
        out.printf("svm: %d classes, training accuracy %.3f, first row %s with p = %s%n",
                model.getOutputIDInfo().size(), ev.accuracy(), first.getOutput().getLabel(),
                first.getOutputScores().values());
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
