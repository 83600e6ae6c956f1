package org.psdkit.bench;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.io.ModelFile;

/**
 * The scale curves of {@code psdkit bench krr-scale --curves DIR}: a sweep of (n, m) configurations of
 * {@link KrrScaleBenchmark}, written as a CSV of the measurements and two PNGs — fit time and test RMSE against n
 * (log-log, one line per m) and against m at a fixed n — with exact KRR and scikit-learn's Nystroem + Ridge drawn
 * where the run measured them.
 */
public final class KrrScaleCurves {

    /** File names inside the curves directory. */
    public static final String CSV = "krr-scale-curves.csv";
    public static final String VS_N = "krr-scale-vs-n.png";
    public static final String VS_M = "krr-scale-vs-m.png";

    /** The CSV header; empty fields mean "not run". */
    public static final String HEADER = "n,m,storage,iterations,residual,read_seconds,fit_seconds,fit_cpu_seconds,"
            + "test_rmse,exact_fit_seconds,exact_test_rmse,sklearn_fit_seconds,sklearn_test_rmse,load_average";

    private KrrScaleCurves() {
    }

    /**
     * One measured configuration and the machine's one-minute load average when it finished.
     *
     * @param row  the benchmark's row
     * @param load one-minute load average (NaN when the JVM does not report it)
     */
    public record Point(KrrScaleBenchmark.Row row, double load) {
    }

    /** The configurations of a sweep: every n of {@code sizes} with every m of {@code anchors} (m ≤ n), and every m
     * of {@code fixedNAnchors} at {@code fixedN} (if ≥ 2), without repeats, ordered by n then m (so that the
     * benchmark reads each data set once). */
    public static List<KrrScaleBenchmark.Config> configs(List<Integer> sizes, List<Integer> anchors, int fixedN,
                                                         List<Integer> fixedNAnchors) {
        TreeSet<long[]> set = new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (int n : sizes) {
            for (int m : anchors) {
                if (m <= n) {
                    set.add(new long[] {n, m});
                }
            }
        }
        if (fixedN >= 2) {
            for (int m : fixedNAnchors) {
                if (m <= fixedN) {
                    set.add(new long[] {fixedN, m});
                }
            }
        }
        List<KrrScaleBenchmark.Config> out = new ArrayList<>();
        for (long[] c : set) {
            out.add(new KrrScaleBenchmark.Config((int) c[0], (int) c[1]));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("curves: no configuration with m <= n");
        }
        return out;
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
    }

