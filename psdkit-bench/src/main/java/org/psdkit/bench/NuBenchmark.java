package org.psdkit.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.psdkit.classify.OneClassSvm;
import org.psdkit.classify.OneClassSvmTrainer;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.regression.SvrTrainer;

/**
 * The one-class SVM, ν-SVC and ν-SVR against scikit-learn's {@code OneClassSVM}, {@code NuSVC} and {@code NuSVR}
 * (LIBSVM) run live on the same seeded data: fit time of each (best of {@code repeats}, after an untimed warm-up fit
 * of psdkit), the share of equal test labels and the largest difference of the test outputs relative to the peer's
 * largest output. The peer is docs/benchmarks/nu_sklearn.py ({@code bench} mode) run by the given Python. Settings:
 * Gaussian kernels, LIBSVM's tolerance 1e-3 and 500 MB cache on both sides, no scaling; one-class ν = 0.1 (σ = 0.5),
 * ν-SVC ν = 0.6 (σ = 0.7), ν-SVR ν = 0.4, C = 2 (σ = 0.8). Behind {@code psdkit bench nu}.
 */
public final class NuBenchmark {
    private NuBenchmark() {
    }

    /** The three problems and their settings, as the peer script reads them from {@code settings.json}. */
    static final String[] PROBLEMS = {"one-class", "nu-svc", "nu-svr"};

    /**
     * Options of one run.
     *
     * @param n       training rows per problem (≥ 20)
     * @param test    test rows per problem (≥ 1)
     * @param repeats timed fits per side, the best is reported (≥ 1)
     * @param seed    data seed
     * @param dir     where the CSV files go (the peer reads them)
     * @param python  the Python interpreter with scikit-learn ({@code /usr/bin/python3} for Debian's package)
     * @param script  the peer script, docs/benchmarks/nu_sklearn.py
     */
    public record Options(int n, int test, int repeats, long seed, Path dir, String python, Path script) {
        public Options {
            if (n < 20) {
                throw new IllegalArgumentException("n must be >= 20, got " + n);
            }
            if (test < 1) {
                throw new IllegalArgumentException("test must be >= 1, got " + test);
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
            }
            if (script == null || !Files.isRegularFile(script)) {
                throw new IllegalArgumentException("the peer script " + script + " does not exist (run from the "
                        + "repository root, or give its path)");
            }
        }
    }

    /**
     * One problem's comparison.
     *
     * @param problem        {@code one-class}, {@code nu-svc} or {@code nu-svr}
     * @param psdkitSeconds  psdkit's best fit wall time (in process)
     * @param sklearnSeconds scikit-learn's best fit wall time (in its process)
     * @param supportVectors psdkit's support vectors
     * @param peerSupportVectors scikit-learn's support vectors
     * @param labelAgreement share of equal test labels (NaN for ν-SVR)
     * @param maxRelativeDiff max |f_psdkit − f_peer| / max |f_peer| over the test rows (decision or prediction)
     */
    public record Row(String problem, double psdkitSeconds, double sklearnSeconds, int supportVectors,
                      int peerSupportVectors, double labelAgreement, double maxRelativeDiff) {
        /** psdkit's time over scikit-learn's. */
        public double ratio() {
            return psdkitSeconds / sklearnSeconds;
        }
    }

