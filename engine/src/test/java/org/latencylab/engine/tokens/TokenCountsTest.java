package org.latencylab.engine.tokens;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TokenCountsTest {
    @Test
    void readsWholeNumbersAndTheKSuffixAsMultiplesOf1024() {
        assertThat(TokenCounts.parse("length", "4096")).isEqualTo(4096);
        assertThat(TokenCounts.parse("length", " 2k ")).isEqualTo(2048);
        assertThat(TokenCounts.parse("length", "32K")).isEqualTo(32768);
        assertThat(TokenCounts.parse("length", "1")).isEqualTo(1);
    }

    @Test
    void refusesWhatIsNotAPositiveTokenCountNamingFieldAndText() {
        for (String bad : new String[]{"0", "-5", "abc", "k", "2.5k", "", "3000000k"}) {
            assertThatThrownBy(() -> TokenCounts.parse("--lengths", bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--lengths '" + bad + "' is not a positive token count (e.g. 4096 or 4k)");
        }
    }
}
