package org.latencylab.engine.compare;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.stats.Slo;

import java.time.Duration;
import java.util.List;

/**
 * {@code compare-endpoints}: the same workload sent to every endpoint of a list, interleaved round-robin, then a
 * ranking by P95. Scenario type {@code "compare-endpoints"}. Immutable and thread-safe.
 *
 * @param endpoints       the endpoints, at least 2 (see {@link TargetEntry})
 * @param requests        requests per endpoint, &gt;= 2 (default 100)
 * @param concurrency     requests in flight over all endpoints, &gt;= 1 (default 1)
 * @param promptTokens    prompt length in tokens, &gt;= 1 (default 256)
 * @param maxOutputTokens tokens to generate, &gt;= 1 (default 64)
 * @param stream          streaming (default true; ranking on TTFT needs it)
 * @param cold            unique prompt prefix per request (default true)
 * @param warmup          unrecorded requests per endpoint first, &gt;= 0 (default 1)
 * @param rankBy          {@code ttft} (default) or {@code e2e}: whose P95 orders the ranking
 * @param slos            SLOs for the attainment column ({@code [{metric, percentile, maxMs}]}); may be empty
 * @throws IllegalArgumentException when a value is out of range; the message names the field
 */
public record CompareEndpointsSpec(@JsonProperty("endpoints") List<TargetEntry> endpoints,
                                   @JsonProperty("requests") Integer requests,
                                   @JsonProperty("concurrency") Integer concurrency,
                                   @JsonProperty("promptTokens") Integer promptTokens,
                                   @JsonProperty("maxOutputTokens") Integer maxOutputTokens,
                                   @JsonProperty("stream") Boolean stream,
                                   @JsonProperty("cold") Boolean cold,
                                   @JsonProperty("warmup") Integer warmup,
                                   @JsonProperty("rankBy") String rankBy,
                                   @JsonProperty("slos") List<Slo> slos) implements ExperimentSpec {
    /** Scenario type name. */
    public static final String TYPE = "compare-endpoints";

    public CompareEndpointsSpec {
        Targets.validate(endpoints, "endpoints", 2);
        endpoints = List.copyOf(endpoints);
        requests = atLeast("requests", requests, 100, 2);
        concurrency = atLeast("concurrency", concurrency, 1, 1);
        promptTokens = atLeast("promptTokens", promptTokens, 256, 1);
        maxOutputTokens = atLeast("maxOutputTokens", maxOutputTokens, 64, 1);
        stream = stream == null || stream;
        cold = cold == null || cold;
        warmup = atLeast("warmup", warmup, 1, 0);
        rankBy = rankBy == null || rankBy.isBlank() ? "ttft" : rankBy.strip().toLowerCase(java.util.Locale.ROOT);
        if (!rankBy.equals("ttft") && !rankBy.equals("e2e")) {
            throw new IllegalArgumentException("rankBy must be ttft or e2e, was '" + rankBy + "'");
        }
        if (rankBy.equals("ttft") && !stream) {
            throw new IllegalArgumentException("rankBy: ttft needs stream: true (non-streaming requests have no TTFT);"
                    + " use rankBy: e2e");
        }
        slos = slos == null ? List.of() : List.copyOf(slos);
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
        return (long) requests * endpoints.size();
    }

    @Override
    public boolean streaming() {
        return stream;
    }

    /** @return the SLOs as statistics objects */
    public List<Slo> sloList() {
        return slos;
    }

    static Integer atLeast(String field, Integer value, int dflt, int min) {
        int v = value == null ? dflt : value;
        if (v < min) {
            throw new IllegalArgumentException(field + " must be >= " + min + ", was " + v);
        }
        return v;
    }
}
