package org.psdkit.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.MulticlassSvm;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;

/**
 * {@code psdkit bench svm --classes}: the one-vs-one SVM against scikit-learn's {@code SVC} on scikit-learn's digits
 * (10 classes, 1,797 × 64) and wine (3 classes, standardised), same split, C, γ and tolerance: label agreement with
 * {@code SVC(decision_function_shape='ovo')}, pairwise decision values, log-loss and Brier score against
 * {@code SVC(probability=True)}, labels with class and sample weights, and fit times in the same run (in-process
 * best of repeats after a warm-up for psdkit, best of repeats for scikit-learn, as wall time and as the process's CPU
 * time, which a loaded machine disturbs less; psdkit's first fit in the JVM (the warm-up: interpreted and
 * partly compiled code, the JIT compiling beside it) and the fitting thread's own CPU time (without the JIT's and
 * GC's threads) separately; and one fit in a fresh process each, wall time). The peer is {@code svm_classes_peer.py} (a resource of this module), run by the given Python.
 */
public final class MulticlassSvmBenchmark {
    private static final String PEER = "svm_classes_peer.py";

    private MulticlassSvmBenchmark() {
    }

    /**
     * @param sets      data set names (digits, wine)
     * @param c         the penalty C per set
     * @param gamma     the Gaussian γ per set
     * @param tolerance the SMO tolerance of both
     * @param repeats   timed fits per variant (best reported)
     * @param seed      the split's seed
     * @param python    the Python with scikit-learn
     * @param dir       where the data and the peer's outputs go
     * @param cold      whether to time one fit in a fresh process each (psdkit needs {@code javaCommand})
     * @param javaCommand the command that runs psdkit's CLI main class (java, -cp, classpath, main class), or null
     */
    public record Options(List<String> sets, double[] c, double[] gamma, double tolerance, int repeats, long seed,
                          String python, Path dir, boolean cold, List<String> javaCommand) {
    }

