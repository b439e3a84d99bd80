package org.latencylab.engine.bench;

import org.HdrHistogram.Histogram;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.link.LinkEmulator;
import org.latencylab.engine.link.LinkProfile;
import org.latencylab.engine.link.LinkProfiles;
import org.latencylab.engine.prompt.Corpus;
import org.latencylab.engine.prompt.PromptBuilder;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark (not a test): what the link emulator adds per token event beyond the delay it is configured with.
 * For every event the client's receive time minus the simulator's send stamp ({@code x_sent_ns}) is recorded, once
 * with the client connected directly and once through an emulator with the {@code wired} profile (1 ms one way,
 * 1 Gbit/s); the emulator's overhead is the difference of the two distributions minus the configured one-way delay
 * and the serialisation time. Concurrency 1, warm connections, SSE (HTTP/1.1) and gRPC. Run:
 * <pre>
 * mvn -q -pl engine -am test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=org.latencylab.engine.bench.LinkOverheadBenchmark -Dexec.args="40"
 * </pre>
 * The argument is the number of requests per mode (64 events each).
 */
public final class LinkOverheadBenchmark {
    private LinkOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length == 0 ? 40 : Integer.parseInt(args[0]);
        LinkProfile wired = LinkProfiles.resolve("wired");
        String prompt = new PromptBuilder(Corpus.builtin("en")).build(128);
        System.out.printf(Locale.ROOT, "%-6s %-8s %8s %10s %10s %10s%n", "proto", "path", "events", "P50 [µs]",
                "P99 [µs]", "max [µs]");
        try (SimServer sim = SimServer.start(SimProfile.builtin("small-fast"), SimOptions.builder().stamping(true).build());
             LlmClient client = new LlmClient(ClientOptions.DEFAULTS.withKeepText(false), n -> null)) {
            for (Protocol p : new Protocol[]{Protocol.OPENAI_CHAT, Protocol.KSERVE_GRPC}) {
                Endpoint direct = sim.endpoint(p);
                URI u = URI.create(direct.baseUrl());
                try (LinkEmulator link = LinkEmulator.start(wired, new InetSocketAddress(u.getHost(), u.getPort()), 1)) {
                    Endpoint via = direct.withBaseUrl("http://127.0.0.1:" + link.port());
                    Histogram[] h = new Histogram[2];
                    for (int round = 0; round < 2; round++) { // round 0 warms up JIT and connections
                        h[0] = record(client, direct, prompt, requests);
                        h[1] = record(client, via, prompt, requests);
                    }
                    print(p, "direct", h[0]);
                    print(p, "wired", h[1]);
                    double configured = wired.down().delayNanos() + wired.down().serialisationNanos(300);
                    System.out.printf(Locale.ROOT, "%-6s added beyond the configured %.3f ms: P50 %.1f µs, P99 %.1f µs%n",
                            p == Protocol.KSERVE_GRPC ? "grpc" : "sse", configured / 1e6,
                            (h[1].getValueAtPercentile(50) - h[0].getValueAtPercentile(50) - configured) / 1e3,
                            (h[1].getValueAtPercentile(99) - h[0].getValueAtPercentile(99) - configured) / 1e3);
                }
            }
        }
    }

    private static Histogram record(LlmClient client, Endpoint e, String prompt, int requests) {
        Histogram h = new Histogram(60_000_000_000L, 3);
        for (int i = 0; i < requests; i++) {
            RequestRecord r = client.execute(e, new GenerationRequest(prompt, 128, 64, true, Map.of()),
                    new RequestTicket(i, "bench", 128, System.nanoTime()));
            TokenTimeline t = r.tokens();
            for (int k = 0; k < t.size(); k++) {
                if (t.serverStampNanos(k) != RequestRecord.UNSET) {
                    h.recordValue(Math.max(0, t.arrivalNanos(k) - t.serverStampNanos(k)));
                }
            }
        }
        return h;
    }

    private static void print(Protocol p, String path, Histogram h) {
        System.out.printf(Locale.ROOT, "%-6s %-8s %8d %10.1f %10.1f %10.1f%n", p == Protocol.KSERVE_GRPC ? "grpc" : "sse",
                path, h.getTotalCount(), h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3,
                h.getMaxValue() / 1e3);
    }
}
