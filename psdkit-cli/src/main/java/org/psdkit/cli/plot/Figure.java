package org.psdkit.cli.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.psdkit.io.ModelFile;

/**
 * A PNG figure made of one or more {@link Panel}s laid out in a grid, drawn with java.awt (headless).
 *
 * <pre>{@code
 * Figure fig = new Figure("KRR on a 1-D problem", 2);          // title, panels per row
 * Panel p = fig.panel("fit").xLabel("x").yLabel("y");
 * p.scatter(x, y, "data");
 * p.band(grid, lo, hi, "±1 sd");
 * p.line(grid, f, "krr");
 * fig.save(Path.of("out.png"));                                 // atomic write
 * }</pre>
 */
public final class Figure {
    /** Default size of one panel in pixels: large enough for tick labels and a legend at 100 % zoom. */
    public static final int PANEL_WIDTH = 640;
    public static final int PANEL_HEIGHT = 440;
    private static final int TITLE_HEIGHT = 44;

    private final String title;
    private final int perRow;
    private final List<Panel> panels = new ArrayList<>();
    private int panelWidth = PANEL_WIDTH;
    private int panelHeight = PANEL_HEIGHT;

    public Figure(String title, int panelsPerRow) {
        if (panelsPerRow < 1) {
            throw new IllegalArgumentException("panels per row must be >= 1");
        }
        this.title = title;
        this.perRow = panelsPerRow;
    }

    /** One-panel figure. */
    public Figure(String title) {
        this(title, 1);
    }

    /** Adds a panel and returns it. */
    public Panel panel(String panelTitle) {
        Panel p = new Panel(panelTitle);
        panels.add(p);
        return p;
    }

    /** Sets the pixel size of each panel. */
    public Figure panelSize(int width, int height) {
        this.panelWidth = width;
        this.panelHeight = height;
        return this;
    }

    /** Renders the figure. */
    public BufferedImage render() {
        int cols = Math.min(perRow, Math.max(1, panels.size()));
        int rows = Math.max(1, (panels.size() + perRow - 1) / perRow);
        boolean hasTitle = title != null && !title.isEmpty();
        int top = hasTitle ? TITLE_HEIGHT : 0;
        BufferedImage img = new BufferedImage(cols * panelWidth, top + rows * panelHeight, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        if (hasTitle) {
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
            int w = g.getFontMetrics().stringWidth(title);
            g.drawString(title, (img.getWidth() - w) / 2, 30);
        }
        for (int k = 0; k < panels.size(); k++) {
            int r = k / perRow;
            int c = k % perRow;
            Graphics2D pg = (Graphics2D) g.create(c * panelWidth, top + r * panelHeight, panelWidth, panelHeight);
            panels.get(k).draw(pg, panelWidth, panelHeight);
            pg.dispose();
        }
        g.setStroke(new BasicStroke(1));
        g.dispose();
        return img;
    }

    /** Writes the PNG atomically (no half-written file on failure). */
    public void save(Path out) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ImageIO.write(render(), "png", bytes);
        ModelFile.writeAtomically(out, bytes.toByteArray());
    }
}
