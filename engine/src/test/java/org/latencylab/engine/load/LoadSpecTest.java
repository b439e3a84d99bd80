package org.latencylab.engine.load;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadSpecTest {
    static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    static LoadSpec read(String yaml) throws Exception {
        return YAML.readValue(yaml, LoadSpec.class);
    }

    @Test
    void readsAnOpenLoopBurstWithDefaults() throws Exception {
        LoadSpec s = read("""
                type: load
                burst: {base: 50, peak: 400, at: 20s, for: 30s}
                duration: 80s
                warmup: 5s
                maxInFlight: 256
                atCap: drop
                firstTokenDeadline: 120ms
                slos: [{metric: ttft, maxMs: 300}]
                """);
        assertThat(s.mode()).isEqualTo(LoadMode.OPEN);
        assertThat(s.arrival()).isEqualTo(ArrivalProcess.POISSON);
        assertThat(s.burst().length()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.firstTokenDeadline()).isEqualTo(Duration.ofMillis(120));
        assertThat(s.atCap()).isEqualTo(CapPolicy.DROP);
        assertThat(s.contextTokens()).isEqualTo(128);
        assertThat(s.slos()).containsExactly(new LoadSpec.GoodputSlo(LoadMetric.TTFT, 300));
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
        String json = new ObjectMapper().writeValueAsString(s);
        assertThat(json).contains("\"type\":\"load\"").contains("\"thinkTime\":\"250ms\"");
        LoadSpec back = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .readValue(json, LoadSpec.class);
        assertThat(back).isEqualTo(s);
    }

    @Test
    void rejectsUnknownFieldsAndContradictions() {
        assertThatThrownBy(() -> read("rate: 10\nduration: 5s\nconcurency: 3\n"))
                .isInstanceOf(UnrecognizedPropertyException.class).hasMessageContaining("concurency");
        assertThatThrownBy(() -> read("rate: 10\nconcurrency: 3\nduration: 5s\n"))
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> read("rate: 10\n")).hasMessageContaining("duration");
        assertThatThrownBy(() -> read("rate: 10\nduration: 10\n")).hasMessageContaining("unit");
        assertThatThrownBy(() -> read("rate: 10\nduration: 5s\narrival: gamma\n")).hasMessageContaining("shape");
        assertThatThrownBy(() -> read("concurrency: 0\nrequests: 3\n")).hasMessageContaining("concurrency >= 1, was 0");
        assertThatThrownBy(() -> read("rate: 10\nduration: 5s\nwarmup: 3s\ncooldown: 2s\n"))
                .hasMessageContaining("shorter than duration");
        assertThatThrownBy(() -> read("concurrency: 2\nrequests: 3\nmaxInFlight: 4\n"))
                .hasMessageContaining("maxInFlight");
    }
}
