package org.latencylab.engine.experiment;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A closed loop's first wave against a plain-HTTP endpoint (the built-in simulator on loopback, read ahead): its
 * workers send in turns ({@code RequestThreads.awaitFirstSend}), at most as many at once as there are work permits
 * (the cores but one), so that the first wave does not crowd the server out of the CPUs.
 */
class FirstWavePacingTest {

    @Test
    void firstSendsOfA64WayProbeOverlapAtMostAsManyAsThereArePermits(@TempDir Path tmp) throws Exception {
        RunSpec spec = new RunSpec("pacing", new TargetSpec(null, "small-fast", true), ClientOptions.DEFAULTS,
                null, List.of(new ProbeSpec(64, 64, 64, 4, true, false, 0)), null, null, 5);
        RunResult r = StepCatalog.engine().start(spec, tmp.resolve("run"), s -> { }).await(Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);

        List<RequestRecord> records = RequestLog.read(tmp.resolve("run/requests.jsonl"));
        assertThat(records).hasSize(64).allMatch(RequestRecord::succeeded);
        // each worker's first send, from its turn's start (the intended start) to the start of its request's last
        // write: a permit is held over all of it; without turns, 64 workers released together overlap there
        List<long[]> events = new ArrayList<>();
        for (RequestRecord x : records) {
            assertThat(x.requestSentNanos()).isGreaterThanOrEqualTo(x.intendedStartNanos());
            events.add(new long[] {x.intendedStartNanos(), +1});
            events.add(new long[] {x.requestSentNanos(), -1});
        }
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1])); // ends first
        int depth = 0;
        int deepest = 0;
        for (long[] e : events) {
            depth += (int) e[1];
            deepest = Math.max(deepest, depth);
        }
        int permits = Integer.getInteger("latencylab.workPermits",
                Math.max(1, Runtime.getRuntime().availableProcessors() - 1));
        assertThat(deepest).as("first sends in progress at once").isBetween(1, permits);
    }
}
