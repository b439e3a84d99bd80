package org.latencylab.app.cli;

import org.junit.jupiter.api.Test;
import org.latencylab.app.report.Eta;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressPrinterTest {
    private static final long S = 1_000_000_000L;

    private static RunSpec spec() {
        return StepCatalog.loader().parse(new ByteArrayInputStream("""
                format: 1
                name: two-probes
                endpoint: {builtin: sim, profile: small-fast}
                experiments:
                  - {type: probe, requests: 100, concurrency: 4}
                  - {type: probe, requests: 20, concurrency: 1}
                """.getBytes(StandardCharsets.UTF_8)), "two-probes.yaml");
    }

    private static IntervalSnapshot snapshot(String step, long completed, boolean finished) {
        return new IntervalSnapshot("two-probes", step, completed * S / 10, completed, 120, 2, completed, Map.of(), 0,
                0, 0, List.of(), finished, 0);
    }

    @Test
    void onATerminalTheLineIsRewrittenInPlaceAndAShorterLineWipesTheLongerOne() {
        StringWriter out = new StringWriter();
        RunExecution.ProgressPrinter p = new RunExecution.ProgressPrinter(new PrintWriter(out), new Eta.Steps(spec()),
                true);
        p.onSnapshot(snapshot("", 0, false)); // before the first step: the first line of all (nothing to wipe)
        p.onSnapshot(snapshot("probe", 57, false));
        p.onSnapshot(snapshot("probe2", 101, false));
        p.onSnapshot(snapshot("", 120, true));
        String text = out.toString();
        String[] lines = text.substring(1).split("\r", -1);
        assertThat(text).startsWith("\r").doesNotContain("\n");
        assertThat(lines).hasSize(4);
        assertThat(lines[0]).startsWith("starting").contains("run      0/120 done");
        assertThat(lines[1]).startsWith("probe ").contains("run     57/120 done").contains("57 ok");
        assertThat(lines[2]).startsWith("probe2").contains("run    101/120 done");
        assertThat(lines[3]).startsWith("total").contains("run    120/120 done");
        for (int i = 1; i < lines.length; i++) { // every line covers the one before it
            assertThat(lines[i].length()).isGreaterThanOrEqualTo(lines[i - 1].length());
        }
    }

    @Test
    void inALogEachLineEndsWithANewlineAndLinesComeAtMostEveryTwoSecondsUntilTheLast() {
        StringWriter out = new StringWriter();
        RunExecution.ProgressPrinter p = new RunExecution.ProgressPrinter(new PrintWriter(out), new Eta.Steps(spec()),
                false);
        p.onSnapshot(snapshot("probe", 10, false));
        p.onSnapshot(snapshot("probe", 11, false)); // right after: skipped
        p.onSnapshot(snapshot("", 120, true)); // the last line always comes
        List<String> lines = out.toString().lines().toList();
        assertThat(out.toString()).doesNotContain("\r");
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("probe").contains("run     10/120 done");
        assertThat(lines.get(1)).startsWith("total").contains("run    120/120 done");
    }
}
