package org.latencylab.app.ui.run;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.app.ui.background.SerialUiExecutor;
import org.latencylab.app.ui.history.CompareViewModel;
import org.latencylab.app.ui.history.HistoryViewModel;
import org.latencylab.app.ui.history.RunEntry;
import org.latencylab.app.ui.history.RunStore;
import org.latencylab.app.ui.results.ResultData;
import org.latencylab.app.ui.results.ResultsViewModel;
import org.latencylab.app.ui.results.SummaryRow;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.RunResult;
import org.latencylab.engine.experiment.RunSpec;
import org.latencylab.engine.experiment.StatsSettings;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.experiment.TargetSpec;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Run control and results against the real engine and the built-in simulator, without the JavaFX toolkit. */
class RunViewModelTest {
    @TempDir
    Path runs;
    private final SerialUiExecutor ui = new SerialUiExecutor();
    private final ResultsViewModel results = new ResultsViewModel(ui);
    private final RunViewModel vm = new RunViewModel(ui, StepCatalog.engine()::start, results);

    @AfterEach
    void close() throws Exception {
        ui.run(vm::cancel);
        ui.close();
    }

    private static RunSpec probe(String name, int requests, int concurrency) {
        return new RunSpec(name, TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                new StatsSettings(null, null, List.of(new StatsSettings.SloSpec("ttft", 95.0, 5000.0))),
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

    @Test
    void probeRunsToTheEndAndEveryRecordReachesTheResults() throws Exception {
        ui.run(() -> vm.start(probe("probe-test", 30, 6), runs));
        RunResult r = awaitEnd(30_000);
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        Thread.sleep(100);
        ResultData d = ui.call(() -> results.dataProperty().get());
        assertThat(d.records()).isEqualTo(30);
        assertThat(d.ttftMs()).hasSize(30);
        assertThat(ui.call(() -> vm.progressProperty().get())).isEqualTo(1.0);
        assertThat(ui.call(() -> vm.progressTextProperty().get())).startsWith("completed · 30 requests");
        assertThat(ui.call(() -> results.tierProperty().get())).matches("Tier-\\d \\(P95 TTFT .*\\)");
        assertThat(ui.call(() -> results.sloProperty().get())).contains("TTFT P95").contains("PASS");
        assertThat(ui.call(() -> results.errorsProperty().get())).startsWith("30 ok, 0 failed");
        List<SummaryRow> rows = ui.call(() -> List.copyOf(results.rows()));
        assertThat(rows).extracting(SummaryRow::metric).contains("ttft", "e2e", "ttfb", "tpot");
        assertThat(rows.get(0).definition()).startsWith("TTFT (time to first token)");
        assertThat(rows.get(0).p50()).matches(".*ms \\[.*–.*\\].*");
        Path dir = ui.call(() -> vm.runDirectoryProperty().get());
        assertThat(dir.getParent()).isEqualTo(runs);
        assertThat(Files.readAllLines(dir.resolve(RequestLog.FILE_NAME))).hasSize(30);

        // history lists the run and reopens it with the same records
        HistoryViewModel history = new HistoryViewModel(ui, new RunStore(runs));
        ResultsViewModel reopened = new ResultsViewModel(ui);
        history.setOnOpen((e, recs) -> reopened.show(e.title(), recs, StatsSettings.DEFAULTS));
        ui.run(history::refresh);
        List<RunEntry> entries = ui.call(() -> List.copyOf(history.runs()));
        assertThat(entries).singleElement().satisfies(e -> {
            assertThat(e.name()).isEqualTo("probe-test");
            assertThat(e.status()).isEqualTo("completed");
            assertThat(e.kinds()).isEqualTo("probe");
        });
        ui.run(() -> history.open(entries.get(0)));
        ui.run(() -> { });
        assertThat(ui.call(() -> reopened.dataProperty().get().records())).isEqualTo(30);
    }

    @Test
    void cancelStopsPromptlyAndKeepsFinishedRequests() throws Exception {
        ui.run(() -> vm.start(probe("long-probe", 100_000, 4), runs));
        long until = System.currentTimeMillis() + 20_000;
        while (ui.call(() -> results.records().size()) < 10 && System.currentTimeMillis() < until) {
            Thread.sleep(20);
        }
        long t0 = System.nanoTime();
        ui.run(vm::cancel);
        RunResult r = awaitEnd(10_000);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertThat(r.status()).isEqualTo(RunResult.Status.CANCELLED);
        assertThat(seconds).as("cancel to end, s").isLessThan(5.0);
        Thread.sleep(100);
        int kept = ui.call(() -> results.records().size());
        assertThat(kept).isGreaterThanOrEqualTo(10).isLessThan(100_000);
        assertThat(ui.call(() -> vm.progressTextProperty().get())).startsWith("cancelled");
        Path dir = ui.call(() -> vm.runDirectoryProperty().get());
        assertThat(Files.readAllLines(dir.resolve(RequestLog.FILE_NAME))).hasSize(kept);
    }

    @Test
    void sweepGivesOnePointPerLengthAndAFitAndTwoRunsCompare() throws Exception {
        RunSpec sweep = new RunSpec("sweep-test", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                StatsSettings.DEFAULTS, List.of(new SweepSpec(List.of(256, 1024, 4096), 3, 3, 2, true, false, null, 0)),
                null, null, 2);
        ui.run(() -> vm.start(sweep, runs));
        assertThat(awaitEnd(60_000).status()).isEqualTo(RunResult.Status.COMPLETED);
        Thread.sleep(100);
        ResultData d = ui.call(() -> results.dataProperty().get());
        assertThat(d.sweepPoints()).extracting(ResultData.SweepPoint::contextTokens).containsExactly(256, 1024, 4096);
        assertThat(d.sweepPoints().get(2).p50Ms()).isGreaterThan(d.sweepPoints().get(0).p50Ms());
        assertThat(d.fit()).isNotNull();
        assertThat(d.fit().alpha()).isBetween(0.2, 1.2);
        assertThat(ui.call(() -> results.fitProperty().get())).startsWith("P50 TTFT ≈");

        ui.run(() -> vm.start(probe("probe-b", 12, 4), runs));
        awaitEnd(30_000);
        RunStore store = new RunStore(runs);
        List<RunEntry> entries = store.list();
        assertThat(entries).hasSize(2);
        CompareViewModel cmp = new CompareViewModel(ui);
        ui.run(() -> cmp.compare(store, entries.get(1), entries.get(0), StatsSettings.DEFAULTS));
        ui.run(() -> { });
        List<CompareViewModel.DiffRow> rows = ui.call(() -> List.copyOf(cmp.rows()));
        assertThat(rows).extracting(CompareViewModel.DiffRow::statistic).contains("TTFT P50", "E2E P99");
        CompareViewModel.DiffRow ttft = rows.stream().filter(x -> x.statistic().equals("TTFT P50")).findFirst()
                .orElseThrow();
        assertThat(ttft.aMs()).isEqualTo(ui.call(() -> cmp.pairProperty().get().dataA().report().summary("ttft")
                .orElseThrow().pMillis(50)));
        assertThat(ttft.deltaMs()).isEqualTo(ttft.bMs() - ttft.aMs());

        // rename keeps the engine's files and changes the title; delete removes the directory
        store.rename(entries.get(0).directory(), "baseline probe");
        assertThat(store.read(entries.get(0).directory()).title()).isEqualTo("baseline probe");
        assertThat(store.read(entries.get(0).directory()).name()).isEqualTo("probe-b");
        store.delete(entries.get(1).directory());
        assertThat(store.list()).extracting(RunEntry::title).containsExactly("baseline probe");
    }
}
