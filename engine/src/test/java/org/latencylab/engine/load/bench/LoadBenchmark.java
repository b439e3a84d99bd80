package org.latencylab.engine.load.bench;

import org.HdrHistogram.Histogram;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.load.LoadStepRunner;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load-generator benchmarks (not tests). Run from the repository root after {@code mvn -pl engine -am test-compile}:
 * <pre>
 * java -cp engine/target/classes:engine/target/test-classes:$(cat cp.txt) \
 *     org.latencylab.engine.load.bench.LoadBenchmark maxrate|timing|heap [options]
 * </pre>
 * <ul>
 *   <li>{@code maxrate C SECONDS}: closed loop of C workers, non-streaming, against the zero-latency simulator;
 *       prints achieved req/s, then (when {@code wrk} is on the PATH) runs {@code wrk -t2 -cC -dSECONDS} with a Lua
 *       POST script carrying the same body on the same simulator, and prints the ratio.</li>
 *   <li>{@code timing STREAMS SECONDS}: the simulator in stamping mode streaming 20 events/s per stream;
 *       STREAMS closed-loop workers; prints percentiles of (client receive − server stamp).</li>
 *   <li>{@code heap STREAMS}: STREAMS long streams in flight; prints heap after GC per in-flight stream.</li>
 * </ul>
 */
public final class LoadBenchmark {
    private LoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        switch (args.length == 0 ? "" : args[0]) {
            case "maxrate" -> maxRate(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "timing" -> timing(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "heap" -> heap(Integer.parseInt(args[1]));
            default -> System.err.println("usage: LoadBenchmark maxrate C SECONDS | timing STREAMS SECONDS | heap STREAMS");
        }
    }

    /** A step context without files: sends with the client, counts, keeps records only when asked. */
    static final class BenchContext implements StepContext {
        final LlmClient client;
        final Endpoint endpoint;
        final AtomicLong ids = new AtomicLong();
        final AtomicInteger inFlight = new AtomicInteger();
        final ConcurrentLinkedQueue<RequestRecord> kept = new ConcurrentLinkedQueue<>();
        final boolean keep;
        final Path dir;

        BenchContext(LlmClient client, Endpoint endpoint, boolean keep, Path dir) {
            this.client = client;
            this.endpoint = endpoint;
            this.keep = keep;
            this.dir = dir;
        }

        @Override public Endpoint endpoint() { return endpoint; }
        @Override public ClientOptions clientOptions() { return client.options(); }
        @Override public RequestRecord send(GenerationRequest r, RequestTicket t) { return client.execute(endpoint, r, t); }
        @Override public String prompt(int tokens, boolean cold) { return "hello ".repeat(tokens); }
        @Override public long nextRequestId() { return ids.getAndIncrement(); }
        @Override public void finished(RequestRecord record) { if (keep) { kept.add(record); } }
        @Override public void inFlight(int d) { inFlight.addAndGet(d); }
        @Override public void targetRate(double rps) { }
        @Override public boolean cancelled() { return false; }
        @Override public void notice(String message) { System.err.println("notice: " + message); }
        @Override public Path runDirectory() { return dir; }
    }

    static void maxRate(int connections, int seconds) throws Exception {
        Path dir = Files.createTempDirectory("load-bench");
        try (SimServer sim = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS.withKeepText(false))) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            BenchContext ctx = new BenchContext(client, ep, false, dir);
            LoadSpec warm = LoadSpec.builder().concurrency(connections).duration(Duration.ofSeconds(3))
                    .contextTokens(8).maxOutputTokens(4).stream(false).build();
            new LoadStepRunner().run(warm, "warm", ctx);
            LoadSpec spec = warm.toBuilder().duration(Duration.ofSeconds(seconds)).build();
            LoadResult r = new LoadStepRunner().run(spec, "maxrate", ctx);
            double ours = r.totals().achievedRateRps();
            System.out.printf(Locale.ROOT, "latencylab closed loop c=%d %ds: %.0f req/s (failed %d), E2E p50 %.2f ms p99 %.2f ms%n",
                    connections, seconds, ours, r.totals().failed(), r.totals().e2eSend().p50Ms(),
                    r.totals().e2eSend().p99Ms());
            String body = "{\"model\":\"" + ep.model() + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                    + "hello ".repeat(8).strip() + "\"}],\"max_tokens\":4,\"stream\":false}";
            Path lua = dir.resolve("post.lua");
            Files.writeString(lua, "wrk.method = \"POST\"\nwrk.body = '" + body + "'\n"
                    + "wrk.headers[\"Content-Type\"] = \"application/json\"\n", StandardCharsets.UTF_8);
            ProcessBuilder pb = new ProcessBuilder("wrk", "-t2", "-c" + connections, "-d" + seconds + "s", "-s",
                    lua.toString(), ep.baseUrl() + "/v1/chat/completions").redirectErrorStream(true);
            Process p;
            try {
                p = pb.start();
            } catch (java.io.IOException e) {
                System.out.println("wrk not found on the PATH; skipped");
                return;
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            System.out.print(out);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("Requests/sec:\\s+([0-9.]+)").matcher(out);
            if (m.find()) {
                double wrk = Double.parseDouble(m.group(1));
                System.out.printf(Locale.ROOT, "ratio latencylab / wrk = %.3f%n", ours / wrk);
            }
        }
    }

