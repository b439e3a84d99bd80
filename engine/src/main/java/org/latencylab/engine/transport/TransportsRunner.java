package org.latencylab.engine.transport;

import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.ScreenSize;
import org.latencylab.engine.client.HttpVersion;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.link.LinkEmulator;
import org.latencylab.engine.link.LinkProfile;
import org.latencylab.engine.link.LinkTraffic;
import org.latencylab.engine.sim.SimServer;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.Summaries;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a {@link TransportsSpec}. For each network profile it starts one {@link LinkEmulator} per transport in front
 * of that transport's server port, then, for warm and cold connections in turn, sends {@code requests} rounds in
 * which every transport sends one request (interleaved, so a slower moment of the machine hits all transports
 * alike), at concurrency 1 and with the same prompt and output length. Warm cells first send one unrecorded request
 * per transport to open the connection; cold cells close every connection before each request, so TCP and TLS are
 * inside the measured time. Each request's bytes, segments and loss stalls are read from its emulator (concurrency 1
 * makes them attributable). Requests are labelled {@code <label>-<network>-<transport>-<warm|cold>}.
 *
 * <p>Against the built-in simulator every transport is available (its HTTP/1.1, HTTP/2 and gRPC listeners).
 * Against a configured endpoint, transports of the endpoint's family run against its base URL: the SSE and JSON
 * transports for an HTTP protocol, the gRPC ones for {@code kserve-grpc}; others are skipped with a notice.
 *
 * <p>Stateless and thread-safe; per-run state lives in the call. Before measuring, one request per transport goes
 * directly to its server (not recorded) so class loading and JIT do not land in the first cell.
 */
public final class TransportsRunner implements StepRunner<TransportsSpec> {

    /**
     * @param spec  transports, networks, connections, requests per cell, prompt and output length, first screen
     * @param label step label, prefix of the cells' request labels
     * @param ctx   the run's services (the simulator, when the run has one; prompts; the request log)
     * @return one cell per transport × network × connection that ran (fewer when cancelled)
     * @throws InterruptedException when the run thread is interrupted
     * @throws java.io.UncheckedIOException when an emulator or a simulator listener cannot bind a port
     */
    @Override
    public TransportsResult run(TransportsSpec spec, String label, StepContext ctx) throws InterruptedException {
        List<Transport> transports = new ArrayList<>();
        Map<Transport, InetSocketAddress> targets = new EnumMap<>(Transport.class);
        Map<Transport, String> schemes = new EnumMap<>(Transport.class);
        SimServer sim = ctx.simulator();
        for (Transport t : spec.transportList()) {
            String base = baseUrl(t, sim, ctx.endpoint());
            if (base == null) {
                ctx.notice(label + ": transport " + t.id() + " skipped: the endpoint '" + ctx.endpoint().name()
                        + "' speaks " + ctx.endpoint().protocol().id() + ", not " + t.protocol().id());
                continue;
            }
            URI u = URI.create(base);
            int port = u.getPort() > 0 ? u.getPort() : "https".equals(u.getScheme()) ? 443 : 80;
            targets.put(t, new InetSocketAddress(u.getHost(), port));
            schemes.put(t, u.getScheme());
            transports.add(t);
        }
        ScreenSize screen = spec.screen();
        String model = ctx.endpoint().model();
        Protocol httpProtocol = sim != null || ctx.endpoint().protocol() == Protocol.KSERVE_GRPC
                ? Protocol.OPENAI_CHAT : ctx.endpoint().protocol();
        String prompt = ctx.prompt(spec.promptTokens(), false);
        ClientOptions options = ctx.clientOptions().withKeepText(true);
        Map<HttpVersion, LlmClient> clients = new EnumMap<>(HttpVersion.class);
        List<TransportsResult.Cell> cells = new ArrayList<>();
        List<String> profileLines = new ArrayList<>();
        try {
            for (Transport t : transports) {
                clients.computeIfAbsent(t.httpVersion(), v -> new LlmClient(options, System::getenv, v));
            }
            // class loading, JIT and the first TLS session of each client, outside any measurement
            for (Transport t : transports) {
                Endpoint direct = endpoint(t, schemes.get(t), targets.get(t), model, httpProtocol, ctx.endpoint());
                clients.get(t.httpVersion()).execute(direct, request(t, prompt, spec), new RequestTicket(0,
                        label + "-jit", spec.promptTokens(), System.nanoTime()));
            }
            for (LinkProfile profile : spec.networkProfiles()) {
                profileLines.add(profile.describe());
                if (ctx.cancelled()) {
                    break;
                }
                Map<Transport, LinkEmulator> links = new EnumMap<>(Transport.class);
                try {
                    for (Transport t : transports) {
                        links.put(t, LinkEmulator.start(profile, targets.get(t), spec.seed()));
                    }
                    for (String connection : spec.connections()) {
                        if (ctx.cancelled()) {
                            break;
                        }
                        cells.addAll(runCells(spec, label, ctx, profile, connection, transports, links, clients,
                                schemes, model, httpProtocol, prompt, screen));
                        ctx.progress(new TransportsProgress(label, new TransportsResult(label, screen.toString(),
                                transports.stream().map(Transport::id).toList(), spec.networks(), spec.connections(),
                                List.copyOf(profileLines), List.copyOf(cells))));
                    }
                } finally {
                    for (LlmClient c : clients.values()) {
                        c.evictConnections();
                    }
                    links.values().forEach(LinkEmulator::close);
                }
            }
        } finally {
            clients.values().forEach(LlmClient::close);
        }
        return new TransportsResult(label, screen.toString(), transports.stream().map(Transport::id).toList(),
                spec.networks(), spec.connections(), profileLines, cells);
    }

