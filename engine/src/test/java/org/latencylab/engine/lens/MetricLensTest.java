package org.latencylab.engine.lens;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.compare.Scenarios;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.results.RequestLog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The simulator sends a role-only chat chunk as soon as a request is admitted and the first token after the
 * prefill: vLLM's benchmark stops its TTFT clock at that role-only chunk, LatencyLab at the first token.
 */
class MetricLensTest {
    @Test
    void aRoleOnlyFirstChunkMakesVllmTtftEarlierByThatChunksGap(@TempDir Path dir) throws Exception {
        RunResult r = Scenarios.run("""
                format: 1
                name: lens
                endpoint: {builtin: sim, profile: llama-8b-class}
                experiments:
                  - {type: probe, requests: 12, concurrency: 2, promptTokens: 1024, maxOutputTokens: 6, warmup: 2}
                """, dir.resolve("run"), Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        // read back from requests.jsonl: the role-only chunk's time survives the file
        List<RequestRecord> records = RequestLog.read(dir.resolve("run/requests.jsonl"));
        assertThat(records).hasSize(12).allMatch(RequestRecord::succeeded);
        int longGaps = 0;
        for (RequestRecord x : records) {
            assertThat(x.firstChunkNanos()).isNotEqualTo(RequestRecord.UNSET);
            long gap = x.firstTokenNanos() - x.firstChunkNanos();
            assertThat(gap).isGreaterThanOrEqualTo(0);
            // the prefill of 1024 tokens in llama-8b-class takes about 0.24 s and the role chunk comes before it
            // (unless the simulator itself was late to start the request, which a busy machine can cause)
            if (gap > 100_000_000L) {
                longGaps++;
            }
            assertThat(MetricDefinition.LATENCYLAB.ttftNanos(x) - MetricDefinition.VLLM_BENCH.ttftNanos(x))
                    .isEqualTo(gap);
            // vLLM also counts that gap as one ITL value; GuideLLM and AIPerf start at the first token like LatencyLab
            assertThat(MetricDefinition.VLLM_BENCH.itlNanos(x)[0]).isEqualTo(gap);
            assertThat(MetricDefinition.VLLM_BENCH.itlNanos(x)).hasSize(MetricDefinition.LATENCYLAB.itlNanos(x).length + 1);
            assertThat(MetricDefinition.AIPERF.ttftNanos(x)).isEqualTo(x.ttftNanos());
            assertThat(MetricDefinition.GUIDELLM.ttftNanos(x)).isEqualTo(x.ttftNanos());
            // GuideLLM's TPOT includes TTFT: it is larger than LatencyLab's decode-only TPOT
            assertThat(MetricDefinition.GUIDELLM.tpotNanos(x)).isGreaterThan(x.tpotNanos());
        }
        assertThat(longGaps).as("requests whose role chunk came > 100 ms before the first token").isGreaterThanOrEqualTo(9);
        Map<MetricDefinition, MetricLens.View> views = MetricLens.apply(records);
        assertThat(views.get(MetricDefinition.VLLM_BENCH).ttft().pMillis(50))
                .isLessThan(views.get(MetricDefinition.LATENCYLAB).ttft().pMillis(50) - 100);
        assertThat(views.get(MetricDefinition.GUIDELLM).itl().count()).isEqualTo(12); // one mean per request
        assertThat(MetricLens.requestsWithEarlyChunk(records)).isGreaterThanOrEqualTo(longGaps);
    }

    @Test
    void warmUpRequestsOfALoadStepStayOutOfTheLensAsOutOfTheRunsStatistics(@TempDir Path dir) throws Exception {
        RunResult r = Scenarios.run("""
                format: 1
                name: lens-load
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: load, rate: 20, duration: 3s, warmup: 1s, contextTokens: 64, maxOutputTokens: 4}
                """, dir.resolve("run"), Duration.ofSeconds(60));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        List<RequestRecord> records = RequestLog.read(dir.resolve("run/requests.jsonl"));
        long warmUp = records.stream().filter(x -> !x.measured()).count();
        assertThat(warmUp).as("the load step records its warm-up requests with their phase").isPositive();
        Map<MetricDefinition, MetricLens.View> views = MetricLens.apply(records);
        // LatencyLab's row of the lens is the run's own summary: same requests, same P50
        assertThat(views.get(MetricDefinition.LATENCYLAB).ttft().count())
                .isEqualTo(r.overall().summary("ttft").orElseThrow().count())
                .isEqualTo(records.stream().filter(x -> x.measured() && x.succeeded()).count());
        assertThat(views.get(MetricDefinition.LATENCYLAB).ttft().pMillis(50))
                .isEqualTo(r.overall().summary("ttft").orElseThrow().pMillis(50));
    }
}
