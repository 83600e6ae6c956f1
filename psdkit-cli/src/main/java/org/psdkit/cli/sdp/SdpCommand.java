package org.psdkit.cli.sdp;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.OutputPaths;
import org.psdkit.cli.Progress;
import org.psdkit.cli.Reports;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.optim.sdp.SdpProblem;
import org.psdkit.optim.sdp.SdpResult;
import org.psdkit.optim.sdp.SdpSolver;
import org.psdkit.optim.sdp.SdpaFormat;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code psdkit sdp <action>}: the semidefinite-programming solver on SDPA sparse files. */
@Command(name = "sdp", description = "Semidefinite programming on SDPA sparse (.dat-s) files.",
        subcommands = {SdpCommand.Solve.class})
public final class SdpCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "sdp: name an action, one of "
                + spec.subcommands().keySet());
    }

    /** {@code psdkit sdp solve FILE.dat-s [--json]}. */
    @Command(name = "solve", description = {
        "Solve an SDP given in SDPA sparse format with the primal-dual interior-point method.",
        "Objectives and infeasibility labels follow SDPA/SDPLIB: primal = min c'x s.t. sum x_i F_i - F_0 >= 0,",
        "dual = max <F_0,Y> s.t. <F_i,Y> = c_i, Y >= 0; 'objective' is directly comparable with SDPLIB's table."})
    public static final class Solve implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "problem in SDPA sparse format (.dat-s)")
        Path file;

        @Option(names = "--json", description = "print one JSON object on stdout")
        boolean json;

        @Option(names = "--tolerance", defaultValue = "1e-8",
                description = "relative gap and feasibility tolerance (default ${DEFAULT-VALUE})")
        double tolerance;

        @Option(names = "--max-iterations", defaultValue = "100",
                description = "iteration limit (default ${DEFAULT-VALUE})")
        int maxIterations;

        @Option(names = "--time-limit", defaultValue = "0",
                description = "wall-clock limit in seconds, 0 = none (default ${DEFAULT-VALUE})")
        double timeLimit;

        @Option(names = "--no-double-double",
                description = "never restart in double-double arithmetic: return the double-precision run's best "
                        + "point, as CSDP or SDPA would (faster on problems without a strictly feasible point, such "
                        + "as SDPLIB's qap and hinf, and then not certified to 1e-6)")
        boolean noDoubleDouble;

        @Option(names = "--solution", paramLabel = "FILE.json",
                description = "also write the solution in SDPA's names: the vector x, the primal slack "
                        + "X = sum x_i F_i - F_0 and the dual matrix Y, one entry per block (a diagonal block as "
                        + "its diagonal), with status and objectives")
        Path solution;

        @Override
        public Integer call() {
            if (!(tolerance > 0 && tolerance < 1)) {
                throw new IllegalArgumentException("--tolerance must be in (0, 1), got " + tolerance);
            }
            if (maxIterations < 1) {
                throw new IllegalArgumentException("--max-iterations must be >= 1, got " + maxIterations);
            }
            if (!(timeLimit >= 0)) {
                throw new IllegalArgumentException("--time-limit must be >= 0, got " + timeLimit);
            }
            if (solution != null) {
                OutputPaths.check("--solution", solution, "the problem file", file);
            }
            SdpProblem p = SdpaFormat.read(file);
            SdpResult r;
            try (Progress progress = Progress.startSolver("sdp", maxIterations)) {
                SdpOptions o = SdpOptions.defaults().withTolerance(tolerance).withMaxIterations(maxIterations)
                        .withTimeLimit(timeLimit).withListener(progress.listener()).withDoubleDouble(!noDoubleDouble);
                r = progress.run(() -> SdpSolver.solve(p, o));
            }
            Map<String, Object> rep = report(file, p, r);
            if (solution != null && allFinite(r)) {
                writeSolution(solution, p, r, rep);
                rep.put("solution", solution.toString());
            } else if (solution != null) {
                rep.put("solution", null);
                rep.put("solution_not_written", "the iterate has non-finite entries (see the message); "
                        + solution + " was not written");
            }
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
    }

    /**
     * Writes the iterate in SDPA's names (our y is −x, our X is SDPA's Y, our Z its primal slack X); for an infeasible
     * status the iterate is the certificate.
     */
    static void writeSolution(Path out, SdpProblem p, SdpResult r, Map<String, Object> report) {
        Map<String, Object> doc = new LinkedHashMap<>();
        for (String k : new String[] {"problem", "status", "objective", "primal_objective", "dual_objective",
            "relative_gap", "primal_infeasibility", "dual_infeasibility"}) {
            doc.put(k, report.get(k));
        }
        double[] x = new double[r.y().length];
        for (int i = 0; i < x.length; i++) {
            x[i] = r.y()[i] == 0 ? 0 : -r.y()[i];
        }
        doc.put("x", x);
        doc.put("X", blocks(p, r.z()));
        doc.put("Y", blocks(p, r.x()));
        try {
            org.psdkit.io.ModelFile.writeAtomically(out, new com.fasterxml.jackson.databind.ObjectMapper()
                    .writeValueAsBytes(doc));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("--solution " + out + ": cannot write (" + e.getMessage() + ")");
        }
    }

    private static List<Object> blocks(SdpProblem p, org.psdkit.linalg.Matrix[] mats) {
        List<Object> out = new ArrayList<>();
        for (int b = 0; b < mats.length; b++) {
            org.psdkit.linalg.Matrix m = mats[b];
            int n = p.blockSize(b);
            if (p.isDiagonal(b)) {
                double[] d = new double[n];
                for (int i = 0; i < n; i++) {
                    d[i] = m.cols() == 1 ? m.get(i, 0) : m.get(i, i);
                }
                out.add(d);
            } else {
                out.add(m.toRowArrays());
            }
        }
        return out;
    }

    static Map<String, Object> report(Path file, SdpProblem p, SdpResult r) {
        SdpaFormat.SdpaView v = SdpaFormat.sdpaView(r);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("problem", file.getFileName().toString());
        rep.put("m", p.constraints());
        rep.put("n", p.totalSize());
        rep.put("status", v.status());
        boolean infeasible = v.status().endsWith("_infeasible");
        // no optimal value for an infeasible problem: the iterate is a certificate; a non-finite value (iterates
        // that overflowed) is reported as null, with the reason in the message
        rep.put("objective", infeasible ? null : Reports.finiteOrNull(v.objective()));
        rep.put("primal_objective", Reports.finiteOrNull(v.primalObjective()));
        rep.put("dual_objective", Reports.finiteOrNull(v.dualObjective()));
        rep.put("relative_gap", Reports.finiteOrNull(r.relativeGap()));
        rep.put("primal_infeasibility", Reports.finiteOrNull(r.dualInfeasibility()));
        rep.put("dual_infeasibility", Reports.finiteOrNull(r.primalInfeasibility()));
        if (Double.isFinite(r.lowerBound())) {
            // our (P) min <C,X> is SDPA's dual with the sign flipped: a lower bound L on it is the upper bound -L on
            // the SDPLIB value, proved by a dual iterate (SDPA's x) checked positive semidefinite from the file
            rep.put("objective_upper_bound", -r.lowerBound());
        }
        boolean illPosed = r.status() == org.psdkit.optim.sdp.SdpStatus.ILL_POSED;
        if (illPosed || Double.isFinite(r.lowerBound())) {
            // the message comes from the solver, which speaks of its own (P) and (D)
            rep.put("note", (illPosed ? "ill-posed: the iterates diverged and the objective is not certified; " : "")
                    + "the message speaks of psdkit's form: (P) is SDPA's dual with the sign flipped"
                    + " (min <-F_0,Y>), so its lower bound L is objective_upper_bound = -L, and (D) is SDPA's"
                    + " primal (min c'x, x = -y)");
        }
        rep.put("iterations", r.iterations());
        rep.put("seconds", r.seconds());
        rep.put("message", r.message());
        rep.put("profile", profile(r.profile()));
        return rep;
    }

    /** Whether the iterate (y, X, Z) has only finite entries. */
    static boolean allFinite(SdpResult r) {
        for (double v : r.y()) {
            if (!Double.isFinite(v)) {
                return false;
            }
        }
        for (org.psdkit.linalg.Matrix[] mats : new org.psdkit.linalg.Matrix[][] {r.x(), r.z()}) {
            for (org.psdkit.linalg.Matrix mb : mats) {
                for (double v : mb.data()) {
                    if (!Double.isFinite(v)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** Wall seconds per phase of the solve (see SdpProfile) and whether the double-double restart ran. */
    public static Map<String, Object> profile(org.psdkit.optim.sdp.SdpProfile pr) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schur_seconds", pr.schurSeconds());
        m.put("schur_factor_seconds", pr.factorSeconds());
        m.put("step_seconds", pr.stepSeconds());
        m.put("other_seconds", pr.otherSeconds());
        m.put("double_double_seconds", pr.ddSeconds());
        m.put("double_double_restart", pr.ddRestart());
        m.put("double_iterations", pr.doubleIterations());
        return m;
    }
}
