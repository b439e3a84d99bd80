package org.latencylab.engine.compare;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.results.RequestLog;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** compare-endpoints over real loopback HTTP against two simulator profiles of clearly different speed. */
class CompareEndpointsTest {
    private static final String SCENARIO = """
            format: 1
            name: rank-two
            endpoint: {builtin: sim, profile: zero-latency}
            experiments:
              - type: compare-endpoints
                endpoints:
                  - {name: slow, profile: llama-8b-class}
                  - {name: fast, profile: small-fast}
                requests: 24
                promptTokens: 2048
                maxOutputTokens: 4
                slos: [{metric: ttft, percentile: 95, maxMs: 280}]
            """;

    @Test
    void theFasterProfileRanksFirstSignificantlyAndRequestsAlternate(@TempDir Path dir) throws Exception {
        RunResult r = Scenarios.run(SCENARIO, dir.resolve("run"), Duration.ofSeconds(120));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        CompareEndpointsRunner.CompareResult c = (CompareEndpointsRunner.CompareResult) r.steps().get(0).result();
        EndpointRanking.Ranking ranking = c.ranking();
        assertThat(ranking.rows()).extracting(EndpointRanking.Row::endpoint).containsExactly("fast", "slow");
        assertThat(ranking.rows()).extracting(EndpointRanking.Row::succeeded).containsExactly(24L, 24L);
        EndpointRanking.Row fast = ranking.rows().get(0);
        EndpointRanking.Row slow = ranking.rows().get(1);
        assertThat(fast.ttftP95().valueNanos()).isLessThan(slow.ttftP95().valueNanos());
        assertThat(fast.ttftP95().lowerNanos()).isLessThanOrEqualTo(fast.ttftP95().valueNanos());
        // prefill of 2048 tokens: llama-8b-class about 380 ms, small-fast about 180 ms; the 280 ms SLO splits them
        assertThat(fast.sloAttainment()).isGreaterThan(0.8);
        assertThat(slow.sloAttainment()).isLessThan(0.1);
        assertThat(ranking.neighbours()).hasSize(1);
        EndpointRanking.NeighbourTest t = ranking.neighbours().get(0);
        assertThat(t.significant()).isTrue();
        assertThat(t.difference().lowerNanos()).isPositive();
        assertThat(t.mannWhitneyP()).isLessThan(0.001);
        // interleaved round-robin: in send order, no endpoint gets two requests in a row more than at a round change
        List<RequestRecord> log = RequestLog.read(dir.resolve("run/requests.jsonl"));
        List<String> order = log.stream().sorted(Comparator.comparingLong(RequestRecord::sendNanos))
                .map(RequestRecord::label).toList();
        assertThat(order).hasSize(48);
        for (int i = 0; i + 1 < order.size(); i += 2) {
            assertThat(order.subList(i, i + 2)).as("round %d", i / 2)
                    .containsExactlyInAnyOrder("compare-endpoints/fast", "compare-endpoints/slow");
        }
        // run.json: the ranking and one summary per endpoint
        JsonNode run = new ObjectMapper().readTree(dir.resolve("run/run.json").toFile());
        JsonNode step = run.path("steps").get(0);
        assertThat(step.path("result").path("ranking").path("rows").get(0).path("endpoint").asText()).isEqualTo("fast");
        assertThat(step.path("parts").has("compare-endpoints/fast")).isTrue();
        assertThat(step.path("parts").has("compare-endpoints/slow")).isTrue();
        // no step used the run's endpoint (the zero-latency simulator): the run names the endpoints it measured
        assertThat(r.endpointDescription()).isEqualTo("endpoints slow, fast");
        assertThat(run.path("endpoint").asText()).isEqualTo("endpoints slow, fast");
        assertThat(r.spec().experiments().get(0).stepSlos()).hasSize(1);
    }

    @Test
    void scenarioErrorsNameTheField() {
        assertThatThrownBy(() -> Scenarios.parse(SCENARIO.replace("requests: 24", "requests: 1")))
                .hasMessageContaining("experiments[0]").hasMessageContaining("requests must be >= 2");
        assertThatThrownBy(() -> Scenarios.parse(SCENARIO.replace("{name: fast, profile: small-fast}",
                "{name: slow, profile: small-fast}"))).hasMessageContaining("'slow' is used twice");
        assertThatThrownBy(() -> Scenarios.parse(SCENARIO.replace("{name: fast, profile: small-fast}",
                "{name: fast}"))).hasMessageContaining("endpoint 'fast': give exactly one of profile");
    }
}
