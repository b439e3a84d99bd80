package org.latencylab.engine.stats;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one SLO type reads and writes the file shape {@code {metric, percentile, maxMs}} of every older file. */
class SloJsonTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void writesMetricPercentileAndMillisecondsAndReadsThemBack() throws Exception {
        Slo slo = Slo.ofMillis("TTFT", 95.0, 250.5);
        String text = json.writeValueAsString(slo);
        assertThat(text).isEqualTo("{\"metric\":\"ttft\",\"percentile\":95.0,\"maxMs\":250.5}");
        assertThat(json.readValue(text, Slo.class)).isEqualTo(slo);
        assertThat(slo.thresholdNanos()).isEqualTo(250_500_000L);
    }

    @Test
    void aGoodputThresholdWithoutPercentileMeansEveryRequest() throws Exception {
        List<Slo> slos = List.of(json.readValue("[{\"metric\":\"ttft_from_intended\",\"maxMs\":300}]", Slo[].class));
        assertThat(slos).containsExactly(new Slo("ttft_from_intended", 100.0, 300_000_000L));
    }

    @Test
    void aMissingThresholdOrAPerGapMetricIsRefusedWithTheFieldNamed() {
        assertThatThrownBy(() -> json.readValue("{\"metric\":\"ttft\",\"percentile\":95}", Slo.class))
                .isInstanceOf(ValueInstantiationException.class).hasMessageContaining("maxMs");
        assertThatThrownBy(() -> json.readValue("{\"metric\":\"itl\",\"percentile\":95,\"maxMs\":5}", Slo.class))
                .hasMessageContaining("itl has one value per event gap");
    }
}
