package org.latencylab.charts.export;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import javax.imageio.ImageIO;

import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.embed.swing.SwingFXUtils;
import javafx.scene.Scene;
import javafx.scene.SnapshotParameters;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.paint.Color;
import javafx.scene.transform.Transform;
import javafx.stage.Stage;
import javafx.stage.StageStyle;

/**
 * Renders charts to PNG files, with or without a display.
 *
 * <p>ChartFX draws a chart's canvas only while the chart is in a showing window, so a snapshot of a chart that was
 * never shown has an empty plot area. {@link #writePng(Supplier, int, int, double, Path)} therefore builds the chart
 * on the JavaFX thread, shows it in an undecorated offscreen stage, waits {@value #SETTLE_PULSES} pulses (counted by
 * an {@link AnimationTimer}) so that data ranges, axes, legend and canvas are laid out and drawn, takes a snapshot
 * and writes it as an opaque RGB image with {@link ImageIO}. If no JavaFX toolkit runs yet (the headless
 * command line), it is started on the Monocle headless platform first (see {@code HeadlessToolkit}).
 *
 * <p>ChartFX has no SVG or PDF export, so this class offers none; a vector export would need its own renderer.
 *
 * <p>Thread-safety: every method may be called from any thread. Off the JavaFX thread a call blocks until the file
 * is written or the timeout ({@link #DEFAULT_TIMEOUT}, or the one given) has passed. On the JavaFX thread (an
 * "Export PNG" button) the call runs a nested event loop until the image is ready, so it must be made from an event
 * handler, not from an animation or layout callback.
 */
public final class ChartImages {

    /** How long one export may take, toolkit start included, before it fails. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** Pulses to wait between showing the chart and taking the snapshot. */
    public static final int SETTLE_PULSES = 3;

    /** Largest accepted width or height in pixels (guards against a unit mix-up such as passing nanoseconds). */
    public static final int MAX_SIZE_PX = 16_384;

    private ChartImages() {
    }

    /**
     * Builds a chart with {@code chartFactory} on the JavaFX thread, renders it offscreen and writes a PNG of exactly
     * {@code widthPx} × {@code heightPx} pixels. The chart is laid out at {@code widthPx/scale} × {@code heightPx/scale}
     * scene units, so {@code scale = 2} gives a "retina" image with text and lines twice as large in pixels.
     *
     * @param chartFactory creates the chart; called once, on the JavaFX thread; must return a region without a parent
     * @param widthPx      image width in pixels, 1..{@value #MAX_SIZE_PX}
     * @param heightPx     image height in pixels, 1..{@value #MAX_SIZE_PX}
     * @param scale        pixels per scene unit, 0.25..8 (1 = one pixel per unit)
     * @param out          PNG file to write; parent directories are created; an existing file is replaced
     * @throws IllegalArgumentException on a size or scale out of range
     * @throws ChartExportException     when the toolkit does not start, the factory throws, rendering does not finish
     *                                  within {@link #DEFAULT_TIMEOUT}, or the file cannot be written
     */
    public static void writePng(Supplier<? extends Region> chartFactory, int widthPx, int heightPx, double scale,
                                Path out) throws ChartExportException {
        writePng(chartFactory, widthPx, heightPx, scale, out, DEFAULT_TIMEOUT);
    }

    /**
     * Starts the offscreen JavaFX toolkit now (it starts on the first {@link #writePng} otherwise). A command that
     * will write charts after the user pressed Ctrl-C calls this first: the toolkit cannot start while the JVM is
     * shutting down (it registers a shutdown hook of its own). Idempotent; blocks until started.
     *
     * @throws ChartExportException when the toolkit does not start within {@link #DEFAULT_TIMEOUT}
     */
    public static void startToolkit() throws ChartExportException {
        HeadlessToolkit.ensureStarted(DEFAULT_TIMEOUT.toMillis());
    }

    /**
     * As {@link #writePng(Supplier, int, int, double, Path)} with an explicit timeout.
     *
     * @param timeout longest time the whole export may take; > 0
     * @throws ChartExportException see {@link #writePng(Supplier, int, int, double, Path)}
     */
    public static void writePng(Supplier<? extends Region> chartFactory, int widthPx, int heightPx, double scale,
                                Path out, Duration timeout) throws ChartExportException {
        Objects.requireNonNull(chartFactory, "chartFactory");
        Objects.requireNonNull(out, "out");
        checkSize("widthPx", widthPx);
        checkSize("heightPx", heightPx);
        checkScale(scale);
        long timeoutMillis = checkTimeout(timeout);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        HeadlessToolkit.ensureStarted(timeoutMillis);
        CompletableFuture<WritableImage> image = new CompletableFuture<>();
        runOnFx(() -> renderOffscreen(chartFactory, widthPx, heightPx, scale, image));
        WritableImage fxImage = await(image, deadline, out);
        write(fxImage, out);
    }

