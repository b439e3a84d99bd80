package org.latencylab.engine.stats;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The compact sample column: 4-byte values below 2^31 ns, 8-byte values beyond, read back exactly and in order. */
class LongColumnTest {
    private static long[] read(LongColumn c) {
        c.sort();
        long[] out = new long[c.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = c.sortedAt(i);
        }
        return out;
    }

    @Test
    void valuesOnBothSidesOfTheIntRangeComeBackSortedAndExact() {
        Random rnd = new Random(11);
        long[] values = new long[20_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (i % 7) {
                case 0 -> Integer.MAX_VALUE + 1L + rnd.nextInt(1_000_000_000); // a gap just above 2.147 s
                case 1 -> -1 - rnd.nextInt(1000); // clock steps: kept, sorted before every other value
                case 2 -> Integer.MAX_VALUE; // the largest value stored in 4 bytes
                case 3 -> 0;
                default -> rnd.nextInt(Integer.MAX_VALUE);
            };
        }
        LongColumn c = new LongColumn();
        for (int i = 0; i < values.length / 2; i++) {
            c.add(values[i]);
        }
        c.addAll(Arrays.copyOfRange(values, values.length / 2, values.length));

        long[] expected = values.clone();
        Arrays.sort(expected);
        assertThat(c.size()).isEqualTo(values.length);
        assertThat(read(c)).containsExactly(expected);
    }

    @Test
    void appendingAnotherColumnKeepsBothAndLeavesItUnchanged() {
        LongColumn a = new LongColumn();
        LongColumn b = new LongColumn();
        for (long v : List.of(5L, 3_000_000_000L, 1L)) {
            a.add(v);
        }
        for (long v : List.of(4L, -2L, 9_000_000_000L, 2L)) {
            b.add(v);
        }
        a.addAll(b);
        assertThat(read(a)).containsExactly(-2, 1, 2, 4, 5, 3_000_000_000L, 9_000_000_000L);
        assertThat(read(b)).containsExactly(-2, 2, 4, 9_000_000_000L);
    }

    @Test
    void readingByRankNeedsASortAfterTheLastAddAndARankInRange() {
        LongColumn c = new LongColumn();
        c.add(7);
        c.sort();
        assertThat(c.sortedAt(0)).isEqualTo(7);
        c.add(3);
        assertThatThrownBy(() -> c.sortedAt(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not sorted");
        c.sort();
        assertThat(c.sortedAt(0)).isEqualTo(3);
        assertThatThrownBy(() -> c.sortedAt(2)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("rank 2 of 2");
    }

    @Test
    void aSummaryOfTheColumnEqualsTheSummaryOfTheSameValuesAsLongs() {
        Random rnd = new Random(5);
        long[] values = new long[5_001];
        LongColumn c = new LongColumn();
        for (int i = 0; i < values.length; i++) {
            // mostly milliseconds, every 50th a multi-second stall stored as 8 bytes
            values[i] = i % 50 == 0 ? 2_000_000_000L + rnd.nextInt(3_000_000) * 1000L : rnd.nextInt(40_000_000);
            c.add(values[i]);
        }
        c.sort();
        MetricSummary fromColumn = Summaries.ofSorted("itl", c.size(), c::sortedAt,
                MetricSummary.DEFAULT_PERCENTILES, Summaries.DEFAULT_CONFIDENCE);
        MetricSummary fromLongs = Summaries.of("itl", values);
        assertThat(fromColumn).isEqualTo(fromLongs);
        assertThat(fromColumn.maxNanos()).isGreaterThan(Integer.MAX_VALUE);
    }
}
