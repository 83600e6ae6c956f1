package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.Kernels;
import org.psdkit.optim.ProgressListener;
import org.psdkit.sos.KernelSos;

/** The density, PSD-regression and Kernel SoS benchmarks on tiny problems: rows, baselines, progress reports. */
class SolverBenchmarksTest {

    @Test
    void densityRowsCarryTheSolverAndTheBareEighBaseline() {
        List<DensityBenchmark.Row> streamed = new ArrayList<>();
        DensityBenchmark.Result res = DensityBenchmark.run(new DensityBenchmark.Options(new int[] {20}, 10, 1e-3, 1,
                1e-2), null, streamed::add);
        assertEquals(DensityBenchmark.D, res.d());
        assertEquals(res.rows(), streamed);
        DensityBenchmark.Row r = res.rows().get(0);
        assertEquals(20, r.n());
        assertTrue(r.iterations() > 0 && r.solverSeconds() > 0 && r.totalSeconds() >= r.solverSeconds(), r.toString());
        assertEquals(r.solverSeconds() / r.iterations(), r.secondsPerIteration(), 1e-15);
        assertEquals(r.secondsPerIteration() / r.baselineEighSeconds(), r.iterationOverEigh(), 1e-12);
        assertTrue(r.eigenShare() > 0 && r.eigenShare() <= 1, r.toString());
        assertTrue(r.converged() && r.relativeGap() <= 1e-3, r.toString());
        assertTrue(r.integral() > 0, r.toString());
        assertThrows(IllegalArgumentException.class, () -> new DensityBenchmark.Options(new int[] {1}, 1, 1e-3, 1,
                1e-2));
        assertThrows(IllegalArgumentException.class, () -> new DensityBenchmark.Options(new int[] {5}, 1, 0, 1,
                1e-2));
    }

    @Test
    void psdRowsReachTheGapAndThePlainBaselineStopsAtItsLimit() {
        List<ProgressListener.Event> events = new ArrayList<>();
        PsdBenchmark.Result res = PsdBenchmark.run(new PsdBenchmark.Options(new int[] {20, 30}, new int[] {1, 3},
                1e-4, 20, 20, 1), events::add);
        assertEquals(4, res.rows().size());
        assertEquals(1e-4, res.tol());
        PsdBenchmark.Row first = res.rows().get(0);
        assertEquals(20, first.n());
        assertEquals(1, first.d());
        assertEquals(3, res.rows().get(2).d(), "d outermost");
        for (PsdBenchmark.Row r : res.rows()) {
            PsdBenchmark.Run acc = r.accelerated();
            assertTrue(acc.reached() && acc.relGap() <= 1e-4 && "CONVERGED".equals(acc.status()), r.toString());
            assertTrue(r.rank() >= 1 && r.rank() <= r.n() && r.eighSeconds() > 0, r.toString());
            if (r.n() == 20) {
                assertNotNull(r.plain());
                assertTrue(r.plain().reached() && r.plain().relGap() <= 1e-4, r.toString());
            } else {
                assertNull(r.plain(), "plain proximal gradient only up to plainMaxN");
            }
        }
        // 2 dims × (FISTA + plain at n = 20, FISTA at n = 30) phases, two reports each
        assertEquals(12, events.size());
        assertEquals(6, events.get(11).step());
        assertThrows(IllegalArgumentException.class, () -> new PsdBenchmark.Options(new int[] {20}, new int[] {0},
                1e-4, 20, 20, 1));
    }

    @Test
    void kernelSosRankTwoAndDenseCoefficientsReachTheSameObjective() {
        KernelSosBenchmark.Result res = KernelSosBenchmark.run(new KernelSosBenchmark.Options(new int[] {8, 10},
                Kernels.parse("gaussian(sigma=0.25) + 0.01*delta"), 0.01, 8, 60), null);
        assertEquals(2, res.rows().size());
        KernelSosBenchmark.Row withDense = res.rows().get(0);
        assertNull(withDense.denseFailure());
        assertNotNull(withDense.dense());
        assertEquals(withDense.objective(), withDense.dense().objective(),
                1e-5 * Math.max(1, Math.abs(withDense.objective())));
        assertTrue(withDense.ratio() > 0 && withDense.iterations() > 0, withDense.toString());
        KernelSosBenchmark.Row alone = res.rows().get(1);
        assertNull(alone.dense(), "dense baseline only up to baselineMaxN");
        assertTrue(Double.isNaN(alone.ratio()));
        assertThrows(IllegalArgumentException.class, () -> new KernelSosBenchmark.Options(new int[] {8},
                Kernels.gaussian(1), -1, 8, 60));
    }

    @Test
    void kernelSosWarmUpAndRepeatedSolvesReportTheSameFitAndOnePhasePerSolve() {
        List<ProgressListener.Event> events = new ArrayList<>();
        KernelSosBenchmark.Result res = KernelSosBenchmark.run(new KernelSosBenchmark.Options(new int[] {8},
                Kernels.parse("gaussian(sigma=0.25) + 0.01*delta"), 0.01, 0, 60, KernelSos.Route.RANK_TWO, 2, 3),
                events::add);
        KernelSosBenchmark.Row once = KernelSosBenchmark.run(new KernelSosBenchmark.Options(new int[] {8},
                Kernels.parse("gaussian(sigma=0.25) + 0.01*delta"), 0.01, 0, 60), null).rows().get(0);
        KernelSosBenchmark.Row row = res.rows().get(0);
        assertEquals(once.objective(), row.objective(), 0.0);
        assertEquals(once.iterations(), row.iterations());
        assertTrue(row.seconds() > 0 && row.cpuSeconds() >= 0, row.toString());
        // 2 warm-ups + 3 timed solves, two reports each
        assertEquals(10, events.size());
        assertEquals(5, events.get(9).step());
        assertThrows(IllegalArgumentException.class, () -> new KernelSosBenchmark.Options(new int[] {8},
                Kernels.gaussian(1), 0.01, 0, 60, KernelSos.Route.RANK_TWO, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new KernelSosBenchmark.Options(new int[] {8},
                Kernels.gaussian(1), 0.01, 0, 60, KernelSos.Route.RANK_TWO, 0, 0));
    }
}
