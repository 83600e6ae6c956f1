package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The monitor's decisions on synthetic sequences of scores, measures and step lengths. */
class IterateMonitorTest {
    private static final IpmSettings S = IpmSettings.DEFAULT;
    private static final double TOL = 1e-8;

    private static IterateMonitor<Integer> monitor() {
        return new IterateMonitor<>(S, TOL, TOL, TOL);
    }

    /** Feeds iteration {@code it} with score {@code score} and the three measures {@code score·TOL}. */
    private static boolean feed(IterateMonitor<Integer> m, int it, double score) {
        double v = score * TOL;
        return m.observe(it, score, new double[] {v, v, v}, () -> it);
    }

    @Test
    void keepsTheBestIterateButNeverTheStart() {
        IterateMonitor<Integer> m = monitor();
        assertFalse(feed(m, 0, 1e-3), "the starting point is not kept");
        assertNull(m.best());
        assertTrue(feed(m, 1, 5));
        assertTrue(feed(m, 2, 3));
        assertFalse(feed(m, 3, 4));
        assertTrue(feed(m, 4, 2));
        assertFalse(feed(m, 5, 2), "a tie is not an improvement");
        assertEquals(4, m.best());
        assertEquals(4, m.bestIteration());
        assertEquals(2.0, m.bestScore());
        assertTrue(m.nearOptimal());
    }

    @Test
    void scoreIsTheWorstMeasureOverItsTolerance() {
        SdpOptions opt = SdpOptions.defaults();
        assertEquals(3.0, IterateMonitor.score(3 * opt.gapTolerance(), 0, 0, opt), 1e-12);
        assertEquals(5.0, IterateMonitor.score(0, 1e-20, 5 * opt.feasibilityTolerance(), opt), 1e-12);
    }

    @Test
    void stagnationAfterAWindowWithoutProgress() {
        IterateMonitor<Integer> m = monitor();
        feed(m, 1, 1e4);
        int w = S.stagnationIterations();
        for (int it = 2; it < 1 + w; it++) {
            feed(m, it, 1e4); // flat: neither the score nor a measure falls
            assertFalse(m.stagnant(it), "iteration " + it);
        }
        feed(m, 1 + w, 1e4);
        assertTrue(m.stagnant(1 + w));
    }

    @Test
    void aFallingMeasureAboveItsToleranceIsProgress() {
        // hinf12's pattern: the worst measure (gap) flat, the primal infeasibility still halving
        IterateMonitor<Integer> m = monitor();
        int w = S.stagnationIterations();
        double pinf = 1.0;
        for (int it = 1; it <= 3 * w; it++) {
            m.observe(it, 1e6, new double[] {1e-2, pinf, 1e-9}, () -> 0);
            assertFalse(m.stagnant(it), "iteration " + it);
            if (it % 2 == 0) { // halves every other iteration, staying above its tolerance
                pinf /= 2.01;
            }
        }
        assertEquals(1, m.bestIteration());
        // a measure already below its tolerance does not count: the dual infeasibility halving is no progress
        IterateMonitor<Integer> m2 = monitor();
        double dinf = 1e-9;
        for (int it = 1; it <= w + 1; it++) {
            m2.observe(it, 1e6, new double[] {1e-2, 1e-4, dinf}, () -> 0);
            dinf /= 4;
        }
        assertTrue(m2.stagnant(w + 1));
    }

    @Test
    void slowProgressAtTheLimitOnlyFarFromTheTolerances() {
        int w = S.stagnationIterations();
        // qap9's crawl: 1–25% per window far from the tolerances
        IterateMonitor<Integer> crawl = monitor();
        double score = 1e5;
        for (int it = 1; it <= 2 * w; it++) {
            feed(crawl, it, score);
            crawl.remember(it);
            score *= 0.99;
        }
        assertTrue(crawl.stalledAtLimit(2 * w));
        // a converging run: an order of magnitude per window
        IterateMonitor<Integer> conv = monitor();
        score = 1e5;
        for (int it = 1; it <= 2 * w; it++) {
            feed(conv, it, score);
            conv.remember(it);
            score *= 0.8;
        }
        assertFalse(conv.stalledAtLimit(2 * w));
        // already near-optimal: not a stall (no restart behind the caller's limit)
        IterateMonitor<Integer> near = monitor();
        for (int it = 1; it <= 2 * w; it++) {
            feed(near, it, 50);
            near.remember(it);
        }
        assertFalse(near.stalledAtLimit(2 * w));
        assertFalse(monitor().stalledAtLimit(w - 1), "fewer iterations than the window");
    }

    @Test
    void slowProgressOnceNearOptimal() {
        int w = S.stagnationIterations();
        IterateMonitor<Integer> m = monitor();
        double score = 3.0;
        boolean stopped = false;
        int it = 1;
        for (; it <= 3 * w && !stopped; it++) {
            feed(m, it, score);
            m.remember(it);
            stopped = m.slowNearOptimal(it);
            score *= 0.99;
        }
        assertTrue(stopped);
        assertEquals(w + 2, it, "stops one window after the first near-optimal iterate");
    }

    @Test
    void stallNeedsConsecutiveTinySteps() {
        IterateMonitor<Integer> m = monitor();
        double tiny = S.stallStep() / 10;
        for (int k = 1; k < S.stallIterations(); k++) {
            assertFalse(m.stalled(tiny, tiny));
        }
        assertFalse(m.stalled(tiny, 0.5), "one long step resets the count");
        for (int k = 1; k < S.stallIterations(); k++) {
            assertFalse(m.stalled(tiny, tiny));
        }
        assertTrue(m.stalled(tiny, tiny));
    }
}
