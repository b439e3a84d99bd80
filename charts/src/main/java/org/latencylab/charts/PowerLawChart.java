package org.latencylab.charts;

import java.util.List;
import java.util.Objects;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.renderer.ErrorStyle;
import io.fair_acc.chartfx.renderer.LineStyle;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.spi.DoubleDataSet;
import io.fair_acc.dataset.spi.DoubleErrorDataSet;

import org.latencylab.charts.data.PowerLawFit;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.Series;

/**
 * Latency against input size on log-log axes, where a power law {@code y = a · n^α} is a straight line of slope α:
 * measured points per series (e.g. P50 and P95 TTFT against context tokens), the fitted curves and their
 * confidence bands (solid translucent fill, see {@link BandRenderer}), and the fit in the legend ({@code fit P50: 0.0213·n^0.72 (95 % CI 0.69–0.75), R²
 * 0.998}).
 *
 * <p>The k-th fit is drawn in the colour of the k-th measured series, so pass them in the same order.
 *
 * <p>Threading: build and {@link #update(List, List)} on the JavaFX thread.
 */
public final class PowerLawChart {

    private final XYChart chart;
    private final ErrorDataSetRenderer points;
    private final ErrorDataSetRenderer fits;
    private final BandRenderer bands;
    private final DefaultNumericAxis xAxis;
    private final DefaultNumericAxis yAxis;

    /**
     * @param title chart title, e.g. {@code "Cold prefill: TTFT vs context length"}; not blank
     * @param x     input size on x, e.g. {@code context [tokens]}; values must be > 0 (log axis)
     * @param y     latency on y, e.g. {@code TTFT [ms]}; values must be > 0 (log axis)
     * @param theme light or dark
     */
    public PowerLawChart(String title, Quantity x, Quantity y, ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        Objects.requireNonNull(theme, "theme");
        xAxis = ChartScaffold.axis(Objects.requireNonNull(x, "x"), Side.BOTTOM);
        yAxis = ChartScaffold.axis(Objects.requireNonNull(y, "y"), Side.LEFT);
        ChartScaffold.log(xAxis, true);
        ChartScaffold.log(yAxis, true);
        chart = ChartScaffold.chart(title, xAxis, yAxis, theme);

        bands = new BandRenderer();
        bands.setUseGlobalColorIndex(false);

        fits = new ErrorDataSetRenderer();
        fits.setErrorStyle(ErrorStyle.NONE);
        fits.setDashSize(0);
        fits.setPolyLineStyle(LineStyle.NORMAL);
        fits.setDrawMarker(false);
        fits.setPointReduction(false);
        fits.setUseGlobalColorIndex(false);

        points = new ErrorDataSetRenderer();
        points.setErrorStyle(ErrorStyle.NONE);
        points.setPolyLineStyle(LineStyle.NONE);
        points.setDrawMarker(true);
        points.setDashSize(0);
        points.setPointReduction(false);
        points.setUseGlobalColorIndex(false);

        chart.getRenderers().addAll(bands, points, fits);
    }

    /** @return the ready chart */
    public XYChart chart() {
        return chart;
    }

    /**
     * Replaces measured points and fits. The x axis spans the measured points and the fitted curves (which reach
     * out to any extrapolated length) and the y axis the points and bands, each with a sixth of a decade to spare
     * rather than rounded out to whole decades; each band is listed
     * in the legend as what it is (the 95 % confidence band of that fit).
     *
     * @param measured one series per statistic (e.g. "P50 TTFT"), x and y > 0
     * @param fitted   fits in the same order as {@code measured} (may be shorter, e.g. empty before the fit)
     * @throws IllegalArgumentException when a value is not > 0 (it cannot be drawn on a log axis)
     * @throws IllegalStateException    when not called on the JavaFX thread
     */
    public void update(List<Series> measured, List<PowerLawFit> fitted) {
        ChartScaffold.requireFxThread("PowerLawChart.update");
        Objects.requireNonNull(measured, "measured");
        Objects.requireNonNull(fitted, "fitted");
        List<DataSet> pointSets = points.getDatasets();
        ChartScaffold.resize(pointSets, measured.size(), i -> {
            DoubleDataSet ds = new DoubleDataSet("points-" + i, 0);
            ds.setStyle("-fx-marker-size: 4.5; -fx-marker-type: circle;");
            return ds;
        });
        for (int i = 0; i < measured.size(); i++) {
            Series s = measured.get(i);
            requirePositive(s.x(), s.name());
            requirePositive(s.y(), s.name());
            ChartScaffold.write((DoubleDataSet) pointSets.get(i), s.name(), s.x(), s.y());
        }
        double xLo = Double.POSITIVE_INFINITY;
        double xHi = 0;
        for (Series s : measured) {
            for (double v : s.x()) {
                xLo = Math.min(xLo, v);
                xHi = Math.max(xHi, v);
            }
        }
        for (PowerLawFit f : fitted) {
            for (double v : f.curve().x()) {
                xLo = Math.min(xLo, v);
                xHi = Math.max(xHi, v);
            }
        }
        double yLo = Double.POSITIVE_INFINITY;
        double yHi = 0;
        for (Series s : measured) {
            for (double v : s.y()) {
                yLo = Math.min(yLo, v);
                yHi = Math.max(yHi, v);
            }
        }
        for (PowerLawFit f : fitted) {
            for (double v : f.lower().y()) {
                yLo = Math.min(yLo, v);
            }
            for (double v : f.upper().y()) {
                yHi = Math.max(yHi, v);
            }
        }
        boolean data = xHi > 0 && yHi > 0;
        xAxis.setAutoRanging(!data);
        yAxis.setAutoRanging(!data);
        if (data) {
            xAxis.set(xLo / 1.5, xHi * 1.5);
            yAxis.set(yLo / 1.5, yHi * 1.5);
        }
        List<DataSet> fitSets = fits.getDatasets();
        ChartScaffold.resize(fitSets, fitted.size(), i -> new DoubleDataSet("fit-" + i, 0));
        List<DataSet> bandSets = bands.getDatasets();
        ChartScaffold.resize(bandSets, fitted.size(), i -> new DoubleErrorDataSet("band-" + i, 0));
        for (int i = 0; i < fitted.size(); i++) {
            PowerLawFit f = fitted.get(i);
            double[] x = f.curve().x();
            double[] y = f.curve().y();
            double[] lo = f.lower().y();
            double[] hi = f.upper().y();
            requirePositive(x, f.name());
            requirePositive(y, f.name());
            requirePositive(lo, f.name() + " lower band");
            double[] errNeg = new double[y.length];
            double[] errPos = new double[y.length];
            for (int k = 0; k < y.length; k++) {
                errNeg[k] = Math.max(0, y[k] - lo[k]);
                errPos[k] = Math.max(0, hi[k] - y[k]);
            }
            ChartScaffold.write((DoubleDataSet) fitSets.get(i), f.legendText(), x, y);
            DoubleErrorDataSet band = (DoubleErrorDataSet) bandSets.get(i);
            band.lock().writeLockGuard(() -> {
                band.setName(f.bandLegendText());
                band.set(x, y, errNeg, errPos, x.length, true);
            });
        }
    }

    private static void requirePositive(double[] values, String what) {
        for (int i = 0; i < values.length; i++) {
            if (!(values[i] > 0)) {
                throw new IllegalArgumentException("'" + what + "' has value " + values[i] + " at index " + i
                        + "; a log-log chart needs values > 0");
            }
        }
    }
}
