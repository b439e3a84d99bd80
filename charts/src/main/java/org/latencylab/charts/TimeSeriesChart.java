package org.latencylab.charts;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import javafx.geometry.HPos;
import javafx.geometry.VPos;
import javafx.scene.paint.Color;

import io.fair_acc.chartfx.XYChart;
import io.fair_acc.chartfx.axes.Axis;
import io.fair_acc.chartfx.axes.spi.DefaultNumericAxis;
import io.fair_acc.chartfx.plugins.XRangeIndicator;
import io.fair_acc.chartfx.plugins.YRangeIndicator;
import io.fair_acc.chartfx.renderer.ErrorStyle;
import io.fair_acc.chartfx.renderer.LineStyle;
import io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer;
import io.fair_acc.chartfx.ui.geometry.Side;
import io.fair_acc.dataset.DataSet;
import io.fair_acc.dataset.spi.DoubleDataSet;

import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.data.TierBand;
import org.latencylab.charts.data.TimeSpan;

/**
 * Latency over the time of a run: x is seconds since the start, one line per series (e.g. P50, P95, P99 per
 * one-second interval), and optional horizontal tier bands, shaded from green (fast tiers) to red (slow) with their
 * label at the left edge ("Tier-1 ≤ 300 ms").
 *
 * <p>Threading: build, {@link #update(List)} and {@link #setTierBands(List)} on the JavaFX thread. A live view calls
 * {@code update} with each new interval snapshot; the chart redraws once per pulse however often it is called.
 */
public final class TimeSeriesChart {

    /** Band fills from the fastest to the slowest tier; later bands reuse the last colour. */
    private static final Color[] BAND_COLOURS = {
        Color.web("#2ca02c"), Color.web("#8cc63f"), Color.web("#f2c12e"), Color.web("#f28e2b"), Color.web("#d62728")
    };
    private static final double BAND_OPACITY = 0.14;
    /** Series with fewer values than this and with empty intervals get a marker on each value. */
    static final int MARKER_MAX_POINTS = 300;

    private final XYChart chart;
    private final ErrorDataSetRenderer lines;
    private final DefaultNumericAxis xAxis;
    private final DefaultNumericAxis yAxis;
    private final List<YRangeIndicator> bands = new ArrayList<>();
    private final List<XRangeIndicator> spans = new ArrayList<>();

    /**
     * @param title chart title, e.g. {@code "TTFT per second"}; not blank
     * @param y     the latency on y, e.g. {@code TTFT [ms]}
     * @param logY  whether y is logarithmic
     * @param theme light or dark
     */
    public TimeSeriesChart(String title, Quantity y, boolean logY, ChartTheme theme) {
        ChartScaffold.requireTitle(title);
        Objects.requireNonNull(theme, "theme");
        xAxis = ChartScaffold.axis(new Quantity("Time since start", "s"), Side.BOTTOM);
        yAxis = ChartScaffold.axis(Objects.requireNonNull(y, "y"), Side.LEFT);
        ChartScaffold.log(yAxis, logY);
        if (!logY) {
            yAxis.setForceZeroInRange(true);
        }
        chart = ChartScaffold.chart(title, xAxis, yAxis, theme);
        lines = new ErrorDataSetRenderer();
        lines.setErrorStyle(ErrorStyle.NONE);
        lines.setPolyLineStyle(LineStyle.NORMAL);
        lines.setDrawMarker(false);
        lines.setDashSize(0); // plain line as legend symbol, not an error-bar cross
        chart.getRenderers().add(lines);
    }

    /** @return the ready chart */
    public XYChart chart() {
        return chart;
    }

