package org.latencylab.engine.monitor;

import org.latencylab.engine.api.InvalidFieldException;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.compare.TargetEntry;
import org.latencylab.engine.compare.Targets;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.stats.Slo;

import java.time.Duration;
import java.util.List;

/**
 * {@code monitor}: probes N endpoints at a low rate for a long time. Every {@code interval} each endpoint gets one
 * request; the N requests of an interval are spread evenly across it, round-robin, each sent on its own schedule
 * (open loop: a slow endpoint does not delay the others). Scenario type {@code "monitor"}. Immutable and
 * thread-safe.
 *
 * @param endpoints       endpoints to watch, at least 1 (see {@link TargetEntry})
 * @param interval        time between two probes of one endpoint, &gt;= 100 ms (default 60 s)
 * @param duration        total monitoring time over every session of the run, &gt; 0 (default 72 h); a resumed run
 *                        continues until this much time has been monitored
 * @param promptTokens    prompt tokens, &gt;= 1 (default 64)
 * @param maxOutputTokens tokens to generate, &gt;= 1 (default 16)
 * @param stream          streaming (default true)
 * @param slos            the SLA judged per endpoint (attainment = requests meeting every SLO / requests judged)
 * @param hourly          length of the short histogram intervals (default 1 h), &gt;= 1 s
 * @param daily           length of the long histogram intervals (default 24 h), &gt;= hourly
 * @param rankBy          {@code ttft} (default) or {@code e2e}
 * @throws IllegalArgumentException when a value is out of range; the message names the field
 */
public record MonitorSpec(@JsonProperty("endpoints") List<TargetEntry> endpoints,
                          @JsonProperty("interval") Duration interval,
                          @JsonProperty("duration") Duration duration,
                          @JsonProperty("promptTokens") Integer promptTokens,
                          @JsonProperty("maxOutputTokens") Integer maxOutputTokens,
                          @JsonProperty("stream") Boolean stream,
                          @JsonProperty("slos") List<Slo> slos,
                          @JsonProperty("hourly") Duration hourly,
                          @JsonProperty("daily") Duration daily,
                          @JsonProperty("rankBy") String rankBy) implements ExperimentSpec {
    /** Scenario type name. */
    public static final String TYPE = "monitor";

    public MonitorSpec {
        Targets.validate(endpoints, "endpoints", 1);
        endpoints = List.copyOf(endpoints);
        interval = interval == null ? Duration.ofSeconds(60) : interval;
        if (interval.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("interval must be >= 100ms, was " + interval);
        }
        duration = duration == null ? Duration.ofHours(72) : duration;
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be > 0, was " + duration);
        }
        promptTokens = atLeast("promptTokens", promptTokens, 64);
        maxOutputTokens = atLeast("maxOutputTokens", maxOutputTokens, 16);
        stream = stream == null || stream;
        slos = slos == null ? List.of() : List.copyOf(slos);
        hourly = hourly == null ? Duration.ofHours(1) : hourly;
        daily = daily == null ? Duration.ofHours(24) : daily;
        if (hourly.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("hourly must be >= 1s, was " + hourly);
        }
        if (daily.compareTo(hourly) < 0) {
            throw new IllegalArgumentException("daily (" + daily + ") must be >= hourly (" + hourly + ")");
        }
        rankBy = rankBy == null || rankBy.isBlank() ? "ttft" : rankBy.strip().toLowerCase(java.util.Locale.ROOT);
        if (!rankBy.equals("ttft") && !rankBy.equals("e2e")) {
            throw new IllegalArgumentException("rankBy must be ttft or e2e, was '" + rankBy + "'");
        }
    }

    @Override
    public List<String> ownEndpoints() {
        return endpoints.stream().map(TargetEntry::name).toList();
    }

    @Override
    public List<Slo> stepSlos() {
        return slos;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public long plannedRequests() {
        return -1; // bounded by time
    }

    @Override
    public boolean streaming() {
        return stream;
    }

    /** @return the SLA as statistics objects */
    public List<Slo> sloList() {
        return slos;
    }

    private static Integer atLeast(String field, Integer v, int dflt) {
        int x = v == null ? dflt : v;
        if (x < 1) {
            throw new InvalidFieldException(field, field + " must be >= 1, was " + x);
        }
        return x;
    }

    /** A monitor resumes into its run directory after a restart. @return true */
    @Override
    public boolean resumesInPlace() {
        return true;
    }
}
