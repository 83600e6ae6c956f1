package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.psdkit.linalg.Matrix;

/** parse(spec(k)) equals k, structurally and in values, for random kernel trees. */
class KernelRoundTripProperties {

    /** Random positive numbers with many digits, so that printing must be exact. */
    private static double positive(Random r) {
        return switch (r.nextInt(4)) {
            case 0 -> 1 + r.nextInt(5);
            case 1 -> r.nextDouble() * 3 + 1e-3;
            case 2 -> Math.exp(r.nextGaussian() * 5);
            default -> 1e-7 * (1 + r.nextDouble());
        };
    }

    static Kernel random(Random r, int depth) {
        int choice = depth <= 0 ? r.nextInt(11) : r.nextInt(14);
        switch (choice) {
            case 0: return Kernels.gaussian(positive(r));
            case 1: return Kernels.laplacian(positive(r));
            case 2: return Kernels.linear();
            case 3: return Kernels.polynomial(1 + r.nextInt(4), r.nextBoolean() ? 0 : positive(r));
            case 4: return Kernels.exponential(r.nextDouble());
            case 5: return Kernels.exponentialSeries(r.nextDouble(), r.nextInt(5));
            case 6: return Kernels.anova();
            case 7: return Kernels.delta();
            case 8: return Kernels.constant();
            case 9: return Kernels.min();
            case 10: return Kernels.linear(Matrix.of(new double[][] {{positive(r) + 1, 0.5}, {0.5, positive(r) + 1}}));
            case 11: return Kernels.scale(r.nextInt(3) == 0 ? 0 : positive(r), random(r, depth - 1));
            default: {
                List<Kernel> parts = new ArrayList<>();
                int k = 2 + r.nextInt(2);
                for (int i = 0; i < k; i++) {
                    parts.add(random(r, depth - 1));
                }
                Kernel[] arr = parts.toArray(new Kernel[0]);
                return choice == 12 ? Kernels.sum(arr) : Kernels.product(arr);
            }
        }
    }

    @Property(tries = 300, seed = "20261125")
    void parseOfSpecIsTheSameKernel(@ForAll long seed) {
        Random r = new Random(seed);
        Kernel k = random(r, 3);
        Kernel back = Kernels.parse(k.spec());
        assertEquals(k, back, k.spec());
        assertEquals(k.spec(), back.spec());
        double[] x = {r.nextDouble(), r.nextDouble()};
        double[] t = {r.nextDouble(), r.nextDouble()};
        assertEquals(k.eval(x, t), back.eval(x, t), 0.0);
    }
}
