package org.latencylab.engine.stats;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A latency service-level objective: "{@code percentile} % of requests have {@code metric} ≤ {@code threshold}".
 * The one SLO type of LatencyLab: run-level {@code slos}, a load step's goodput {@code slos}, compare-endpoints and
 * monitor steps all read it.
 *
 * <p>Compliance rate = requests that succeeded with the metric ≤ threshold, divided by the requests judged. Failed
 * requests are judged and count as misses (an error is never a fast response). Cancelled requests are not judged (the
 * run was stopped, the server was not at fault), nor are successful requests whose metric is undefined (e.g. TPOT of a
 * one-token answer). The SLO passes when compliance ≥ percentile / 100. Immutable and thread-safe.
 *
 * <p>In scenario files and {@code run.json} an SLO is written {@code {metric: ttft, percentile: 95, maxMs: 500}}
 * ({@code maxMs} in milliseconds). {@code percentile} may be left out, meaning 100 (every request): a load step's
 * goodput thresholds are written that way ({@code {metric: ttft_from_intended, maxMs: 300}}), since goodput counts
 * each request that met every threshold, after the DistServe paper (Zhong et al., OSDI 2024).
 *
 * @param metric         a per-request metric id (see {@link Metric}), e.g. {@code "ttft"}
 * @param percentile     target share of requests in percent, in (0, 100], e.g. {@code 95.0}
 * @param thresholdNanos inclusive latency threshold, nanoseconds, &gt; 0
 */
@JsonPropertyOrder({"metric", "percentile", "maxMs"})
public record Slo(String metric, double percentile, @JsonIgnore long thresholdNanos) {

    /** @throws IllegalArgumentException when the metric is unknown or per event gap, or a number is out of range */
    public Slo {
        Metric m = Metric.requirePerRequest("SLO metric", metric);
        metric = m.id();
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("SLO percentile must be in (0, 100], was " + percentile);
        }
        if (thresholdNanos <= 0) {
            throw new IllegalArgumentException("SLO threshold must be > 0 ns, was " + thresholdNanos);
        }
    }

    /**
     * The SLO as written in scenario files and {@code run.json}.
     *
     * @param metric     per-request metric id, e.g. {@code ttft}
     * @param percentile percent in (0, 100]; null for 100 (every request)
     * @param maxMs      inclusive threshold in milliseconds, &gt; 0
     * @return the SLO
     * @throws IllegalArgumentException when a field is missing or out of range; the message names the field
     */
    @JsonCreator
    public static Slo ofMillis(@JsonProperty("metric") String metric, @JsonProperty("percentile") Double percentile,
                               @JsonProperty("maxMs") Double maxMs) {
        if (maxMs == null || !(maxMs > 0) || Double.isInfinite(maxMs)) {
            throw new IllegalArgumentException("SLO maxMs must be a number of milliseconds > 0, was " + maxMs);
        }
        return new Slo(metric, percentile == null ? 100.0 : percentile, Nanos.fromMillis(maxMs));
    }

    /** @return the threshold in milliseconds (the {@code maxMs} field of files) */
    @JsonProperty("maxMs")
    public double maxMs() {
        return Nanos.toMillis(thresholdNanos);
    }

    /**
     * @param metric     metric id
     * @param percentile percent in (0, 100]
     * @param threshold  positive threshold
     * @return the SLO
     * @throws IllegalArgumentException as the constructor
     */
    public static Slo of(String metric, double percentile, Duration threshold) {
        return new Slo(metric, percentile, threshold.toNanos());
    }

    /** @return the metric as an enum */
    @JsonIgnore
    public Metric metricKind() {
        return Metric.fromId(metric);
    }

    /**
     * Whether one request meets this SLO: succeeded and metric ≤ threshold. A successful request whose metric is
     * undefined meets it (nothing was violated).
     *
     * @param r a request
     * @return true when it meets the objective
     */
    public boolean meets(RequestRecord r) {
        if (!r.succeeded()) {
            return false;
        }
        long v = metricKind().valueNanos(r);
        return v < 0 || v <= thresholdNanos;
    }

    /**
     * @param records the run's requests, any outcome
     * @return the compliance result
     */
    public SloResult evaluate(List<RequestRecord> records) {
        Tally t = new Tally(this);
        records.forEach(t::add);
        return t.result();
    }

    /**
     * Counts an SLO's judged and met requests one request at a time (the one place that decides which requests an
     * SLO judges). Not thread-safe: the owner synchronizes.
     */
    public static final class Tally {
        private final Slo slo;
        private final Metric metric;
        private long judged;
        private long met;

        /** @param slo the objective to tally */
        public Tally(Slo slo) {
            this.slo = slo;
            this.metric = slo.metricKind();
        }

        /** @param r a request, any outcome (cancelled ones and undefined values are not judged) */
        public void add(RequestRecord r) {
            if (r.outcome() == Outcome.CANCELLED) {
                return;
            }
            if (r.succeeded()) {
                long v = metric.valueNanos(r);
                if (v < 0) {
                    return;
                }
                judged++;
                if (v <= slo.thresholdNanos()) {
                    met++;
                }
            } else {
                judged++;
            }
        }

        /** @return the compliance result of the requests added so far */
        public SloResult result() {
            double rate = judged == 0 ? Double.NaN : (double) met / judged;
            boolean pass = judged > 0 && rate >= slo.percentile() / 100.0 - 1e-12;
            return new SloResult(slo, judged, met, rate, pass);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "P%s %s <= %.3f ms", PercentileEstimate.label(percentile), metric,
                Nanos.toMillis(thresholdNanos));
    }
}
