package org.latencylab.engine.load;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationsTest {
    @Test
    void readsUnitsAndIso() {
        assertThat(Durations.parse("500ms", "f")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("30s", "f")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("10m", "f")).isEqualTo(Duration.ofMinutes(10));
        assertThat(Durations.parse("1.5s", "f")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("250us", "f")).isEqualTo(Duration.ofNanos(250_000));
        assertThat(Durations.parse("PT2M", "f")).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void formatRoundTrips() {
        for (String s : new String[] {"500ms", "30s", "10m", "2h", "250us", "7ns", "0s"}) {
            assertThat(Durations.format(Durations.parse(s, "f"))).isEqualTo(s);
        }
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }

    @Test
    void badTextNamesFieldAndForms() {
        assertThatThrownBy(() -> Durations.parse("10 minutes", "warmup"))
                .hasMessageContaining("warmup").hasMessageContaining("'10 minutes'").hasMessageContaining("\"30s\"");
        assertThatThrownBy(() -> Durations.parse("-5s", "duration")).hasMessageContaining("duration");
        assertThatThrownBy(() -> Durations.parse(null, "x")).hasMessageContaining("x");
    }
}