    /**
     * Writes a PNG of a chart that is already showing in a window (the desktop app's "Export PNG"), at its current
     * size times {@code scale}. The chart stays where it is.
     *
     * @param shownChart a chart (or any region) whose scene is in a showing window
     * @param scale      pixels per scene unit, 0.25..8
     * @param out        PNG file to write; parent directories are created; an existing file is replaced
     * @throws IllegalArgumentException on a scale out of range
     * @throws IllegalStateException    when the chart is not in a showing window (use the factory overload)
     * @throws ChartExportException     when the snapshot times out or the file cannot be written
     */
    public static void writePng(Region shownChart, double scale, Path out) throws ChartExportException {
        Objects.requireNonNull(shownChart, "shownChart");
        Objects.requireNonNull(out, "out");
        checkScale(scale);
        long deadline = System.nanoTime() + DEFAULT_TIMEOUT.toNanos();
        CompletableFuture<WritableImage> image = new CompletableFuture<>();
        runOnFx(() -> {
            try {
                Scene scene = shownChart.getScene();
                if (scene == null || scene.getWindow() == null || !scene.getWindow().isShowing()) {
                    throw new IllegalStateException("the chart is not in a showing window; "
                            + "use writePng(Supplier, width, height, scale, path) to render it offscreen");
                }
                image.complete(snapshot(shownChart, (int) Math.ceil(shownChart.getWidth() * scale),
                        (int) Math.ceil(shownChart.getHeight() * scale), scale));
            } catch (RuntimeException e) {
                image.completeExceptionally(e);
            }
        });
        WritableImage fxImage;
        try {
            fxImage = await(image, deadline, out);
        } catch (ChartExportException e) {
            if (e.getCause() instanceof IllegalStateException ise) {
                throw ise;
            }
            throw e;
        }
        write(fxImage, out);
    }

    // ---- rendering (JavaFX thread) ----

    private static void renderOffscreen(Supplier<? extends Region> factory, int widthPx, int heightPx, double scale,
                                        CompletableFuture<WritableImage> result) {
        Stage stage = new Stage(StageStyle.UNDECORATED);
        try {
            Region chart = Objects.requireNonNull(factory.get(), "the chart factory returned null");
            if (chart.getParent() != null) {
                throw new IllegalArgumentException("the chart factory returned a region that already has a parent");
            }
            double w = widthPx / scale;
            double h = heightPx / scale;
            chart.setMinSize(w, h);
            chart.setPrefSize(w, h);
            chart.setMaxSize(w, h);
            StackPane root = new StackPane(chart);
            Scene scene = new Scene(root, w, h, Color.WHITE);
            stage.setScene(scene);
            // Far off any real screen when a display exists; under Monocle headless nobody sees it anyway.
            stage.setX(-(w + 10_000));
            stage.setY(-(h + 10_000));
            stage.show();
            // Draw canvases at the output resolution, so that scale > 1 gives sharp lines rather than upsampled ones.
            stage.setRenderScaleX(scale);
            stage.setRenderScaleY(scale);
            new AnimationTimer() {
                private int pulses;

                @Override
                public void handle(long now) {
                    if (result.isDone()) {
                        stop();
                        stage.hide();
                        return;
                    }
                    if (++pulses < SETTLE_PULSES) {
                        return;
                    }
                    stop();
                    // Take the snapshot outside the pulse, in a plain runLater.
                    Platform.runLater(() -> {
                        try {
                            result.complete(snapshot(root, widthPx, heightPx, scale));
                        } catch (RuntimeException e) {
                            result.completeExceptionally(e);
                        } finally {
                            stage.hide();
                        }
                    });
                }
            }.start();
        } catch (RuntimeException | Error e) {
            stage.hide();
            result.completeExceptionally(e);
        }
    }

