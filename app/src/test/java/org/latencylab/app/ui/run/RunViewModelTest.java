package org.latencylab.app.ui.run;

import org.latencylab.engine.results.RunLayout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.app.ui.background.SerialUiExecutor;
import org.latencylab.app.ui.history.CompareViewModel;
import org.latencylab.app.ui.history.HistoryViewModel;
import org.latencylab.app.ui.history.RunEntry;
import org.latencylab.app.ui.history.RunStore;
import org.latencylab.app.ui.results.ResultsViewModel;
import org.latencylab.app.ui.results.SummaryRow;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Run control and results against the real engine and the built-in simulator, without the JavaFX toolkit. */
class RunViewModelTest {
    @TempDir
    Path runs;
    private final SerialUiExecutor ui = new SerialUiExecutor();
    private final ResultsViewModel results = new ResultsViewModel();
    private final RunViewModel vm = new RunViewModel(ui, StepCatalog.engine()::start, results);

    @AfterEach
    void close() throws Exception {
        ui.run(vm::cancel);
        ui.close();
    }

    private static RunSpec probe(String name, int requests, int concurrency) {
        return new RunSpec(name, TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                new StatsSettings(null, null, List.of(org.latencylab.engine.stats.Slo.ofMillis("ttft", 95.0, 5000.0))),
                List.of(new ProbeSpec(requests, concurrency, 64, 4, true, true, 0)), null, null, 1);
    }

