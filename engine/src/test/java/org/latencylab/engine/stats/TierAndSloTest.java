package org.latencylab.engine.stats;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TierAndSloTest {
    private static final long MS = 1_000_000L;

    @Test
    void defaultTierBoundariesAreInclusive() {
        TierTable t = TierTable.DEFAULT;
        assertThat(t.classify(0).name()).isEqualTo("Tier-0");
        assertThat(t.classify(80 * MS).name()).isEqualTo("Tier-0");
        assertThat(t.classify(80 * MS + 1).name()).isEqualTo("Tier-1");
        assertThat(t.classify(300 * MS).name()).isEqualTo("Tier-1");
        assertThat(t.classify(300 * MS + 1).name()).isEqualTo("Tier-2");
        assertThat(t.classify(Duration.ofMillis(1200)).name()).isEqualTo("Tier-2");
        assertThat(t.classify(1200 * MS + 1).name()).isEqualTo("Tier-3");
        assertThat(t.classify(4500 * MS).name()).isEqualTo("Tier-3");
        assertThat(t.classify(4500 * MS + 1).name()).isEqualTo("Tier-4");
        assertThat(t.classify(Long.MAX_VALUE).name()).isEqualTo("Tier-4");
        assertThatThrownBy(() -> t.classify(-1)).hasMessage("P95 must be >= 0 ns, was -1");
    }

    @Test
    void customTablesAreChecked() {
        TierTable two = new TierTable(List.of(Tier.of("fast", Duration.ofMillis(50)), Tier.of("slow", null)));
        assertThat(two.classify(Duration.ofMillis(51)).name()).isEqualTo("slow");
        assertThatThrownBy(() -> new TierTable(List.of(Tier.of("a", Duration.ofMillis(50)))))
                .hasMessageContaining("the last tier must be unbounded");
        assertThatThrownBy(() -> new TierTable(List.of(Tier.of("a", Duration.ofMillis(50)),
                Tier.of("b", Duration.ofMillis(50)), Tier.of("c", null))))
                .hasMessageContaining("tier bounds must ascend: b");
        assertThatThrownBy(() -> new TierTable(List.of(Tier.of("a", null), Tier.of("b", null))))
                .hasMessageContaining("only the last tier may be unbounded");
        assertThatThrownBy(() -> new TierTable(List.of(Tier.of("a", Duration.ofMillis(5)), Tier.of("a", null))))
                .hasMessageContaining("'a' appears twice");
        assertThatThrownBy(() -> new TierTable(List.of())).hasMessageContaining("at least one tier");
    }

    private static RequestRecord ok(long id, long ttftMs) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = id;
        b.sendNanos = 1_000 * MS;
        b.intendedStartNanos = b.sendNanos;
        b.firstTokenNanos = b.sendNanos + ttftMs * MS;
        b.endNanos = b.firstTokenNanos + 100 * MS;
        b.outputTokens = 11;
        return b.build();
    }

    private static RequestRecord failed(long id) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = id;
        b.sendNanos = 1_000 * MS;
        b.endNanos = b.sendNanos + 5 * MS;
        return b.error(ErrorKind.HTTP_STATUS, "500").build();
    }

    @Test
    void sloComplianceCountsFailuresAsMisses() {
        List<RequestRecord> rs = new ArrayList<>();
        for (int i = 0; i < 90; i++) {
            rs.add(ok(i, 100)); // within 200 ms
        }
        for (int i = 90; i < 96; i++) {
            rs.add(ok(i, 250)); // too slow
        }
        for (int i = 96; i < 100; i++) {
            rs.add(failed(i));
        }
        RequestRecord.Builder c = ok(100, 10).toBuilder();
        c.outcome = Outcome.CANCELLED;
        rs.add(c.build()); // not judged

        SloResult r90 = Slo.of("ttft", 90, Duration.ofMillis(200)).evaluate(rs);
        assertThat(r90.judged()).isEqualTo(100);
        assertThat(r90.met()).isEqualTo(90);
        assertThat(r90.complianceRate()).isEqualTo(0.90);
        assertThat(r90.passed()).isTrue();
        SloResult r95 = Slo.of("TTFT", 95, Duration.ofMillis(200)).evaluate(rs);
        assertThat(r95.passed()).isFalse();
        // the same requests all within 300 ms, but the 4 failures keep it at 96 %
        SloResult r300 = Slo.of("ttft", 97, Duration.ofMillis(300)).evaluate(rs);
        assertThat(r300.complianceRate()).isEqualTo(0.96);
        assertThat(r300.passed()).isFalse();
        assertThat(Slo.of("ttft", 99, Duration.ofMillis(200)).toString()).isEqualTo("P99 ttft <= 200.000 ms");
    }

    @Test
    void sloArgumentsAreChecked() {
        assertThatThrownBy(() -> Slo.of("itl", 95, Duration.ofMillis(50))).hasMessageContaining("per event gap");
        assertThatThrownBy(() -> Slo.of("latency", 95, Duration.ofMillis(50))).hasMessageContaining("unknown metric 'latency'");
        assertThatThrownBy(() -> Slo.of("ttft", 0, Duration.ofMillis(50))).hasMessageContaining("(0, 100]");
        assertThatThrownBy(() -> Slo.of("ttft", 95, Duration.ZERO)).hasMessage("SLO threshold must be > 0 ns, was 0");
    }

    @Test
    void modelSloBudget() {
        // (1000 ms - 200 ms) * (1 - 0.2) = 640 ms
        assertThat(SloBudget.modelSlo(Duration.ofMillis(1000), Duration.ofMillis(200), 0.2))
                .isEqualTo(Duration.ofMillis(640));
        assertThat(SloBudget.modelSlo(Duration.ofSeconds(2), Duration.ZERO, 0)).isEqualTo(Duration.ofSeconds(2));
        assertThatThrownBy(() -> SloBudget.modelSlo(Duration.ofMillis(100), Duration.ofMillis(100), 0.1))
                .hasMessageContaining("leaves no budget");
        assertThatThrownBy(() -> SloBudget.modelSlo(Duration.ofMillis(100), Duration.ofMillis(10), 1.0))
                .hasMessage("safety margin must be in [0, 1), was 1.0");
        assertThatThrownBy(() -> SloBudget.modelSlo(Duration.ZERO, Duration.ZERO, 0.1))
                .hasMessageContaining("SLA P95 must be > 0");
    }
}
