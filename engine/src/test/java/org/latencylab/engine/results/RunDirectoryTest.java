package org.latencylab.engine.results;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/** A run directory is never shared by two runs, and an unwritable one is refused in words, through the engine API. */
class RunDirectoryTest {

    private static RunSpec probe(int requests) {
        return new RunSpec("dir-guard", TargetSpec.simulator("zero-latency"), ClientOptions.DEFAULTS, null,
                List.of(new ProbeSpec(requests, 2, 32, 2, true, true, 0)), null, null, 3);
    }

    private static RunResult runInto(Path dir, int requests, boolean overwrite) throws Exception {
        RunResult r = StepCatalog.engine().start(probe(requests), dir, RunListener.NONE, overwrite)
                .await(Duration.ofSeconds(60));
        assertThat(r).as("run finished in time").isNotNull();
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        return r;
    }

    @Test
    void aSecondRunIntoTheSameDirectoryIsRefusedAndTheFirstRunsFilesStayIntact(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        runInto(dir, 5, false);
        byte[] log = Files.readAllBytes(dir.resolve(RunLayout.REQUESTS_JSONL));
        byte[] json = Files.readAllBytes(dir.resolve(RunLayout.RUN_JSON));
        assertThatThrownBy(() -> StepCatalog.engine().start(probe(3), dir, RunListener.NONE))
                .isInstanceOf(RunDirectory.RunDirectoryException.class)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already holds a run")
                .hasMessageContaining(dir.resolve(RunLayout.RUN_JSON).toString())
                .hasMessageContaining("--overwrite");
        assertThat(Files.readAllBytes(dir.resolve(RunLayout.REQUESTS_JSONL))).isEqualTo(log);
        assertThat(Files.readAllBytes(dir.resolve(RunLayout.RUN_JSON))).isEqualTo(json);
        assertThat(RequestLog.read(dir.resolve(RunLayout.REQUESTS_JSONL))).hasSize(5);
    }

    @Test
    void aDirectoryHoldingOnlyARequestLogIsRefusedNamingIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(RunLayout.REQUESTS_JSONL), "");
        assertThatThrownBy(() -> RunDirectory.prepare(dir, false))
                .isInstanceOfSatisfying(RunDirectory.RunDirectoryException.class, e ->
                        assertThat(e.existingRunFile()).isEqualTo(dir.resolve(RunLayout.REQUESTS_JSONL)))
                .hasMessageContaining(dir.resolve(RunLayout.REQUESTS_JSONL).toString());
    }

    @Test
    void overwriteReplacesTheEarlierRunAndKeepsOtherFiles(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("run");
        runInto(dir, 6, false);
        Files.writeString(dir.resolve("notes.txt"), "mine");
        Files.writeString(dir.resolve("cdf-ttft-e2e.png"), "old chart");
        RunResult second = runInto(dir, 3, true);
        // only the second run's requests: nothing appended to the first run's log, so the summary counts 3
        assertThat(RequestLog.read(dir.resolve(RunLayout.REQUESTS_JSONL))).hasSize(3);
        assertThat(second.overall().sent()).isEqualTo(3);
        assertThat(Files.exists(dir.resolve("cdf-ttft-e2e.png"))).as("the earlier run's chart is gone").isFalse();
        assertThat(Files.readString(dir.resolve("notes.txt"))).isEqualTo("mine");
    }

    @Test
    void aPathUnderARegularFileIsNotADirectoryInWords(@TempDir Path tmp) throws Exception {
        Path file = Files.writeString(tmp.resolve("plain.txt"), "x");
        assertThatThrownBy(() -> StepCatalog.engine().start(probe(1), file, RunListener.NONE))
                .isInstanceOf(RunDirectory.RunDirectoryException.class)
                .hasMessage(file + " is a file, not a folder");
        Path under = file.resolve("run");
        assertThatThrownBy(() -> StepCatalog.engine().start(probe(1), under, RunListener.NONE))
                .isInstanceOf(RunDirectory.RunDirectoryException.class)
                .hasMessage("cannot create " + under + ": " + file.toAbsolutePath() + " is a file, not a folder");
    }

    @Test
    void aFolderTheOperatingSystemWillNotCreateIsNamedWithTheReason() {
        Path proc = Path.of("/proc");
        assumeThat(Files.isDirectory(proc.resolve("self"))).as("a Linux /proc, where mkdir answers ENOENT").isTrue();
        Path dir = proc.resolve("latencylab-run");
        assertThatThrownBy(() -> RunDirectory.prepare(dir, false))
                .isInstanceOf(RunDirectory.RunDirectoryException.class)
                .hasMessage("cannot create " + dir + ": no such file or directory");
    }

    @Test
    void aDirectoryWithoutWritePermissionIsRefusedInWords(@TempDir Path tmp) throws Exception {
        assumeThat(System.getProperty("user.name"))
                .as("root writes whatever the permission bits say, so this refusal cannot happen for root")
                .isNotEqualTo("root");
        Path locked = Files.createDirectory(tmp.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            for (Path dir : List.of(locked, locked.resolve("run"))) {
                assertThatThrownBy(() -> RunDirectory.prepare(dir, false))
                        .hasMessageStartingWith("permission denied: " + dir)
                        .message().doesNotContain("Exception");
            }
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void runFilesAreTheOnesARunWrites() {
        assertThat(List.of("run.json", "run.json.tmp", "requests.jsonl", "summary.csv", "load.ttft.hlog",
                "cdf-ttft-e2e-probe2.png", "sweep-fit.png", "load-over-time-load.png", "grid-heatmap-grid.png",
                "cdf-compare-endpoints.png", "ranking-compare-endpoints.png", "baseline-cdf-gateway.png",
                "transports-first-screen-transports.png", "pareto-bench-ttft-throughput.png",
                "batching-heatmap-bench.png"))
                .allMatch(RunLayout::isRunFile);
        assertThat(List.of("notes.txt", "photo.png", "app.json", "scenario.yaml")).noneMatch(RunLayout::isRunFile);
    }
}