    /**
     * Replaces the drawn series. Intervals without a value (NaN: no request ended in that second, common at low
     * rates) are left out and the line connects the values either side, so a sparse series stays one line instead
     * of falling apart into fragments; each value is also marked with a small dot when the series has fewer than
     * {@value #MARKER_MAX_POINTS} values, so that a bridged stretch is visibly without measurements.
     *
     * @param series one per statistic, x in seconds since start, y in the y quantity's unit; NaN = no value in that
     *               interval
     * @throws IllegalStateException when not called on the JavaFX thread
     */
    public void update(List<Series> series) {
        ChartScaffold.requireFxThread("TimeSeriesChart.update");
        Objects.requireNonNull(series, "series");
        List<DataSet> datasets = lines.getDatasets();
        ChartScaffold.resize(datasets, series.size(), i -> new DoubleDataSet("series-" + i, 0));
        boolean sparse = false;
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            double[] x = s.x();
            double[] y = s.y();
            int kept = 0;
            double[] kx = new double[x.length];
            double[] ky = new double[y.length];
            for (int k = 0; k < x.length; k++) {
                if (Double.isFinite(y[k])) {
                    kx[kept] = x[k];
                    ky[kept] = y[k];
                    kept++;
                }
            }
            sparse |= kept < x.length && kept < MARKER_MAX_POINTS;
            ChartScaffold.write((DoubleDataSet) datasets.get(i), s.name(), java.util.Arrays.copyOf(kx, kept),
                    java.util.Arrays.copyOf(ky, kept));
        }
        lines.setDrawMarker(sparse);
    }

    /**
     * Replaces the tier bands. Bands are drawn behind the lines in the order given, coloured from green (first) to
     * red (fifth and later). Bands already shown are moved and relabelled in place rather than replaced, so a live
     * view that calls this with every snapshot (the top band grows with the largest value) does not add and remove
     * plugin nodes, with their CSS and layout passes, several times a second.
     *
     * @param tierBands bands in y units, fastest first (e.g. Tier-0 0–80 ms, Tier-1 80–300 ms, …)
     * @throws IllegalStateException when not called on the JavaFX thread
     */
    public void setTierBands(List<TierBand> tierBands) {
        ChartScaffold.requireFxThread("TimeSeriesChart.setTierBands");
        Objects.requireNonNull(tierBands, "tierBands");
        int keep = Math.min(bands.size(), tierBands.size());
        for (int i = 0; i < keep; i++) {
            YRangeIndicator b = bands.get(i);
            TierBand t = tierBands.get(i);
            // bounds widen first, then narrow, so lower <= upper holds at every step
            b.setLowerBound(Math.min(b.getLowerBound(), t.lower()));
            b.setUpperBound(t.upper());
            b.setLowerBound(t.lower());
            if (!t.label().equals(b.getText())) {
                b.setText(t.label());
            }
        }
        if (bands.size() > keep) {
            List<YRangeIndicator> gone = new ArrayList<>(bands.subList(keep, bands.size()));
            chart.getPlugins().removeAll(gone);
            bands.subList(keep, bands.size()).clear();
        }
        if (tierBands.size() > keep) {
            List<YRangeIndicator> added = new ArrayList<>();
            for (int i = keep; i < tierBands.size(); i++) {
                Color c = BAND_COLOURS[Math.min(i, BAND_COLOURS.length - 1)];
                added.add(new TierIndicator(yAxis, tierBands.get(i), c));
            }
            bands.addAll(added);
            chart.getPlugins().addAll(added);
        }
    }

    /**
     * Replaces the marked stretches of the time axis (e.g. a load step's warm-up and cool-down): grey, behind the
     * lines, labelled at their bottom.
     *
     * @param timeSpans the stretches, seconds since start
     * @throws IllegalStateException when not called on the JavaFX thread
     */
    public void setTimeSpans(List<TimeSpan> timeSpans) {
        ChartScaffold.requireFxThread("TimeSeriesChart.setTimeSpans");
        Objects.requireNonNull(timeSpans, "timeSpans");
        chart.getPlugins().removeAll(spans);
        spans.clear();
        for (TimeSpan t : timeSpans) {
            spans.add(new SpanIndicator(xAxis, t));
        }
        chart.getPlugins().addAll(spans);
    }

    /** @return the labels of the marked stretches of the time axis, in order (for tests) */
    public List<String> timeSpanLabels() {
        return spans.stream().map(XRangeIndicator::getText).toList();
    }

    /** @return the current tier band labels, bottom first (for tests and the app's tooltip) */
    public List<String> tierBandLabels() {
        return bands.stream().map(YRangeIndicator::getText).toList();
    }

    /** A non-editable grey stretch of the time axis with its label at the bottom. */
    private static final class SpanIndicator extends XRangeIndicator {
        SpanIndicator(Axis axis, TimeSpan span) {
            super(axis, span.from(), span.to(), span.label());
            setEditable(false);
            rectangle.setMouseTransparent(true);
            rectangle.setStyle("-fx-fill: rgba(110,110,110,0.16);");
            setLabelHorizontalAnchor(HPos.LEFT); // from the span's left edge on: a 2 s span is narrower than its text
            setLabelHorizontalPosition(0.0);
            setLabelVerticalAnchor(VPos.BOTTOM); // at the bottom: the tier bands label their top-left corners
            setLabelVerticalPosition(0.02);
        }
    }

    /** A non-editable range indicator with a fixed fill and its label at the left edge. */
    private static final class TierIndicator extends YRangeIndicator {
        TierIndicator(Axis axis, TierBand band, Color colour) {
            super(axis, band.lower(), band.upper(), band.label());
            setEditable(false);
            rectangle.setMouseTransparent(true);
            rectangle.setStyle(String.format(java.util.Locale.ROOT, "-fx-fill: rgba(%d,%d,%d,%.2f);",
                    (int) Math.round(colour.getRed() * 255), (int) Math.round(colour.getGreen() * 255),
                    (int) Math.round(colour.getBlue() * 255), BAND_OPACITY));
            setLabelHorizontalAnchor(HPos.LEFT);
            setLabelHorizontalPosition(0.005);
            setLabelVerticalAnchor(VPos.TOP);
            setLabelVerticalPosition(1.0);
        }
    }
}
