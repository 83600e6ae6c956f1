package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.psdkit.linalg.Matrix;

/**
 * The kernels a learner returns (tessellated kernels with their P, box and orthant; SimpleMKL library members with
 * their standardisation; weighted sums of both) print a kernel string that parses back to a kernel of the same
 * class with the same string and bit-identical Gram and cross matrices.
 */
class LearnedKernelSpecProperties {

    static TessellatedKernel tessellated(Random r, int n) {
        int d = r.nextInt(TessellatedKernel.MAX_DEGREE + 1);
        int q2 = 2 * TessellatedKernel.monomialCount(n, d);
        Matrix a = Matrix.zeros(q2, q2);
        for (int i = 0; i < q2; i++) {
            for (int j = 0; j < q2; j++) {
                a.set(i, j, r.nextGaussian() / q2);
            }
        }
        double eps = r.nextDouble();
        return new TessellatedKernel(n, d, -eps, 1 + eps, a.times(a.transpose()),
                r.nextBoolean() ? TessellatedKernel.Orthant.LOWER : TessellatedKernel.Orthant.COMPLEMENT);
    }

    static LibraryKernel member(Random r, int n) {
        LibraryKernel.Standardization std = null;
        if (r.nextBoolean()) {
            double[] c = new double[n];
            double[] s = new double[n];
            for (int j = 0; j < n; j++) {
                c[j] = r.nextGaussian();
                s[j] = 0.1 + r.nextDouble();
            }
            std = new LibraryKernel.Standardization(c, s);
        }
        int feature = r.nextInt(n + 1) - 1;
        double ts = r.nextDouble() / 7 + 1e-3;
        return r.nextBoolean() ? new LibraryKernel(0.1 + 3 * r.nextDouble(), 0, feature, ts, std)
                : new LibraryKernel(0, 1 + r.nextInt(3), feature, ts, std);
    }

    static Kernel learned(Random r, int n) {
        int kind = r.nextInt(4);
        if (kind == 0) {
            return tessellated(r, n);
        }
        if (kind == 1) {
            return member(r, n);
        }
        List<Kernel> parts = new ArrayList<>();
        int m = 1 + r.nextInt(4);
        double[] w = new double[m];
        for (int k = 0; k < m; k++) {
            parts.add(r.nextInt(3) == 0 ? tessellated(r, n) : member(r, n));
            w[k] = r.nextDouble();
        }
        if (kind == 3) {
            parts.set(0, Kernels.parse("gaussian(sigma=0.5) + 0.25*delta"));
        }
        return new WeightedSumKernel(parts, w);
    }

    @Property(tries = 60, seed = "20261127")
    void specParseSpecIsIdenticalAndGramsAgreeBitForBit(@ForAll @LongRange(min = 1, max = 100_000) long seed,
                                                       @ForAll @IntRange(min = 1, max = 3) int n) {
        Random r = new Random(seed);
        Kernel k = learned(r, n);
        String spec = k.spec();
        Kernel back = Kernels.parse(spec);
        assertInstanceOf(k.getClass(), back);
        assertEquals(spec, back.spec());
        Matrix x = Matrix.zeros(6, n);
        Matrix z = Matrix.zeros(4, n);
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < n; j++) {
                x.set(i, j, 1.4 * r.nextDouble() - 0.2);
                if (i < 4) {
                    z.set(i, j, 1.4 * r.nextDouble() - 0.2);
                }
            }
        }
        assertArrayEquals(k.gram(x).data(), back.gram(x).data(), 0.0, spec);
        assertArrayEquals(k.cross(x, z).data(), back.cross(x, z).data(), 0.0, spec);
    }

    @Property(tries = 20, seed = "20261128")
    void syntaxTreeOfAWeightedSumHasOnePartPerWeight(@ForAll @LongRange(min = 1, max = 100_000) long seed) {
        Random r = new Random(seed);
        List<Kernel> parts = List.of(member(r, 2), tessellated(r, 2));
        KernelSyntax s = Kernels.syntax(new WeightedSumKernel(parts, new double[] {0.25, 0.75}).spec());
        KernelSyntax.Weighted w = assertInstanceOf(KernelSyntax.Weighted.class, s);
        assertArrayEquals(new double[] {0.25, 0.75}, w.weights(), 0.0);
        assertEquals("tessellated", ((KernelSyntax.Call) w.parts().get(1)).name());
    }
}