    private RunResult awaitEnd(long timeoutMillis) throws Exception {
        long end = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < end) {
            RunResult r = ui.call(() -> vm.runningProperty().get() ? null : vm.lastResultProperty().get());
            if (r != null) {
                return r;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("run did not end within " + timeoutMillis + " ms");
    }

    /**
     * Waits until the results show a finished step (not a live one): the run's end is handed to the UI thread,
     * which shows the final result.
     */
    private void awaitFinalStep() throws Exception {
        CountDownLatch shown = new CountDownLatch(1);
        ui.run(() -> {
            RunResult.StepOutcome now = results.stepProperty().get();
            if (now != null && !now.live()) {
                shown.countDown();
            } else {
                results.stepProperty().addListener((o, a, b) -> {
                    if (b != null && !b.live()) {
                        shown.countDown();
                    }
                });
            }
        });
        assertThat(shown.await(10, TimeUnit.SECONDS)).as("the final step is shown").isTrue();
    }

    /** @return requests of the step shown (live while the run goes on) */
    private static long sent(ResultsViewModel results) {
        RunResult.StepOutcome s = results.stepProperty().get();
        return s == null || s.stats() == null ? 0 : s.stats().sent();
    }

    @Test
    void aServerThatClosesConnectionsShowsNoFailuresAndItsReSentRequestsInTheWindow() throws Exception {
        try (org.latencylab.engine.client.ClosingServer server = new org.latencylab.engine.client.ClosingServer(
                org.latencylab.engine.client.ClosingServer.Behaviour.MAX_UNSAID, 0, 3)) {
            org.latencylab.engine.api.Endpoint e = new org.latencylab.engine.api.Endpoint("closing",
                    org.latencylab.engine.api.Protocol.OPENAI_CHAT, server.baseUrl(), "m", null, java.util.Map.of(),
                    true);
            RunSpec spec = new RunSpec("closing", TargetSpec.of(e), ClientOptions.DEFAULTS,
                    new StatsSettings(null, null, List.of()),
                    List.of(new ProbeSpec(30, 1, 16, 4, true, false, 0)), null, null, 1);
            ui.run(() -> vm.start(spec, runs));
            RunResult r = awaitEnd(30_000);
            long resent = r.steps().get(0).stats().resent();
            assertThat(resent).as("every connection is closed after its third response").isPositive();
            assertThat(ui.call(() -> results.errorsProperty().get())).isEqualTo("30 ok, 0 failed, " + resent
                    + " re-sent after the server closed a pooled connection");
        }
    }

    @Test
    void probeRunsToTheEndAndEveryRecordReachesTheResults() throws Exception {
        ui.run(() -> vm.start(probe("probe-test", 30, 6), runs));
        RunResult r = awaitEnd(30_000);
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        awaitFinalStep();
        RunResult.StepOutcome d = ui.call(() -> results.stepProperty().get());
        assertThat(d.live()).isFalse();
        assertThat(d.stats()).isEqualTo(r.steps().get(0).stats());
        assertThat(d.stats().sent()).isEqualTo(30);
        assertThat(d.cdfs().get("ttft").valuesMs()).hasSize(30);
        assertThat(ui.call(() -> vm.progressProperty().get())).isEqualTo(1.0);
        assertThat(ui.call(() -> vm.progressTextProperty().get())).startsWith("completed · 30 requests");
        // a cold test JVM on a busy 2-core machine may really be saturated (class loading, the toolkit's start): then,
        // and only then, the tier says so
        boolean saturated = d.trust() != null && d.trust().saturated();
        assertThat(ui.call(() -> results.tierProperty().get()))
                .matches("Tier-\\d \\(P95 TTFT .*\\)" + (saturated ? "; as measured, client saturated" : ""));
        assertThat(ui.call(() -> results.sloProperty().get())).contains("TTFT P95").contains("PASS");
        assertThat(ui.call(() -> results.errorsProperty().get())).startsWith("30 ok, 0 failed");
        List<SummaryRow> rows = ui.call(() -> List.copyOf(results.rows()));
        assertThat(rows).extracting(SummaryRow::metric).contains("ttft", "e2e", "ttfb", "tpot");
        assertThat(rows.get(0).definition()).startsWith("TTFT (time to first token)");
        assertThat(rows.get(0).p50()).matches(".*ms \\[.*–.*\\].*");
        Path dir = ui.call(() -> vm.runDirectoryProperty().get());
        assertThat(dir.getParent()).isEqualTo(runs);
        assertThat(Files.readAllLines(dir.resolve(RunLayout.REQUESTS_JSONL))).hasSize(1 + 30); // format line + requests

        // history lists the run and reopens it as the engine concluded it
        HistoryViewModel history = new HistoryViewModel(ui, new RunStore(runs));
        ResultsViewModel reopened = new ResultsViewModel();
        history.setOnOpen((e, rr) -> reopened.show(e.title(), rr));
        ui.run(history::refresh);
        List<RunEntry> entries = ui.call(() -> List.copyOf(history.runs()));
        assertThat(entries).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("probe-test");
            assertThat(e.status()).isEqualTo("completed");
            assertThat(e.kinds()).isEqualTo("probe");
        });
        ui.run(() -> history.open(entries.get(0)));
        ui.run(() -> { });
        assertThat(ui.call(() -> reopened.stepProperty().get().stats())).isEqualTo(r.steps().get(0).stats());
        assertThat(ui.call(() -> List.copyOf(reopened.rows()))).isEqualTo(rows);
        assertThat(ui.call(() -> reopened.tierProperty().get())).isEqualTo(ui.call(() -> results.tierProperty().get()));
    }

    @Test
    void cancelStopsPromptlyAndKeepsFinishedRequests() throws Exception {
        ui.run(() -> vm.start(probe("long-probe", 100_000, 4), runs));
        long until = System.currentTimeMillis() + 20_000;
        while (ui.call(() -> sent(results)) < 10 && System.currentTimeMillis() < until) {
            Thread.sleep(20);
        }
        long t0 = System.nanoTime();
        ui.run(vm::cancel);
        RunResult r = awaitEnd(10_000);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.status()).isEqualTo(RunResult.Status.CANCELLED);
        assertThat(seconds).as("cancel to end, s").isLessThan(5.0);
        awaitFinalStep();
        long kept = ui.call(() -> sent(results));
        assertThat(kept).isEqualTo(r.steps().get(0).stats().sent());
        assertThat(kept).isGreaterThanOrEqualTo(10).isLessThan(100_000);
        assertThat(ui.call(() -> vm.progressTextProperty().get())).startsWith("cancelled");
        Path dir = ui.call(() -> vm.runDirectoryProperty().get());
        assertThat(Files.readAllLines(dir.resolve(RunLayout.REQUESTS_JSONL))).hasSize((int) kept + 1);
    }

    @Test
    void sweepGivesOnePointPerLengthAndAFitAndTwoRunsCompare() throws Exception {
        RunSpec sweep = new RunSpec("sweep-test", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                StatsSettings.DEFAULTS, List.of(new SweepSpec(List.of(256, 1024, 4096), 3, 3, 2, true, false, null, 0)),
                null, null, 2);
        ui.run(() -> vm.start(sweep, runs));
        assertThat(awaitEnd(60_000).status()).isEqualTo(RunResult.Status.COMPLETED);
        awaitFinalStep();
        SweepRunner.SweepResult d = (SweepRunner.SweepResult) ui.call(() -> results.stepProperty().get()).result();
        assertThat(d.points()).extracting(SweepRunner.SweepPoint::contextTokens).containsExactly(256, 1024, 4096);
        assertThat(d.points().get(2).p50TtftMs()).isGreaterThan(d.points().get(0).p50TtftMs());
        assertThat(d.fitP50()).isNotNull();
        assertThat(d.fitP50().alpha()).isBetween(0.2, 1.2);
        assertThat(ui.call(() -> results.fitProperty().get())).startsWith("P50 TTFT ≈");

        ui.run(() -> vm.start(probe("probe-b", 12, 4), runs));
        awaitEnd(30_000);
        RunStore store = new RunStore(runs);
        List<RunEntry> entries = store.list();
        assertThat(entries).hasSize(2);
        CompareViewModel cmp = new CompareViewModel(ui);
        ui.run(() -> cmp.compare(List.of(entries.get(1), entries.get(0))));
        ui.run(() -> { });
        List<CompareViewModel.DiffRow> rows = ui.call(() -> List.copyOf(cmp.rows()));
        assertThat(rows).extracting(CompareViewModel.DiffRow::statistic).contains("TTFT P50", "E2E P99");
        CompareViewModel.DiffRow ttft = rows.stream().filter(x -> x.statistic().equals("TTFT P50")).findFirst()
                .orElseThrow();
        CompareViewModel.Cell a = ttft.cells().get(0);
        CompareViewModel.Cell b = ttft.cells().get(1);
        assertThat(a.baseline()).isTrue();
        // the run's own conclusion: what it wrote, and what reopening it gives
        assertThat(a.valueMs()).isEqualTo(store.open(entries.get(1).directory()).overall().summary("ttft")
                .orElseThrow().pMillis(50));
        assertThat(ui.call(() -> cmp.loadedProperty().get().cdf("ttft", 0).count()))
                .isEqualTo(store.open(entries.get(1).directory()).overall().summary("ttft").orElseThrow().count());
        assertThat(b.deltaMs()).isEqualTo(b.valueMs() - a.valueMs());
        assertThat(b.deltaPct()).isCloseTo(100 * (b.valueMs() - a.valueMs()) / a.valueMs(),
                org.assertj.core.data.Offset.offset(1e-9));

        // rename keeps the engine's files and changes the title; delete removes the directory
        store.rename(entries.get(0).directory(), "baseline probe");
        assertThat(store.read(entries.get(0).directory()).title()).isEqualTo("baseline probe");
        assertThat(store.read(entries.get(0).directory()).name()).isEqualTo("probe-b");
        store.delete(entries.get(1).directory());
        assertThat(store.list()).extracting(RunEntry::title).containsExactly("baseline probe");
    }
}
