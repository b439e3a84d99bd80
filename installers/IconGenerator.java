import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.File;

/**
 * Draws the LatencyLab icon (a rounded tile with a rising latency CDF and a P95 marker) as PNG files.
 * Run from the repository root: {@code java installers/IconGenerator.java installers/icons}.
 */
public final class IconGenerator {
    public static void main(String[] args) throws Exception {
        File dir = new File(args.length > 0 ? args[0] : "installers/icons");
        dir.mkdirs();
        for (int size : new int[]{16, 32, 48, 64, 128, 256, 512}) {
            ImageIO.write(draw(size), "png", new File(dir, "latencylab-" + size + ".png"));
        }
    }

    static BufferedImage draw(int s) {
        BufferedImage img = new BufferedImage(s, s, BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        double m = s * 0.04;
        g.setPaint(new GradientPaint(0, 0, new Color(0x1F3B73), s, s, new Color(0x0E7C86)));
        g.fill(new RoundRectangle2D.Double(m, m, s - 2 * m, s - 2 * m, s * 0.22, s * 0.22));
        // P95 marker line
        g.setColor(new Color(255, 255, 255, 90));
        g.setStroke(new BasicStroke((float) Math.max(1, s * 0.02)));
        double px = s * 0.68;
        g.drawLine((int) px, (int) (s * 0.18), (int) px, (int) (s * 0.82));
        // CDF curve: a steep body and a long tail
        Path2D.Double p = new Path2D.Double();
        double x0 = s * 0.18, x1 = s * 0.84, y0 = s * 0.80, y1 = s * 0.22;
        for (int i = 0; i <= 60; i++) {
            double t = i / 60.0;
            double cdf = 1 - Math.exp(-4.5 * t);
            double x = x0 + (x1 - x0) * t;
            double y = y0 - (y0 - y1) * cdf;
            if (i == 0) {
                p.moveTo(x, y);
            } else {
                p.lineTo(x, y);
            }
        }
        g.setColor(new Color(0xFFD166));
        g.setStroke(new BasicStroke((float) Math.max(1.5, s * 0.065), BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(p);
        g.dispose();
        return img;
    }
}
