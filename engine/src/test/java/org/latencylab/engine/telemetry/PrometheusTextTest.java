package org.latencylab.engine.telemetry;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PrometheusTextTest {
    @Test
    void readsSamplesLabelsEscapesAndSpecialValues() throws IOException {
        List<PrometheusText.Sample> s = PrometheusText.parse(NvidiaSmiTest.resource("vllm-scrape.txt"));
        assertThat(s).hasSize(10);
        assertThat(s.get(0).name()).isEqualTo("vllm:num_requests_running");
        assertThat(s.get(0).labels()).containsEntry("model_name", "meta-llama/Llama-2-7b-hf");
        assertThat(s.get(0).value()).isEqualTo(12.0);
        assertThat(s.get(4).labels()).containsEntry("le", "+Inf");
        PrometheusText.Sample odd = s.get(9);
        assertThat(odd.labels()).containsEntry("path", "C:\\dir").containsEntry("quote", "say \"hi\"")
                .containsEntry("nl", "a\nb");
        assertThat(odd.value()).isNaN();
    }

    @Test
    void reducesAVllmScrapeToTheWatchedQuantities() throws IOException {
        ServerSample x = ServerSample.of(1.5, PrometheusText.parse(NvidiaSmiTest.resource("vllm-scrape.txt")));
        assertThat(x.running()).isEqualTo(12);
        assertThat(x.waiting()).isEqualTo(3);
        assertThat(x.kvCacheUsage()).isEqualTo(0.4375);
        assertThat(x.prefixHitRate()).isCloseTo(0.25, within(1e-12));
        assertThat(x.ttftCount()).isEqualTo(40);
        assertThat(x.ttftSumSeconds()).isCloseTo(9.6, within(1e-12));
        assertThat(x.itlCount()).isNaN();
    }

    @Test
    void aMalformedLineNamesItsNumber() {
        assertThatThrownBy(() -> PrometheusText.parse("# ok\nup 1\nbroken{a=\"x} 2\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 3");
        assertThatThrownBy(() -> PrometheusText.parse("up one\n")).hasMessageContaining("line 1");
    }
}
