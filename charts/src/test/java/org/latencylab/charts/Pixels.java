package org.latencylab.charts;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import javafx.geometry.Bounds;
import javafx.scene.paint.Color;

import io.fair_acc.chartfx.XYChart;

/** Test helper: read PNGs back and count pixels in regions. */
final class Pixels {

    private Pixels() {
    }

    static BufferedImage read(Path png) throws IOException {
        BufferedImage img = ImageIO.read(png.toFile());
        if (img == null) {
            throw new IOException("ImageIO could not decode " + png);
        }
        return img;
    }

    /** @return plot-area (canvas) bounds in scene coordinates, which equal image pixels at scale 1 */
    static Bounds plotArea(XYChart chart) {
        return Fx.call(() -> chart.getCanvas().localToScene(chart.getCanvas().getBoundsInLocal()));
    }

    static int rgb(BufferedImage img, double x, double y) {
        return img.getRGB((int) Math.round(x), (int) Math.round(y));
    }

    /** Pixels in the bounds whose colour differs from {@code background} by more than {@code tol} per channel. */
    static int countDifferent(BufferedImage img, Bounds b, Color background, int tol) {
        int bg = argb(background);
        int n = 0;
        for (int y = (int) Math.ceil(b.getMinY()) + 1; y < (int) b.getMaxY() - 1; y++) {
            for (int x = (int) Math.ceil(b.getMinX()) + 1; x < (int) b.getMaxX() - 1; x++) {
                if (distance(img.getRGB(x, y), bg) > tol) {
                    n++;
                }
            }
        }
        return n;
    }

    /** Pixels in the bounds within {@code tol} per channel of {@code colour}. */
    static int countNear(BufferedImage img, Bounds b, Color colour, int tol) {
        int c = argb(colour);
        int n = 0;
        for (int y = (int) Math.ceil(b.getMinY()); y < (int) b.getMaxY(); y++) {
            for (int x = (int) Math.ceil(b.getMinX()); x < (int) b.getMaxX(); x++) {
                if (distance(img.getRGB(x, y), c) <= tol) {
                    n++;
                }
            }
        }
        return n;
    }

    static int distance(int a, int b) {
        int dr = Math.abs(((a >> 16) & 0xff) - ((b >> 16) & 0xff));
        int dg = Math.abs(((a >> 8) & 0xff) - ((b >> 8) & 0xff));
        int db = Math.abs((a & 0xff) - (b & 0xff));
        return Math.max(dr, Math.max(dg, db));
    }

    static int argb(Color c) {
        return 0xff000000 | ((int) Math.round(c.getRed() * 255) << 16) | ((int) Math.round(c.getGreen() * 255) << 8)
                | (int) Math.round(c.getBlue() * 255);
    }

    /** @return colour drawn when {@code c} is painted at {@code opacity} over {@code bg} */
    static Color over(Color c, double opacity, Color bg) {
        return Color.color(c.getRed() * opacity + bg.getRed() * (1 - opacity),
                c.getGreen() * opacity + bg.getGreen() * (1 - opacity),
                c.getBlue() * opacity + bg.getBlue() * (1 - opacity));
    }
}
