package org.psdkit.experiments.plot;

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
import java.util.Locale;
import javax.imageio.ImageIO;
import de.rototor.pdfbox.graphics2d.PdfBoxGraphics2D;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.psdkit.io.ModelFile;

/**
 * A figure made of one or more {@link Panel}s laid out in a grid under a title; each panel is an XChart chart.
 * Written as PNG, or as PDF (vector) when the file name ends in {@code .pdf}. SVG is not offered: XChart's SVG
 * back end (VectorGraphics2D) is LGPL-licensed and not bundled.
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

    /** Output formats, chosen from the file name. */
    public enum Format { PNG, PDF }

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
        if (width < 50 || height < 50) {
            throw new IllegalArgumentException("panel size must be at least 50 x 50 pixels");
        }
        this.panelWidth = width;
        this.panelHeight = height;
        return this;
    }

    private int columns() {
        return Math.min(perRow, Math.max(1, panels.size()));
    }

    private int top() {
        return title != null && !title.isEmpty() ? TITLE_HEIGHT : 0;
    }

    /** Width of the whole figure in pixels. */
    public int width() {
        return columns() * panelWidth;
    }

    /** Height of the whole figure in pixels. */
    public int height() {
        return top() + Math.max(1, (panels.size() + perRow - 1) / perRow) * panelHeight;
    }

    private void paint(Graphics2D g) {
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width(), height());
        if (top() > 0) {
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 18));
            int w = g.getFontMetrics().stringWidth(title);
            g.drawString(title, Math.max(4, (width() - w) / 2), 30);
        }
        for (int k = 0; k < panels.size(); k++) {
            int r = k / perRow;
            int c = k % perRow;
            Graphics2D pg = (Graphics2D) g.create(c * panelWidth, top() + r * panelHeight, panelWidth, panelHeight);
            panels.get(k).chart(panelWidth, panelHeight).paint(pg, panelWidth, panelHeight);
            pg.dispose();
        }
    }

    /** Renders the figure as an image. */
    public BufferedImage render() {
        BufferedImage img = new BufferedImage(width(), height(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        paint(g);
        g.dispose();
        return img;
    }

    /** The format a file name asks for: PDF for {@code .pdf}, PNG otherwise; SVG is refused. */
    public static Format format(Path out) {
        Path f = out.getFileName();
        String name = f == null ? "" : f.toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".svg")) {
            throw new IllegalArgumentException("figure " + out + ": SVG is not supported (its XChart back end is "
                    + "LGPL-licensed); use .png or .pdf");
        }
        return name.endsWith(".pdf") ? Format.PDF : Format.PNG;
    }

    /** The encoded file: PNG, or a one-page vector PDF. */
    public byte[] encode(Format format) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        if (format == Format.PNG) {
            ImageIO.write(render(), "png", bytes);
            return bytes.toByteArray();
        }
        try (PDDocument doc = new PDDocument()) {
            PDPage page = new PDPage(new PDRectangle(width(), height()));
            doc.addPage(page);
            PdfBoxGraphics2D g = new PdfBoxGraphics2D(doc, width(), height());
            paint(g);
            g.dispose();
            try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
                cs.drawForm(g.getXFormObject());
            }
            doc.save(bytes);
        }
        return bytes.toByteArray();
    }

    /** Writes the figure atomically (no half-written file on failure), in the format its name asks for. */
    public void save(Path out) throws IOException {
        ModelFile.writeAtomically(out, encode(format(out)));
    }
}
