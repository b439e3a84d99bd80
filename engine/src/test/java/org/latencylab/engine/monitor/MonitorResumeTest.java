package org.latencylab.engine.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.compare.Scenarios;
import org.latencylab.engine.experiment.RunHandle;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A monitor stopped half-way and started again resumes into the same run directory, the gap recorded. */
class MonitorResumeTest {
    private static final String SCENARIO = """
            format: 1
            name: mon
            endpoint: {builtin: sim, profile: zero-latency}
            experiments:
              - type: monitor
                endpoints:
                  - {name: a, profile: zero-latency}
                  - {name: b, profile: small-fast}
                interval: 400ms
                duration: 4s
                hourly: 1s
                daily: 2s
                promptTokens: 32
                maxOutputTokens: 2
                slos: [{metric: ttft, percentile: 95, maxMs: 2000}]
            """;

    @Test
    void aStoppedMonitorResumesWithTheGapRecordedAndTheIntervalsContinued(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        RunHandle first = StepCatalog.engine().start(Scenarios.parse(SCENARIO), dir, null);
        // stop it once a few probes have ended (about 1.5 s into the 4 s; a busy machine may take long to start)
        Path log = dir.resolve("requests.jsonl");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while ((!Files.exists(log) || Files.readAllLines(log).size() < 7) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        first.cancel();
        RunResult r1 = first.await(Duration.ofSeconds(30));
        assertThat(r1).isNotNull();
        JsonNode s1 = new ObjectMapper().readTree(dir.resolve("monitor.json").toFile());
        assertThat(s1.path("complete").asBoolean()).isFalse();
        double monitored1 = s1.path("monitored_s").asDouble();
        assertThat(monitored1).isBetween(1.0, 3.8);
        long sent1 = s1.path("endpoints").get(0).path("sent").asLong() + s1.path("endpoints").get(1).path("sent").asLong();
        assertThat(sent1).isPositive();

        Thread.sleep(700); // the "restart"
        RunResult r2 = Scenarios.run(SCENARIO, dir, Duration.ofSeconds(60));
        assertThat(r2.status()).isEqualTo(RunResult.Status.COMPLETED);
        assertThat(r2.notices()).anyMatch(n -> n.contains("resumed") && n.contains("gap"));
        MonitorRunner.MonitorResult m = (MonitorRunner.MonitorResult) r2.steps().get(0).result();
        assertThat(m.complete()).isTrue();
        assertThat(m.sessions()).hasSize(2);
        assertThat(m.gaps()).hasSize(1);
        assertThat(m.gaps().get(0).seconds()).isBetween(0.5, 10.0);
        assertThat(m.monitoredSeconds()).isBetween(3.9, 4.5);

        JsonNode s2 = new ObjectMapper().readTree(dir.resolve("monitor.json").toFile());
        long sent2 = 0;
        for (JsonNode e : s2.path("endpoints")) {
            sent2 += e.path("sent").asLong();
            assertThat(e.path("sla_attainment").asDouble()).isEqualTo(1.0);
            assertThat(e.path("ttft_ms").path("count").asLong()).isEqualTo(e.path("succeeded").asLong());
        }
        // 4 s at one probe per endpoint every 0.4 s: about 20 probes, counted over both sessions
        assertThat(sent2).isGreaterThan(sent1).isBetween(16L, 22L);
        assertThat(m.ranking().rows()).hasSize(2);
        assertThat(m.ranking().rows().stream().mapToLong(r -> r.sent()).sum()).isEqualTo(sent2);

        // the hourly log of endpoint a holds intervals of both sessions, each at most 1 s long
        Path hourly = dir.resolve("monitor-a.hourly.hlog");
        assertThat(Files.exists(hourly)).isTrue();
        long counted = 0;
        int intervals = 0;
        double firstStart = Double.MAX_VALUE;
        double lastEnd = 0;
        try (HistogramLogReader reader = new HistogramLogReader(hourly.toFile())) {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                if ("ttft".equals(h.getTag())) {
                    intervals++;
                    counted += ((org.HdrHistogram.Histogram) h).getTotalCount();
                    assertThat(h.getEndTimeStamp() - h.getStartTimeStamp()).isLessThanOrEqualTo(1000);
                    firstStart = Math.min(firstStart, h.getStartTimeStamp());
                    lastEnd = Math.max(lastEnd, h.getEndTimeStamp());
                }
            }
        }
        assertThat(intervals).isGreaterThanOrEqualTo(4);
        assertThat(counted).isEqualTo(s2.path("endpoints").get(0).path("ttft_ms").path("count").asLong());
        assertThat(lastEnd - firstStart).as("span of the intervals, ms").isGreaterThan(4000);
    }
}
