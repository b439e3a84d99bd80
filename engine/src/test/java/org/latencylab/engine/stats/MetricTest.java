package org.latencylab.engine.stats;

import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

class MetricTest {
    @Test
    void whatContainsThePrefillGrowsWithThePromptAndTheDecodeSideDoesNot() {
        assertThat(Arrays.stream(Metric.values()).filter(Metric::growsWithPrompt).map(Metric::id))
                .containsExactlyInAnyOrder("ttft", "time_to_first_content", "ttfb", "e2e", "ttft_from_intended",
                        "e2e_from_intended");
        assertThat(Metric.fromId("TPOT").growsWithPrompt()).isFalse();
        assertThat(Metric.fromId("itl").growsWithPrompt()).isFalse();
    }
}
