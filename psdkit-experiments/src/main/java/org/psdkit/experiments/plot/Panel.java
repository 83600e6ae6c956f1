package org.psdkit.experiments.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.geom.Ellipse2D;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One set of axes of a {@link Figure}: lines, scatter points and shaded bands, with axis labels, a title and a
 * legend, drawn by XChart. Non-finite values (and non-positive ones on a logarithmic axis) are skipped. Series are
 * drawn in the order they are added (bands first, then points, then lines, usually).
 */
public final class Panel {

    /** Colour-blind-safe palette (Okabe–Ito), used in order for series without an explicit colour. */
    public static final Color[] PALETTE = {
        new Color(0, 114, 178), new Color(213, 94, 0), new Color(0, 158, 115), new Color(204, 121, 167),
        new Color(230, 159, 0), new Color(86, 180, 233), new Color(0, 0, 0), new Color(240, 228, 66)
    };

    /** A drawn series; setters return this for chaining. */
    public static final class Series {
        enum Kind { LINE, SCATTER, BAND }

        final Kind kind;
        final double[] x;
        final double[] y;
        final double[] y2;
        final String label;
        Color color;
        boolean dashed;
        float width = 2.2f;
        double size = 6;

        Series(Kind kind, double[] x, double[] y, double[] y2, String label, Color color) {
            this.kind = kind;
            this.x = x;
            this.y = y;
            this.y2 = y2;
            this.label = label;
            this.color = color;
        }

        public Series color(Color c) {
            this.color = c;
            return this;
        }

        public Series dashed() {
            this.dashed = true;
            return this;
        }

        public Series width(float w) {
            this.width = w;
            return this;
        }

        /** Marker diameter in pixels (scatter). */
        public Series size(double s) {
            this.size = s;
            return this;
        }
    }

    private final String title;
    private String xLabel = "";
    private String yLabel = "";
    private boolean logX;
    private boolean logY;
    private Double xMin;
    private Double xMax;
    private Double yMin;
    private Double yMax;
    private String legendPosition = "auto";
    private final List<Series> series = new ArrayList<>();
    private int nextColor;

    Panel(String title) {
        this.title = title;
    }

    public Panel xLabel(String s) {
        this.xLabel = s;
        return this;
    }

    public Panel yLabel(String s) {
        this.yLabel = s;
        return this;
    }

    /** Logarithmic x axis (non-positive values are skipped). */
    public Panel logX() {
        this.logX = true;
        return this;
    }

    public Panel logY() {
        this.logY = true;
        return this;
    }

    public Panel xRange(double lo, double hi) {
        this.xMin = lo;
        this.xMax = hi;
        return this;
    }

    public Panel yRange(double lo, double hi) {
        this.yMin = lo;
        this.yMax = hi;
        return this;
    }

    /**
     * Legend position: "upper left", "upper right", "upper center", "lower left", "lower right", "lower center",
     * "right" (outside the axes), "none" or "auto" (upper right).
     */
    public Panel legend(String position) {
        legendPosition(position); // fail early on a misspelt position
        this.legendPosition = position;
        return this;
    }

    private Color next() {
        return PALETTE[nextColor++ % PALETTE.length];
    }

