package org.latencylab.engine.stats;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class RequestStatsTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 5_000_000 * MS;

    /** A streamed success: starts at startMs, TTFT ttftMs, then `events` events of 2 tokens every 20 ms. */
    private static RequestRecord success(long id, long intendedMs, long sendMs, long ttftMs, int events,
                                         TokenSource source) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = id;
        b.intendedStartNanos = T0 + intendedMs * MS;
        b.sendNanos = T0 + sendMs * MS;
        b.responseHeadersNanos = b.sendNanos + 10 * MS;
        b.firstTokenNanos = b.sendNanos + ttftMs * MS;
        b.firstContentNanos = b.firstTokenNanos + 5 * MS;
        long[] arrivals = new long[events];
        int[] tokens = new int[events];
        for (int i = 0; i < events; i++) {
            arrivals[i] = b.firstTokenNanos + i * 20 * MS;
            tokens[i] = 2;
        }
        b.tokens = new TokenTimeline(arrivals, tokens, null);
        b.endNanos = arrivals[events - 1] + MS;
        b.outputTokens = 2 * events;
        b.outputTokenSource = source;
        b.attempts = 1;
        return b.build();
    }

    @Test
    void requestsThatFailedWithoutAnEndStampStillCountInTheWallSpanUpToTheirSend() {
        // a server that died: one success in the first 0.3 s, then 10 refused connections over the next 2 s, which
        // ended at once and carry no end stamp
        List<RequestRecord> rs = new ArrayList<>();
        rs.add(success(0, 0, 0, 100, 5, TokenSource.SERVER)); // ends at 100 + 4 * 20 + 1 = 181 ms
        for (int i = 1; i <= 10; i++) {
            RequestRecord.Builder f = RequestRecord.builder();
            f.id = i;
            f.sendNanos = T0 + (100 + i * 200L) * MS;
            f.intendedStartNanos = f.sendNanos;
            rs.add(f.error(ErrorKind.CONNECTION, "connection refused").build());
        }
        StatsReport r = RequestStats.summarize(rs, StatsConfig.defaults());

        assertThat(r.wallSpanNanos()).as("first send to the last refused request's send").isEqualTo(2100 * MS);
        assertThat(r.requestsPerSecond()).isCloseTo(11 / 2.1, within(1e-9));
    }

    @Test
    void summarizesHandBuiltClosedLoopRun() {
        List<RequestRecord> rs = new ArrayList<>();
        // 20 successes sent every 100 ms, TTFT 100..290 ms, 5 events each
        for (int i = 0; i < 20; i++) {
            rs.add(success(i, i * 100L, i * 100L, 100 + i * 10L, 5, i < 15 ? TokenSource.SERVER : TokenSource.TOKENIZER));
        }
        RequestRecord.Builder f = RequestRecord.builder();
        f.id = 20;
        f.sendNanos = T0 + 2000 * MS;
        f.intendedStartNanos = f.sendNanos;
        f.endNanos = T0 + 2100 * MS;
        rs.add(f.error(ErrorKind.TIMEOUT, "first byte timeout").build());
        RequestRecord.Builder c = RequestRecord.builder();
        c.id = 21;
        c.sendNanos = T0 + 2050 * MS;
        c.intendedStartNanos = c.sendNanos;
        c.outcome = Outcome.CANCELLED;
        rs.add(c.build());

        StatsConfig cfg = StatsConfig.defaults().withSlos(List.of(Slo.of("ttft", 50, Duration.ofMillis(200))));
        StatsReport r = RequestStats.summarize(rs, cfg);

        assertThat(r.sent()).isEqualTo(22);
        assertThat(r.succeeded()).isEqualTo(20);
        assertThat(r.failed()).isEqualTo(1);
        assertThat(r.cancelled()).isEqualTo(1);
        assertThat(r.errorsByKind()).isEqualTo(Map.of(ErrorKind.TIMEOUT, 1L));
        assertThat(r.outputTokens()).isEqualTo(200);
        assertThat(r.outputTokensBySource()).isEqualTo(Map.of(TokenSource.SERVER, 150L, TokenSource.TOKENIZER, 50L));
        // closed loop: no from-intended metrics
        assertThat(r.summaries().keySet()).containsExactly("ttft", "time_to_first_content", "ttfb", "e2e", "tpot",
                "itl", "itl_per_token");

        MetricSummary ttft = r.summary("ttft").orElseThrow();
        assertThat(ttft.count()).isEqualTo(20);
        assertThat(ttft.minNanos()).isEqualTo(100 * MS);
        assertThat(ttft.maxNanos()).isEqualTo(290 * MS);
        assertThat(ttft.p(50).valueNanos()).isEqualTo(190 * MS); // 10th of 20
        assertThat(ttft.p(95).valueNanos()).isEqualTo(280 * MS); // 19th of 20
        assertThat(ttft.meanNanos()).isCloseTo(195 * MS, within(1.0));
        assertThat(r.summary("time_to_first_content").orElseThrow().minNanos()).isEqualTo(105 * MS);
        assertThat(r.summary("ttfb").orElseThrow().maxNanos()).isEqualTo(10 * MS);
        // E2E = TTFT + 4 gaps * 20 ms + 1 ms; TPOT = (81 ms) / 9
        assertThat(r.summary("e2e").orElseThrow().minNanos()).isEqualTo(181 * MS);
        assertThat(r.summary("tpot").orElseThrow().minNanos()).isEqualTo(81 * MS / 9);
        MetricSummary itl = r.summary("itl").orElseThrow();
        assertThat(itl.count()).isEqualTo(80);
        assertThat(itl.minNanos()).isEqualTo(20 * MS);
        assertThat(itl.maxNanos()).isEqualTo(20 * MS);
        assertThat(r.summary("itl_per_token").orElseThrow().maxNanos()).isEqualTo(10 * MS);

        // wall span: first send T0 to the last success's end: 1900 + 290 + 4 * 20 + 1 = 2271 ms
        assertThat(r.wallSpanNanos()).isEqualTo(2271 * MS);
        assertThat(r.outputTokensPerSecond()).isCloseTo(200 / 2.271, within(1e-9));
        assertThat(r.requestsPerSecond()).isCloseTo(22 / 2.271, within(1e-9));
        assertThat(r.successesPerSecond()).isCloseTo(20 / 2.271, within(1e-9));

        // SLO: TTFT <= 200 ms for 11 of 20 successes, 1 failure judged, cancelled not judged: 11/21
        SloResult slo = r.sloResults().get(0);
        assertThat(slo.judged()).isEqualTo(21);
        assertThat(slo.met()).isEqualTo(11);
        assertThat(slo.passed()).isTrue();
        assertThat(r.goodputRps()).isCloseTo(11 / 2.271, within(1e-9));
        // tier on TTFT P95 = 280 ms
        assertThat(r.tierMetric()).isEqualTo("ttft");
        assertThat(r.tier().name()).isEqualTo("Tier-1");
        assertThat(r.errorRate()).isCloseTo(1 / 21.0, within(1e-12));
        // the step's notices say each thin percentile once, naming every metric it applies to (not once per metric)
        assertThat(r.warnings()).filteredOn(w -> w.startsWith("P95: ")).singleElement().asString()
                .contains("fewer than 10 samples above it in ttft, time_to_first_content, ttfb, e2e, tpot (20 samples)");
        assertThat(r.warnings()).filteredOn(w -> w.startsWith("P99.9: ")).hasSize(1);
        assertThat(r.warnings()).noneMatch(w -> w.startsWith("ttft P95 from"));
        assertThat(r.summary("ttft").orElseThrow().warnings()).anyMatch(w -> w.startsWith("ttft P95 from 20 samples"));
    }

    @Test
    void openLoopAddsIntendedStartMetrics() {
        List<RequestRecord> rs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // intended every 10 ms, but the client fell behind by i*5 ms
            rs.add(success(i, i * 10L, i * 15L, 50, 3, TokenSource.SERVER));
        }
        StatsReport r = RequestStats.summarize(rs, StatsConfig.defaults().withTier(TierTable.DEFAULT, "e2e"));
        assertThat(r.summaries()).containsKeys("ttft_from_intended", "e2e_from_intended", "dispatch_lag");
        MetricSummary lag = r.summary(Metric.DISPATCH_LAG).orElseThrow();
        assertThat(lag.minNanos()).isZero();
        assertThat(lag.maxNanos()).isEqualTo(45 * MS);
        assertThat(r.summary("ttft_from_intended").orElseThrow().maxNanos()).isEqualTo(95 * MS);
        assertThat(r.summary("ttft").orElseThrow().maxNanos()).isEqualTo(50 * MS);
        assertThat(r.tierMetric()).isEqualTo("e2e");
        assertThat(r.tier().name()).isEqualTo("Tier-1"); // e2e = 50 + 40 + 1 = 91 ms
        // no SLOs: every success is goodput
        assertThat(r.goodputRps()).isCloseTo(r.successesPerSecond(), within(1e-9));
    }

    @Test
    void noSuccessesGivesEmptySummariesAndNoTier() {
        RequestRecord.Builder f = RequestRecord.builder();
        f.sendNanos = T0;
        f.endNanos = T0 + MS;
        StatsReport r = RequestStats.summarize(List.of(f.error(ErrorKind.CONNECTION, "refused").build()),
                StatsConfig.defaults());
        assertThat(r.tier()).isNull();
        assertThat(r.summary("ttft").orElseThrow().count()).isZero();
        assertThat(r.warnings()).contains("no successful requests: latency summaries are empty");
        assertThat(r.errorRate()).isEqualTo(1.0);
    }
}