    /** One data set's comparison. */
    public record Row(String set, int classes, int trainRows, int testRows, double labelAgreement,
                      double maxDecisionRelDiff, double psdkitSeconds, double sklearnSeconds,
                      double psdkitProbSeconds, double sklearnProbSeconds, double logLoss, double sklearnLogLoss,
                      double brier, double sklearnBrier, double maxRowSumError, boolean argMaxIsLabel,
                      double classWeightAgreement, double balancedAgreement, double sampleWeightAgreement,
                      double psdkitColdSeconds, double sklearnColdSeconds, double psdkitCpu, double sklearnCpu,
                      double psdkitProbCpu, double sklearnProbCpu, double psdkitFirstSeconds,
                      double psdkitFirstCpu, double psdkitThreadCpu) {
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("set", set);
            m.put("classes", classes);
            m.put("train", trainRows);
            m.put("test", testRows);
            m.put("labelAgreement", labelAgreement);
            m.put("maxDecisionRelDiff", maxDecisionRelDiff);
            m.put("psdkitSeconds", psdkitSeconds);
            m.put("sklearnSeconds", sklearnSeconds);
            m.put("fitTimeRatio", psdkitSeconds / sklearnSeconds);
            m.put("psdkitCpuSeconds", psdkitCpu);
            m.put("sklearnCpuSeconds", sklearnCpu);
            m.put("fitCpuRatio", psdkitCpu / sklearnCpu);
            m.put("psdkitThreadCpuSeconds", psdkitThreadCpu);
            m.put("fitThreadCpuRatio", psdkitThreadCpu / sklearnCpu);
            m.put("psdkitFirstFitSeconds", psdkitFirstSeconds);
            m.put("psdkitFirstFitCpuSeconds", psdkitFirstCpu);
            m.put("firstFitTimeRatio", psdkitFirstSeconds / sklearnSeconds);
            m.put("psdkitProbabilitySeconds", psdkitProbSeconds);
            m.put("sklearnProbabilitySeconds", sklearnProbSeconds);
            m.put("probabilityFitTimeRatio", psdkitProbSeconds / sklearnProbSeconds);
            m.put("probabilityFitCpuRatio", psdkitProbCpu / sklearnProbCpu);
            m.put("logLoss", logLoss);
            m.put("sklearnLogLoss", sklearnLogLoss);
            m.put("logLossRatio", logLoss / sklearnLogLoss);
            m.put("brier", brier);
            m.put("sklearnBrier", sklearnBrier);
            m.put("brierRatio", brier / sklearnBrier);
            m.put("maxRowSumError", maxRowSumError);
            m.put("argMaxIsLabel", argMaxIsLabel);
            m.put("classWeightAgreement", classWeightAgreement);
            m.put("balancedAgreement", balancedAgreement);
            m.put("sampleWeightAgreement", sampleWeightAgreement);
            if (psdkitColdSeconds > 0) {
                m.put("psdkitColdProcessSeconds", psdkitColdSeconds);
                m.put("sklearnColdProcessSeconds", sklearnColdSeconds);
                m.put("coldProcessRatio", psdkitColdSeconds / sklearnColdSeconds);
            }
            return m;
        }
    }

    public static List<Row> run(Options o) {
        List<Row> rows = new ArrayList<>();
        try {
            Path script = o.dir().resolve(PEER);
            try (InputStream in = MulticlassSvmBenchmark.class.getResourceAsStream(PEER)) {
                Files.write(script, in.readAllBytes());
            }
            for (int s = 0; s < o.sets().size(); s++) {
                rows.add(one(o, script, o.sets().get(s), o.c()[s], o.gamma()[s]));
            }
        } catch (IOException e) {
            throw new IllegalStateException("bench svm --classes: " + e.getMessage(), e);
        }
        return rows;
    }

    private static Row one(Options o, Path script, String set, double c, double gamma) throws IOException {
        String out = run(List.of(o.python(), script.toString(), o.dir().toString(), set, Double.toString(c),
                Double.toString(gamma), Double.toString(o.tolerance()), Integer.toString(o.repeats()),
                Long.toString(o.seed())));
        JsonNode sk = new ObjectMapper().readTree(out.substring(out.lastIndexOf('\n') + 1));
        Path trainFile = o.dir().resolve(set + "-train.csv");
        Dataset train = CsvReader.read(trainFile, new CsvReader.Options("y", false, true));
        Dataset test = CsvReader.read(o.dir().resolve(set + "-test.csv"), new CsvReader.Options("y", false, true));
        double[] w = numbers(o.dir().resolve(set + "-weights.csv"), 0).col(0);
        Matrix skDec = numbers(o.dir().resolve(set + "-sk-decision.csv"), 0);
        Matrix skProb = numbers(o.dir().resolve(set + "-sk-proba.csv"), 0);
        List<String[]> skLab = text(o.dir().resolve(set + "-sk-labels.csv"));

        SvmTrainer.Options opt = SvmTrainer.Options.of(GaussianKernel.fromGamma(gamma), c)
                .withTolerance(o.tolerance()).withSeed(o.seed());
        double[] secs = new double[3];
        best(1, secs, () -> new SvmTrainer(opt).fit(train)); // warm-up: the first fit in this JVM
        double tFirst = secs[0];
        double cFirst = secs[1];
        MulticlassSvm ovo = (MulticlassSvm) best(o.repeats(), secs, () -> new SvmTrainer(opt).fit(train));
        double tOvo = secs[0];
        double cOvo = secs[1];
        double thOvo = secs[2];
        MulticlassSvm prob = (MulticlassSvm) best(o.repeats(), secs,
                () -> new SvmTrainer(opt.withProbability(true)).fit(train));
        double tProb = secs[0];
        double cProb = secs[1];
        Classifier cw = new SvmTrainer(opt.withClassWeight(ClassWeights.parse(sk.get("classWeights").asText())))
                .fit(train);
        Classifier bal = new SvmTrainer(opt.withClassWeight(ClassWeights.balancedWeights())).fit(train);
        Classifier sw = new SvmTrainer(opt).fit(train, w, null);

        Matrix dec = ovo.predict(test.x());
        String[] lab = ovo.labelsOf(dec);
        int n = test.n();
        double agree = 0;
        double maxRel = 0;
        for (int i = 0; i < n; i++) {
            agree += lab[i].equals(skLab.get(i)[0]) ? 1 : 0;
            for (int p = 0; p < dec.cols(); p++) {
                double a = dec.get(i, p);
                double b = skDec.get(i, p);
                maxRel = Math.max(maxRel, Math.abs(a - b) / Math.max(Math.abs(b), 1));
            }
        }
        // probabilities: psdkit's classes are in order of first appearance = scikit-learn's sorted order (the peer's
        // names); both evaluated on the test rows
        Matrix pr = prob.probabilities(test.x());
        String[] plab = prob.predictLabels(test.x());
        List<String> classes = prob.labels();
        String[] truth = test.labels();
        double ll = 0;
        double br = 0;
        double skll = 0;
        double skbr = 0;
        double rowErr = 0;
        boolean argMax = true;
        for (int i = 0; i < n; i++) {
            int t = classes.indexOf(truth[i]);
            double sum = 0;
            int am = 0;
            for (int j = 0; j < classes.size(); j++) {
                double p = pr.get(i, j);
                sum += p;
                if (p > pr.get(i, am)) {
                    am = j;
                }
                double q = skProb.get(i, j);
                br += (p - (j == t ? 1 : 0)) * (p - (j == t ? 1 : 0));
                skbr += (q - (j == t ? 1 : 0)) * (q - (j == t ? 1 : 0));
            }
            argMax &= classes.get(am).equals(plab[i]);
            rowErr = Math.max(rowErr, Math.abs(sum - 1));
            ll -= Math.log(Math.max(pr.get(i, t), 1e-300));
            skll -= Math.log(Math.max(skProb.get(i, t), 1e-300));
        }
        double cwA = agreement(cw.predictLabels(test.x()), skLab, 1);
        double balA = agreement(bal.predictLabels(test.x()), skLab, 2);
        double swA = agreement(sw.predictLabels(test.x()), skLab, 3);
        double coldP = -1;
        double coldS = -1;
        if (o.cold() && o.javaCommand() != null) {
            List<String> cmd = new ArrayList<>(o.javaCommand());
            cmd.addAll(List.of("fit", "svm", "--train", trainFile.toString(), "--target", "y", "--kernel",
                    "gaussian(gamma=" + gamma + ")", "-C", Double.toString(c), "--tolerance",
                    Double.toString(o.tolerance()), "--out", o.dir().resolve(set + "-psdkit.json").toString()));
            coldP = wall(cmd);
            coldS = wall(List.of(o.python(), script.toString(), "cold", trainFile.toString(), Double.toString(c),
                    Double.toString(gamma), Double.toString(o.tolerance())));
        }
        return new Row(set, classes.size(), train.n(), n, agree / n, maxRel, tOvo, sk.get("ovo").asDouble(), tProb,
                sk.get("probability").asDouble(), ll / n, skll / n, br / n, skbr / n, rowErr, argMax, cwA, balA, swA,
                coldP, coldS, cOvo, sk.get("cpu").get("ovo").asDouble(), cProb,
                sk.get("cpu").get("probability").asDouble(), tFirst, cFirst, thOvo);
    }

    private static double agreement(String[] a, List<String[]> sk, int col) {
        double ok = 0;
        for (int i = 0; i < a.length; i++) {
            ok += a[i].equals(sk.get(i)[col]) ? 1 : 0;
        }
        return ok / a.length;
    }

    /**
     * Runs {@code fit} {@code repeats} times; secs[0], secs[1], secs[2] become the least wall time, process CPU time
     * and calling thread's CPU time (the fit itself when its kernel blocks are too small for the kernel threads, as on
     * digits and wine; the process figure adds the JIT compiler's and the GC's threads).
     */
    private static Classifier best(int repeats, double[] secs, java.util.function.Supplier<Classifier> fit) {
        Classifier m = null;
        secs[0] = Double.POSITIVE_INFINITY;
        secs[1] = Double.POSITIVE_INFINITY;
        secs[2] = Double.POSITIVE_INFINITY;
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int r = 0; r < repeats; r++) {
            long c0 = processCpu();
            long h0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            m = fit.get();
            secs[0] = Math.min(secs[0], (System.nanoTime() - t0) * 1e-9);
            secs[1] = Math.min(secs[1], (processCpu() - c0) * 1e-9);
            secs[2] = Math.min(secs[2], (threads.getCurrentThreadCpuTime() - h0) * 1e-9);
        }
        return m;
    }

    /** CPU time of the whole process (all threads, JIT and GC included), ns. */
    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static Matrix numbers(Path file, int skip) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<double[]> rows = new ArrayList<>();
        for (String l : lines.subList(skip, lines.size())) {
            if (l.isBlank()) {
                continue;
            }
            String[] f = l.split(",");
            double[] r = new double[f.length];
            for (int j = 0; j < f.length; j++) {
                r[j] = Double.parseDouble(f[j].trim());
            }
            rows.add(r);
        }
        return Matrix.of(rows.toArray(new double[0][]));
    }

    private static List<String[]> text(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String[]> out = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            if (!l.isBlank()) {
                out.add(l.split(","));
            }
        }
        return out;
    }

    private static String run(List<String> cmd) throws IOException {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            int rc = p.waitFor();
            if (rc != 0) {
                throw new IllegalStateException("scikit-learn peer failed (exit " + rc + "): " + out);
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static double wall(List<String> cmd) throws IOException {
        long t0 = System.nanoTime();
        run(cmd);
        return (System.nanoTime() - t0) * 1e-9;
    }
}
