package org.latencylab.engine.stats;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The accumulator behind every summary: exact at the end, close while live, warmup out, seconds binned by end. */
class StatsAccumulatorTest {
    /** Request {@code i}: sent at i × 100 ms, TTFT {@code ttftMs}, then 3 more tokens 5 ms apart. */
    private static RequestRecord rec(int i, double ttftMs, Phase phase) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = i;
        b.label = "probe";
        b.phase = phase;
        long send = i * 100_000_000L;
        long first = send + Math.round(ttftMs * 1e6);
        b.intendedStartNanos = send;
        b.sendNanos = send;
        b.responseHeadersNanos = send + 1_000_000L;
        b.firstTokenNanos = first;
        b.tokens = new TokenTimeline(new long[]{first, first + 5_000_000L, first + 10_000_000L, first + 15_000_000L},
                new int[]{1, 1, 1, 1}, new long[]{RequestRecord.UNSET, RequestRecord.UNSET, RequestRecord.UNSET,
                RequestRecord.UNSET});
        b.endNanos = first + 15_000_000L;
        b.outputTokens = 4;
        b.outputTokenSource = TokenSource.SERVER;
        return b.build();
    }

    @Test
    void exactReportEqualsTheOneOffSummaryAndLiveIsWithinHistogramPrecision() {
        StatsConfig cfg = StatsConfig.defaults().withSlos(List.of(Slo.of("ttft", 90, Duration.ofMillis(150))));
        StatsAccumulator acc = new StatsAccumulator(cfg, 0, true);
        List<RequestRecord> all = new ArrayList<>();
        Random rnd = new Random(3);
        for (int i = 0; i < 500; i++) {
            RequestRecord r = rec(i, 50 + 200 * rnd.nextDouble() * rnd.nextDouble(), i < 50 ? Phase.WARMUP : Phase.MEASURED);
            all.add(r);
            acc.add(r);
        }
        RequestRecord.Builder failed = rec(500, 10, Phase.MEASURED).toBuilder();
        failed.error(ErrorKind.TIMEOUT, "first-byte timeout");
        all.add(failed.build());
        acc.add(all.get(500));

        StatsReport live = acc.liveReport();
        StatsReport exact = acc.report();
        assertThat(acc.excluded()).isEqualTo(50);
        assertThat(exact.sent()).isEqualTo(451);
        assertThat(exact.failed()).isEqualTo(1);
        assertThat(exact.errorExamples()).containsEntry(ErrorKind.TIMEOUT, "first-byte timeout");
        assertThat(exact.summary("itl").orElseThrow().count()).isEqualTo(450 * 3);
        // the exact report is the same as summarising the measured records in one go
        List<RequestRecord> measured = all.stream().filter(RequestRecord::measured).toList();
        assertThat(exact).isEqualTo(RequestStats.summarize(measured, cfg));
        // the live one has the same counts and SLO verdicts, and percentiles within HdrHistogram's 0.1 %
        assertThat(live.sent()).isEqualTo(exact.sent());
        assertThat(live.sloResults()).isEqualTo(exact.sloResults());
        for (double p : List.of(50.0, 95.0, 99.0)) {
            double e = exact.summary("ttft").orElseThrow().pMillis(p);
            assertThat(live.summary("ttft").orElseThrow().pMillis(p)).as("P" + p).isCloseTo(e, within(e * 0.002));
        }
        // distributions: exact holds every sample, live evenly spaced quantiles ending at the maximum
        LatencyCdf exactCdf = acc.cdf(Metric.TTFT, true);
        assertThat(exactCdf.valuesMs()).hasSize(450).isSorted();
        assertThat(exactCdf.maxMs()).isEqualTo(exact.summary("ttft").orElseThrow().maxMillis());
        LatencyCdf liveCdf = acc.cdf(Metric.TTFT, false);
        assertThat(liveCdf.valuesMs()).hasSize(450).isSorted();
        assertThat(liveCdf.maxMs()).isCloseTo(exactCdf.maxMs(), within(exactCdf.maxMs() * 0.002));
        assertThat(liveCdf.valuesMs()[224]).isCloseTo(exactCdf.valuesMs()[224], within(exactCdf.valuesMs()[224] * 0.002));
    }

    @Test
    void secondsAreBinnedByTheSecondEachRequestEndedWithGapsLeftEmpty() {
        StatsAccumulator acc = new StatsAccumulator(StatsConfig.defaults(), 0, false);
        for (int i = 0; i < 10; i++) { // sent 0.0 … 0.9 s, ending by 0.9 s + 115 ms at the latest
            acc.add(rec(i, 100, Phase.MEASURED));
        }
        for (int i = 30; i < 35; i++) { // sent 3.0 … 3.4 s
            acc.add(rec(i, 300, Phase.MEASURED));
        }
        SecondSeries s = acc.series();
        assertThat(s.metric()).isEqualTo("ttft");
        assertThat(s.seconds()).containsExactly(0, 1, 2, 3);
        assertThat(s.count()).containsExactly(9, 1, 0, 5); // request 9 ends at 1.015 s
        assertThat(s.p50Ms()[0]).isCloseTo(100, within(1.0));
        assertThat(s.p50Ms()[2]).isNaN();
        assertThat(s.maxMs()[3]).isCloseTo(300, within(3.0));
    }

    @Test
    void absorbingStepsGivesTheSameAsOneAccumulatorOverAll() {
        StatsConfig cfg = StatsConfig.defaults();
        StatsAccumulator a = new StatsAccumulator(cfg, 0, false);
        StatsAccumulator b = new StatsAccumulator(cfg, 0, false);
        StatsAccumulator both = new StatsAccumulator(cfg, 0, false);
        for (int i = 0; i < 40; i++) {
            RequestRecord r = rec(i, 20 + i, Phase.MEASURED);
            (i < 25 ? a : b).add(r);
            both.add(r);
        }
        a.report(); // sorting a column in place must not disturb what is absorbed
        StatsAccumulator merged = new StatsAccumulator(cfg, 0, false);
        merged.absorb(a);
        merged.absorb(b);
        assertThat(merged.report()).isEqualTo(both.report());
    }

    /** Request {@code i} with four events 10 ms apart carrying {@code tokens} tokens each (after the first). */
    private static RequestRecord multiToken(int i, int tokens) {
        RequestRecord.Builder b = rec(i, 30, Phase.MEASURED).toBuilder();
        long first = b.firstTokenNanos;
        b.tokens = new TokenTimeline(new long[]{first, first + 10_000_000L, first + 20_000_000L, first + 30_000_000L},
                new int[]{1, tokens, tokens, tokens}, new long[]{RequestRecord.UNSET, RequestRecord.UNSET,
                RequestRecord.UNSET, RequestRecord.UNSET});
        b.endNanos = first + 30_000_000L;
        b.outputTokens = 1 + 3 * tokens;
        return b.build();
    }

    @Test
    void itlPerTokenSharesItlsSamplesOnlyWhileEveryEventCarriesOneToken() {
        StatsConfig cfg = StatsConfig.defaults();
        StatsAccumulator oneToken = new StatsAccumulator(cfg, 0, false);
        StatsAccumulator mixed = new StatsAccumulator(cfg, 0, false);
        List<Long> itl = new ArrayList<>();
        List<Long> perToken = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            RequestRecord r = i < 20 ? rec(i, 40 + i, Phase.MEASURED) : multiToken(i, 4); // 5 ms gaps, then 10 ms / 4
            (i < 10 ? oneToken : mixed).add(r);
            for (long g : r.tokens().itlNanos(false)) {
                itl.add(g);
            }
            for (long g : r.tokens().itlNanos(true)) {
                perToken.add(g);
            }
        }
        StatsReport alone = oneToken.report();
        assertThat(alone.summaries().get("itl_per_token").percentiles())
                .isEqualTo(alone.summaries().get("itl").percentiles());
        assertThat(alone.summaries().get("itl_per_token").metric()).isEqualTo("itl_per_token");

        StatsReport m = mixed.report(); // one-token requests first, then 4-token events: per token 2.5 ms, not 10
        assertThat(m.summaries().get("itl_per_token").maxNanos()).isEqualTo(5_000_000L);
        assertThat(m.summaries().get("itl").maxNanos()).isEqualTo(10_000_000L);

        StatsAccumulator merged = new StatsAccumulator(cfg, 0, false);
        merged.absorb(oneToken);
        merged.absorb(mixed);
        StatsReport all = merged.report();
        assertThat(all.summaries().get("itl"))
                .isEqualTo(Summaries.of("itl", itl.stream().mapToLong(Long::longValue).toArray()));
        assertThat(all.summaries().get("itl_per_token"))
                .isEqualTo(Summaries.of("itl_per_token", perToken.stream().mapToLong(Long::longValue).toArray()));
        assertThat(all.summaries().get("itl_per_token").minNanos()).isEqualTo(2_500_000L);
    }
}
