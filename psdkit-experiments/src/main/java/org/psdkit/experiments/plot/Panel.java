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
        st.setXAxisLogarithmic(logX);
        st.setYAxisLogarithmic(logY);
        st.setXAxisLabelRotation(0);
        if (xMin != null) {
            st.setXAxisMin(xMin);
            st.setXAxisMax(xMax);
        }
        if (yMin != null) {
            st.setYAxisMin(yMin);
            st.setYAxisMax(yMax);
        }
        Set<String> names = new HashSet<>();
        boolean anyLegend = false;
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            List<double[]> pts = new ArrayList<>();
            for (int i = 0; i < s.x.length; i++) {
                if (keep(s.x[i], s.y[i]) && (s.y2 == null || keep(s.x[i], s.y2[i]))) {
                    pts.add(new double[] {s.x[i], s.y[i], s.y2 == null ? 0 : s.y2[i]});
                }
            }
            if (pts.isEmpty()) {
                continue;
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
                xs.setMarker(SeriesMarkers.NONE);
            } else {
                double[] px = new double[pts.size()];
                double[] py = new double[pts.size()];
                for (int i = 0; i < px.length; i++) {
                    px[i] = pts.get(i)[0];
                    py[i] = pts.get(i)[1];
                }
                xs = c.addSeries(name, px, py);
                if (s.kind == Series.Kind.LINE) {
                    xs.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line);
                    xs.setMarker(SeriesMarkers.NONE);
                    xs.setLineColor(s.color);
                    xs.setLineStyle(s.dashed
                            ? new BasicStroke(s.width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                                    new float[] {7f, 5f}, 0f)
                            : new BasicStroke(s.width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
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
        st.setLegendVisible(anyLegend && !"none".equalsIgnoreCase(legendPosition));
        return c;
    }
}
