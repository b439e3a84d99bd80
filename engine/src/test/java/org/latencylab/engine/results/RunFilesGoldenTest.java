package org.latencylab.engine.results;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.api.ClockOrigin;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.experiment.ProbeRunner;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden files: {@code run.json} and {@code summary.csv} of a fixed set of requests are exactly the files kept
 * under {@code src/test/resources/golden/}, whatever the default locale (a German or Turkish locale must not turn
 * decimal points into commas or {@code i} into {@code İ}). The environment fields that name the machine (versions,
 * OS, architecture, CPUs) are left out of the comparison; the run's own (clock, clock origin, HTTP path) are in it. To accept an intended format change, run with {@code -Dgolden.update=true} and review the
 * diff.
 */
class RunFilesGoldenTest {
    private static final Path SOURCE = Path.of("src/test/resources/golden");

    /** A probe with a failure and a warmup request, and a two-length sweep, with fixed timestamps. */
    static RunResult fixedRun(Path dir) {
        ProbeSpec probe = new ProbeSpec(4, 2, 64, 4, true, true, 1);
        SweepSpec sweep = new SweepSpec(List.of(128, 512), 2, 1, 4, true, false, List.of(), 0);
        RunSpec spec = new RunSpec("golden", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS,
                RunReaderTest.OWN_TIERS, List.of(probe, sweep), null, null, 7);
        RunModel m = new RunModel(spec, 0, false);
        m.startStep("probe", probe);
        m.add(rec(0, "probe", "probe", Phase.WARMUP, 0, 900, 0));
        for (int i = 1; i <= 4; i++) {
            m.add(rec(i, "probe", "probe", Phase.MEASURED, 1_000L * i, 40 + 7 * i, 3));
        }
        RequestRecord.Builder failed = RequestRecord.builder();
        failed.id = 5;
        failed.label = "probe";
        failed.step = "probe";
        failed.intendedStartNanos = 5_000_000_000L;
        failed.sendNanos = 5_000_000_000L;
        failed.endNanos = 5_010_000_000L;
        failed.attempts = 1;
        failed.httpStatus = 500;
        failed.error(ErrorKind.HTTP_STATUS, "HTTP 500: overloaded");
        m.add(failed.build());
        m.finishStep(new ProbeRunner.ProbeResult("probe", "probe", 4, 2, 64));
        m.startStep("sweep", sweep);
        m.add(rec(6, "sweep-128", "sweep", Phase.MEASURED, 6_000, 30, 2));
        m.add(rec(7, "sweep-128", "sweep", Phase.MEASURED, 6_200, 32, 2));
        m.add(rec(8, "sweep-512", "sweep", Phase.MEASURED, 6_400, 61, 2));
        m.add(rec(9, "sweep-512", "sweep", Phase.MEASURED, 6_600, 66, 2));
        m.finishStep(new SweepRunner.SweepResult("sweep", "sweep", true, List.of(), null, null,
                "no power-law fit: it needs at least 3 context lengths with successful requests, got 2", List.of()));
        return new RunResult("golden", RunResult.Status.COMPLETED, null, dir, Instant.parse("2026-11-30T09:00:00Z"),
                Duration.ofMillis(7_250), "simulator small-fast", spec, m.steps(), m.overall(),
                List.of("no power-law fit: it needs at least 3 context lengths with successful requests, got 2"),
                new ClockOrigin(1_000_000_000L, 1_796_029_200_000_000L, 2_000L),
                new TrustCheck(0.1, 0.25, 0.5, 7_250, 0.5, 0.125, 0.2, 100.0, false, "the client kept up", 0.0625),
                org.latencylab.engine.api.HttpPath.DIRECT_HTTP1);
    }

    /** A successful streamed request: sent at {@code sendMs}, first token after {@code ttftMs}, then 3 tokens. */
    private static RequestRecord rec(long id, String label, String step, Phase phase, long sendMs, long ttftMs,
                                     int gapMs) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = id;
        b.label = label;
        b.step = step;
        b.phase = phase;
        b.contextTokens = label.startsWith("sweep-") ? Integer.parseInt(label.substring(6)) : 64;
        long send = sendMs * 1_000_000L;
        long first = send + ttftMs * 1_000_000L;
        b.intendedStartNanos = send;
        b.sendNanos = send;
        b.responseHeadersNanos = send + 2_000_000L;
        b.firstByteNanos = send + 3_000_000L;
        b.firstTokenNanos = first;
        b.firstContentNanos = first;
        long gap = gapMs * 1_000_000L;
        b.tokens = new TokenTimeline(new long[]{first, first + gap, first + 2 * gap},
                new int[]{1, 1, 1}, new long[]{RequestRecord.UNSET, RequestRecord.UNSET, RequestRecord.UNSET});
        b.endNanos = first + 2 * gap + 1_000_000L;
        b.outputTokens = 3;
        b.outputTokenSource = TokenSource.SERVER;
        b.inputTokens = b.contextTokens;
        b.attempts = 1;
        b.httpStatus = 200;
        return b.build();
    }

    @Test
    void runJsonAndSummaryCsvMatchTheGoldenFilesInEveryLocale(@TempDir Path tmp) throws Exception {
        Locale before = Locale.getDefault();
        try {
            for (Locale l : List.of(Locale.ROOT, Locale.GERMANY, Locale.forLanguageTag("tr-TR"))) {
                Locale.setDefault(l);
                Path dir = Files.createDirectories(tmp.resolve(l.toLanguageTag()));
                RunResult r = fixedRun(dir);
                ObjectNode json = RunFiles.finished(r);
                // the fields that name the machine are left out; the run's own (clock origin, HTTP path) are compared
                ((ObjectNode) json.get("environment")).remove(List.of("latencylab_version", "java_version",
                        "java_vendor", "os", "arch", "cpus"));
                String runJson = RunFiles.mapper().writeValueAsString(json) + "\n";
                RunFiles.writeSummaryCsv(dir, r);
                String csv = Files.readString(dir.resolve(RunLayout.SUMMARY_CSV), StandardCharsets.UTF_8);
                if (Boolean.getBoolean("golden.update") && l.equals(Locale.ROOT)) {
                    Files.createDirectories(SOURCE);
                    Files.writeString(SOURCE.resolve("run.json"), runJson, StandardCharsets.UTF_8);
                    Files.writeString(SOURCE.resolve("summary.csv"), csv, StandardCharsets.UTF_8);
                }
                assertThat(runJson).as("run.json in locale " + l).isEqualTo(golden("run.json"));
                assertThat(csv).as("summary.csv in locale " + l).isEqualTo(golden("summary.csv"));
            }
        } finally {
            Locale.setDefault(before);
        }
    }

    private static String golden(String name) throws IOException {
        try (InputStream in = RunFilesGoldenTest.class.getResourceAsStream("/golden/" + name)) {
            return new String(Objects.requireNonNull(in, "missing golden file " + name).readAllBytes(),
                    StandardCharsets.UTF_8);
        }
    }
}
