import java.io.*;
import java.nio.file.*;
import java.util.Arrays;
import org.psdkit.data.*;
import org.psdkit.kernel.*;
import org.psdkit.linalg.*;
import org.psdkit.optim.smo.Smo;
import org.psdkit.regression.KernelRidge;

/**
 * Issue 33's accuracy check: dumps Gram matrices, coefficients and predictions (KRR on California n = 5,000 and
 * n = 2,000 for other kernels, SVM on bench svm's n = 5,000 data in /tmp/gemm-svm) of the psdkit jar on the class
 * path, and compares two dumps. Usage (Java 17 single-file launch):
 *   java -cp OLD.jar docs/benchmarks/HotLoopsProbe.java dump DIR_OLD
 *   java -cp NEW.jar docs/benchmarks/HotLoopsProbe.java dump DIR_NEW
 *   java docs/benchmarks/HotLoopsProbe.java compare DIR_OLD DIR_NEW
 */
public class HotLoopsProbe {
    static void dump(String dir, String name, double[] v) throws IOException {
        try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(dir + "/" + name)))) {
            o.writeInt(v.length);
            for (double d : v) o.writeDouble(d);
        }
    }
    public static void main(String[] a) throws Exception {
        if (a[0].equals("compare")) {
            compare(a[1], a[2]);
            return;
        }
        String dir = a[1];
        new File(dir).mkdirs();
        Dataset all = CsvReader.read(Path.of("/work/shared/data/california-housing.csv"), CsvReader.Options.regression());
        int[] idx = Arrays.copyOf(Splits.permutation(all.n(), 1), 10000);
        Dataset sub = Splits.subset(all, Arrays.copyOf(idx, 5000));
        Dataset test = Splits.subset(all, Arrays.copyOfRange(idx, 5000, 10000));
        Scaler sc = Scaler.fit(Scaler.Kind.ZSCORE, sub.x());
        Matrix x = sc.apply(sub.x());
        Matrix xt = sc.apply(test.x());
        Kernel g = Kernels.parse("gaussian(sigma=1)");
        long t0 = System.nanoTime();
        Matrix k = g.gram(x);
        dump(dir, "krr-gram", k.data());
        KernelRidge m = KernelRidge.fit(g, x, sub.y(), KernelRidge.Options.standard(0.01));
        dump(dir, "krr-alpha", m.alpha());
        dump(dir, "krr-pred", m.predictVector(xt));
        dump(dir, "krr-cross", g.cross(xt, x).data());
        for (String ks : new String[]{"laplacian(sigma=2)", "exponential(a=0.1)", "polynomial(degree=3, offset=1)", "linear"}) {
            Kernel kk = Kernels.parse(ks);
            Matrix xs = x.selectRows(java.util.stream.IntStream.range(0, 2000).toArray());
            dump(dir, "gram-" + ks.replaceAll("[^a-z0-9]", ""), kk.gram(xs).data());
            KernelRidge mk = KernelRidge.fit(kk, xs, Arrays.copyOf(sub.y(), 2000), KernelRidge.Options.standard(0.01));
            dump(dir, "alpha-" + ks.replaceAll("[^a-z0-9]", ""), mk.alpha());
        }
        // SVM as bench svm: gaussian gamma 0.1, C 10
        Dataset tr = CsvReader.read(Path.of("/tmp/gemm-svm/svm-train-5000.csv"), CsvReader.Options.regression());
        Dataset te = CsvReader.read(Path.of("/tmp/gemm-svm/svm-test.csv"), CsvReader.Options.regression());
        Kernel gs = GaussianKernel.fromGamma(0.1);
        Smo.Result r = Smo.solve(gs, tr.x(), tr.y(), null, 10, new Smo.Options(1e-3, true), 500L << 20, null, null);
        dump(dir, "svm-alpha", r.alpha());
        dump(dir, "svm-bias", new double[]{r.bias(), r.iterations()});
        double[] coef = new double[r.alpha().length];
        for (int i = 0; i < coef.length; i++) coef[i] = r.alpha()[i] * tr.y()[i];
        double[] f = Linalg.gemv(gs.cross(te.x(), tr.x()), false, coef);
        dump(dir, "svm-decision", f);
        System.out.println("done " + (System.nanoTime() - t0) * 1e-9 + " s, svm iterations " + r.iterations());
    }
    static double[] load(String f) throws IOException {
        try (DataInputStream i = new DataInputStream(new BufferedInputStream(new FileInputStream(f)))) {
            double[] v = new double[i.readInt()];
            for (int k = 0; k < v.length; k++) v[k] = i.readDouble();
            return v;
        }
    }
    static void compare(String oldDir, String newDir) throws Exception {
        for (String name : new File(oldDir).list()) {
            double[] o = load(oldDir + "/" + name), n = load(newDir + "/" + name);
            double maxAbs = 0, maxRef = 0, maxEntryRel = 0; long diff = 0;
            for (int k = 0; k < o.length; k++) {
                double d = Math.abs(o[k] - n[k]);
                if (o[k] != n[k]) diff++;
                maxAbs = Math.max(maxAbs, d);
                maxRef = Math.max(maxRef, Math.abs(o[k]));
                if (o[k] != 0 && Math.abs(o[k]) > 1e-300) maxEntryRel = Math.max(maxEntryRel, d / Math.abs(o[k]));
            }
            System.out.printf("%-36s n=%d differing=%d max|d|/max|old|=%.2e max entrywise rel=%.2e%n", name, o.length, diff, maxAbs / maxRef, maxEntryRel);
        }
    }
}
