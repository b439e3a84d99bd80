package org.latencylab.engine.monitor;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * The live ranking a monitor step keeps in its state file ({@code LABEL.json}, see
 * {@link org.latencylab.engine.results.RunLayout#monitorState}), read typed for a window that shows it while the
 * step runs. Immutable and thread-safe.
 *
 * @param endpoints the endpoints, best first ({@link Endpoint#rank()} ascending)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LiveRanking(@JsonProperty("endpoints") List<Endpoint> endpoints) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Sorts by rank and copies; no endpoints reads as an empty list. */
    public LiveRanking {
        endpoints = endpoints == null ? List.of()
                : endpoints.stream().sorted(Comparator.comparingInt(Endpoint::rank)).toList();
    }

    /**
     * Reads a state file.
     *
     * @param file the monitor step's state file
     * @return its ranking, or null when the file is not there (yet)
     * @throws IllegalArgumentException when it is not a state file (the message names it)
     * @throws UncheckedIOException     when it cannot be read
     */
    public static LiveRanking read(Path file) {
        if (!Files.exists(file)) {
            return null;
        }
        try {
            return JSON.readValue(file.toFile(), LiveRanking.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(file + ": not a monitor state file: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * One endpoint's line.
     *
     * @param rank          1 for the best
     * @param name          endpoint name
     * @param succeeded     requests that succeeded
     * @param ttftMs        TTFT percentiles, ms
     * @param e2eMs         E2E percentiles, ms
     * @param tier          tier of the ranked metric's P95, or null before any request succeeded
     * @param slaAttainment share of judged requests that met the SLA, 0 to 1; NaN when none was judged
     * @param errorRate     failed ÷ finished, 0 to 1; NaN when none finished
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Endpoint(@JsonProperty("rank") int rank, @JsonProperty("name") String name,
                           @JsonProperty("succeeded") long succeeded, @JsonProperty("ttft_ms") Percentiles ttftMs,
                           @JsonProperty("e2e_ms") Percentiles e2eMs, @JsonProperty("tier") String tier,
                           @JsonProperty("sla_attainment") Double slaAttainment,
                           @JsonProperty("error_rate") Double errorRate) {
        /** Absent figures become NaN, absent percentiles empty. */
        public Endpoint {
            ttftMs = ttftMs == null ? new Percentiles(0, null, null, null) : ttftMs;
            e2eMs = e2eMs == null ? new Percentiles(0, null, null, null) : e2eMs;
            slaAttainment = slaAttainment == null ? Double.NaN : slaAttainment;
            errorRate = errorRate == null ? Double.NaN : errorRate;
        }
    }

    /**
     * Percentiles of one metric, ms; NaN before any value.
     *
     * @param count values
     * @param p50   P50, ms
     * @param p95   P95, ms
     * @param p99   P99, ms
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Percentiles(@JsonProperty("count") long count, @JsonProperty("p50") Double p50,
                              @JsonProperty("p95") Double p95, @JsonProperty("p99") Double p99) {
        /** Absent figures become NaN. */
        public Percentiles {
            p50 = p50 == null ? Double.NaN : p50;
            p95 = p95 == null ? Double.NaN : p95;
            p99 = p99 == null ? Double.NaN : p99;
        }
    }
}
