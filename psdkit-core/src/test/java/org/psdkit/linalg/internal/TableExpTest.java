package org.psdkit.linalg.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TableExpTest {

    /** e^z alone: one term with scale 1 and c = 1 added to 0 (0 + e · 1 is e exactly, NaN stays NaN). */
    private static double exp(double z) {
        double[] s = {0.0};
        TableExp.expScaledAxpy(new double[] {z}, 0, 1, 1.0, 1.0, s);
        return s[0];
    }

    /** Largest distance in ulps between TableExp and {@code ref} over uniform samples of [lo, hi]. */
    private static double maxUlps(double lo, double hi, int count, long seed, java.util.function.DoubleUnaryOperator ref) {
        Random rnd = new Random(seed);
        double worst = 0;
        for (int i = 0; i < count; i++) {
            double z = lo + (hi - lo) * rnd.nextDouble();
            double m = ref.applyAsDouble(z);
            worst = Math.max(worst, Math.abs(exp(z) - m) / Math.ulp(m));
        }
        return worst;
    }

    /** Within one ulp of Math.exp and of StrictMath.exp (fdlibm) over the ranges kernels use and the whole range. */
    @Test
    void withinOneUlpOfMathExpAndFdlibm() {
        for (java.util.function.DoubleUnaryOperator ref : new java.util.function.DoubleUnaryOperator[] {
            Math::exp, StrictMath::exp}) {
            assertTrue(maxUlps(-1, 1, 200_000, 1, ref) <= 1.0);
            assertTrue(maxUlps(-40, 0, 200_000, 2, ref) <= 1.0);
            assertTrue(maxUlps(-708, -40, 200_000, 3, ref) <= 1.0);
            assertTrue(maxUlps(0, 709, 200_000, 4, ref) <= 1.0);
            assertTrue(maxUlps(-1e-3, 1e-3, 100_000, 5, ref) <= 1.0);
        }
    }

    /**
     * Against e^z to 40 digits (BigDecimal Taylor series of e^(z/2^8), squared 8 times) on 300 points: within 1.1
     * ulps (a one-part table of 2^(j/64) adds up to half an ulp to the final rounding's half; Tang 1989 §4), and
     * correctly rounded on most of them.
     */
    @Test
    void withinOneUlpOfTheExactValue() {
        Random rnd = new Random(6);
        MathContext mc = new MathContext(60);
        int exact = 0;
        for (int i = 0; i < 300; i++) {
            double z = -60 + 70 * rnd.nextDouble();
            BigDecimal y = new BigDecimal(z).divide(BigDecimal.valueOf(256), mc);
            BigDecimal term = BigDecimal.ONE;
            BigDecimal sum = BigDecimal.ONE;
            for (int n = 1; n < 40; n++) {
                term = term.multiply(y, mc).divide(BigDecimal.valueOf(n), mc);
                sum = sum.add(term, mc);
            }
            for (int s = 0; s < 8; s++) {
                sum = sum.multiply(sum, mc);
            }
            double t = exp(z);
            double err = new BigDecimal(t).subtract(sum, mc).abs().doubleValue() / Math.ulp(sum.doubleValue());
            assertTrue(err <= 1.1, z + ": " + err + " ulps");
            if (t == sum.doubleValue()) {
                exact++;
            }
        }
        assertTrue(exact >= 200, exact + " of 300 correctly rounded");
    }

    /** The table holds 2^(j/64): 2^(j/64) · 2^((64−j)/64) = 2 to an ulp, and the first entry is 1. */
    @Test
    void tableIsPowersOfTwo() {
        assertEquals(64, TableExp.TABLE.length);
        assertEquals(1.0, TableExp.TABLE[0], 0.0);
        for (int j = 1; j < 64; j++) {
            assertEquals(2.0, TableExp.TABLE[j] * TableExp.TABLE[64 - j], 2 * Math.ulp(2.0), "j = " + j);
            assertEquals(StrictMath.pow(2, j / 64.0), TableExp.TABLE[j], Math.ulp(TableExp.TABLE[j]), "j = " + j);
        }
    }

    /** exp(0) is 1 exactly (a point's kernel value with itself); outside the table's range it is Math.exp. */
    @Test
    void specialValues() {
        assertEquals(1.0, exp(0.0), 0.0);
        assertEquals(1.0, exp(-0.0), 0.0);
        double[] z = {-708.0001, -745.2, -746, -1e300, Double.NEGATIVE_INFINITY, 709.0001, 709.79, 710, 1e10,
            Double.POSITIVE_INFINITY, Double.NaN};
        for (double v : z) {
            assertEquals(0, Double.compare(Math.exp(v), exp(v)), "z = " + v);
        }
        assertTrue(Math.abs(exp(-708.0) - Math.exp(-708.0)) <= Math.ulp(Math.exp(-708.0)));
        assertTrue(Math.abs(exp(709.0) - Math.exp(709.0)) <= Math.ulp(Math.exp(709.0)));
    }
    /**
     * The loop over many terms gives, term for term and bit for bit, s += exp(a · scale) · c with the exponential of
     * one term: over the arguments of a prediction sum, the range's edges, and those outside it (Math.exp's), into a
     * non-zero s from an offset.
     */
    @Test
    void theLoopAddsEachTermsExponentialBitForBit() {
        Random rnd = new Random(7);
        int n = 20_000;
        double[] a = new double[n + 25];
        for (int i = 0; i < a.length; i++) {
            a[i] = 60 * rnd.nextDouble();
        }
        double[] edges = {0.0, -0.0, 708.0, 708.0001, 745.2, 746, 1e300, -709.0, -709.0001, -710,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, 1e-300, Double.MIN_VALUE};
        System.arraycopy(edges, 0, a, 7, edges.length);
        for (double scale : new double[] {-0.5, -1.0 / 3, -2.5e-3, 1.0}) {
            double c = -1.25 + rnd.nextDouble();
            double[] s = new double[n];
            double[] expected = new double[n];
            for (int i = 0; i < n; i++) {
                s[i] = rnd.nextDouble() - 0.5;
                expected[i] = s[i] + exp(a[i + 5] * scale) * c;
            }
            TableExp.expScaledAxpy(a, 5, 5 + n, scale, c, s);
            for (int i = 0; i < n; i++) {
                assertEquals(Double.doubleToRawLongBits(expected[i]), Double.doubleToRawLongBits(s[i]),
                        "scale " + scale + ", term " + i + " (a = " + a[i + 5] + ")");
            }
        }
    }

    /**
     * The fused pass gives, bit for bit, the expanded squared distance (its root for the Laplacian) followed by
     * {@link TableExp#expScaledAxpy}, and leaves out exactly the entries where the expansion cancels, reporting them.
     */
    @Test
    void theFusedPassIsTheTwoPassesBitForBitAndReportsCancellingEntries() {
        Random rnd = new Random(11);
        int n = 5_000;
        int po = 37;
        double guard = 1e-4;
        double[] nx = new double[n];
        double[] prod = new double[po + n];
        for (int i = 0; i < n; i++) {
            nx[i] = 20 * rnd.nextDouble();
        }
        for (boolean root : new boolean[] {false, true}) {
            for (double scale : new double[] {-0.5, -1.0 / 3, -40.0}) {
                double nz = 20 * rnd.nextDouble();
                for (int i = 0; i < n; i++) {
                    double norms = nx[i] + nz;
                    // inner products from far apart to a near-duplicate (r2 a tiny fraction of the norms)
                    prod[po + i] = i % 97 == 0 ? norms / 2 * (1 - 1e-9 * rnd.nextDouble())
                            : (rnd.nextDouble() - 0.5) * norms;
                }
                double c = rnd.nextDouble() - 0.5;
                double[] s = new double[n];
                double[] expected = new double[n];
                double[] r = new double[n];
                List<Integer> cancelling = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    s[i] = rnd.nextDouble();
                    expected[i] = s[i];
                    double norms = nx[i] + nz;
                    double r2 = norms - 2 * prod[po + i];
                    if (r2 < guard * norms) {
                        cancelling.add(i);
                        r[i] = Double.NaN; // no term
                    } else {
                        r[i] = root ? Math.sqrt(r2) : r2;
                    }
                }
                for (int i = 0; i < n; i++) {
                    if (!Double.isNaN(r[i])) {
                        double[] one = {expected[i]};
                        TableExp.expScaledAxpy(r, i, i + 1, scale, c, one);
                        expected[i] = one[0];
                    }
                }
                int[] skipped = new int[n];
                int k = TableExp.expDistanceAxpy(prod, po, n, nx, nz, guard, root, scale, c, s, skipped);
                assertTrue(cancelling.size() > 40, "the test has cancelling entries: " + cancelling.size());
                assertEquals(cancelling.size(), k, "root " + root + ", scale " + scale);
                for (int q = 0; q < k; q++) {
                    assertEquals(cancelling.get(q), skipped[q]);
                }
                for (int i = 0; i < n; i++) {
                    assertEquals(Double.doubleToRawLongBits(expected[i]), Double.doubleToRawLongBits(s[i]),
                            "root " + root + ", scale " + scale + ", entry " + i);
                }
            }
        }
    }
}