    private static void checkLengths(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException("plot: " + x.length + " x values but " + y.length + " y values");
        }
    }

    /** A polyline through (x_i, y_i) in the given order. */
    public Series line(double[] x, double[] y, String label) {
        checkLengths(x, y);
        Series s = new Series(Series.Kind.LINE, x.clone(), y.clone(), null, label, next());
        series.add(s);
        return s;
    }

    /** Filled circles. */
    public Series scatter(double[] x, double[] y, String label) {
        checkLengths(x, y);
        Series s = new Series(Series.Kind.SCATTER, x.clone(), y.clone(), null, label, next());
        series.add(s);
        return s;
    }

    /** A shaded band between lo(x) and hi(x) (x increasing), drawn translucent. */
    public Series band(double[] x, double[] lo, double[] hi, String label) {
        checkLengths(x, lo);
        checkLengths(x, hi);
        Series s = new Series(Series.Kind.BAND, x.clone(), lo.clone(), hi.clone(), label, next());
        series.add(s);
        return s;
    }

    // ------------------------------------------------------------------ XChart

    private static Styler.LegendPosition legendPosition(String p) {
        return switch (p.toLowerCase(Locale.ROOT)) {
            case "auto", "upper right", "none" -> Styler.LegendPosition.InsideNE;
            case "upper left" -> Styler.LegendPosition.InsideNW;
            case "upper center" -> Styler.LegendPosition.InsideN;
            case "lower left" -> Styler.LegendPosition.InsideSW;
            case "lower right" -> Styler.LegendPosition.InsideSE;
            case "lower center" -> Styler.LegendPosition.InsideS;
            case "right" -> Styler.LegendPosition.OutsideE;
            default -> throw new IllegalArgumentException("plot: unknown legend position '" + p + "'");
        };
    }

    private boolean keep(double x, double y) {
        return Double.isFinite(x) && Double.isFinite(y) && (!logX || x > 0) && (!logY || y > 0);
    }

    /**
     * Whether a logarithmic axis spanning {@code lo..hi} is drawn in log10 coordinates on a linear axis: XChart labels
     * a logarithmic axis at powers of ten only, which leaves a range of less than two decades with one label or none.
     */
    static boolean shortLogRange(double lo, double hi) {
        return !(lo > 0 && hi / lo >= 100);
    }

    /** An axis range in plotted units: log10 of the range on a logarithmic axis. */
    private static double[] plotted(double[] r, boolean log) {
        double lo = log ? Math.log10(r[0]) : r[0];
        double hi = log ? Math.log10(r[1]) : r[1];
        if (!(hi > lo)) {
            return new double[] {Double.isFinite(lo) ? lo - 1 : 0, Double.isFinite(lo) ? lo + 1 : 1};
        }
        return new double[] {lo, hi};
    }

    /** Tick label of a log10 coordinate: the value 10^v to 3 significant digits. */
    static String powerLabel(double v) {
        double x = Math.pow(10, v);
        if (x >= 1e-3 && x < 1e6) {
            return new java.math.BigDecimal(x).round(new java.math.MathContext(3)).stripTrailingZeros()
                    .toPlainString();
        }
        return String.format(Locale.ROOT, "%.2g", x);
    }

    private double[] range(boolean xAxis) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x.length; i++) {
                if (keep(s.x[i], s.y[i]) && (s.y2 == null || keep(s.x[i], s.y2[i]))) {
                    double a = xAxis ? s.x[i] : s.y[i];
                    double b = xAxis ? s.x[i] : (s.y2 == null ? s.y[i] : s.y2[i]);
                    lo = Math.min(lo, Math.min(a, b));
                    hi = Math.max(hi, Math.max(a, b));
                }
            }
        }
        if (xAxis && xMin != null) {
            return new double[] {xMin, xMax};
        }
        if (!xAxis && yMin != null) {
            return new double[] {yMin, yMax};
        }
        return new double[] {lo, hi};
    }

    /** Length in pixels of a dash and of the gap after it. */
    private static final double DASH = 8;
    private static final double GAP = 5;

    /**
     * The dashes of a dashed polyline, each a polyline of its own: XChart strokes a line segment by segment, so a
     * dash pattern restarts at every data point and a densely sampled curve comes out solid. {@code sx} and
     * {@code sy} convert data units to pixels (approximately: the plot area is a little smaller than the panel).
     */
    static List<double[][]> dashes(List<double[]> pts, double sx, double sy) {
        List<double[][]> out = new ArrayList<>();
        List<double[]> cur = new ArrayList<>();
        boolean on = true;
        double left = DASH;
        cur.add(pts.get(0));
        for (int i = 1; i < pts.size(); i++) {
            double[] a = pts.get(i - 1);
            double[] b = pts.get(i);
            double len = Math.hypot((b[0] - a[0]) * sx, (b[1] - a[1]) * sy);
            double done = 0;
            while (len - done > left) {
                done += left;
                double t = done / len;
                double[] m = {a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])};
                if (on) {
                    cur.add(m);
                    out.add(cur.toArray(new double[0][]));
                    cur = new ArrayList<>();
                } else {
                    cur.add(m);
                }
                on = !on;
                left = on ? DASH : GAP;
            }
            left -= len - done;
            if (on) {
                cur.add(b);
            } else {
                cur.clear();
            }
        }
        if (on && cur.size() > 1) {
            out.add(cur.toArray(new double[0][]));
        }
        if (out.isEmpty()) {
            out.add(pts.toArray(new double[0][]));
        }
        return out;
    }

    /**
     * The corner of the axes with the fewest points near it, for the legend: points in [0, 1]² axes coordinates, the
     * legend taken as 40 % of the width and 35 % of the height. Upper right wins ties.
     */
    static Styler.LegendPosition emptiestCorner(List<double[]> unitPoints) {
        Styler.LegendPosition[] corners = {Styler.LegendPosition.InsideNE, Styler.LegendPosition.InsideNW,
            Styler.LegendPosition.InsideSE, Styler.LegendPosition.InsideSW};
        int[] count = new int[4];
        for (double[] q : unitPoints) {
            boolean right = q[0] > 0.6;
            boolean left = q[0] < 0.4;
            boolean top = q[1] > 0.65;
            boolean bottom = q[1] < 0.35;
            count[0] += right && top ? 1 : 0;
            count[1] += left && top ? 1 : 0;
            count[2] += right && bottom ? 1 : 0;
            count[3] += left && bottom ? 1 : 0;
        }
        int best = 0;
        for (int k = 1; k < 4; k++) {
            if (count[k] < count[best]) {
                best = k;
            }
        }
        return corners[best];
    }

    /** A filled circle of a fixed diameter (XChart's own markers share one size per chart). */
    private static Marker circle(double diameter) {
        return new Marker() {
            @Override
            public void paint(Graphics2D g, double xOffset, double yOffset, int markerSize) {
                g.setStroke(new BasicStroke(0f));
                g.fill(new Ellipse2D.Double(xOffset - diameter / 2, yOffset - diameter / 2, diameter, diameter));
            }
        };
    }

    /** The XChart chart of this panel, {@code width × height} pixels. */
    XYChart chart(int width, int height) {
        XYChart c = new XYChart(width, height);
        c.setTitle(title == null ? "" : title);
        c.setXAxisTitle(xLabel);
        c.setYAxisTitle(yLabel);
        XYStyler st = c.getStyler();
        st.setChartBackgroundColor(Color.WHITE);
        st.setPlotBackgroundColor(Color.WHITE);
        st.setPlotBorderColor(Color.DARK_GRAY);
        st.setPlotGridLinesColor(new Color(225, 225, 225));
        st.setChartTitleBoxVisible(false);
        st.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        st.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        st.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        st.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        st.setLegendBackgroundColor(new Color(255, 255, 255, 215));
        st.setLegendBorderColor(Color.GRAY);
        st.setLegendPosition(legendPosition(legendPosition));
        double[] xr = range(true);
        double[] yr = range(false);
        boolean log10X = logX && shortLogRange(xr[0], xr[1]);
        boolean log10Y = logY && shortLogRange(yr[0], yr[1]);
        st.setXAxisLogarithmic(logX && !log10X);
        st.setYAxisLogarithmic(logY && !log10Y);
        if (log10X) {
            c.setCustomXAxisTickLabelsFormatter(Panel::powerLabel);
        }
        if (log10Y) {
            c.setCustomYAxisTickLabelsFormatter(Panel::powerLabel);
        }
        st.setXAxisLabelRotation(0);
        if (xMin != null) {
            st.setXAxisMin(log10X ? Math.log10(xMin) : xMin);
            st.setXAxisMax(log10X ? Math.log10(xMax) : xMax);
        }
        if (yMin != null) {
            st.setYAxisMin(log10Y ? Math.log10(yMin) : yMin);
            st.setYAxisMax(log10Y ? Math.log10(yMax) : yMax);
        }
        // pixels per plotted unit (log10 units on a logarithmic axis), for the dashes and the legend's corner
        double[] pxr = plotted(xr, logX);
        double[] pyr = plotted(yr, logY);
        double sx = (width - 90) / Math.max(pxr[1] - pxr[0], 1e-300);
        double sy = (height - 90) / Math.max(pyr[1] - pyr[0], 1e-300);
        List<double[]> unit = new ArrayList<>();
        Set<String> names = new HashSet<>();
        boolean anyLegend = false;
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            List<double[]> pts = new ArrayList<>();
            for (int i = 0; i < s.x.length; i++) {
                if (keep(s.x[i], s.y[i]) && (s.y2 == null || keep(s.x[i], s.y2[i]))) {
                    double y2 = s.y2 == null ? 0 : s.y2[i];
                    pts.add(new double[] {log10X ? Math.log10(s.x[i]) : s.x[i], log10Y ? Math.log10(s.y[i]) : s.y[i],
                        log10Y && s.y2 != null ? Math.log10(y2) : y2});
                }
            }
            if (pts.isEmpty()) {
                continue;
            }
            for (double[] q : pts) {
                double ux = ((logX && !log10X ? Math.log10(q[0]) : q[0]) - pxr[0]) / (pxr[1] - pxr[0]);
                double uy = ((logY && !log10Y ? Math.log10(q[1]) : q[1]) - pyr[0]) / (pyr[1] - pyr[0]);
                unit.add(new double[] {ux, uy});
            }
            boolean shown = s.label != null && !s.label.isEmpty();
            String name = shown ? s.label : "\u0000series " + k;
            while (!names.add(name)) {
                name = name + " ";
            }
            XYSeries xs;
            if (s.kind == Series.Kind.BAND) {
                // polygon: along lo(x), back along hi(x)
                int n = pts.size();
                double[] px = new double[2 * n];
                double[] py = new double[2 * n];
                for (int i = 0; i < n; i++) {
                    px[i] = pts.get(i)[0];
                    py[i] = pts.get(i)[1];
                    px[2 * n - 1 - i] = pts.get(i)[0];
                    py[2 * n - 1 - i] = pts.get(i)[2];
                }
                xs = c.addSeries(name, px, py);
                xs.setXYSeriesRenderStyle(XYSeriesRenderStyle.PolygonArea);
                Color f = new Color(s.color.getRed(), s.color.getGreen(), s.color.getBlue(), 70);
                xs.setFillColor(f);
                xs.setLineColor(f);
                xs.setLineStyle(new BasicStroke(0.8f));
                xs.setMarker(SeriesMarkers.NONE);
            } else {
                double[] vx = new double[pts.size()];
                double[] vy = new double[pts.size()];
                for (int i = 0; i < vx.length; i++) {
                    vx[i] = pts.get(i)[0];
                    vy[i] = pts.get(i)[1];
                }
                if (s.kind == Series.Kind.LINE && s.dashed && pts.size() > 1) {
                    List<double[]> plotted = new ArrayList<>();
                    for (double[] q : pts) {
                        plotted.add(new double[] {logX && !log10X ? Math.log10(q[0]) : q[0],
                            logY && !log10Y ? Math.log10(q[1]) : q[1]});
                    }
                    List<double[][]> ds = dashes(plotted, sx, sy);
                    for (int d = 0; d < ds.size(); d++) {
                        double[] dx = new double[ds.get(d).length];
                        double[] dy = new double[dx.length];
                        for (int i = 0; i < dx.length; i++) {
                            dx[i] = logX && !log10X ? Math.pow(10, ds.get(d)[i][0]) : ds.get(d)[i][0];
                            dy[i] = logY && !log10Y ? Math.pow(10, ds.get(d)[i][1]) : ds.get(d)[i][1];
                        }
                        String dn = d == 0 ? name : name + "\u0000dash " + d;
                        XYSeries piece = c.addSeries(dn, dx, dy);
                        piece.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line);
                        piece.setMarker(SeriesMarkers.NONE);
                        piece.setLineColor(s.color);
                        // the first dash carries the legend entry, drawn dashed there
                        piece.setLineStyle(d == 0
                                ? new BasicStroke(s.width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                                        new float[] {(float) DASH - 1, (float) GAP}, 0f)
                                : new BasicStroke(s.width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND));
                        piece.setShowInLegend(false);
                    }
                    xs = c.getSeriesMap().get(name);
                } else {
                    xs = c.addSeries(name, vx, vy);
                }
                if (s.kind == Series.Kind.LINE) {
                    if (!s.dashed || pts.size() < 2) {
                        xs.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line);
                        xs.setMarker(SeriesMarkers.NONE);
                        xs.setLineColor(s.color);
                        xs.setLineStyle(new BasicStroke(s.width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
                    }
                } else {
                    xs.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
                    xs.setMarker(circle(s.size));
                    xs.setMarkerColor(s.color);
                }
            }
            xs.setShowInLegend(shown);
            anyLegend |= shown;
        }
        if (c.getSeriesMap().isEmpty()) { // XChart cannot draw axes without a series
            XYSeries e = c.addSeries("\u0000empty", new double[] {1}, new double[] {1});
            e.setMarker(SeriesMarkers.NONE);
            e.setShowInLegend(false);
        }
        if ("auto".equalsIgnoreCase(legendPosition)) {
            st.setLegendPosition(emptiestCorner(unit));
        }
        st.setLegendVisible(anyLegend && !"none".equalsIgnoreCase(legendPosition));
        return c;
    }
}
