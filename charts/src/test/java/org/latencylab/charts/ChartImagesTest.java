package org.latencylab.charts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import javafx.animation.AnimationTimer;
import javafx.scene.Scene;
import javafx.stage.Stage;

import io.fair_acc.chartfx.XYChart;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.latencylab.charts.export.ChartExportException;
import org.latencylab.charts.export.ChartImages;

/** The PNG export paths: from a worker thread, from the JavaFX thread, of a shown chart, and its failures. */
class ChartImagesTest {

    @TempDir
    Path dir;

    @Test
    void scaleTwoGivesTheRequestedPixelSizeWithTheLayoutOfHalfTheSize() throws Exception {
        AtomicReference<XYChart> chart = new AtomicReference<>();
        Path png = dir.resolve("sub/dir/retina.png");
        ChartImages.writePng(() -> {
            chart.set((XYChart) ChartSamples.bars(ChartTheme.LIGHT));
            return chart.get();
        }, 1200, 800, 2.0, png);
        BufferedImage img = Pixels.read(png);
        assertThat(img.getWidth()).isEqualTo(1200);
        assertThat(img.getHeight()).isEqualTo(800);
        assertThat(Fx.call(() -> chart.get().getWidth())).isEqualTo(600.0);
        assertThat(Files.list(png.getParent()).map(p -> p.getFileName().toString()))
                .as("no temporary file left").containsExactly("retina.png");
    }

    @Test
    void worksWhenCalledOnTheFxThread() throws Exception {
        Path png = dir.resolve("from-fx.png");
        Fx.run(() -> {
            try {
                ChartImages.writePng(() -> ChartSamples.pareto(ChartTheme.DARK), 640, 400, 1.0, png);
            } catch (ChartExportException e) {
                throw new IllegalStateException(e);
            }
        });
        BufferedImage img = Pixels.read(png);
        assertThat(img.getWidth()).isEqualTo(640);
        // dark theme: the centre of the image is not white
        assertThat(Pixels.distance(img.getRGB(320, 200), 0xffffffff)).isGreaterThan(100);
    }

    /** Waits until the JavaFX toolkit has run {@code n} pulses (counted by an animation timer). */
    private static void awaitPulses(int n) throws InterruptedException {
        CountDownLatch pulses = new CountDownLatch(n);
        Fx.run(() -> new AnimationTimer() {
            @Override
            public void handle(long now) {
                pulses.countDown();
                if (pulses.getCount() == 0) {
                    stop();
                }
            }
        }.start());
        assertThat(pulses.await(30, TimeUnit.SECONDS)).as(n + " pulses").isTrue();
    }

    @Test
    void exportsAChartThatIsShowingInAWindowAtItsCurrentSize() throws Exception {
        Fx.start();
        AtomicReference<Stage> stage = new AtomicReference<>();
        XYChart chart = Fx.call(() -> {
            XYChart c = (XYChart) ChartSamples.timeSeries(ChartTheme.LIGHT);
            Stage s = new Stage();
            s.setScene(new Scene(c, 700, 450));
            s.show();
            stage.set(s);
            return c;
        });
        try {
            awaitPulses(ChartImages.SETTLE_PULSES); // ChartFX lays out and draws a shown chart in its next pulses
            Path png = dir.resolve("shown.png");
            ChartImages.writePng(chart, 1.0, png);
            BufferedImage img = Pixels.read(png);
            assertThat(img.getWidth()).isEqualTo(700);
            assertThat(img.getHeight()).isEqualTo(450);
            assertThat(Pixels.countDifferent(img, Pixels.plotArea(chart), javafx.scene.paint.Color.WHITE, 40))
                    .isGreaterThan(1000);
        } finally {
            Fx.run(() -> stage.get().hide());
        }
    }

    @Test
    void aChartThatIsNotShownIsRejectedWithAHint() {
        XYChart chart = Fx.call(() -> (XYChart) ChartSamples.bars(ChartTheme.LIGHT));
        assertThatThrownBy(() -> ChartImages.writePng(chart, 1.0, dir.resolve("x.png")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not in a showing window");
    }

    @Test
    void aFailingFactoryEndsInAnExceptionNamingTheFile() {
        Path png = dir.resolve("broken.png");
        assertThatThrownBy(() -> ChartImages.writePng(() -> {
            throw new IllegalArgumentException("no data for this chart");
        }, 300, 200, 1.0, png)).isInstanceOf(ChartExportException.class)
                .hasMessageContaining("broken.png").hasMessageContaining("no data for this chart");
        assertThat(png).doesNotExist();
    }

    @Test
    void aChartThatNeverFinishesTimesOut() {
        Fx.start();
        Path png = dir.resolve("slow.png");
        // block the FX thread longer than the timeout
        javafx.application.Platform.runLater(() -> {
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThatThrownBy(() -> ChartImages.writePng(() -> ChartSamples.bars(ChartTheme.LIGHT), 300, 200, 1.0, png,
                java.time.Duration.ofMillis(300))).isInstanceOf(ChartExportException.class)
                .hasMessageContaining("did not finish within");
    }

    @Test
    void rejectsSizesAndScalesOutOfRange() {
        assertThatThrownBy(() -> ChartImages.writePng(() -> null, 0, 10, 1, dir.resolve("a.png")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("widthPx");
        assertThatThrownBy(() -> ChartImages.writePng(() -> null, 10, 100_000, 1, dir.resolve("a.png")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heightPx");
        assertThatThrownBy(() -> ChartImages.writePng(() -> null, 10, 10, 0, dir.resolve("a.png")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scale");
    }
}
