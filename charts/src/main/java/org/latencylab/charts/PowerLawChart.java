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
    /** The fits' parts beyond the longest measured length, dashed (k-th colour as the k-th fit). */
    private final ErrorDataSetRenderer extrapolated;
    private final BandRenderer bands;
    private final Quantity xQuantity;
    /** y's name and unit, also in each fit's legend ({@code TTFT ≈ 1.67 ms · n^0.711}). */
    private final Quantity yQuantity;
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
        xQuantity = Objects.requireNonNull(x, "x");
        xAxis = ChartScaffold.axis(x, Side.BOTTOM);
        yQuantity = Objects.requireNonNull(y, "y");
        yAxis = ChartScaffold.axis(y, Side.LEFT);
        ChartScaffold.log(xAxis, true);
        ChartScaffold.log(yAxis, true);
        chart = ChartScaffold.chart(title, xAxis, yAxis, theme);

        bands = new BandRenderer();
        bands.setUseGlobalColorIndex(false);

        fits = lineRenderer();
        extrapolated = lineRenderer();

        points = new MarkerLegendRenderer();
        points.setErrorStyle(ErrorStyle.NONE);
        points.setPolyLineStyle(LineStyle.NONE);
        points.setDrawMarker(true);
        points.setDashSize(0);
        points.setPointReduction(false);
        points.setUseGlobalColorIndex(false);

        chart.getRenderers().addAll(bands, points, fits, extrapolated);
    }

    /** A renderer of plain lines without markers, k-th data set in the k-th colour (fits and their extrapolations). */
    private static ErrorDataSetRenderer lineRenderer() {
        ErrorDataSetRenderer r = new ErrorDataSetRenderer();
        r.setErrorStyle(ErrorStyle.NONE);
        r.setDashSize(0);
        r.setPolyLineStyle(LineStyle.NORMAL);
        r.setDrawMarker(false);
        r.setPointReduction(false);
        r.setUseGlobalColorIndex(false);
        return r;
    }

    /** @return the ready chart */
    public XYChart chart() {
        return chart;
    }

    /**
     * Replaces measured points and fits. The x axis spans the measured points and the fitted curves (which reach
     * out to any extrapolated length) and the y axis the points and bands, each with a sixth of a decade to spare
     * rather than rounded out to whole decades; each band is listed
     * in the legend as what it is (the 95 % confidence band of that fit). A fitted curve is solid over the measured
     * lengths and dashed beyond the longest one (an extrapolation: the model, not a measurement), with its own legend
     * entry.
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
        double measuredMax = 0;
        for (Series s : measured) {
            for (double v : s.x()) {
                measuredMax = Math.max(measuredMax, v);
            }
        }
        boolean beyond = false;
        for (PowerLawFit f : fitted) {
            double[] cx = f.curve().x();
            beyond |= measuredMax > 0 && cx.length > 0 && cx[cx.length - 1] > measuredMax * 1.0001;
        }
        List<DataSet> extraSets = extrapolated.getDatasets();
        ChartScaffold.resize(extraSets, beyond ? fitted.size() : 0, i -> {
            DoubleDataSet ds = new DoubleDataSet("extrapolated-" + i, 0);
            ds.setStyle("-fx-line-dash-array: 9 6; -fx-stroke-dash-array: 9 6;");
            return ds;
        });
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
            if (beyond) {
                double[][] parts = split(x, y, measuredMax);
                ChartScaffold.write((DoubleDataSet) fitSets.get(i), f.legendText(yQuantity), parts[0], parts[1]);
                ChartScaffold.write((DoubleDataSet) extraSets.get(i), f.name() + " fit extrapolated beyond "
                        + NumberLabels.value(measuredMax) + " " + xQuantity.unit() + " (a model, not measured)", parts[2], parts[3]);
            } else {
                ChartScaffold.write((DoubleDataSet) fitSets.get(i), f.legendText(yQuantity), x, y);
            }
            DoubleErrorDataSet band = (DoubleErrorDataSet) bandSets.get(i);
            band.lock().writeLockGuard(() -> {
                band.setName(f.bandLegendText());
                band.set(x, y, errNeg, errPos, x.length, true);
            });
        }
    }

    /**
     * Splits a curve at {@code at}: points up to it, then from it on; both parts include a point at {@code at}
     * (interpolated in log-log space, where a power law is a straight line) so the two lines meet.
     *
     * @return {x up to, y up to, x from, y from}
     */
    static double[][] split(double[] x, double[] y, double at) {
        List<double[]> before = new java.util.ArrayList<>();
        List<double[]> after = new java.util.ArrayList<>();
        for (int k = 0; k < x.length; k++) {
            if (x[k] <= at) {
                before.add(new double[]{x[k], y[k]});
            }
            if (x[k] >= at) {
                after.add(new double[]{x[k], y[k]});
            }
            if (k > 0 && x[k - 1] < at && x[k] > at) {
                double t = (Math.log(at) - Math.log(x[k - 1])) / (Math.log(x[k]) - Math.log(x[k - 1]));
                double yAt = Math.exp(Math.log(y[k - 1]) + t * (Math.log(y[k]) - Math.log(y[k - 1])));
                before.add(new double[]{at, yAt});
                after.add(0, new double[]{at, yAt});
            }
        }
        return new double[][]{before.stream().mapToDouble(p -> p[0]).toArray(),
                before.stream().mapToDouble(p -> p[1]).toArray(), after.stream().mapToDouble(p -> p[0]).toArray(),
                after.stream().mapToDouble(p -> p[1]).toArray()};
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
