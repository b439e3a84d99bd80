package org.latencylab.engine.results.bench;

import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Phase;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.results.RunModel;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.TargetSpec;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The result model's own cost on the 10-minute 200 req/s soak, without a server or a client (a benchmark, not a
 * test). Feeds {@code REQUESTS} synthetic streamed records of {@code GAPS} inter-token gaps each (default 113,790 ×
 * 63 ≈ 7.2 M gaps, the soak's figures) into a {@link RunModel} as the run engine does, then ends the step (the exact
 * summaries are computed here) and prints the heap in use after a full GC before and after, the time to end the step
 * and the GC pauses meanwhile. Run from the repository root after {@code mvn -pl engine -am test-compile}:
 * <pre>
 * java -Xmx512m -cp engine/target/classes:engine/target/test-classes:$(cat cp.txt) \
 *     org.latencylab.engine.results.bench.ResultModelBenchmark [REQUESTS] [GAPS]
 * </pre>
 */
public final class ResultModelBenchmark {
    private ResultModelBenchmark() {
    }

    /** @param args optional request count and gaps per request */
    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 113_790;
        int gaps = args.length > 1 ? Integer.parseInt(args[1]) : 63;
        LoadSpec load = LoadSpec.builder().rate(200.0).arrival(ArrivalProcess.POISSON).duration(Duration.ofMinutes(10))
                .contextTokens(512).maxOutputTokens(gaps + 1).stream(true).tierMetric("ttft_from_intended").build();
        RunSpec spec = new RunSpec("soak", TargetSpec.simulator("small-fast"), ClientOptions.DEFAULTS, null,
                List.of(load), null, null, 1);
        long before = usedAfterGc();
        RunModel model = new RunModel(spec, 0, true);
        model.startStep("load", load);
        Random rnd = new Random(1);
        long t0 = System.nanoTime();
        for (int i = 0; i < requests; i++) {
            model.add(record(i, gaps, rnd));
        }
        long fed = System.nanoTime();
        long during = usedAfterGc();
        long gcBefore = gcMillis();
        long s0 = System.nanoTime();
        RunResult.StepOutcome o = model.finishStep(null);
        long s1 = System.nanoTime();
        long gcDuring = gcMillis() - gcBefore;
        long after = usedAfterGc();
        System.out.printf(Locale.ROOT, "requests %d, gaps %d (ITL samples %d)%n", requests, (long) requests * gaps,
                o.stats().summary("itl").orElseThrow().count());
        System.out.printf(Locale.ROOT, "feeding: %.1f s (%.1f µs per request)%n", (fed - t0) / 1e9,
                (fed - t0) / 1e3 / requests);
        System.out.printf(Locale.ROOT, "heap in use after GC: %.0f MB before, %.0f MB with the step fed, %.0f MB"
                + " after its summary%n", before / 1e6, during / 1e6, after / 1e6);
        System.out.printf(Locale.ROOT, "ending the step (exact summaries, sorted once): %.0f ms; GC time meanwhile"
                + " %d ms%n", (s1 - s0) / 1e6, gcDuring);
        System.out.printf(Locale.ROOT, "P99 TTFT %.1f ms, P99 ITL %.2f ms%n",
                o.stats().summary("ttft").orElseThrow().pMillis(99), o.stats().summary("itl").orElseThrow().pMillis(99));
    }

    private static RequestRecord record(int i, int gaps, Random rnd) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = i;
        b.label = "load";
        b.step = "load";
        b.phase = Phase.MEASURED;
        long intended = i * 5_000_000L;
        long send = intended + rnd.nextInt(200_000);
        long first = send + 20_000_000L + (long) (rnd.nextDouble() * rnd.nextDouble() * 400_000_000L);
        long[] arrivals = new long[gaps + 1];
        int[] tokens = new int[gaps + 1];
        long[] stamps = new long[gaps + 1];
        long t = first;
        for (int k = 0; k <= gaps; k++) {
            arrivals[k] = t;
            tokens[k] = 1;
            stamps[k] = RequestRecord.UNSET;
            t += 3_000_000L + rnd.nextInt(3_000_000);
        }
        b.intendedStartNanos = intended;
        b.sendNanos = send;
        b.responseHeadersNanos = send + 5_000_000L;
        b.firstByteNanos = send + 6_000_000L;
        b.firstTokenNanos = first;
        b.firstContentNanos = first;
        b.tokens = new TokenTimeline(arrivals, tokens, stamps);
        b.endNanos = arrivals[gaps] + 500_000L;
        b.outputTokens = gaps + 1;
        b.outputTokenSource = TokenSource.SERVER;
        b.attempts = 1;
        b.httpStatus = 200;
        return b.build();
    }

    private static long usedAfterGc() {
        System.gc();
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }

    private static long gcMillis() {
        long sum = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, g.getCollectionTime());
        }
        return sum;
    }
}
