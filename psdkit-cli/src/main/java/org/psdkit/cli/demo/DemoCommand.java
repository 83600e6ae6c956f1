package org.psdkit.cli.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit demo}: short end-to-end examples on data shipped inside the jar, with a summary and PNG plots. */
@Command(name = "demo", description = "Run short end-to-end examples on data inside the jar; writes PNG plots.")
public final class DemoCommand implements Callable<Integer> {

    /** The demo parts, in order. Add a part with one line (merges: keep every side's line). */
    static final List<DemoPart> PARTS = List.of(
            new KrrDemoPart(),
            new PsdDemoPart()
    );

    @Option(names = "--out-dir", defaultValue = "psdkit-demo", paramLabel = "DIR",
            description = "Folder for the plots (created if missing; default: ${DEFAULT-VALUE}).")
    Path outDir;

    @Option(names = "--part", paramLabel = "ID", description = "Run only this part (repeatable): krr (kernel ridge "
            + "regression on yacht hydrodynamics) or psd (non-negative regression with a PSD model).")
    List<String> only = new ArrayList<>();

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object with every part's results on stdout.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        List<DemoPart> run = new ArrayList<>();
        for (String id : only) {
            DemoPart found = null;
            for (DemoPart p : PARTS) {
                if (p.id().equals(id)) {
                    found = p;
                }
            }
            if (found == null) {
                List<String> ids = new ArrayList<>();
                PARTS.forEach(p -> ids.add(p.id()));
                throw new IllegalArgumentException("--part: unknown part '" + id + "'; parts are " + ids);
            }
            run.add(found);
        }
        if (run.isEmpty()) {
            run.addAll(PARTS);
        }
        org.psdkit.cli.OutputPaths.folder("--out-dir", outDir);
        DemoContext ctx = new DemoContext(outDir, seed, json);
        Map<String, Object> all = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        for (DemoPart p : run) {
            ctx.say("");
            ctx.say("== " + p.title() + " ==");
            long t1 = System.nanoTime();
            Map<String, Object> r = new LinkedHashMap<>(p.run(ctx));
            r.put("seconds", (System.nanoTime() - t1) * 1e-9);
            all.put(p.id(), r);
        }
        double secs = (System.nanoTime() - t0) * 1e-9;
        if (json) {
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("demo", all);
            rep.put("seconds", secs);
            rep.put("outDir", outDir.toString());
            Reports.print(rep, true);
        } else {
            System.err.println();
            System.err.println("== Summary ==");
            for (DemoPart p : run) {
                System.err.println(p.title() + ":");
                @SuppressWarnings("unchecked")
                Map<String, Object> r = (Map<String, Object>) all.get(p.id());
                for (Map.Entry<String, Object> e : r.entrySet()) {
                    System.err.println("  " + e.getKey() + ": " + Reports.format(e.getValue()));
                }
            }
            System.err.printf(java.util.Locale.ROOT, "demo finished in %.1f s; plots in %s%n", secs,
                    outDir.toAbsolutePath());
        }
        return Main.EXIT_OK;
    }
}
