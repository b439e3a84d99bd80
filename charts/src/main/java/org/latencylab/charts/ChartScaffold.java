package org.latencylab.charts;

import java.util.List;

import javafx.application.Platform;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.spi.DoubleDataSet;

import org.latencylab.charts.data.Quantity;

/** Common set-up of LatencyLab charts: axes with units, animation off, title, legend, theme. */
final class ChartScaffold {

    private ChartScaffold() {
    }

    static DefaultNumericAxis axis(Quantity q, Side side) {
        DefaultNumericAxis axis = new LogTickAxis(q.name(), q.unit()); // labels 1-2-5 per decade when log
        axis.setSide(side);
        axis.setAnimated(false);
        axis.setAutoRanging(true);
        axis.setAutoRangeRounding(true);
        axis.setAutoUnitScaling(false);
        axis.setTickLabelFormatter(NumberLabels.INSTANCE);
        // room between tick labels and the axis title: at small chart sizes ChartFX's default lets them touch
        axis.setAxisLabelGap(Math.max(axis.getAxisLabelGap(), 6));
        return axis;
    }

    /** Switches an axis to log10 with plain labels ({@code 100}, {@code 2k}) instead of {@code 1E2}. */
    static void log(DefaultNumericAxis axis, boolean log) {
        axis.setLogAxis(log);
        if (log) {
            axis.setTickLabelFormatter(NumberLabels.INSTANCE);
        }
    }

    /**
     * @param rough a positive step, e.g. a range divided by the number of ticks wanted
     * @return the 1-2-5 number (…, 0.5, 1, 2, 5, 10, …) nearest above {@code rough}
     */
    static double niceStep(double rough) {
        if (!(rough > 0) || Double.isInfinite(rough)) {
            return 1;
        }
        double decade = Math.pow(10, Math.floor(Math.log10(rough)));
        double f = rough / decade;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
        return nice * decade;
    }

    static XYChart chart(String title, DefaultNumericAxis x, DefaultNumericAxis y, ChartTheme theme) {
        XYChart chart = new XYChart(x, y);
        chart.setAnimated(false);
        chart.setTitle(title);
        chart.setLegendVisible(true);
        chart.setToolBarPinned(false);
        chart.getRenderers().clear();
        theme.apply(chart);
        return chart;
    }

    static void requireFxThread(String what) {
        if (!Platform.isFxApplicationThread()) {
            throw new IllegalStateException(what + " must be called on the JavaFX application thread, was called on "
                    + Thread.currentThread().getName());
        }
    }

    static void requireTitle(String title) {
        if (title == null || title.isBlank()) {
            throw new IllegalArgumentException("chart title must not be blank, was '" + title + "'");
        }
    }

    /**
     * Writes x/y into a data set under its write lock. ChartFX 11.3 collects change notifications as dirty bits
     * that the chart reads once per pulse, so several data sets written in one update are drawn in one redraw.
     */
    static void write(DoubleDataSet ds, String name, double[] x, double[] y) {
        ds.lock().writeLockGuard(() -> {
            ds.setName(name);
            ds.set(x, y, x.length, true);
        });
    }

    /** Makes {@code target} hold exactly {@code count} data sets, reusing existing ones from the front. */
    static <D extends DataSet> void resize(List<DataSet> target, int count, java.util.function.IntFunction<D> make) {
        while (target.size() > count) {
            target.remove(target.size() - 1);
        }
        while (target.size() < count) {
            target.add(make.apply(target.size()));
        }
    }
}
