package org.latencylab.engine.experiment;

import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code run.json environment.clock_origin_nanotime} turns the relative times of {@code requests.jsonl} back into
 * absolute {@code System.nanoTime()} values that join with another clock's stamps: here the stamping simulator's
 * own send times ({@code x_sent_ns}) as they came over the wire, seen by a run listener before any file was written.
 */
class ClockOriginJoinTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void requestLogTimesJoinedThroughTheClockOriginMatchTheSimulatorsStamps(@TempDir Path tmp) throws Exception {
        RunSpec spec = new RunSpec("clock-origin", new TargetSpec(null, "small-fast", true), ClientOptions.DEFAULTS,
                null, List.of(new ProbeSpec(24, 4, 64, 6, true, true, 4)), null, null, 5);
        Map<Long, RequestRecord> wire = new ConcurrentHashMap<>(); // absolute stamps, straight from the client
        Instant before = Instant.now();
        RunResult r = StepCatalog.engine().start(spec, tmp.resolve("run"), s -> s.newRecords()
                .forEach(x -> wire.put(x.id(), x))).await(Duration.ofSeconds(60));
        Instant after = Instant.now();
        assertThat(r).isNotNull();
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);

        JsonNode env = JSON.readTree(tmp.resolve("run/run.json").toFile()).path("environment");
        assertThat(env.path("clock_origin_nanotime").isIntegralNumber()).isTrue();
        long origin = env.path("clock_origin_nanotime").asLong();
        double epochMs = env.path("clock_origin_epoch_ms").asDouble();
        assertThat(epochMs).isBetween(before.toEpochMilli() - 1.0, after.toEpochMilli() + 1.0);
        assertThat(env.path("clock_origin_uncertainty_ms").asDouble()).isBetween(0.0, 50.0);

        List<RequestRecord> logged = RequestLog.read(tmp.resolve("run/requests.jsonl"));
        assertThat(logged).hasSize(24);
        List<Long> errors = new ArrayList<>();
        for (RequestRecord rel : logged) {
            RequestRecord abs = wire.get(rel.id());
            assertThat(abs).as("request %d seen by the listener", rel.id()).isNotNull();
            // the origin restores the exact absolute send and end stamps
            assertThat(origin + rel.sendNanos()).isEqualTo(abs.sendNanos());
            assertThat(origin + rel.endNanos()).isEqualTo(abs.endNanos());
            TokenTimeline t = rel.tokens();
            assertThat(t.size()).isPositive();
            for (int i = 0; i < t.size(); i++) {
                long serverStamp = abs.tokens().serverStampNanos(i);
                assertThat(serverStamp).as("event stamped by the simulator").isNotEqualTo(RequestRecord.UNSET);
                errors.add(origin + t.arrivalNanos(i) - serverStamp);
            }
        }
        Collections.sort(errors);
        assertThat(errors.get(0)).as("no event is received before the server sent it").isGreaterThanOrEqualTo(0L);
        long p99 = errors.get((int) Math.min(errors.size() - 1, Math.ceil(errors.size() * 0.99) - 1));
        assertThat(p99).as("P99 of receive - server stamp, ns; min %d, P50 %d, max %d of %d events", errors.get(0),
                errors.get(errors.size() / 2), errors.get(errors.size() - 1), errors.size()).isLessThan(50_000_000L);
    }
}
