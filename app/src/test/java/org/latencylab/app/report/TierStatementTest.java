package org.latencylab.app.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.app.ui.results.MetricGlossary;
import org.latencylab.app.ui.results.ResultsViewModel;
import org.latencylab.app.ui.steps.StepRow;
import org.latencylab.app.ui.steps.StepsViewModel;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.scenario.StepCatalog;
import org.latencylab.engine.stats.StatsReport;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console, the HTML report, the window's steps table and its Results header give one tier statement per step,
 * from a real run of a probe, a sweep and a load step against the built-in simulator on loopback.
 */
class TierStatementTest {
    @TempDir
    Path dir;

    private static RunSpec probeSweepLoad() {
        return new RunSpec("tier-statement", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, null,
                List.of(new ProbeSpec(20, 4, 64, 4, true, true, 0),
                        new SweepSpec(List.of(128, 512, 2048), 4, 4, 4, true, true, List.of(), 0),
                        LoadSpec.builder().rate(30.0).arrival(ArrivalProcess.CONSTANT).duration(Duration.ofSeconds(2))
                                .warmup(Duration.ofSeconds(1)).contextTokens(64).maxOutputTokens(4).stream(true)
                                .build()),
                null, null, 41);
    }

    /** @return the first group of {@code regex} in {@code text} */
    private static String first(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as("%s in:%n%s", regex, text).isTrue();
        return m.group(1);
    }

    private static String section(String text, String start, String next) {
        int from = text.indexOf(start);
        assertThat(from).as(start).isNotNegative();
        int to = next == null ? text.length() : text.indexOf(next, from);
        return text.substring(from, to < 0 ? text.length() : to);
    }

    @Test
    void consoleReportStepsTableAndHeaderSayTheSameTierForAProbeASweepPerLengthAndALoadStep() throws Exception {
        Path runDir = dir.resolve("run");
        RunResult run = StepCatalog.engine().start(probeSweepLoad(), runDir, RunListener.NONE)
                .await(Duration.ofSeconds(120));
        assertThat(run.status()).isEqualTo(RunResult.Status.COMPLETED);
        assertThat(run.steps()).extracting(RunResult.StepOutcome::label).containsExactly("probe", "sweep", "load");

        StringWriter console = new StringWriter();
        ConsoleReport.print(run, List.of(), new PrintWriter(console, true));
        String page = Files.readString(HtmlReport.write(List.of(runDir), 0, dir.resolve("report.html")));
        StepsViewModel table = new StepsViewModel();
        table.showRun(run);
        ResultsViewModel header = new ResultsViewModel();
        header.show("tier-statement", run);

        List<String> labels = List.of("probe", "sweep", "load");
        for (int i = 0; i < labels.size(); i++) {
            RunResult.StepOutcome step = run.steps().get(i);
            String next = i + 1 < labels.size() ? labels.get(i + 1) : null;
            String expected = expectedStatement(step);

            String onConsole = first(section(console.toString(), "== " + labels.get(i) + " (",
                    next == null ? "\ntrust check: " : "== " + next + " ("), "\ntier: (.*?)(?: as measured.*)?(?:; P95 .*)?\n");
            String inReport = first(section(page, "<h3>Step " + labels.get(i) + " (",
                    next == null ? "<h2>" : "<h3>Step " + next + " ("), "<p>Tier: (.*?)(?: as measured[^<]*)?</p>");
            StepRow row = table.steps().get(i);
            header.select(labels.get(i));
            String inHeader = header.tierProperty().get();

            assertThat(onConsole).as(labels.get(i) + " on the console").isEqualTo(expected);
            assertThat(inReport).as(labels.get(i) + " in the report").isEqualTo(expected);
            assertThat(row.tier()).as(labels.get(i) + " in the steps table").isEqualTo(expected);
            boolean saturated = step.clientSaturated(run.trust()) && step.stepTier() != null;
            assertThat(inHeader).as(labels.get(i) + " in the header")
                    .isEqualTo(expected + (saturated ? "; as measured, client saturated" : ""));
        }
        assertThat(expectedStatement(run.steps().get(1)))
                .matches("per context length \\(P95 TTFT\\): 128 tokens Tier-\\d, 512 tokens Tier-\\d,"
                        + " 2048 tokens Tier-\\d");
    }

    /** The statement written out by hand from the engine's own tiers and P95s (the engine judged; nothing here). */
    private static String expectedStatement(RunResult.StepOutcome step) {
        if ("sweep".equals(step.type())) {
            List<String> each = new ArrayList<>();
            for (Map.Entry<String, StatsReport> p : step.parts().entrySet()) {
                each.add(p.getKey().substring("sweep-".length()) + " tokens " + p.getValue().tier().name());
            }
            return "per context length (P95 TTFT): " + String.join(", ", each);
        }
        StatsReport r = step.stats();
        // an open-loop load step is judged on TTFT from its intended start (coordinated omission), the probe on TTFT
        assertThat(r.tierMetric()).isEqualTo("load".equals(step.type()) ? "ttft_from_intended" : "ttft");
        return r.tier().name() + " (P95 " + MetricGlossary.displayName(r.tierMetric()) + " "
                + Units.ms(r.summary(r.tierMetric()).orElseThrow().pMillis(95.0)) + ")";
    }
}
