package org.psdkit.psd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;

/** Anchor choice (seeded, distinct, all points when m ≥ n) and the Nyström map with every point an anchor. */
class AnchorsTest {

    static Matrix data(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Matrix x = Matrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, r.nextDouble() * 4 - 2);
            x.set(i, 1, r.nextDouble() < 0.8 ? r.nextDouble() * 0.2 : r.nextDouble() * 4 - 2); // dense strip
        }
        return x;
    }

    @Test
    void everyMethodIsSeededAndPicksDistinctPoints() {
        Matrix x = data(200, 1);
        GaussianKernel k = new GaussianKernel(0.5);
        for (Anchors.Method m : Anchors.Method.values()) {
            int[] a = Anchors.select(k, x, 30, m, 7);
            assertArrayEquals(a, Anchors.select(k, x, 30, m, 7), m.id());
            assertEquals(30, Arrays.stream(a).distinct().count(), m.id());
            assertTrue(Arrays.stream(a).allMatch(i -> i >= 0 && i < 200), m.id());
            assertTrue(!Arrays.equals(a, Anchors.select(k, x, 30, m, 8)), m.id());
            assertEquals(m, Anchors.Method.parse(m.id()));
        }
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, Anchors.select(k, data(5, 2), 9, Anchors.Method.RPCHOLESKY, 1));
        assertThrows(IllegalArgumentException.class, () -> Anchors.Method.parse("random"));
    }

    @Test
    void oldNamesKeepEachFamilysMeaningAndSayWhatTheyRun() {
        assertEquals(Anchors.Method.RLS, Anchors.Method.parseLegacy("leverage", Anchors.Family.KRR));
        assertEquals(Anchors.Method.RPCHOLESKY, Anchors.Method.parseLegacy("leverage", Anchors.Family.PSD));
        assertEquals(Anchors.Method.KMEANSPP_INPUT, Anchors.Method.parseLegacy("kmeans++", Anchors.Family.KRR));
        assertEquals(Anchors.Method.KMEANSPP, Anchors.Method.parseLegacy("kmeans++", Anchors.Family.PSD));
        assertEquals(Anchors.Method.UNIFORM, Anchors.Method.parseLegacy("uniform", Anchors.Family.KRR));
        for (Anchors.Family f : Anchors.Family.values()) {
            String note = Anchors.Method.deprecation("leverage", f);
            assertTrue(note != null && note.contains(Anchors.Method.parseLegacy("leverage", f).id()), note);
            for (Anchors.Method m : Anchors.Method.values()) {
                assertEquals(m, Anchors.Method.parseLegacy(m.id(), f == Anchors.Family.KRR
                        && m == Anchors.Method.KMEANSPP ? Anchors.Family.PSD : f));
                if (!(f == Anchors.Family.KRR && m == Anchors.Method.KMEANSPP)) {
                    assertEquals(null, Anchors.Method.deprecation(m.id(), f), m.id());
                }
            }
        }
        assertTrue(Anchors.Method.deprecation("kmeans++", Anchors.Family.KRR).contains("kmeans++-input"));
        // core names the parameter, never a command-line flag; a front end passes its own spelling
        for (String old : new String[] {"leverage", "kmeans++"}) {
            String note = Anchors.Method.deprecation(old, Anchors.Family.KRR);
            assertTrue(note.contains("say anchorMethod ") && !note.contains("--"), note);
            assertTrue(Anchors.Method.deprecation(old, Anchors.Family.KRR, p -> "<" + p + ">")
                    .contains("say <anchorMethod> "), old);
        }
        // 'leverage' alone is no longer a name: it meant two algorithms
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Anchors.Method.parse("leverage"));
        assertTrue(e.getMessage().contains("rls or rpcholesky"), e.getMessage());
    }

    @Test
    void uniformIsAPartialFisherYatesShuffle() {
        // the first m steps of Fisher-Yates with java.util.Random(seed): the anchors KRR drew before this release
        java.util.Random r = new java.util.Random(5);
        int[] idx = new int[50];
        for (int i = 0; i < 50; i++) {
            idx[i] = i;
        }
        for (int i = 0; i < 7; i++) {
            int j = i + r.nextInt(50 - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        assertArrayEquals(Arrays.copyOf(idx, 7), Anchors.uniform(50, 7, 5));
        assertArrayEquals(Anchors.uniform(50, 7, 5), Anchors.select(new GaussianKernel(1), data(50, 2), 7,
                Anchors.Method.UNIFORM, 5));
    }

    @Test
    void spreadingMethodsCoverTheDataBetterThanUniform() {
        // fraction of the data explained by the anchors' span: Tr(K − K_{·a} K_aa⁺ K_{a·}) / Tr K, averaged over seeds
        Matrix x = data(300, 3);
        GaussianKernel k = new GaussianKernel(0.3);
        double uni = 0;
        double lev = 0;
        for (long s = 1; s <= 3; s++) {
            uni += residual(k, x, Anchors.select(k, x, 25, Anchors.Method.UNIFORM, s));
            lev += residual(k, x, Anchors.select(k, x, 25, Anchors.Method.RPCHOLESKY, s));
        }
        assertTrue(lev < uni, lev + " vs " + uni);
    }

    private static double residual(GaussianKernel k, Matrix x, int[] a) {
        EmpiricalFeatureMap map = EmpiricalFeatureMap.nystrom(k, x.selectRows(a), x, 1e-10);
        Matrix v = map.trainingFeatures();
        double res = 0;
        for (int i = 0; i < x.rows(); i++) {
            double s = 0;
            for (int t = 0; t < v.rows(); t++) {
                s += v.get(t, i) * v.get(t, i);
            }
            res += 1 - s; // k(x,x) = 1
        }
        return res / x.rows();
    }
}
