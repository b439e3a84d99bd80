package org.latencylab.engine.run;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationTextTest {
    @Test
    void readsTheFormsPeopleWrite() {
        assertThat(DurationText.parse("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(DurationText.parse("15s")).isEqualTo(Duration.ofSeconds(15));
        assertThat(DurationText.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(DurationText.parse("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(DurationText.parse("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(DurationText.parse("500us")).isEqualTo(Duration.ofNanos(500_000));
        assertThat(DurationText.parse("3")).isEqualTo(Duration.ofSeconds(3));
        assertThat(DurationText.parse("PT0.2S")).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void formatReadsBack() {
        for (Duration d : new Duration[]{Duration.ofMillis(250), Duration.ofSeconds(15), Duration.ofMinutes(10),
                Duration.ofHours(3), Duration.ofNanos(1234), Duration.ZERO}) {
            assertThat(DurationText.parse(DurationText.format(d))).isEqualTo(d);
        }
    }

    @Test
    void rejectsNonsenseWithTheAcceptedForms() {
        assertThatThrownBy(() -> DurationText.parse("fast")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("250ms").hasMessageContaining("'fast'");
        assertThatThrownBy(() -> DurationText.parse("-3s")).isInstanceOf(IllegalArgumentException.class);
        // not clamped to Long.MAX_VALUE nanoseconds (written back as '9223372036854775807ns')
        assertThatThrownBy(() -> DurationText.parse("99999999h")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("duration too long: '99999999h' (at most about 292 years)");
        assertThat(DurationText.parse("2000000h")).isEqualTo(Duration.ofHours(2_000_000));
    }
}
