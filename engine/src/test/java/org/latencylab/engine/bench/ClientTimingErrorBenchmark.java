package org.latencylab.engine.bench;

import org.HdrHistogram.Histogram;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.scenario.StepCatalog;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark (not a test): the client's own timing error, i.e. for every token event the client's receive time minus
 * the simulator's send stamp ({@code x_sent_ns}; both {@code System.nanoTime()} of the same JVM), at several
 * numbers of concurrent streams. Run:
 * <pre>
 * mvn -q -pl engine -am test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=org.latencylab.engine.bench.ClientTimingErrorBenchmark -Dexec.args="1 64 256"
 * </pre>
 * Uses the {@code llama-8b-class} profile (25 ms per token, so each stream carries about 40 events/s).
 */
public final class ClientTimingErrorBenchmark {
    private ClientTimingErrorBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int[] levels = args.length == 0 ? new int[]{1, 64, 256} : java.util.Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        System.out.printf(Locale.ROOT, "%-8s %8s %10s %10s %10s %10s%n", "streams", "events", "P50 [µs]", "P99 [µs]",
                "P99.9 [µs]", "max [µs]");
        for (int c : levels) {
            Path dir = Files.createTempDirectory("latencylab-bench-");
            int requests = Math.max(3 * c, 30);
            ProbeSpec probe = new ProbeSpec(requests, c, 128, 64, true, true, Math.min(c, 16));
            RunSpec spec = new RunSpec("timing-error-" + c, new TargetSpec(null, "llama-8b-class", true),
                    ClientOptions.DEFAULTS.withKeepText(false), null, List.of(probe), null, null, 1);
            RunResult r = StepCatalog.engine().start(spec, dir.resolve("run"), RunListener.NONE).await();
            Histogram h = new Histogram(3_600_000_000_000L, 3);
            for (RequestRecord rec : RequestLog.read(dir.resolve("run/requests.jsonl"))) {
                TokenTimeline t = rec.tokens();
                for (int i = 0; i < t.size(); i++) {
                    if (t.serverStampNanos(i) != RequestRecord.UNSET) {
                        h.recordValue(Math.max(0, t.arrivalNanos(i) - t.serverStampNanos(i)));
                    }
                }
            }
            System.out.printf(Locale.ROOT, "%-8d %8d %10.1f %10.1f %10.1f %10.1f   (%s, %d ok)%n", c, h.getTotalCount(),
                    h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3,
                    h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3, r.status().id(), r.overall().succeeded());
        }
    }
}