    private static WritableImage snapshot(Region node, int widthPx, int heightPx, double scale) {
        SnapshotParameters params = new SnapshotParameters();
        params.setFill(Color.WHITE);
        params.setTransform(Transform.scale(scale, scale));
        return node.snapshot(params, new WritableImage(widthPx, heightPx));
    }

    // ---- waiting and writing ----

    private static void runOnFx(Runnable task) {
        if (Platform.isFxApplicationThread()) {
            task.run();
        } else {
            Platform.runLater(task);
        }
    }

    private static WritableImage await(CompletableFuture<WritableImage> image, long deadlineNanos, Path out)
            throws ChartExportException {
        long remainingNanos = Math.max(1, deadlineNanos - System.nanoTime());
        if (Platform.isFxApplicationThread()) {
            return awaitOnFxThread(image, remainingNanos, out);
        }
        try {
            return image.get(remainingNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            image.cancel(false);
            throw new ChartExportException("rendering " + out + " did not finish within "
                    + TimeUnit.NANOSECONDS.toMillis(remainingNanos) + " ms; the JavaFX thread may be blocked", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            image.cancel(false);
            throw new ChartExportException("interrupted while rendering " + out, e);
        } catch (ExecutionException e) {
            throw new ChartExportException("rendering " + out + " failed: " + e.getCause(), e.getCause());
        }
    }

    private static WritableImage awaitOnFxThread(CompletableFuture<WritableImage> image, long remainingNanos,
                                                 Path out) throws ChartExportException {
        if (!image.isDone()) {
            if (!Platform.canStartNestedEventLoop()) {
                throw new ChartExportException("cannot export " + out + " from an animation or layout callback on "
                        + "the JavaFX thread; call it from an event handler or another thread");
            }
            Object key = new Object();
            image.orTimeout(remainingNanos, TimeUnit.NANOSECONDS)
                    .whenComplete((img, err) -> Platform.runLater(() -> Platform.exitNestedEventLoop(key, null)));
            Platform.enterNestedEventLoop(key);
        }
        try {
            return image.join();
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof TimeoutException) {
                throw new ChartExportException("rendering " + out + " did not finish within "
                        + TimeUnit.NANOSECONDS.toMillis(remainingNanos) + " ms", cause);
            }
            throw new ChartExportException("rendering " + out + " failed: " + cause, cause);
        }
    }

    /**
     * The snapshot as an opaque RGB image (snapshots are taken on a white fill, so no pixel is transparent), copied in
     * one call into the image's own pixel array. {@link SwingFXUtils#fromFXImage} gives a premultiplied-alpha image,
     * which ImageIO's PNG writer un-premultiplies pixel by pixel (it showed in JFR samples of a run's chart export),
     * and whose alpha channel every PNG then carried for nothing.
     */
    private static BufferedImage opaqueRgb(WritableImage fxImage) {
        int w = (int) fxImage.getWidth();
        int h = (int) fxImage.getHeight();
        BufferedImage rgb = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        int[] pixels = ((java.awt.image.DataBufferInt) rgb.getRaster().getDataBuffer()).getData();
        fxImage.getPixelReader().getPixels(0, 0, w, h, javafx.scene.image.PixelFormat.getIntArgbInstance(), pixels, 0,
                w); // INT_RGB ignores the alpha byte
        return rgb;
    }

    private static void write(WritableImage fxImage, Path out) throws ChartExportException {
        BufferedImage image = opaqueRgb(fxImage);
        Path target = out.toAbsolutePath();
        Path tmp = target.resolveSibling(target.getFileName() + ".part");
        try {
            if (target.getParent() != null) {
                Files.createDirectories(target.getParent());
            }
            if (!ImageIO.write(image, "png", tmp.toFile())) {
                throw new ChartExportException("no PNG writer available in ImageIO for " + out);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the original failure is the one worth reporting
            }
            if (e instanceof ChartExportException cee) {
                throw cee;
            }
            throw new ChartExportException("could not write " + out + ": " + e.getMessage(), e);
        }
    }

    private static void checkSize(String name, int px) {
        if (px < 1 || px > MAX_SIZE_PX) {
            throw new IllegalArgumentException(name + " must be 1.." + MAX_SIZE_PX + " px, was " + px);
        }
    }

    private static void checkScale(double scale) {
        if (!(scale >= 0.25 && scale <= 8)) {
            throw new IllegalArgumentException("scale must be 0.25..8, was " + scale);
        }
    }

    private static long checkTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be > 0, was " + timeout);
        }
        return timeout.toMillis();
    }
}