    /** The CSV text of the points, one line each after the header. */
    public static String csv(List<Point> points) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (Point p : points) {
            KrrScaleBenchmark.Row r = p.row();
            sb.append(r.n()).append(',').append(r.m()).append(',').append(r.storage().replace(',', ' ')).append(',')
                    .append(r.iterations()).append(',').append(num(r.residual())).append(',')
                    .append(num(r.readSeconds())).append(',').append(num(r.fitSeconds())).append(',')
                    .append(num(r.fitCpuSeconds())).append(',').append(num(r.rmse())).append(',')
                    .append(num(r.exactSeconds())).append(',').append(num(r.exactRmse())).append(',')
                    .append(num(r.sklearnFitSeconds())).append(',').append(num(r.sklearnRmse())).append(',')
                    .append(num(p.load())).append('\n');
        }
        return sb.toString();
    }

    /** Writes the CSV atomically (called after every point, so an interrupted sweep keeps what it measured). */
    public static void writeCsv(Path dir, List<Point> points) throws IOException {
        ModelFile.writeAtomically(dir.resolve(CSV), csv(points).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes both figures: time and RMSE vs n for each m of {@code anchors}, and vs m at {@code fixedN}.
     *
     * @param title a line naming the problem and the run's conditions (load), shown above the panels
     */
    public static void writeFigures(Path dir, List<Point> points, List<Integer> anchors, int fixedN, String title)
            throws IOException {
        vsN(points, anchors, title).save(dir.resolve(VS_N));
        vsM(points, fixedN, title).save(dir.resolve(VS_M));
    }

    private static Figure vsN(List<Point> points, List<Integer> anchors, String title) {
        Figure fig = new Figure(title, 2).panelSize(720, 500);
        Panel time = fig.panel("Fit time vs n").xLabel("training rows n").yLabel("fit wall time (s)").logX().logY()
                .legend("upper left");
        Panel err = fig.panel("Test RMSE vs n").xLabel("training rows n").yLabel("test RMSE (noise floor 0.5)").logX()
                .logY().legend("upper right");
        int k = 0;
        for (int m : new TreeSet<>(anchors)) {
            Color c = Panel.PALETTE[k++ % Panel.PALETTE.length];
            List<Point> s = select(points, p -> p.row().m() == m, p -> p.row().n());
            addLine(time, s, p -> p.row().n(), p -> p.row().fitSeconds(), "Nystrom m = " + m, c, false);
            addLine(err, s, p -> p.row().n(), p -> p.row().rmse(), "Nystrom m = " + m, c, false);
            List<Point> sk = select(s, p -> !Double.isNaN(p.row().sklearnFitSeconds()), p -> p.row().n());
            addLine(time, sk, p -> p.row().n(), p -> p.row().sklearnFitSeconds(), "scikit-learn m = " + m, c, true);
            addLine(err, sk, p -> p.row().n(), p -> p.row().sklearnRmse(), "scikit-learn m = " + m, c, true);
        }
        List<Point> ex = exactByN(points);
        addLine(time, ex, p -> p.row().n(), p -> p.row().exactSeconds(), "exact KRR", Color.BLACK, true);
        addLine(err, ex, p -> p.row().n(), p -> p.row().exactRmse(), "exact KRR", Color.BLACK, true);
        return fig;
    }

    private static Figure vsM(List<Point> points, int fixedN, String title) {
        Figure fig = new Figure(title, 2).panelSize(720, 500);
        String at = String.format(Locale.ROOT, " at n = %,d", fixedN);
        Panel time = fig.panel("Fit time vs m" + at).xLabel("anchors m").yLabel("fit wall time (s)").logX().logY()
                .legend("upper left");
        Panel err = fig.panel("Test RMSE vs m" + at).xLabel("anchors m").yLabel("test RMSE (noise floor 0.5)").logX()
                .logY().legend("upper right");
        List<Point> s = select(points, p -> p.row().n() == fixedN, p -> p.row().m());
        Color c = Panel.PALETTE[0];
        addLine(time, s, p -> p.row().m(), p -> p.row().fitSeconds(), "Nystrom (fit krr --anchors m)", c, false);
        addLine(err, s, p -> p.row().m(), p -> p.row().rmse(), "Nystrom (fit krr --anchors m)", c, false);
        List<Point> sk = select(s, p -> !Double.isNaN(p.row().sklearnFitSeconds()), p -> p.row().m());
        Color c2 = Panel.PALETTE[1];
        addLine(time, sk, p -> p.row().m(), p -> p.row().sklearnFitSeconds(), "scikit-learn Nystroem + Ridge", c2, true);
        addLine(err, sk, p -> p.row().m(), p -> p.row().sklearnRmse(), "scikit-learn Nystroem + Ridge", c2, true);
        List<Point> ex = select(s, p -> !Double.isNaN(p.row().exactRmse()), p -> p.row().m());
        if (!s.isEmpty()) {
            double lo = s.get(0).row().m();
            double hi = s.get(s.size() - 1).row().m();
            if (!ex.isEmpty()) { // exact KRR does not depend on m: a horizontal line
                double secs = ex.get(0).row().exactSeconds();
                double rmse = ex.get(0).row().exactRmse();
                time.line(new double[] {lo, hi}, new double[] {secs, secs}, "exact KRR").color(Color.BLACK).dashed();
                err.line(new double[] {lo, hi}, new double[] {rmse, rmse}, "exact KRR").color(Color.BLACK).dashed();
            }
        }
        return fig;
    }

    /** One point per n with exact KRR measured (the first such row of each n). */
    private static List<Point> exactByN(List<Point> points) {
        List<Point> out = new ArrayList<>();
        TreeSet<Integer> seen = new TreeSet<>();
        for (Point p : select(points, q -> !Double.isNaN(q.row().exactRmse()), q -> q.row().n())) {
            if (seen.add(p.row().n())) {
                out.add(p);
            }
        }
        return out;
    }

    private static List<Point> select(List<Point> points, Predicate<Point> keep, ToDoubleFunction<Point> order) {
        List<Point> out = new ArrayList<>();
        for (Point p : points) {
            if (keep.test(p)) {
                out.add(p);
            }
        }
        out.sort((a, b) -> Double.compare(order.applyAsDouble(a), order.applyAsDouble(b)));
        return out;
    }

    private static void addLine(Panel panel, List<Point> pts, ToDoubleFunction<Point> fx, ToDoubleFunction<Point> fy,
                                String label, Color color, boolean dashed) {
        if (pts.isEmpty()) {
            return;
        }
        double[] x = pts.stream().mapToDouble(fx).toArray();
        double[] y = pts.stream().mapToDouble(fy).toArray();
        Panel.Series line = panel.line(x, y, label).color(color);
        if (dashed) {
            line.dashed();
        }
        panel.scatter(x, y, null).color(color).size(dashed ? 6 : 8);
    }
}
