package org.psdkit.cli.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Shape;
import java.awt.geom.AffineTransform;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One set of axes: lines, scatter points and shaded bands, with axis labels, ticks, a title and a legend.
 * Non-finite values are skipped. Call the adders in drawing order (bands first, then points, then lines, usually).
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

    /**
     * Relative slack for tick arithmetic: tick positions are sums of steps that pick up rounding of order 1e−16 per
     * addition; 1e−9 absorbs that for any realistic number of ticks while staying far below one step.
     */
    static final double TICK_EPS = 1e-9;

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

    /** Legend corner: "upper left", "upper right", "lower left", "lower right", "none" or "auto". */
    public Panel legend(String position) {
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

    // ------------------------------------------------------------------ drawing

    private double tx(double v) {
        return logX ? Math.log10(v) : v;
    }

    private double ty(double v) {
        return logY ? Math.log10(v) : v;
    }

    private boolean okX(double v) {
        return Double.isFinite(v) && (!logX || v > 0);
    }

    private boolean okY(double v) {
        return Double.isFinite(v) && (!logY || v > 0);
    }

    void draw(Graphics2D g, int w, int h) {
        Font base = new Font(Font.SANS_SERIF, Font.PLAIN, 14);
        Font small = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
        int left = 78;
        int right = 20;
        int top = 36;
        int bottom = 58;
        int pw = w - left - right;
        int ph = h - top - bottom;

        double x0 = Double.POSITIVE_INFINITY;
        double x1 = Double.NEGATIVE_INFINITY;
        double y0 = Double.POSITIVE_INFINITY;
        double y1 = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x.length; i++) {
                if (!okX(s.x[i])) {
                    continue;
                }
                x0 = Math.min(x0, tx(s.x[i]));
                x1 = Math.max(x1, tx(s.x[i]));
                if (okY(s.y[i])) {
                    y0 = Math.min(y0, ty(s.y[i]));
                    y1 = Math.max(y1, ty(s.y[i]));
                }
                if (s.y2 != null && okY(s.y2[i])) {
                    y0 = Math.min(y0, ty(s.y2[i]));
                    y1 = Math.max(y1, ty(s.y2[i]));
                }
            }
        }
        if (!(x0 <= x1)) {
            x0 = 0;
            x1 = 1;
        }
        if (!(y0 <= y1)) {
            y0 = 0;
            y1 = 1;
        }
        if (x0 == x1) {
            x0 -= 0.5;
            x1 += 0.5;
        }
        if (y0 == y1) {
            y0 -= 0.5;
            y1 += 0.5;
        }
        double padY = 0.05 * (y1 - y0);
        y0 -= padY;
        y1 += padY;
        if (xMin != null) {
            x0 = tx(xMin);
            x1 = tx(xMax);
        }
        if (yMin != null) {
            y0 = ty(yMin);
            y1 = ty(yMax);
        }
        final double fx0 = x0;
        final double fx1 = x1;
        final double fy0 = y0;
        final double fy1 = y1;
        java.util.function.DoubleUnaryOperator px = v -> left + (tx(v) - fx0) / (fx1 - fx0) * pw;
        java.util.function.DoubleUnaryOperator py = v -> top + ph - (ty(v) - fy0) / (fy1 - fy0) * ph;

        // title
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        if (title != null) {
            int tw = g.getFontMetrics().stringWidth(title);
            g.drawString(title, left + (pw - tw) / 2, top - 12);
        }
        // grid and ticks
        g.setFont(small);
        FontMetrics fm = g.getFontMetrics();
        double[] xt = logX ? logTicks(x0, x1) : ticks(x0, x1, 6);
        double[] yt = logY ? logTicks(y0, y1) : ticks(y0, y1, 6);
        for (double t : xt) {
            int xx = (int) Math.round(left + (t - x0) / (x1 - x0) * pw);
            g.setColor(new Color(232, 232, 232));
            g.drawLine(xx, top, xx, top + ph);
            g.setColor(Color.DARK_GRAY);
            g.drawLine(xx, top + ph, xx, top + ph + 5);
            String s = tickLabel(t, logX, xt);
            g.drawString(s, xx - fm.stringWidth(s) / 2, top + ph + 20);
        }
        for (double t : yt) {
            int yy = (int) Math.round(top + ph - (t - y0) / (y1 - y0) * ph);
            g.setColor(new Color(232, 232, 232));
            g.drawLine(left, yy, left + pw, yy);
            g.setColor(Color.DARK_GRAY);
            g.drawLine(left - 5, yy, left, yy);
            String s = tickLabel(t, logY, yt);
            g.drawString(s, left - 8 - fm.stringWidth(s), yy + fm.getAscent() / 2 - 1);
        }
        g.setColor(Color.DARK_GRAY);
        g.drawRect(left, top, pw, ph);
        // axis labels
        g.setFont(base);
        fm = g.getFontMetrics();
        g.setColor(Color.BLACK);
        g.drawString(xLabel, left + (pw - fm.stringWidth(xLabel)) / 2, h - 14);
        AffineTransform old = g.getTransform();
        g.rotate(-Math.PI / 2);
        g.drawString(yLabel, -(top + (ph + fm.stringWidth(yLabel)) / 2), 20);
        g.setTransform(old);

        // series, clipped to the plot area
        Graphics2D c = (Graphics2D) g.create();
        c.clipRect(left, top, pw + 1, ph + 1);
        for (Series s : series) {
            switch (s.kind) {
                case BAND -> {
                    Path2D.Double p = new Path2D.Double();
                    boolean started = false;
                    List<double[]> upper = new ArrayList<>();
                    for (int i = 0; i < s.x.length; i++) {
                        if (okX(s.x[i]) && okY(s.y[i]) && okY(s.y2[i])) {
                            double xx = px.applyAsDouble(s.x[i]);
                            if (!started) {
                                p.moveTo(xx, py.applyAsDouble(s.y[i]));
                                started = true;
                            } else {
                                p.lineTo(xx, py.applyAsDouble(s.y[i]));
                            }
                            upper.add(new double[] {xx, py.applyAsDouble(s.y2[i])});
                        }
                    }
                    for (int i = upper.size() - 1; i >= 0; i--) {
                        p.lineTo(upper.get(i)[0], upper.get(i)[1]);
                    }
                    if (started) {
                        p.closePath();
                        c.setColor(translucent(s.color, 70));
                        c.fill(p);
                    }
                }
                case SCATTER -> {
                    c.setColor(translucent(s.color, 190));
                    for (int i = 0; i < s.x.length; i++) {
                        if (okX(s.x[i]) && okY(s.y[i])) {
                            Shape e = new Ellipse2D.Double(px.applyAsDouble(s.x[i]) - s.size / 2,
                                    py.applyAsDouble(s.y[i]) - s.size / 2, s.size, s.size);
                            c.fill(e);
                        }
                    }
                }
                case LINE -> {
                    c.setColor(s.color);
                    c.setStroke(stroke(s));
                    Path2D.Double p = new Path2D.Double();
                    boolean pen = false;
                    for (int i = 0; i < s.x.length; i++) {
                        if (okX(s.x[i]) && okY(s.y[i])) {
                            double xx = px.applyAsDouble(s.x[i]);
                            double yy = py.applyAsDouble(s.y[i]);
                            if (pen) {
                                p.lineTo(xx, yy);
                            } else {
                                p.moveTo(xx, yy);
                                pen = true;
                            }
                        } else {
                            pen = false;
                        }
                    }
                    c.draw(p);
                }
                default -> throw new IllegalStateException();
            }
        }
        c.dispose();
        drawLegend(g, left, top, pw, ph);
    }

    private static BasicStroke stroke(Series s) {
        return s.dashed
                ? new BasicStroke(s.width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {8f, 6f}, 0f)
                : new BasicStroke(s.width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND);
    }

    private static Color translucent(Color c, int alpha) {
        return new Color(c.getRed(), c.getGreen(), c.getBlue(), alpha);
    }

    private void drawLegend(Graphics2D g, int left, int top, int pw, int ph) {
        List<Series> named = new ArrayList<>();
        for (Series s : series) {
            if (s.label != null && !s.label.isEmpty()) {
                named.add(s);
            }
        }
        if (named.isEmpty() || legendPosition.equals("none")) {
            return;
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        FontMetrics fm = g.getFontMetrics();
        int lh = fm.getHeight() + 2;
        int tw = 0;
        for (Series s : named) {
            tw = Math.max(tw, fm.stringWidth(s.label));
        }
        int bw = tw + 46;
        int bh = named.size() * lh + 10;
        String pos = legendPosition.equals("auto") ? "upper right" : legendPosition;
        int bx = pos.endsWith("left") ? left + 10 : left + pw - bw - 10;
        int by = pos.startsWith("lower") ? top + ph - bh - 10 : top + 10;
        g.setColor(new Color(255, 255, 255, 225));
        g.fillRect(bx, by, bw, bh);
        g.setColor(Color.GRAY);
        g.drawRect(bx, by, bw, bh);
        for (int k = 0; k < named.size(); k++) {
            Series s = named.get(k);
            int yy = by + 5 + k * lh + lh / 2;
            switch (s.kind) {
                case LINE -> {
                    g.setColor(s.color);
                    g.setStroke(stroke(s));
                    g.drawLine(bx + 8, yy, bx + 34, yy);
                    g.setStroke(new BasicStroke(1));
                }
                case SCATTER -> {
                    g.setColor(s.color);
                    g.fill(new Ellipse2D.Double(bx + 21 - 4, yy - 4, 8, 8));
                }
                case BAND -> {
                    g.setColor(translucent(s.color, 90));
                    g.fillRect(bx + 8, yy - 6, 26, 12);
                }
                default -> throw new IllegalStateException();
            }
            g.setColor(Color.BLACK);
            g.drawString(s.label, bx + 40, yy + fm.getAscent() / 2 - 1);
        }
    }

    /** "Nice" tick positions (1, 2, 5 × 10^k steps) covering [lo, hi]; in log mode, lo/hi are log10 values. */
    static double[] ticks(double lo, double hi, int target) {
        double span = hi - lo;
        double raw = span / Math.max(1, target);
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double step = mag;
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * mag >= raw) {
                step = m * mag;
                break;
            }
        }
        double first = Math.ceil(lo / step - TICK_EPS) * step;
        List<Double> t = new ArrayList<>();
        for (double v = first; v <= hi + step * TICK_EPS; v += step) {
            t.add(Math.abs(v) < step * TICK_EPS ? 0.0 : v);
        }
        double[] out = new double[t.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = t.get(i);
        }
        return out;
    }

    /**
     * Tick positions (as log10 values) for a log axis over [lo, hi] (log10 values): decades when the range spans
     * many of them, else 1-2-5 or 1..9 multiples of powers of ten, so that at least 3 ticks show.
     */
    static double[] logTicks(double lo, double hi) {
        int d0 = (int) Math.floor(lo);
        int d1 = (int) Math.ceil(hi);
        for (double[] mult : new double[][] {{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
            List<Double> t = new ArrayList<>();
            for (int e = d0; e <= d1; e++) {
                for (double m : mult) {
                    double v = e + Math.log10(m);
                    if (v >= lo - TICK_EPS && v <= hi + TICK_EPS) {
                        t.add(v);
                    }
                }
            }
            if (t.size() >= 3 || mult.length == 9) {
                if (t.size() > 10 && mult.length > 1) {
                    continue;
                }
                double[] out = new double[t.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = t.get(i);
                }
                return out;
            }
        }
        return new double[0];
    }

    private static String tickLabel(double v, boolean log, double[] all) {
        if (log) {
            double p = Math.pow(10, v);
            int e = (int) Math.floor(v + TICK_EPS);
            if (e >= -3 && e <= 4) {
                return trim(Double.parseDouble(String.format(Locale.ROOT, "%.3g", p)));
            }
            double m = Math.rint(p / Math.pow(10, e));
            return m == 1 ? "1e" + e : trim(m) + "e" + e;
        }
        double step = all.length > 1 ? Math.abs(all[1] - all[0]) : 1;
        double max = 0;
        for (double a : all) {
            max = Math.max(max, Math.abs(a));
        }
        if (max >= 1e5 || (max > 0 && max < 1e-3)) {
            return String.format(Locale.ROOT, "%.2g", v);
        }
        int decimals = Math.max(0, (int) Math.ceil(-Math.log10(step) - TICK_EPS));
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static String trim(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }
}