    /** One request's record and the link traffic it caused. */
    private record Sample(RequestRecord record, LinkTraffic traffic) {
    }

    private List<TransportsResult.Cell> runCells(TransportsSpec spec, String label, StepContext ctx,
                                                 LinkProfile profile, String connection, List<Transport> transports,
                                                 Map<Transport, LinkEmulator> links, Map<HttpVersion, LlmClient> clients,
                                                 Map<Transport, String> schemes, String model, Protocol httpProtocol,
                                                 String prompt, ScreenSize screen) throws InterruptedException {
        boolean cold = connection.equals("cold");
        Map<Transport, List<Sample>> samples = new EnumMap<>(Transport.class);
        Map<Transport, Endpoint> endpoints = new EnumMap<>(Transport.class);
        for (Transport t : transports) {
            samples.put(t, new ArrayList<>());
            endpoints.put(t, endpoint(t, schemes.get(t), links.get(t).address(), model, httpProtocol, ctx.endpoint()));
        }
        for (LlmClient c : clients.values()) {
            c.evictConnections();
        }
        if (!cold) {
            for (Transport t : transports) { // open the pooled connection through the emulated link
                clients.get(t.httpVersion()).execute(endpoints.get(t), request(t, prompt, spec),
                        new RequestTicket(0, label + "-warmup", spec.promptTokens(), System.nanoTime()));
            }
        }
        for (int i = 0; i < spec.requests() && !ctx.cancelled(); i++) {
            for (Transport t : transports) {
                if (ctx.cancelled()) {
                    break;
                }
                LlmClient client = clients.get(t.httpVersion());
                if (cold) {
                    client.evictConnections();
                }
                String cellLabel = cellLabel(label, profile.name(), t, connection);
                GenerationRequest req = request(t, prompt, spec);
                LinkEmulator link = links.get(t);
                LinkTraffic before = link.traffic();
                ctx.inFlight(1);
                RequestRecord r;
                try {
                    if (Thread.currentThread().isInterrupted()) {
                        throw new InterruptedException("run cancelled");
                    }
                    r = client.execute(endpoints.get(t), req, new RequestTicket(ctx.nextRequestId(), cellLabel,
                            spec.promptTokens(), System.nanoTime()));
                } finally {
                    ctx.inFlight(-1);
                }
                LinkTraffic used = link.traffic().minus(before);
                ctx.finished(r);
                samples.get(t).add(new Sample(r, used));
            }
        }
        List<TransportsResult.Cell> out = new ArrayList<>();
        for (Transport t : transports) {
            out.add(cell(cellLabel(label, profile.name(), t, connection), t, profile.name(), connection,
                    samples.get(t), screen));
        }
        return out;
    }

    private static String cellLabel(String label, String network, Transport t, String connection) {
        return label + "-" + network + "-" + t.id() + "-" + connection;
    }

    private static GenerationRequest request(Transport t, String prompt, TransportsSpec spec) {
        return new GenerationRequest(prompt, spec.promptTokens(), spec.maxOutputTokens(), t.stream(), Map.of());
    }

