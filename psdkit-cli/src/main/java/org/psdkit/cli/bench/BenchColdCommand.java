package org.psdkit.cli.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.ColdBenchmark;
import org.psdkit.cli.DataFiles;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench cold}: psdkit's commands and the peers' (scikit-learn scripts, CSDP) timed as whole processes,
 * best of {@code --repeats}, interleaved ({@link ColdBenchmark}).
 */
@Command(name = "cold", description = "Time psdkit's commands and scikit-learn's / CSDP's equivalents as whole "
        + "processes (start-up included), best of --repeats, interleaved; prints wall times and ratios.")
public final class BenchColdCommand implements Callable<Integer> {

    @Option(names = "--cases", paramLabel = "LIST", description = "Comma-separated cases, or 'all': "
            + "version, krr-100, svm-5000, svm-50000, krr-5000, krr-10000, predict-svm, predict-krr, nystrom-200000, "
            + "density-300, sdp (default: version,krr-100,svm-5000,krr-5000,predict-svm,predict-krr,density-300).")
    String cases;

    @Option(names = "--repeats", defaultValue = "3", paramLabel = "N",
            description = "Rounds; the best time of each side is reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Folder for the generated data, models, predictions and logs (default: cold-bench next "
                    + "to the jar).")
    Path dir;

    @Option(names = "--psdkit", paramLabel = "PATH",
            description = "The psdkit launcher to time (default: bin/psdkit of this repository, else java -jar on "
                    + "this jar).")
    Path psdkit;

    @Option(names = "--python", defaultValue = "/usr/bin/python3", paramLabel = "PATH",
            description = "Python with scikit-learn for the peers (default: ${DEFAULT-VALUE}).")
    String python;

    @Option(names = "--peer-script", paramLabel = "FILE",
            description = "The peers' script (default: psdkit-bench/scripts/cold_peers.py of this repository).")
    Path peerScript;

    @Option(names = "--peer-env", paramLabel = "NAME=VALUE",
            description = "An environment variable for the peers' processes only (repeatable), e.g. "
                    + "OPENBLAS_CORETYPE=Cooperlake for a system OpenBLAS that misdetects the CPU.")
    List<String> peerEnv = new ArrayList<>();

    @Option(names = "--csdp", paramLabel = "PATH", description = "CSDP executable (default: csdp on the PATH).")
    String csdp;

    @Option(names = "--sdplib", paramLabel = "DIR",
            description = "SDPLIB's .dat-s files (default: shared/data/sdplib above the repository).")
    Path sdplib;

    @Option(names = "--sdp-problems", paramLabel = "LIST",
            description = "Problems of case sdp (default: arch0,control5,theta3,mcp500-1,gpp250-1,ss30,maxG11,qap9,"
                    + "hinf13).")
    String sdpProblems;

    @Option(names = "--california", paramLabel = "FILE",
            description = "California housing CSV (default: shared/data/california-housing.csv above the "
                    + "repository).")
    Path california;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        List<String> chosen = cases == null ? ColdBenchmark.DEFAULT_CASES
                : cases.trim().equals("all") ? ColdBenchmark.CASES : split(cases, "--cases");
        Map<String, String> env = new LinkedHashMap<>();
        for (String e : peerEnv) {
            int eq = e.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("--peer-env: '" + e + "' is not NAME=VALUE");
            }
            env.put(e.substring(0, eq), e.substring(eq + 1));
        }
        Path root = repository();
        List<String> launcher;
        if (psdkit != null) {
            if (!Files.isExecutable(psdkit)) {
                throw new IllegalArgumentException("--psdkit " + psdkit + ": not an executable file");
            }
            launcher = List.of(psdkit.toAbsolutePath().toString());
        } else if (root != null && Files.isExecutable(root.resolve("bin/psdkit"))) {
            launcher = List.of(root.resolve("bin/psdkit").toString());
        } else {
            Path jar = jar();
            if (jar == null || !Files.isRegularFile(jar)) {
                throw new IllegalArgumentException("--psdkit: no bin/psdkit above this jar; give the launcher");
            }
            launcher = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                    jar.toString());
        }
        Path script = peerScript;
        if (script == null && root != null) {
            Path s = root.resolve("psdkit-bench/scripts/cold_peers.py");
            script = Files.isRegularFile(s) ? s : null;
        } else if (script != null && !Files.isRegularFile(script)) {
            throw new IllegalArgumentException("--peer-script " + script + ": not a file");
        }
        Path folder = dir != null ? dir : jar() != null ? jar().getParent().resolve("cold-bench")
                : Path.of("cold-bench");
        boolean sdp = chosen.contains("sdp");
        boolean cal = chosen.contains("krr-5000") || chosen.contains("krr-10000") || chosen.contains("predict-krr");
        Path sdpDir = sdplib != null ? sdplib : !sdp ? null : optional(() ->
                DataFiles.shared("sdplib/README.md", "--sdplib").getParent());
        Path calFile = california != null ? california : !cal ? null
                : DataFiles.shared("california-housing.csv", "--california");
        String csdpExe = csdp != null ? csdp : ColdBenchmark.onPath("csdp");
        List<String> problems = sdpProblems == null ? ColdBenchmark.DEFAULT_SDP : split(sdpProblems, "--sdp-problems");
        ColdBenchmark.Options o = new ColdBenchmark.Options(folder.toAbsolutePath(), launcher, python,
                script == null ? null : script.toAbsolutePath(), csdpExe, sdpDir, calFile, chosen, problems, repeats,
                env, line -> System.err.println("bench cold: " + line));
        ColdBenchmark.Result r = ColdBenchmark.run(o);
        if (json) {
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("benchmark", "cold");
            rep.put("repeats", repeats);
            rep.put("loadBefore", r.loadBefore());
            rep.put("loadAfter", r.loadAfter());
            List<Map<String, Object>> rows = new ArrayList<>();
            for (ColdBenchmark.Row row : r.rows()) {
                rows.add(row.toMap());
            }
            rep.put("rows", rows);
            Reports.print(rep, true);
        } else {
            for (String line : ColdBenchmark.table(r)) {
                System.out.println(line);
            }
        }
        return Main.EXIT_OK;
    }

    private static List<String> split(String list, String option) {
        List<String> out = new ArrayList<>();
        for (String s : Arrays.asList(list.split(","))) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(option + ": empty list");
        }
        return out;
    }

    private static Path optional(java.util.function.Supplier<Path> p) {
        try {
            return p.get();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The running jar (or classes folder), or null. */
    private static Path jar() {
        try {
            return Path.of(BenchColdCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
    }

    /** The repository holding the running jar ({@code <repo>/psdkit-cli/target/psdkit.jar}), or null. */
    private static Path repository() {
        Path jar = jar();
        for (Path p = jar == null ? null : jar.getParent(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("bin/psdkit")) && Files.isDirectory(p.resolve("psdkit-bench"))) {
                return p;
            }
        }
        return null;
    }
}
