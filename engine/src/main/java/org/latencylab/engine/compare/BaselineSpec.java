package org.latencylab.engine.compare;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.latencylab.engine.run.ExperimentSpec;

import java.util.List;

/**
 * {@code baseline}: the same light request sent direct and through a gateway (or any proxy), alternating, to
 * measure the gateway's fixed overhead. Scenario type {@code "baseline"}. Immutable and thread-safe.
 *
 * @param direct          the endpoint reached directly (see {@link TargetEntry})
 * @param gateway         the same service reached through the gateway, e.g. {@code {name: via-gateway, proxyOf:
 *                        direct, proxyDelay: 2ms}} or a real gateway URL
 * @param requests        request pairs, &gt;= 2 (default 200)
 * @param promptTokens    prompt tokens, &gt;= 1 (default 16: a light request, so the model adds little variance)
 * @param maxOutputTokens tokens to generate, &gt;= 1 (default 1)
 * @param stream          streaming (default true)
 * @param warmup          unrecorded requests per endpoint first, &gt;= 0 (default 2)
 * @throws IllegalArgumentException when a value is out of range; the message names the field
 */
public record BaselineSpec(@JsonProperty("direct") TargetEntry direct,
                           @JsonProperty("gateway") TargetEntry gateway,
                           @JsonProperty("requests") Integer requests,
                           @JsonProperty("promptTokens") Integer promptTokens,
                           @JsonProperty("maxOutputTokens") Integer maxOutputTokens,
                           @JsonProperty("stream") Boolean stream,
                           @JsonProperty("warmup") Integer warmup) implements ExperimentSpec {
    /** Scenario type name. */
    public static final String TYPE = "baseline";

    public BaselineSpec {
        if (direct == null || gateway == null) {
            throw new IllegalArgumentException("baseline needs both 'direct' and 'gateway' endpoints");
        }
        if (direct.isProxy()) {
            throw new IllegalArgumentException("direct: must be a simulator profile or a baseUrl, not a proxy");
        }
        Targets.validate(List.of(direct, gateway), "baseline endpoints", 2);
        requests = CompareEndpointsSpec.atLeast("requests", requests, 200, 2);
        promptTokens = CompareEndpointsSpec.atLeast("promptTokens", promptTokens, 16, 1);
        maxOutputTokens = CompareEndpointsSpec.atLeast("maxOutputTokens", maxOutputTokens, 1, 1);
        stream = stream == null || stream;
        warmup = CompareEndpointsSpec.atLeast("warmup", warmup, 2, 0);
    }

    @Override
    public List<String> ownEndpoints() {
        return List.of(direct.name(), gateway.name());
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public long plannedRequests() {
        return 2L * requests;
    }

    @Override
    public boolean streaming() {
        return stream;
    }
}
