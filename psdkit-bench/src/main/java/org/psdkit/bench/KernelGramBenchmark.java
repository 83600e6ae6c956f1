package org.psdkit.bench;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.EighWorkspace;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * JMH: the Gaussian Gram matrix (dsyrk + parallel exp) against the double loop over eval, and eigh with and
 * without the reusable workspace. Run: {@code mvn -q -pl psdkit-bench -am package -DskipTests &&
 * java -jar psdkit-bench/target/psdkit-benchmarks.jar KernelGramBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class KernelGramBenchmark {

    @Param({"2000"})
    int n;

    @Param({"10"})
    int d;

    private static final int EIGH_N = 300;

    private Matrix x;
    private Kernel fast;
    private Kernel loop;
    private Matrix spd;
    private EighWorkspace workspace;
    private double[] values;
    private Matrix vectors;

    @Setup
    public void setUp() {
        Random r = new Random(1);
        x = Matrix.zeros(n, d);
        for (int k = 0; k < n * d; k++) {
            x.data()[k] = r.nextGaussian();
        }
        fast = Kernels.gaussian(Math.sqrt(d));
        Kernel f = fast;
        loop = new Kernel() {
            @Override
            public double eval(double[] a, double[] b) {
                return f.eval(a, b);
            }

            @Override
            public String spec() {
                return f.spec();
            }
        };
        Matrix g = Matrix.zeros(EIGH_N, EIGH_N);
        for (int k = 0; k < EIGH_N * EIGH_N; k++) {
            g.data()[k] = r.nextGaussian();
        }
        spd = Linalg.syrk(g, true);
        workspace = new EighWorkspace(EIGH_N);
        values = new double[EIGH_N];
        vectors = Matrix.zeros(EIGH_N, EIGH_N);
    }

    @TearDown
    public void tearDown() {
        workspace.close();
    }

    @Benchmark
    public Matrix gramFast() {
        return fast.gram(x);
    }

    @Benchmark
    public Matrix gramLoopOverEval() {
        return loop.gram(x);
    }

    @Benchmark
    public Object eighArrays() {
        return Linalg.eigh(spd);
    }

    @Benchmark
    public Object eighWorkspace() {
        workspace.decompose(spd, values, vectors);
        return values;
    }
}
