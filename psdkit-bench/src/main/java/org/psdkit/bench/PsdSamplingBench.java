package org.psdkit.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.Mixtures;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.io.ModelFile;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;

/**
 * Sampling from fitted PSD densities (issue 14, behind {@code psdkit bench psd-sample}): the sampler of
 * {@link PsdDensity#sample} against the previous sequential conditional-CDF inversion
 * ({@link PsdDensity#sampleSequential}) on the same model in the same run. The baseline draws only a few points
 * (it takes seconds per draw at n = 1,000, d = 10); the ratio is per draw. Cases: {@code d10} (n = 1,000, the
 * mixture ½N(−2e₁, I/2π) + ½N(2e₁, I/2π), σ = 0.44, λ = 1e-3) and {@code 2d} (n = 300, ½N((−1,0), 0.5²I) +
 * ½N((1,0.5), 0.5²I), σ = 0.3, λ = 1e-3), either fitted here (the fit is not timed) or read from model files.
 */
public final class PsdSamplingBench {

    private PsdSamplingBench() {
    }

    /**
     * Options.
     *
     * @param cases         case names, {@code d10} and/or {@code 2d}
     * @param d10Model      a fitted model file for d10 (null: fit it here)
     * @param twoDModel     a fitted model file for 2d (null: fit it here)
     * @param draws         draws of the new sampler per case
     * @param baselineDraws draws of the old sampler per case
     * @param seed          data and sampling seed
     */
    public record Options(List<String> cases, Path d10Model, Path twoDModel, int draws, int baselineDraws, long seed) {
        public Options {
            for (String c : cases) {
                if (!c.equals("d10") && !c.equals("2d")) {
                    throw new IllegalArgumentException("cases: '" + c + "' is not d10 or 2d");
                }
            }
            if (draws < 1 || baselineDraws < 1) {
                throw new IllegalArgumentException("draws and baseline draws must be >= 1, got " + draws + " and "
                        + baselineDraws);
            }
        }
    }

    /**
     * One case.
     *
     * @param name              case
     * @param n                 expansion points
     * @param d                 dimension
     * @param draws             draws of the new sampler
     * @param seconds           its wall time
     * @param baselineDraws     draws of the old sampler
     * @param baselineSeconds   its wall time
     * @param speedup           per-draw time of the old over the new
     * @param fractionPositive  fraction of the new draws with x₁ &gt; 0
     * @param probabilityPositive P(x₁ &gt; 0) of the model in closed form
     */
    public record Row(String name, int n, int d, int draws, double seconds, int baselineDraws, double baselineSeconds,
                      double speedup, double fractionPositive, double probabilityPositive) {
    }

    public static List<Row> run(Options o, Consumer<Row> out) {
        Machine.warmUp();
        List<Row> rows = new ArrayList<>();
        for (String c : o.cases()) {
            PsdDensity p = c.equals("d10") ? model(o.d10Model(), d10Data(o.seed()), 0.44)
                    : model(o.twoDModel(), twoDData(o.seed()), 0.3);
            // warm-up on a few draws (JIT), not timed
            p.sample(50, o.seed() + 1);
            long t0 = System.nanoTime();
            Matrix s = p.sample(o.draws(), o.seed());
            double secs = (System.nanoTime() - t0) * 1e-9;
            long t1 = System.nanoTime();
            p.sampleSequential(o.baselineDraws(), o.seed(), null);
            double base = (System.nanoTime() - t1) * 1e-9;
            int pos = 0;
            for (int i = 0; i < s.rows(); i++) {
                pos += s.get(i, 0) > 0 ? 1 : 0;
            }
            int d = p.dimension();
            double[] lo = new double[d];
            double[] hi = new double[d];
            Arrays.fill(lo, Double.NEGATIVE_INFINITY);
            Arrays.fill(hi, Double.POSITIVE_INFINITY);
            lo[0] = 0;
            Row r = new Row(c, p.points().rows(), d, o.draws(), secs, o.baselineDraws(), base,
                    (base / o.baselineDraws()) / (secs / o.draws()), (double) pos / s.rows(),
                    p.integralOver(lo, hi) / p.integral());
            rows.add(r);
            out.accept(r);
        }
        return rows;
    }

    private static PsdDensity model(Path file, Matrix data, double sigma) {
        if (file != null) {
            Object m = ModelIO.fromJson(ModelFile.read(file), "model file " + file);
            if (!(m instanceof DensityPipeline dp) || !(dp.inner() instanceof PsdDensity pd)) {
                throw new IllegalArgumentException("model file " + file + ": not a psd-density model");
            }
            return pd;
        }
        PsdDensityOptions opt = new PsdDensityOptions(1e-3, 1e-5, PsdDensityOptions.LambdaScale.TRACE,
                1e-6, PsdDensityOptions.DEFAULT_MAX_ITERATIONS, Double.POSITIVE_INFINITY);
        return PsdDensityEstimator.fit(data, null, PsdDensityTrainer.Options.of(new GaussianKernel(sigma),
                new BaseMeasure.Lebesgue(), opt), null);
    }

    /** n = 1,000 draws of the d = 10 mixture. */
    static Matrix d10Data(long seed) {
        return Mixtures.appE().sample(1000, seed);
    }

    /** n = 300 draws of ½N((−1,0), 0.5²I) + ½N((1,0.5), 0.5²I). */
    static Matrix twoDData(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Matrix x = Matrix.zeros(300, 2);
        for (int i = 0; i < 300; i++) {
            boolean left = r.nextBoolean();
            x.set(i, 0, (left ? -1 : 1) + 0.5 * r.nextGaussian());
            x.set(i, 1, (left ? 0 : 0.5) + 0.5 * r.nextGaussian());
        }
        return x;
    }
}
