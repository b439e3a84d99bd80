package org.latencylab.app.ui;

import org.latencylab.app.ui.controls.Controls;
import io.fair_acc.chartfx.XYChart;
import javafx.scene.layout.Pane;
import org.latencylab.app.ui.results.ResultsView;
import org.latencylab.charts.results.ResultCharts;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.TimeSeriesChart;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.data.Series;
import org.latencylab.engine.stats.TierTable;

import java.util.List;

/**
 * Draws a CDF chart and a time chart with tier bands once, unseen, while the window is idle after it opened, then
 * discards them: the first drawing of chart data costs the FX thread much more than later ones (ChartFX's data-set
 * nodes, legend items and tier-band plugins get their first CSS, the grid renderer makes its dashed-line images
 * with a snapshot, and the drawing code runs for the first time, interpreted when the JVM compiles with C1 only).
 * Without this, that cost fell on the pulses in which a load test's first finished requests reached the window,
 * its longest pieces of FX-thread work.
 *
 * <p>The charts are unmanaged children of the given pane, behind its other children, fully transparent and
 * mouse-transparent; each step runs in a pulse of its own ({@link Controls#inPulse}). Not thread-safe: call
 * {@link #start} on the JavaFX thread.
 */
public final class ChartWarmUp {
    /** Samples in each synthetic distribution. */
    private static final int SAMPLES = 200;
    /** Seconds in the synthetic time series. */
    private static final int SECONDS = 10;
    /** Size of the unseen charts, px (about a results chart's size in the default window). */
    private static final double WIDTH = 480;
    private static final double HEIGHT = 300;

    private ChartWarmUp() {
    }

    /**
     * Starts the warm-up: the CDF chart joins {@code host} {@code afterPulses} pulses from now and gets its data
     * two pulses later, the time chart joins two pulses after that and gets its lines and its tier bands in pulses
     * of their own; both leave about fifteen pulses after the start.
     *
     * @param host        a pane of the showing window (its layout ignores the unmanaged charts)
     * @param theme       the charts' look (the theme in use, so that its CSS is the one warmed)
     * @param tiers       the tier table drawn as bands
     * @param afterPulses pulses to wait before the charts are made, at least 1
     * @throws IllegalArgumentException when {@code afterPulses} is below 1
     * @throws IllegalStateException    when not called on the JavaFX thread
     */
    public static void start(Pane host, ChartTheme theme, TierTable tiers, int afterPulses) {
        // one piece per pulse (a chart's first CSS and layout, its data, the other chart's, ...), so that the
        // warm-up itself never holds the FX thread long, even when a run starts while it goes on
        Controls.inPulse(afterPulses, () -> {
            CdfChart cdf = ResultCharts.cdfChart(ResultsView.title(ResultCharts.Kind.CDF),
                    CdfChart.YScale.PROBABILITY, theme);
            join(host, cdf.chart(), 0);
            Controls.inPulse(2, () -> cdf.update(List.of(new SampleSet("TTFT", ramp(20, 80)),
                    new SampleSet("E2E", ramp(100, 400)))));
            Controls.inPulse(4, () -> {
                TimeSeriesChart time = ResultCharts.perSecondChart(ResultsView.title(ResultCharts.Kind.TIME), theme);
                join(host, time.chart(), 1);
                Controls.inPulse(2, () -> {
                    double[] x = new double[SECONDS];
                    double[] p50 = new double[SECONDS];
                    double[] max = new double[SECONDS];
                    for (int i = 0; i < SECONDS; i++) {
                        x[i] = i + 0.5;
                        p50[i] = 40 + i;
                        max[i] = 90 + 30 * i;
                    }
                    time.update(List.of(new Series("P50 TTFT", x, p50), new Series("max TTFT", x, max)));
                });
                Controls.inPulse(4, () -> time.setTierBands(ResultCharts.bands(tiers, 90 + 30 * (SECONDS - 1))));
                Controls.inPulse(8, () -> host.getChildren().removeAll(cdf.chart(), time.chart()));
            });
        });
    }

    /** Adds a chart to {@code host} at {@code index}: transparent, unmanaged, mouse-transparent. */
    private static void join(Pane host, XYChart c, int index) {
        c.setManaged(false);
        c.setOpacity(0);
        c.setMouseTransparent(true);
        c.setFocusTraversable(false);
        c.resizeRelocate(0, 0, WIDTH, HEIGHT);
        host.getChildren().add(index, c);
    }

    /** @return {@value #SAMPLES} values evenly from {@code lo} to {@code hi} (ms) */
    private static double[] ramp(double lo, double hi) {
        double[] v = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            v[i] = lo + (hi - lo) * i / (SAMPLES - 1);
        }
        return v;
    }
}
