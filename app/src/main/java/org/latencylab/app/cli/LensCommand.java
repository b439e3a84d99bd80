package org.latencylab.app.cli;

import org.latencylab.engine.results.RunLayout;
import org.latencylab.app.report.Units;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.lens.MetricDefinition;
import org.latencylab.engine.lens.MetricLens;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.stats.MetricSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code latencylab lens RUN_DIR}: TTFT, ITL, TPOT and E2E under each tool's definitions. */
@Command(name = "lens", mixinStandardHelpOptions = true,
        description = {"Recompute TTFT, ITL, TPOT and E2E of a run's requests under the definitions of vLLM bench"
                + " serve, GuideLLM and AIPerf next to LatencyLab's, to explain why tools disagree on one server."})
final class LensCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "a run directory")
    Path dir;

    @Override
    public Integer call() {
        Path log = dir.resolve(RunLayout.REQUESTS_JSONL);
        if (!Files.isRegularFile(log)) {
            throw new IllegalArgumentException(dir + ": not a run directory (no " + RunLayout.REQUESTS_JSONL + ")");
        }
        List<RequestRecord> records = RequestLog.read(log);
        Map<MetricDefinition, MetricLens.View> views = MetricLens.apply(records);
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "%d successful streamed requests; %d with a role-only first chunk before the first"
                + " token%n%n", views.get(MetricDefinition.LATENCYLAB).ttft().count(),
                MetricLens.requestsWithEarlyChunk(records));
        out.printf(Locale.ROOT, "%-18s %-22s %-22s %-22s %-22s%n", "definitions of", "TTFT P50 / P95",
                "ITL P50 / P95", "TPOT P50 / P95", "E2E P50 / P95");
        for (MetricLens.View v : views.values()) {
            out.printf(Locale.ROOT, "%-18s %-22s %-22s %-22s %-22s%n", v.definition().displayName(), pair(v.ttft()),
                    pair(v.itl()), pair(v.tpot()), pair(v.e2e()));
        }
        out.println();
        for (MetricDefinition d : MetricDefinition.values()) {
            out.printf(Locale.ROOT, "%s: TTFT stops at the %s; ITL = %s; TPOT = %s (source: %s)%n", d.displayName(),
                    d.ttftRule(), d.itlRule(), d.tpotRule(), d.source());
        }
        return ExitCodes.OK;
    }

    private static String pair(MetricSummary s) {
        return s.count() == 0 ? "–" : Units.ms(s.pMillis(50)) + " / " + Units.ms(s.pMillis(95));
    }
}
