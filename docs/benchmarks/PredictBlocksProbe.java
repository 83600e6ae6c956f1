import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.psdkit.classify.OvoDecision;
import org.psdkit.cone.KernelExpansion;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.GlmDensity;
import org.psdkit.density.LinearDensity;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.RowBlocks;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.Svr;
import org.psdkit.regression.psd.KernelExpansionModel;

/**
 * Issue 33, "every family's predict in blocks through the same path": each family's kernel-expansion predict as the
 * jar on the class path computes it, against the expression main computed before (reproduced here), on California
 * housing (rows permuted with seed 1, z-scored on the model's points; Gaussian σ = 1; the coefficients of an exact
 * KRR fit, λ = 0.01, the size of krr-5000's). Usage (Java 17 single-file launch):
 *   java -cp JAR docs/benchmarks/PredictBlocksProbe.java compare [n=5000] [m=5000] [rounds=3]
 *       per family: max |new − old| / Σ_j |k_ij c_j| and / max |old|, and process CPU of old and new interleaved
 *       (old, new, new, old, …), first call and best of the rounds
 *   java -Xmx5g -cp JAR docs/benchmarks/PredictBlocksProbe.java mem FAMILY [n=2000] [m=200000]
 *       one predict of m rows (California's rows repeated) with the jar's own code, for /usr/bin/time's peak RSS
 */
public class PredictBlocksProbe {
    static Kernel g = Kernels.parse("gaussian(sigma=1)");

    static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static Matrix rows(Matrix x, int from, int count) {
        return x.selectRows(IntStream.range(0, count).map(i -> (from + i) % x.rows()).toArray());
    }

    record Family(String name, Supplier<double[]> now, Supplier<double[]> old, double[] c) {
    }

