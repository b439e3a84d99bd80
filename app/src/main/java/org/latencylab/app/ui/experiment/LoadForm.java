package org.latencylab.app.ui.experiment;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.Property;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.CapPolicy;
import org.latencylab.engine.load.LoadMode;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.run.DurationText;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * State of the load-test form, as JavaFX properties (no nodes): closed loop (concurrency, think time) or open loop
 * (arrival process and a rate shape: constant, ramp or burst), the step's bounds (duration, a request cap), warmup,
 * caps (in-flight, rate, what happens at a cap), a first-token deadline, the request (prompt and output tokens,
 * streaming, cold prompts), a goodput SLO and the tier metric. {@link #spec()} turns it into the engine's
 * {@link LoadSpec}, whose checks apply; a zero cap or an empty deadline means "none". Not thread-safe: use it on the
 * UI thread.
 */
public final class LoadForm {
    /** Rate shapes of an open loop the form offers (scenario files also allow free {@code phases}). */
    public enum Shape {
        /** One rate for the whole step. */
        CONSTANT,
        /** A linear ramp from one rate to another, then hold. */
        RAMP,
        /** A base rate with one burst to a peak rate. */
        BURST
    }

    /** Per-request metrics a goodput SLO or the tier can be judged on (ids of the engine's metrics). */
    public static final List<String> METRICS = Metric.ids(Metric.TTFT_FROM_INTENDED, Metric.E2E_FROM_INTENDED,
            Metric.TTFT, Metric.E2E, Metric.TTFB, Metric.TPOT);

    private final ObjectProperty<LoadMode> mode = new SimpleObjectProperty<>(LoadMode.OPEN);
    private final IntegerProperty concurrency = new SimpleIntegerProperty(8);
    private final StringProperty thinkTime = new SimpleStringProperty("0s");
    private final ObjectProperty<ArrivalProcess> arrival = new SimpleObjectProperty<>(ArrivalProcess.POISSON);
    private final DoubleProperty gammaShape = new SimpleDoubleProperty(0.5);
    private final ObjectProperty<Shape> shape = new SimpleObjectProperty<>(Shape.CONSTANT);
    private final DoubleProperty rate = new SimpleDoubleProperty(20);
    private final DoubleProperty rampFrom = new SimpleDoubleProperty(5);
    private final DoubleProperty rampTo = new SimpleDoubleProperty(50);
    private final StringProperty rampOver = new SimpleStringProperty("20s");
    private final DoubleProperty burstBase = new SimpleDoubleProperty(10);
    private final DoubleProperty burstPeak = new SimpleDoubleProperty(60);
    private final StringProperty burstAt = new SimpleStringProperty("10s");
    private final StringProperty burstFor = new SimpleStringProperty("10s");
    private final StringProperty duration = new SimpleStringProperty("30s");
    private final IntegerProperty maxRequests = new SimpleIntegerProperty(0);
    private final StringProperty warmup = new SimpleStringProperty("0s");
    private final IntegerProperty maxInFlight = new SimpleIntegerProperty(0);
    private final DoubleProperty maxRateRps = new SimpleDoubleProperty(0);
    private final ObjectProperty<CapPolicy> atCap = new SimpleObjectProperty<>(CapPolicy.QUEUE);
    private final StringProperty firstTokenDeadline = new SimpleStringProperty("");
    private final IntegerProperty contextTokens = new SimpleIntegerProperty(256);
    private final IntegerProperty maxOutputTokens = new SimpleIntegerProperty(16);
    private final BooleanProperty stream = new SimpleBooleanProperty(true);
    private final BooleanProperty cold = new SimpleBooleanProperty(false);
    private final StringProperty sloMetric = new SimpleStringProperty("ttft_from_intended");
    private final DoubleProperty sloMaxMs = new SimpleDoubleProperty(0);
    private final StringProperty tierMetric = new SimpleStringProperty("ttft_from_intended");

    /** @return open or closed loop */
    public ObjectProperty<LoadMode> modeProperty() {
        return mode;
    }

    /** @return closed loop: workers (requests in flight), &gt;= 1 */
    public IntegerProperty concurrencyProperty() {
        return concurrency;
    }

    /** @return closed loop: pause between a worker's requests, a duration text such as {@code 100ms} */
    public StringProperty thinkTimeProperty() {
        return thinkTime;
    }

    /** @return open loop: constant, Poisson or gamma arrivals */
    public ObjectProperty<ArrivalProcess> arrivalProperty() {
        return arrival;
    }

    /** @return gamma arrivals: shape k &gt; 0 (gaps' coefficient of variation = 1/√k; k &lt; 1 is burstier) */
    public DoubleProperty gammaShapeProperty() {
        return gammaShape;
    }

    /** @return open loop: constant rate, ramp or burst */
    public ObjectProperty<Shape> shapeProperty() {
        return shape;
    }

    /** @return constant shape: target rate, requests/s */
    public DoubleProperty rateProperty() {
        return rate;
    }

    /** @return ramp: start rate, requests/s */
    public DoubleProperty rampFromProperty() {
        return rampFrom;
    }

    /** @return ramp: end rate, requests/s (held after the ramp) */
    public DoubleProperty rampToProperty() {
        return rampTo;
    }

    /** @return ramp: its length, a duration text */
    public StringProperty rampOverProperty() {
        return rampOver;
    }

    /** @return burst: rate before and after, requests/s */
    public DoubleProperty burstBaseProperty() {
        return burstBase;
    }

    /** @return burst: rate during the burst, requests/s */
    public DoubleProperty burstPeakProperty() {
        return burstPeak;
    }

    /** @return burst: its start from the step's start, a duration text */
    public StringProperty burstAtProperty() {
        return burstAt;
    }

    /** @return burst: its length, a duration text */
    public StringProperty burstForProperty() {
        return burstFor;
    }

    /** @return how long the step schedules requests, a duration text; empty = bounded by the request cap only */
    public StringProperty durationProperty() {
        return duration;
    }

    /** @return requests the step sends at most; 0 = no cap (bounded by the duration) */
    public IntegerProperty maxRequestsProperty() {
        return maxRequests;
    }

    /** @return warmup at the step's start, excluded from statistics, a duration text */
    public StringProperty warmupProperty() {
        return warmup;
    }

    /** @return open loop: in-flight cap; 0 = none */
    public IntegerProperty maxInFlightProperty() {
        return maxInFlight;
    }

    /** @return cap on the send rate, requests/s; 0 = none */
    public DoubleProperty maxRateRpsProperty() {
        return maxRateRps;
    }

    /** @return open loop: queue or drop arrivals at a cap */
    public ObjectProperty<CapPolicy> atCapProperty() {
        return atCap;
    }

    /** @return hard first-token deadline from the intended start, a duration text; empty = none */
    public StringProperty firstTokenDeadlineProperty() {
        return firstTokenDeadline;
    }

    /** @return prompt length, tokens */
    public IntegerProperty contextTokensProperty() {
        return contextTokens;
    }

    /** @return max_tokens of each request */
    public IntegerProperty maxOutputTokensProperty() {
        return maxOutputTokens;
    }

    /** @return streaming requests */
    public BooleanProperty streamProperty() {
        return stream;
    }

    /** @return unique prompt prefix per request (costs client CPU at high rates) */
    public BooleanProperty coldProperty() {
        return cold;
    }

    /** @return goodput SLO: the per-request metric id */
    public StringProperty sloMetricProperty() {
        return sloMetric;
    }

    /** @return goodput SLO: threshold, ms; 0 = no SLO (goodput = successful requests) */
    public DoubleProperty sloMaxMsProperty() {
        return sloMaxMs;
    }

    /** @return metric id whose P95 decides the tier (per second and overall) */
    public StringProperty tierMetricProperty() {
        return tierMetric;
    }

    /**
     * @return the load step the form describes
     * @throws IllegalArgumentException when a field is invalid; the message names the form field
     */
    public LoadSpec spec() {
        LoadSpec.Builder b = LoadSpec.builder().mode(mode.get());
        if (mode.get() == LoadMode.CLOSED) {
            b.concurrency(concurrency.get()).thinkTime(duration("think time", thinkTime.get()));
        } else {
            b.arrival(arrival.get());
            if (arrival.get() == ArrivalProcess.GAMMA) {
                b.shape(gammaShape.get());
            }
            switch (shape.get()) {
                case CONSTANT -> b.rate(rate.get());
                case RAMP -> b.ramp(field("ramp", () -> new LoadSpec.Ramp(rampFrom.get(), rampTo.get(),
                        duration("ramp over", rampOver.get()))));
                case BURST -> b.burst(field("burst", () -> new LoadSpec.Burst(burstBase.get(), burstPeak.get(),
                        duration("burst at", burstAt.get()), duration("burst for", burstFor.get()))));
            }
            if (maxInFlight.get() > 0) {
                b.maxInFlight(maxInFlight.get());
            }
            b.atCap(atCap.get());
        }
        String d = duration.get() == null ? "" : duration.get().strip();
        if (!d.isEmpty()) {
            b.duration(duration("duration", d));
        }
        if (maxRequests.get() > 0) {
            b.requests((long) maxRequests.get());
        }
        b.warmup(duration("warmup", warmup.get()));
        if (maxRateRps.get() > 0) {
            b.maxRateRps(maxRateRps.get());
        }
        String ftd = firstTokenDeadline.get() == null ? "" : firstTokenDeadline.get().strip();
        if (!ftd.isEmpty()) {
            b.firstTokenDeadline(duration("first-token deadline", ftd));
        }
        b.contextTokens(contextTokens.get()).maxOutputTokens(maxOutputTokens.get()).stream(stream.get())
                .coldPrompts(cold.get()).tierMetric(tierMetric.get());
        if (sloMaxMs.get() > 0) {
            b.slos(List.of(field("goodput SLO", () -> org.latencylab.engine.stats.Slo.ofMillis(sloMetric.get(), null, sloMaxMs.get()))));
        }
        return field("load test", b::build);
    }

    /** @return a short run name, e.g. {@code load-open-20rps-30s} or {@code load-closed-8} */
    public String suggestedName() {
        if (mode.get() == LoadMode.CLOSED) {
            return "load-closed-" + concurrency.get();
        }
        String r = switch (shape.get()) {
            case CONSTANT -> trim(rate.get()) + "rps";
            case RAMP -> "ramp-" + trim(rampFrom.get()) + "-" + trim(rampTo.get()) + "rps";
            case BURST -> "burst-" + trim(burstBase.get()) + "-" + trim(burstPeak.get()) + "rps";
        };
        String d = duration.get() == null || duration.get().isBlank() ? "" : "-" + duration.get().strip();
        return "load-open-" + r + d;
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static Duration duration(String field, String text) {
        try {
            return DurationText.parse(text == null ? "" : text.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
        }
    }

    private static <T> T field(String field, java.util.function.Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            String m = e.getMessage() == null ? "invalid" : e.getMessage();
            throw new IllegalArgumentException(m.startsWith(field) || m.contains(": ") ? m : field + ": " + m, e);
        }
    }

    /** @return the fields that differ from the defaults, as text, for the settings file (defaults are not stored) */
    public Map<String, String> toMap() {
        Map<String, Property<?>> defaults = new LoadForm().properties();
        Map<String, String> m = new LinkedHashMap<>();
        properties().forEach((k, p) -> {
            String v = String.valueOf(p.getValue());
            if (!v.equals(String.valueOf(defaults.get(k).getValue()))) {
                m.put(k, v);
            }
        });
        return m;
    }

    /**
     * Fills the fields found in a map written by {@link #toMap()}; unknown keys and unreadable values are skipped
     * (the field keeps its value), so an old or edited settings file never stops the app.
     *
     * @param m field texts, or null
     */
    public void fromMap(Map<String, String> m) {
        if (m != null) {
            FormFields.fill(properties(), m);
        }
    }

    private Map<String, Property<?>> properties() {
        Map<String, Property<?>> p = new LinkedHashMap<>();
        p.put("mode", mode);
        p.put("concurrency", concurrency);
        p.put("thinkTime", thinkTime);
        p.put("arrival", arrival);
        p.put("gammaShape", gammaShape);
        p.put("shape", shape);
        p.put("rate", rate);
        p.put("rampFrom", rampFrom);
        p.put("rampTo", rampTo);
        p.put("rampOver", rampOver);
        p.put("burstBase", burstBase);
        p.put("burstPeak", burstPeak);
        p.put("burstAt", burstAt);
        p.put("burstFor", burstFor);
        p.put("duration", duration);
        p.put("maxRequests", maxRequests);
        p.put("warmup", warmup);
        p.put("maxInFlight", maxInFlight);
        p.put("maxRateRps", maxRateRps);
        p.put("atCap", atCap);
        p.put("firstTokenDeadline", firstTokenDeadline);
        p.put("contextTokens", contextTokens);
        p.put("maxOutputTokens", maxOutputTokens);
        p.put("stream", stream);
        p.put("cold", cold);
        p.put("sloMetric", sloMetric);
        p.put("sloMaxMs", sloMaxMs);
        p.put("tierMetric", tierMetric);
        return p;
    }
}
