package org.latencylab.engine.load;


import org.junit.jupiter.api.Test;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.results.RunFiles;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadSpecTest {
    /** Reads one load step through the real scenario reader. */
    static LoadSpec read(String step) {
        String scenario = "format: 1\nname: t\nendpoint: {builtin: sim, profile: zero-latency}\nexperiments:\n  - type: load\n"
                + step.indent(4);
        RunSpec run = StepCatalog.loader().parse(
                new ByteArrayInputStream(scenario.getBytes(StandardCharsets.UTF_8)), "t.yaml");
        return (LoadSpec) run.experiments().get(0);
    }

    @Test
    void readsAnOpenLoopBurstWithDefaults() throws Exception {
        LoadSpec s = read("""
                burst: {base: 50, peak: 400, at: 20s, for: 30s}
                duration: 80s
                warmup: 5s
                maxInFlight: 256
                atCap: drop
                firstTokenDeadline: 120ms
                slos: [{metric: ttft_from_intended, maxMs: 300}]
                """);
        assertThat(s.mode()).isEqualTo(LoadMode.OPEN);
        assertThat(s.arrival()).isEqualTo(ArrivalProcess.POISSON);
        assertThat(s.burst().length()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.firstTokenDeadline()).isEqualTo(Duration.ofMillis(120));
        assertThat(s.atCap()).isEqualTo(CapPolicy.DROP);
        assertThat(s.contextTokens()).isEqualTo(128);
        assertThat(s.slos()).containsExactly(org.latencylab.engine.stats.Slo.ofMillis("ttft_from_intended", null, 300.0));
        RateProfile p = s.rateProfile();
        assertThat(p.rateAt(10_000_000_000L)).isEqualTo(50);
        assertThat(p.rateAt(30_000_000_000L)).isEqualTo(400);
        assertThat(p.rateAt(70_000_000_000L)).isEqualTo(50);
        assertThat(s.plannedRequests()).isEqualTo(-1);
    }

    @Test
    void writesAndReadsBackTheSameSpec() throws Exception {
        LoadSpec s = read("""
                mode: closed
                concurrency: 8
                thinkTime: 250ms
                requests: 100
                autoStop: {maxErrorRate: 0.5, window: 5s, saturation: true}
                """);
        String json = RunFiles.mapper().writeValueAsString(s);
        assertThat(json).containsPattern("\"thinkTime\"\\s*:\\s*\"250ms\"");
        LoadSpec back = StepCatalog.loader().mapper().readValue(json, LoadSpec.class);
        assertThat(back).isEqualTo(s);
    }

    @Test
    void rejectsUnknownFieldsAndContradictions() {
        assertThatThrownBy(() -> read("rate: 10\nduration: 5s\nconcurency: 3\n"))
                .hasMessageContaining("concurency");
        assertThatThrownBy(() -> read("rate: 10\nconcurrency: 3\nduration: 5s\n"))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> read("rate: 10\n")).hasMessageContaining("duration");
        assertThatThrownBy(() -> read("rate: 10\nduration: 10 minutes\n")).hasMessageContaining("duration");
        assertThatThrownBy(() -> read("rate: 10\nduration: 5s\ntierMetric: itl\n")).hasMessageContaining("per request");
        assertThatThrownBy(() -> read("rate: 10\nduration: 5s\narrival: gamma\n")).hasMessageContaining("shape");
        assertThatThrownBy(() -> read("concurrency: 0\nrequests: 3\n")).hasMessageContaining("concurrency >= 1, was 0");
        assertThatThrownBy(() -> read("rate: 10\nduration: 5s\nwarmup: 3s\ncooldown: 2s\n"))
                .hasMessageContaining("shorter than duration");
        assertThatThrownBy(() -> read("concurrency: 2\nrequests: 3\nmaxInFlight: 4\n"))
                .hasMessageContaining("maxInFlight");
    }
}
