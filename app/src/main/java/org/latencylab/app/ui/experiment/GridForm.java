package org.latencylab.app.ui.experiment;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.Property;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.run.DurationText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * State of the grid form, as JavaFX properties (no nodes): rows of closed-loop concurrency or open-loop rate,
 * columns of prompt lengths, each cell a load step bounded by a duration and/or a request count, summarised by one
 * metric and statistic into a heatmap. {@link #spec()} turns it into the engine's {@link GridSpec}. Not
 * thread-safe: use it on the UI thread.
 */
public final class GridForm {
    /** Cell metrics offered: latencies (ms) and rates. */
    public static final List<String> METRICS = java.util.stream.Stream.concat(Metric.ids(Metric.TTFT_FROM_INTENDED,
            Metric.E2E_FROM_INTENDED, Metric.TTFT, Metric.E2E, Metric.TPOT, Metric.TTFB, Metric.DISPATCH_LAG).stream(),
            java.util.stream.Stream.of("achieved_rps", "goodput_rps", "error_rate")).toList();
    /** Statistics offered for latency metrics. */
    public static final List<String> STATISTICS = List.of("p50", "p90", "p95", "p99", "p999", "mean", "max");
    /** Row axes offered. */
    public static final List<String> ROW_AXES = List.of("concurrency", "rate");

    private final StringProperty rowAxis = new SimpleStringProperty("concurrency");
    private final StringProperty rowValues = new SimpleStringProperty("1, 4, 16");
    private final StringProperty contextTokens = new SimpleStringProperty("256, 1k, 4k");
    private final StringProperty cellDuration = new SimpleStringProperty("5s");
    private final IntegerProperty cellRequests = new SimpleIntegerProperty(0);
    private final ObjectProperty<ArrivalProcess> arrival = new SimpleObjectProperty<>(ArrivalProcess.POISSON);
    private final StringProperty metric = new SimpleStringProperty("ttft_from_intended");
    private final StringProperty statistic = new SimpleStringProperty("p99");
    private final IntegerProperty maxOutputTokens = new SimpleIntegerProperty(16);
    private final BooleanProperty stream = new SimpleBooleanProperty(true);
    private final BooleanProperty cold = new SimpleBooleanProperty(true);

    /** @return {@code concurrency} (closed loop) or {@code rate} (open loop, req/s) */
    public StringProperty rowAxisProperty() {
        return rowAxis;
    }

    /** @return row values, comma-separated: worker counts or rates in req/s */
    public StringProperty rowValuesProperty() {
        return rowValues;
    }

    /** @return column prompt lengths, tokens, comma-separated; {@code k} = ×1024 */
    public StringProperty contextTokensProperty() {
        return contextTokens;
    }

    /** @return how long each cell runs, a duration text; empty = bounded by requests only */
    public StringProperty cellDurationProperty() {
        return cellDuration;
    }

    /** @return requests per cell; 0 = bounded by the duration only */
    public IntegerProperty cellRequestsProperty() {
        return cellRequests;
    }

    /** @return rate rows: arrival process (gamma is not offered here; scenario files have it) */
    public ObjectProperty<ArrivalProcess> arrivalProperty() {
        return arrival;
    }

    /** @return cell metric id */
    public StringProperty metricProperty() {
        return metric;
    }

    /** @return statistic of latency metrics */
    public StringProperty statisticProperty() {
        return statistic;
    }

    /** @return max_tokens of each request */
    public IntegerProperty maxOutputTokensProperty() {
        return maxOutputTokens;
    }

    /** @return streaming requests */
    public BooleanProperty streamProperty() {
        return stream;
    }

    /** @return unique prompt prefix per request (default on: a grid over prompt length measures prefill) */
    public BooleanProperty coldProperty() {
        return cold;
    }

    /**
     * @return the grid step the form describes
     * @throws IllegalArgumentException when a field is invalid; the message names the form field
     */
    public GridSpec spec() {
        List<Double> rows = new ArrayList<>();
        for (String part : split(rowValues.get())) {
            try {
                rows.add(Double.parseDouble(part));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("row values: '" + part + "' is not a number");
            }
        }
        List<Integer> columns = new ArrayList<>();
        for (String part : split(contextTokens.get())) {
            columns.add(ExperimentViewModel.parseLength("context lengths", part));
        }
        String d = cellDuration.get() == null ? "" : cellDuration.get().strip();
        Duration cell = null;
        if (!d.isEmpty()) {
            try {
                cell = DurationText.parse(d);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cell duration: " + e.getMessage(), e);
            }
        }
        boolean rate = "rate".equals(rowAxis.get());
        return new GridSpec(rowAxis.get(), rows, columns, cell, cellRequests.get() > 0 ? (long) cellRequests.get()
                : null, null, rate ? arrival.get() : null, maxOutputTokens.get(), stream.get(), cold.get(),
                metric.get(), statistic.get(), null);
    }

    private static List<String> split(String text) {
        String t = text == null ? "" : text.strip();
        return t.isEmpty() ? List.of() : List.of(t.split("[,;\\s]+"));
    }

    /** @return a short run name, e.g. {@code grid-3x3-concurrency} */
    public String suggestedName() {
        return String.format(Locale.ROOT, "grid-%dx%d-%s", split(rowValues.get()).size(),
                split(contextTokens.get()).size(), rowAxis.get());
    }

    /** @return the fields that differ from the defaults, as text, for the settings file (defaults are not stored) */
    public Map<String, String> toMap() {
        Map<String, Property<?>> defaults = new GridForm().properties();
        Map<String, String> m = new LinkedHashMap<>();
        properties().forEach((k, p) -> {
            String v = String.valueOf(p.getValue());
            if (!v.equals(String.valueOf(defaults.get(k).getValue()))) {
                m.put(k, v);
            }
        });
        return m;
    }

    /** @param m field texts written by {@link #toMap()}, or null; unreadable values are skipped */
    public void fromMap(Map<String, String> m) {
        if (m != null) {
            FormFields.fill(properties(), m);
        }
    }

    private Map<String, Property<?>> properties() {
        Map<String, Property<?>> p = new LinkedHashMap<>();
        p.put("rowAxis", rowAxis);
        p.put("rowValues", rowValues);
        p.put("contextTokens", contextTokens);
        p.put("cellDuration", cellDuration);
        p.put("cellRequests", cellRequests);
        p.put("arrival", arrival);
        p.put("metric", metric);
        p.put("statistic", statistic);
        p.put("maxOutputTokens", maxOutputTokens);
        p.put("stream", stream);
        p.put("cold", cold);
        return p;
    }
}