    /** @return the base URL of the server that speaks transport {@code t}, or null when there is none */
    private static String baseUrl(Transport t, SimServer sim, Endpoint endpoint) {
        if (sim != null) {
            return switch (t) {
                case SSE_H1, JSON -> sim.baseUrl();
                case SSE_H2 -> sim.http2BaseUrl(true);
                case SSE_H2C -> sim.http2BaseUrl(false);
                case GRPC -> sim.grpcBaseUrl(false);
                case GRPC_TLS -> sim.grpcBaseUrl(true);
            };
        }
        boolean grpcEndpoint = endpoint.protocol() == Protocol.KSERVE_GRPC;
        boolean grpcTransport = t.protocol() == Protocol.KSERVE_GRPC;
        if (grpcEndpoint != grpcTransport) {
            return null;
        }
        boolean https = endpoint.baseUrl().startsWith("https:");
        return https == t.tls() || t == Transport.JSON || t == Transport.SSE_H1 ? endpoint.baseUrl() : null;
    }

    /** The endpoint of transport {@code t} reached at {@code address} (an emulator's, or the server's own). */
    private static Endpoint endpoint(Transport t, String scheme, InetSocketAddress address, String model,
                                     Protocol httpProtocol, Endpoint configured) {
        String url = scheme + "://" + address.getHostString() + ":" + address.getPort();
        Protocol p = t.protocol() == Protocol.KSERVE_GRPC ? Protocol.KSERVE_GRPC : httpProtocol;
        boolean verify = configured.verifyTls() && t.tls() && !isLoopback(configured);
        return new Endpoint(t.id(), p, url, model, configured.apiKeyEnv(), configured.headers(), verify);
    }

    private static boolean isLoopback(Endpoint e) {
        String h = e.host();
        return h.equals("127.0.0.1") || h.equals("localhost") || h.equals("::1") || h.equals("[::1]");
    }

    private static TransportsResult.Cell cell(String label, Transport t, String network, String connection,
                                              List<Sample> samples, ScreenSize screen) {
        List<Long> fs = new ArrayList<>();
        List<Long> ttft = new ArrayList<>();
        List<Long> e2e = new ArrayList<>();
        List<Long> setup = new ArrayList<>();
        Map<String, Long> errors = new TreeMap<>();
        long bytesDown = 0;
        long bytesUp = 0;
        long segments = 0;
        long events = 0;
        long stalls = 0;
        long bytesDownOk = 0;
        int ok = 0;
        for (Sample s : samples) {
            RequestRecord r = s.record();
            bytesDown += s.traffic().bytesDown();
            bytesUp += s.traffic().bytesUp();
            segments += s.traffic().segmentsDown();
            stalls += s.traffic().stalls();
            if (!r.succeeded()) {
                ErrorKind k = r.errorKind();
                errors.merge(k == null ? "cancelled" : k.id(), 1L, Long::sum);
                continue;
            }
            ok++;
            bytesDownOk += s.traffic().bytesDown();
            events += t.stream() ? r.tokens().size() : 1;
            add(fs, r.firstScreenNanos(screen));
            add(ttft, r.ttftNanos());
            add(e2e, r.e2eNanos());
            setup.add(r.connectStartNanos() == RequestRecord.UNSET ? 0 : r.connectNanos());
        }
        int n = samples.size();
        return new TransportsResult.Cell(label, t.id(), t.label(), network, connection, n, ok, errors,
                stat("first_screen", fs), stat("ttft", ttft), stat("e2e", e2e), stat("setup", setup),
                n == 0 ? 0 : (double) bytesDown / n, n == 0 ? 0 : (double) bytesUp / n,
                ok == 0 ? 0 : (double) events / ok, events == 0 ? 0 : (double) bytesDownOk / events,
                n == 0 ? 0 : (double) segments / n, stalls, n == 0 ? 0 : (double) stalls / n);
    }

    private static void add(List<Long> values, long v) {
        if (v >= 0) {
            values.add(v);
        }
    }

    private static TransportsResult.Stat stat(String metric, List<Long> values) {
        if (values.isEmpty()) {
            return TransportsResult.Stat.EMPTY;
        }
        long[] v = values.stream().mapToLong(Long::longValue).toArray();
        MetricSummary s = Summaries.of(metric, v, List.of(50.0, 95.0), Summaries.DEFAULT_CONFIDENCE);
        PercentileEstimate p50 = s.p(50.0);
        PercentileEstimate p95 = s.p(95.0);
        return new TransportsResult.Stat(v.length, p50.valueMillis(), p50.lowerMillis(), p50.upperMillis(),
                p95.valueMillis(), p95.lowerMillis(), p95.upperMillis(),
                PercentileEstimate.hasEnoughSamples(v.length, 95.0));
    }
}
