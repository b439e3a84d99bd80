package org.latencylab.engine.experiment;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.sim.SimMain;
import org.latencylab.engine.sim.SimProcess;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** The built-in simulator of a run serves from a process of its own, at a lower priority, gone when the run ends. */
class SimulatorProcessTest {

    @Test
    void aRunsSimulatorServesFromANicedChildProcessThatEndsWithTheRun(@TempDir Path dir) throws Exception {
        ProbeSpec probe = new ProbeSpec(12, 2, 64, 4, true, true, 0);
        RunSpec spec = new RunSpec("child", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, null,
                List.of(probe), null, null, 3);
        List<ProcessHandle> seen = new CopyOnWriteArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void onSnapshot(IntervalSnapshot snapshot) {
            }

            @Override
            public void onStepStarted(String step) {
                simulatorChild().ifPresent(seen::add);
            }
        };
        RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), listener).await(Duration.ofSeconds(90));
        assertThat(r.status()).isEqualTo(RunResult.Status.COMPLETED);
        assertThat(r.steps().get(0).stats().succeeded()).isEqualTo(12);
        assertThat(seen).as("a child process running SimMain while the run measured").hasSize(1);
        ProcessHandle child = seen.get(0);
        assertThat(child.isAlive()).as("the simulator process is stopped when the run ends").isFalse();
        assertThat(r.endpointDescription()).contains("simulator small-fast at http://127.0.0.1:");
        assertThat(r.notices()).noneMatch(n -> n.contains("inside LatencyLab's own process"));
    }

    @Test
    void theSimulatorsCommandRunsSimMainAtNicenessTenWhereNiceExists() throws Exception {
        List<String> cmd = SimProcess.command("small-fast", 5, true);
        assertThat(cmd).contains(SimMain.class.getName(), "--profile", "small-fast", "--seed", "5", "--stamping");
        if (!Files.isExecutable(Path.of("/usr/bin/nice"))) {
            return;
        }
        assertThat(cmd.subList(0, 3)).containsExactly("/usr/bin/nice", "-n", "10");
        try (SimProcess p = SimProcess.start(cmd, Duration.ofSeconds(60))) {
            assertThat(p.baseUrl()).startsWith("http://127.0.0.1:");
            Path stat = Path.of("/proc", Long.toString(p.pid()), "stat");
            if (Files.exists(stat)) {
                String s = Files.readString(stat);
                // proc(5): after the command name in parentheses, field 3 (state) comes first; nice is field 19
                String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
                assertThat(Integer.parseInt(f[19 - 3])).isEqualTo(SimProcess.NICENESS);
            }
        }
    }

    private static Optional<ProcessHandle> simulatorChild() {
        return ProcessHandle.current().descendants().filter(p -> commandLine(p).contains(SimMain.class.getName()))
                .findFirst();
    }

    /** The whole command line: {@code ProcessHandle.Info} cuts a long one (a test class path) short on Linux. */
    private static String commandLine(ProcessHandle p) {
        Path proc = Path.of("/proc", Long.toString(p.pid()), "cmdline");
        try {
            if (Files.exists(proc)) {
                return Files.readString(proc).replace('\0', ' ');
            }
        } catch (java.io.IOException e) {
            return ""; // the process ended
        }
        return p.info().commandLine().orElse("");
    }
}