    static SimProfile streaming20PerSecond() {
        return SimProfile.parse("bench", "stream-20eps", """
                name: stream-20eps
                model: bench
                prefill: {t0: 0.0, k: 0, alpha: 1}
                decode: {tpot: 0.05, batchSlowdown: 0}
                maxRunningSeqs: 1000000
                """);
    }

    static void timing(int streams, int seconds) throws Exception {
        Path dir = Files.createTempDirectory("load-bench");
        SimOptions stamping = SimOptions.defaults().newBuilder().stamping(true).build();
        try (SimServer sim = SimServer.start(streaming20PerSecond(), stamping);
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS.withKeepText(false))) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            BenchContext ctx = new BenchContext(client, ep, true, dir);
            LoadSpec spec = LoadSpec.builder().concurrency(streams).duration(Duration.ofSeconds(seconds))
                    .contextTokens(8).maxOutputTokens(60).stream(true).build();
            long begin = System.nanoTime();
            LoadResult r = new LoadStepRunner().run(spec, "timing", ctx);
            long steady = begin + 5_000_000_000L; // skip start-up (JIT, connection set-up of all streams at once)
            Histogram err = new Histogram(3);
            long events = 0;
            for (RequestRecord rec : ctx.kept) {
                TokenTimeline tl = rec.tokens();
                for (int i = 0; i < tl.size(); i++) {
                    long s = tl.serverStampNanos(i);
                    if (s != RequestRecord.UNSET && s >= steady) {
                        err.recordValue(Math.max(0, tl.arrivalNanos(i) - s));
                        events++;
                    }
                }
            }
            System.out.printf(Locale.ROOT, "streams=%d %ds: requests %d (failed %s), stamped events after the first 5 s %d (%.0f events/s)%n",
                    streams, seconds, r.totals().sent(), r.totals().failedByKind(), events, events / (seconds - 5.0));
            System.out.printf(Locale.ROOT, "client timing error (receive - server stamp): p50 %.3f ms, p90 %.3f ms, "
                            + "p99 %.3f ms, p99.9 %.3f ms, max %.3f ms%n",
                    err.getValueAtPercentile(50) / 1e6, err.getValueAtPercentile(90) / 1e6,
                    err.getValueAtPercentile(99) / 1e6, err.getValueAtPercentile(99.9) / 1e6, err.getMaxValue() / 1e6);
        }
    }

    static void heap(int streams) throws Exception {
        Path dir = Files.createTempDirectory("load-bench");
        try (SimServer sim = SimServer.start(streaming20PerSecond(), SimOptions.defaults());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS.withKeepText(false))) {
            Endpoint ep = sim.endpoint(Protocol.OPENAI_CHAT);
            BenchContext ctx = new BenchContext(client, ep, false, dir);
            long before = usedAfterGc();
            LoadSpec spec = LoadSpec.builder().concurrency(streams).requests((long) streams).contextTokens(8)
                    .maxOutputTokens(400).stream(true).drainTimeout(Duration.ofSeconds(60)).build();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    new LoadStepRunner().run(spec, "heap", ctx);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (ctx.inFlight.get() < streams && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Thread.sleep(5000); // streams are half-way (10 s of 20 s): each holds a partly filled timeline
            int inFlight = ctx.inFlight.get();
            long during = usedAfterGc();
            System.out.printf(Locale.ROOT, "in flight %d: heap after GC %.1f MiB (baseline %.1f MiB, client+server "
                            + "in one JVM) -> %.1f KiB per in-flight stream (client and simulator side together)%n",
                    inFlight, during / 1048576.0, before / 1048576.0, (during - before) / 1024.0 / Math.max(1, inFlight));
            t.join();
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
