package org.psdkit.cli.reproduce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.cli.fit.FitSvmCommands;
import org.psdkit.experiments.TkFigures;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code reproduce tk-surfaces} and {@code reproduce tk-scaling}: options and output of {@link TkFigures}. */
final class ReproTkFiguresCommands {

    private ReproTkFiguresCommands() {
    }

    static void checkOutputFolder(Path out) {
        org.psdkit.cli.OutputPaths.check("--out", out);
    }

    /** {@code reproduce tk-surfaces}. */
    @Command(name = "tk-surfaces", description = "Colbert & Peet Fig. 4: decision surfaces of the tessellated kernel "
            + "and SimpleMKL on the circle and spiral problems (150 training points).")
    static final class Surfaces implements Callable<Integer> {
        @Option(names = "--out", defaultValue = "tk-surfaces.png", paramLabel = "FILE.png",
                description = "PNG to write (default: ${DEFAULT-VALUE}).")
        Path out;

        @Option(names = "--train", defaultValue = "150", paramLabel = "M", description = "Training points.")
        int m;

        @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed.")
        long seed;

        @Option(names = "--json", description = "Print one JSON object on stdout.")
        boolean json;

        @Override
        public Integer call() throws IOException {
            if (m < 10) {
                throw new IllegalArgumentException("--train must be >= 10, got " + m);
            }
            checkOutputFolder(out);
            TkFigures.SurfacesResult res;
            try (ReproProgress progress = new ReproProgress()) {
                res = TkFigures.surfaces(new TkFigures.SurfacesOptions(m, seed, out), progress);
            }
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("experiment", "tk-surfaces");
            rep.putAll(res.accuracies());
            rep.put("out", out.toString());
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
    }

    /** {@code reproduce tk-scaling}. */
    @Command(name = "tk-scaling", description = "Colbert & Peet Figs. 2-3: training time of the direct TK method vs "
            + "m (log-log fit) and residual test error vs training size on the spiral, against SimpleMKL.")
    static final class Scaling implements Callable<Integer> {
        @Option(names = "--out", defaultValue = "tk-scaling.png", paramLabel = "FILE.png",
                description = "PNG to write (default: ${DEFAULT-VALUE}).")
        Path out;

        @Option(names = "--sizes", defaultValue = "50,100,200,400,800", paramLabel = "LIST",
                description = "Training sizes (default: ${DEFAULT-VALUE}).")
        String sizes;

        @Option(names = "-c", defaultValue = "10", paramLabel = "c", description = "Relative C (default 10).")
        double cRel;

        @Option(names = "--epsilon", defaultValue = "0.1", paramLabel = "EPS", description = "Box margin.")
        double eps;

        @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "Seed.")
        long seed;

        @Option(names = "--json", description = "Print one JSON object on stdout.")
        boolean json;

        @Override
        public Integer call() throws IOException {
            double[] ms = FitSvmCommands.parseGrid(sizes, "--sizes");
            if (ms.length < 2) {
                throw new IllegalArgumentException("--sizes needs at least two sizes");
            }
            checkOutputFolder(out);
            TkFigures.ScalingResult res;
            try (ReproProgress progress = new ReproProgress()) {
                res = TkFigures.scaling(new TkFigures.ScalingOptions(ms, cRel, eps, seed, out), progress);
            }
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("experiment", "tk-scaling");
            rep.put("sizes", res.sizes());
            rep.put("tkSeconds", res.tkSeconds());
            rep.put("simpleMklSeconds", res.simpleMklSeconds());
            rep.put("tkTimeExponent", res.tkTimeExponent());
            rep.put("simpleMklTimeExponent", res.simpleMklTimeExponent());
            rep.put("tkError", res.tkError());
            rep.put("simpleMklError", res.simpleMklError());
            rep.put("tkErrorExponent", res.tkErrorExponent());
            rep.put("out", out.toString());
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
    }
}