    public static void main(String[] a) throws Exception {
        Dataset all = CsvReader.read(Path.of("/work/shared/data/california-housing.csv"),
                CsvReader.Options.regression());
        int[] perm = Splits.permutation(all.n(), 1);
        Matrix xp = all.x().selectRows(perm);
        double[] yp = Arrays.stream(perm).mapToDouble(i -> all.y()[i]).toArray();
        boolean mem = a[0].equals("mem");
        int n = a.length > (mem ? 2 : 1) ? Integer.parseInt(a[mem ? 2 : 1]) : (mem ? 2000 : 5000);
        int m = a.length > (mem ? 3 : 2) ? Integer.parseInt(a[mem ? 3 : 2]) : (mem ? 200_000 : 5000);
        int rounds = !mem && a.length > 3 ? Integer.parseInt(a[3]) : 3;
        Matrix x0 = rows(xp, 0, n);
        Scaler sc = Scaler.fit(Scaler.Kind.ZSCORE, x0);
        Matrix x = sc.apply(x0);
        Matrix xt = sc.apply(rows(xp, n, m));
        KernelRidge krr = KernelRidge.fit(g, x, Arrays.copyOf(yp, n), KernelRidge.Options.standard(0.01));
        double[] alpha = krr.alpha();
        double[] alpha2 = new double[n];
        for (int i = 0; i < n; i++) {
            alpha2[i] = alpha[n - 1 - i];
        }
        Matrix alphas = Matrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            alphas.set(i, 0, alpha[i]);
            alphas.set(i, 1, alpha2[i]);
        }
        double[] pos = new double[n];
        for (int i = 0; i < n; i++) {
            pos[i] = Math.abs(alpha[i]) / n;
        }
        int[] counts = {n / 3, n / 3, n - 2 * (n / 3)};
        double[][] coef = {alpha, alpha2};
        double[] bias = {0.1, -0.2, 0.3};
        Svr svr = new Svr(g, x, alpha, 0.5, 1.0, 0.1, null);
        KernelRidge multi = KernelRidge.of(g, x, alphas, new double[] {1.0, 2.0}, KernelRidge.Options.standard(0.01),
                null);
        KernelExpansion cone = new KernelExpansion(g, 0.0, x, alpha, 0.0, KernelExpansion.Link.IDENTITY);
        KernelExpansionModel psdReg = new KernelExpansionModel("pnm", g, x, alpha, false, null);
        LinearDensity lin = new LinearDensity("ncm", g, x, pos, new BaseMeasure.Lebesgue(), null);
        GlmDensity glm = new GlmDensity(g, x, alpha, 0.0, new BaseMeasure.Lebesgue(), null, 1L);
        OvoDecision ovo = new OvoDecision(List.of("a", "b", "c"), g, x, counts, coef, bias, null, null);
        if (mem) {
            long t0 = System.nanoTime();
            long c0 = cpu();
            Object out = switch (a[1]) {
                case "ovo" -> ovo.predict(xt);
                case "svr" -> svr.predictVector(xt);
                case "krr-multi" -> multi.predict(xt);
                case "cone" -> cone.eval(xt);
                case "psd-reg" -> psdReg.values(xt);
                case "linear-density" -> lin.f(xt);
                default -> throw new IllegalArgumentException(a[1]);
            };
            System.out.printf("%s: %d rows x %d points, predict %.2f s wall, %.2f s CPU, heap max %d MB%n", a[1], m, n,
                    (System.nanoTime() - t0) * 1e-9, (cpu() - c0) * 1e-9, Runtime.getRuntime().maxMemory() >> 20);
            return;
        }
        Family[] fams = {
            new Family("svr", () -> svr.predictVector(xt),
                    () -> plus(g.cross(xt, x).times(alpha), 0.5), alpha),
            new Family("krr-multi", () -> multi.predict(xt).col(1), () -> krrMultiOld(xt, x, alphas, 2.0).col(1),
                    alpha2),
            new Family("cone", () -> cone.eval(xt),
                    () -> RowBlocks.apply(xt, n, xb -> Linalg.gemv(g.cross(xb, x), false, alpha)), alpha),
            new Family("psd-reg", () -> psdReg.values(xt), () -> psdRegOld(xt, x, alpha), alpha),
            new Family("linear-density", () -> lin.f(xt),
                    () -> RowBlocks.apply(xt, n, xb -> Linalg.gemv(g.cross(x, xb), true, pos)), pos),
            new Family("glm-density", () -> glm.logDensity(xt),
                    () -> RowBlocks.apply(xt, n, xb -> Linalg.gemv(g.cross(x, xb), true, alpha)), alpha),
            new Family("ovo", () -> ovo.predict(xt).col(2), () -> ovoOld(xt, x, counts, coef, bias).col(2), null),
        };
        double[] cPair12 = new double[n];
        for (int s = counts[0]; s < n; s++) {
            cPair12[s] = coef[1][s]; // pair (1, 2): row 1 for both classes
        }
        Matrix kx = g.cross(xt, x);
        System.out.printf("n = %d points, m = %d rows, %d rounds; CPU = process CPU (all threads) of one call%n", n, m,
                rounds);
        System.out.println("| family | max |new-old| / sum|kc| | max |new-old| / max|old| | old CPU first / best | new CPU "
                + "first / best | best ratio |");
        for (Family f : fams) {
            double[] c = f.c() == null ? cPair12 : f.c();
            double[] mag = new double[m];
            for (int j = 0; j < n; j++) {
                for (int i = 0; i < m; i++) {
                    mag[i] += Math.abs(kx.get(i, j) * c[j]);
                }
            }
            double[] oldFirst = new double[1];
            double[] newFirst = new double[1];
            double bestOld = Double.MAX_VALUE;
            double bestNew = Double.MAX_VALUE;
            double[] vo = null;
            double[] vn = null;
            for (int r = 0; r < 2 * rounds; r++) {
                boolean oldFirstInPair = (r / 2) % 2 == 0;
                boolean runOld = (r % 2 == 0) == oldFirstInPair;
                long c0 = cpu();
                double[] v = runOld ? f.old().get() : f.now().get();
                double t = (cpu() - c0) * 1e-9;
                if (runOld) {
                    if (vo == null) {
                        oldFirst[0] = t;
                    }
                    vo = v;
                    bestOld = Math.min(bestOld, t);
                } else {
                    if (vn == null) {
                        newFirst[0] = t;
                    }
                    vn = v;
                    bestNew = Math.min(bestNew, t);
                }
            }
            double rel = 0;
            double maxOld = 0;
            double maxDiff = 0;
            for (int i = 0; i < m; i++) {
                double d = Math.abs(vn[i] - vo[i]);
                rel = Math.max(rel, d / mag[i]);
                maxDiff = Math.max(maxDiff, d);
                maxOld = Math.max(maxOld, Math.abs(vo[i]));
            }
            System.out.printf("| %s | %.2e | %.2e | %.3f / %.3f s | %.3f / %.3f s | %.2f |%n", f.name(), rel,
                    maxDiff / maxOld, oldFirst[0], bestOld, newFirst[0], bestNew, bestNew / bestOld);
        }
    }

    static double[] plus(double[] v, double s) {
        for (int i = 0; i < v.length; i++) {
            v[i] += s;
        }
        return v;
    }

    /** main's KernelRidge.predict for several targets: blocks of 2^22 entries, dgemm each. */
    static Matrix krrMultiOld(Matrix x, Matrix points, Matrix alphas, double offset1) {
        int m = x.rows();
        int n = points.rows();
        Matrix p = Matrix.zeros(m, alphas.cols());
        int block = (int) Math.max(1, Math.min(m, (1L << 22) / Math.max(1, n)));
        for (int r0 = 0; r0 < m; r0 += block) {
            int r1 = Math.min(m, r0 + block);
            Matrix xb = r0 == 0 && r1 == m ? x : x.rowRange(r0, r1);
            Matrix pb = Linalg.gemm(1.0, g.cross(xb, points), false, alphas, false);
            for (int c = 0; c < alphas.cols(); c++) {
                for (int i = 0; i < pb.rows(); i++) {
                    p.set(r0 + i, c, pb.get(i, c) + (c == 1 ? offset1 : 1.0));
                }
            }
        }
        return p;
    }

    /** main's KernelExpansionModel.values: 2,048-row blocks, dgemv each. */
    static double[] psdRegOld(Matrix x, Matrix points, double[] alpha) {
        int m = x.rows();
        double[] out = new double[m];
        for (int s = 0; s < m; s += 2048) {
            int e = Math.min(m, s + 2048);
            double[] part = Linalg.gemv(g.cross(e - s == m ? x : x.rowRange(s, e), points), false, alpha);
            System.arraycopy(part, 0, out, s, part.length);
        }
        return out;
    }

    /** main's OvoDecision.predict: the whole cross matrix, then each pair's two sums. */
    static Matrix ovoOld(Matrix x, Matrix sv, int[] counts, double[][] coef, double[] bias) {
        Matrix kv = g.cross(x, sv);
        int k = counts.length;
        int[] start = new int[k];
        for (int i = 1; i < k; i++) {
            start[i] = start[i - 1] + counts[i - 1];
        }
        Matrix out = Matrix.zeros(x.rows(), bias.length);
        double[] kr = new double[sv.rows()];
        for (int r = 0; r < x.rows(); r++) {
            for (int s = 0; s < kr.length; s++) {
                kr[s] = kv.get(r, s);
            }
            int p = 0;
            for (int i = 0; i < k; i++) {
                for (int j = i + 1; j < k; j++) {
                    double sum = 0;
                    for (int s = start[i]; s < start[i] + counts[i]; s++) {
                        sum += coef[j - 1][s] * kr[s];
                    }
                    for (int s = start[j]; s < start[j] + counts[j]; s++) {
                        sum += coef[i][s] * kr[s];
                    }
                    out.set(r, p, sum + bias[p]);
                    p++;
                }
            }
        }
        return out;
    }
}