    public static List<Row> run(Options o, ProgressListener listener) {
        ProgressListener lis = ProgressListener.orNone(listener);
        try {
            Files.createDirectories(o.dir());
            Random r = new Random(o.seed());
            for (String p : PROBLEMS) {
                write(o.dir().resolve(p + "-train.csv"), p, o.n(), r, true);
                write(o.dir().resolve(p + "-test.csv"), p, o.test(), r, false);
            }
            Files.writeString(o.dir().resolve("settings.json"), String.format(Locale.ROOT, "{\"repeats\": %d, "
                    + "\"problems\": {\"one-class\": {\"sigma\": 0.5, \"nu\": 0.1, \"tol\": 1e-3}, "
                    + "\"nu-svc\": {\"sigma\": 0.7, \"nu\": 0.6, \"tol\": 1e-3}, "
                    + "\"nu-svr\": {\"sigma\": 0.8, \"nu\": 0.4, \"C\": 2.0, \"tol\": 1e-3}}}", o.repeats()));
            lis.onProgress(new ProgressListener.Event("scikit-learn", 0, 0, "", 0, 0));
            String peer = runPeer(o);
            List<Row> rows = new ArrayList<>();
            for (String p : PROBLEMS) {
                lis.onProgress(new ProgressListener.Event("psdkit " + p, 0, 0, "", 0, 0));
                rows.add(compare(o, p, peer));
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Trainer<? extends Model> trainer(String p) {
        return switch (p) {
            case "one-class" -> new OneClassSvmTrainer(OneClassSvmTrainer.Options.of(
                    Kernels.parse("gaussian(sigma=0.5)"), 0.1));
            case "nu-svc" -> new SvmTrainer(SvmTrainer.Options.nu(Kernels.parse("gaussian(sigma=0.7)"), 0.6));
            default -> new SvrTrainer(SvrTrainer.Options.nu(Kernels.parse("gaussian(sigma=0.8)"), 2, 0.4));
        };
    }

    private static Row compare(Options o, String p, String peer) {
        Dataset train = CsvReader.read(o.dir().resolve(p + "-train.csv"), p.equals("one-class")
                ? CsvReader.Options.unsupervised() : p.equals("nu-svc") ? new CsvReader.Options(null, false, true)
                : CsvReader.Options.regression());
        Matrix test = CsvReader.read(o.dir().resolve(p + "-test.csv"), CsvReader.Options.unsupervised()).x();
        Trainer<? extends Model> t = trainer(p);
        // untimed warm-up on a fifth of the rows, so that the timed fits run compiled code
        int w = Math.max(20, o.n() / 5);
        int[] first = new int[w];
        for (int i = 0; i < w; i++) {
            first[i] = i;
        }
        t.fit(org.psdkit.data.Splits.subset(train, first));
        double best = Double.POSITIVE_INFINITY;
        Model m = null;
        for (int k = 0; k < o.repeats(); k++) {
            long t0 = System.nanoTime();
            m = t.fit(train);
            best = Math.min(best, (System.nanoTime() - t0) * 1e-9);
        }
        Matrix want = CsvReader.read(o.dir().resolve(p + "-sklearn.csv"), CsvReader.Options.unsupervised()).x();
        double[] f;
        double agree = Double.NaN;
        int sv;
        if (m instanceof OneClassSvm oc) {
            Matrix out = oc.predict(test);
            f = out.col(0);
            agree = agreement(out.col(1), want.col(1));
            sv = oc.inner().supportVectors().rows();
        } else if (m instanceof SvmClassifier c) {
            f = c.predict(test).col(0);
            String[] labels = c.labelsOf(c.predict(test));
            double[] lab = new double[labels.length];
            for (int i = 0; i < lab.length; i++) {
                lab[i] = Double.parseDouble(labels[i]);
            }
            agree = agreement(lab, want.col(1));
            // scikit-learn's decision is positive for its second (larger) class
            if (Double.parseDouble(c.binaryLabels().positive()) < 0) {
                for (int i = 0; i < f.length; i++) {
                    f[i] = -f[i];
                }
            }
            sv = c.inner().supportVectors().rows();
        } else {
            f = m.predict(test).col(0);
            sv = ((org.psdkit.model.Pipeline<?>) m).inner() instanceof org.psdkit.regression.Svr s
                    ? s.supportVectors().rows() : -1;
        }
        double[] g = want.col(0);
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < g.length; i++) {
            scale = Math.max(scale, Math.abs(g[i]));
            diff = Math.max(diff, Math.abs(f[i] - g[i]));
        }
        return new Row(p, best, number(peer, p, "seconds"), sv, (int) number(peer, p, "supportVectors"), agree,
                diff / scale);
    }

    private static double agreement(double[] a, double[] b) {
        int same = 0;
        for (int i = 0; i < a.length; i++) {
            same += a[i] == b[i] ? 1 : 0;
        }
        return (double) same / a.length;
    }

    /** A number of the peer's JSON line ({@code "problem": {"seconds": s, "supportVectors": k}}). */
    static double number(String json, String problem, String key) {
        Matcher mt = Pattern.compile("\"" + Pattern.quote(problem) + "\":\\s*\\{[^}]*\"" + key
                + "\":\\s*([-0-9.eE+]+)").matcher(json);
        if (!mt.find()) {
            throw new IllegalStateException("the scikit-learn peer did not report " + problem + "." + key + ": "
                    + json);
        }
        return Double.parseDouble(mt.group(1));
    }

    private static String runPeer(Options o) {
        try {
            Process p = new ProcessBuilder(o.python(), o.script().toString(), "bench", o.dir().toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            int rc = p.waitFor();
            String last = out.isEmpty() ? "" : out.substring(out.lastIndexOf('\n') + 1);
            if (rc != 0 || !last.startsWith("{")) {
                throw new IllegalStateException("scikit-learn peer failed (exit " + rc + "): " + out);
            }
            return last;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + o.python() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Seeded data: two blobs (one-class), an XOR boundary with label noise (ν-SVC), a smooth target (ν-SVR). */
    private static void write(Path file, String p, int n, Random r, boolean train) throws IOException {
        StringBuilder sb = new StringBuilder(train && !p.equals("one-class") ? "x1,x2,y\n" : "x1,x2\n");
        for (int i = 0; i < n; i++) {
            double a;
            double b;
            String y = "";
            switch (p) {
                case "one-class" -> {
                    if (!train) {
                        a = 7 * r.nextDouble() - 3.5;
                        b = 7 * r.nextDouble() - 3.5;
                    } else if (r.nextDouble() < 0.6) {
                        a = -1 + 0.5 * r.nextGaussian();
                        b = -1 + 0.5 * r.nextGaussian();
                    } else {
                        a = 1.5 + 0.7 * r.nextGaussian();
                        b = 1 + 0.7 * r.nextGaussian();
                    }
                }
                case "nu-svc" -> {
                    a = r.nextGaussian();
                    b = r.nextGaussian();
                    y = a * b + 0.3 * r.nextGaussian() > 0 ? ",1" : ",-1";
                }
                default -> {
                    a = 6 * r.nextDouble() - 3;
                    b = 6 * r.nextDouble() - 3;
                    y = String.format(Locale.ROOT, ",%.17g", Math.sin(a) + 0.5 * b + 0.1 * r.nextGaussian());
                }
            }
            sb.append(String.format(Locale.ROOT, "%.17g,%.17g", a, b)).append(train ? y : "").append('\n');
        }
        Files.writeString(file, sb);
    }
}
