package org.latencylab.engine.sim;

import com.sun.net.httpserver.HttpServer;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.tokens.TokenCounter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The built-in simulated LLM server: the JDK's {@code com.sun.net.httpserver.HttpServer} with one virtual thread
 * per exchange, serving the OpenAI-compatible, Anthropic, Ollama and TGI APIs with the latency model of a
 * {@link SimProfile}, plus {@code /health}, {@code /v1/models}, {@code /api/tags}, {@code /info} and vLLM-named
 * Prometheus metrics at {@code /metrics}. Streams are chunked, one HTTP chunk per event, flushed at once.
 *
 * <p>Routes: {@code POST /v1/chat/completions}, {@code /v1/completions}, {@code /v1/messages}, {@code /api/chat},
 * {@code /api/generate}, {@code /generate_stream}, {@code /generate}; {@code GET /v1/models}, {@code /api/tags},
 * {@code /info}, {@code /health}, {@code /metrics}. Bad request bodies get HTTP 400 in the protocol's error shape.
 *
 * <p>TCP_NODELAY: the JDK server reads {@code sun.net.httpserver.nodelay} once, when the first server of the JVM
 * is created. This class sets it to {@code true} (unless already set) before creating its server, so small events
 * are not held back by Nagle's algorithm; if another JDK server was created earlier in the same JVM without it,
 * that setting stays in force.
 *
 * <p>Thread-safe. {@link #close()} stops listening, drops open connections and stops every serving thread.
 */
public final class SimServer implements AutoCloseable {
    private static final int BACKLOG = 4096;

    /**
     * The system property that selects the {@code com.sun.net.httpserver} implementation. Jetty's HTTP/2 front
     * ({@code jetty-http-spi}) registers itself as a provider; this class keeps the JDK's own server for its
     * HTTP/1.1 listener by naming the JDK's provider, unless a provider was named already.
     */
    public static final String PROVIDER_PROPERTY = "com.sun.net.httpserver.HttpServerProvider";
    /** The JDK's own provider class (module jdk.httpserver). */
    public static final String JDK_PROVIDER = "sun.net.httpserver.DefaultHttpServerProvider";

    static {
        if (System.getProperty(PROVIDER_PROPERTY) == null) {
            System.setProperty(PROVIDER_PROPERTY, JDK_PROVIDER);
        }
        if (System.getProperty("sun.net.httpserver.nodelay") == null) {
            System.setProperty("sun.net.httpserver.nodelay", "true");
        }
        // The JDK server closes idle keep-alive connections beyond 200 (its default); a load test holds more, and a
        // client that reuses one of those closed connections sees "unexpected end of stream": not the model's fault.
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", "20000");
        }
    }

    private final SimProfile profile;
    private final SimOptions options;
    private final HttpServer server;
    private final ExecutorService executor;
    private final AdmissionQueue admission;
    private final GpuModel gpu;
    private final String baseUrl;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final SimHandler handler;
    private final AdditionalFronts fronts;

    private SimServer(SimProfile profile, SimOptions options, HttpServer server, ExecutorService executor,
                      AdmissionQueue admission, GpuModel gpu, SimHandler handler) {
        this.gpu = gpu;
        this.profile = profile;
        this.options = options;
        this.server = server;
        this.executor = executor;
        this.admission = admission;
        this.handler = handler;
        this.fronts = new AdditionalFronts(profile, handler, executor);
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        this.baseUrl = "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + bound.getPort();
    }

    /**
     * Starts a simulator and returns once it accepts connections.
     *
     * @param profile the latency model and behaviour
     * @param options address, port, stamping, seed
     * @return the running server; close it when done
     * @throws IllegalArgumentException when the host is not a loopback address and
     *                                  {@link SimOptions#allowNonLoopback()} is off, or cannot be resolved
     * @throws UncheckedIOException     when the port cannot be bound
     * @throws SimOutOfMemoryException  when the profile's engine model does not fit in its simulated GPU at start
     */
    public static SimServer start(SimProfile profile, SimOptions options) {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(options, "options");
        GpuModel.checkStart(profile);
        InetAddress address;
        try {
            address = InetAddress.getByName(options.host());
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("simulator host '" + options.host() + "' cannot be resolved", e);
        }
        if (!address.isLoopbackAddress() && !options.allowNonLoopback()) {
            throw new IllegalArgumentException("simulator host '" + options.host() + "' is not a loopback address; "
                    + "the simulator has no authentication, so bind 127.0.0.1 or allow non-loopback explicitly");
        }
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(address, options.port()), BACKLOG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the simulator to " + options.host() + ":" + options.port()
                    + ": " + e.getMessage(), e);
        }
        // load the tokenizer and word list now, so that the first request does not pay for it
        TokenCounter.cl100k().count("warm up");
        WordSource.wordPieces();
        // virtual threads, not pooled platform threads: with platform threads a freshly started simulator pays thread
        // creation while its code is still cold, and its first second of answers is much slower
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        AdmissionQueue admission = new AdmissionQueue(profile.maxRunningSeqs());
        GpuModel gpu = new GpuModel(profile);
        SimMetrics metrics = new SimMetrics(profile.model(), admission, gpu, profile.engine().metrics());
        SimHandler handler = new SimHandler(profile, options, admission, metrics, gpu);
        server.createContext("/", handler);
        server.setExecutor(executor);
        server.start();
        return new SimServer(profile, options, server, executor, admission, gpu, handler);
    }

    /** @return the bound TCP port (the ephemeral one when the options asked for 0) */
    public int port() {
        return server.getAddress().getPort();
    }

    /** @return {@code http://HOST:PORT} with the bound address, e.g. {@code http://127.0.0.1:41234}; no slash */
    public String baseUrl() {
        return baseUrl;
    }

    /**
     * The KServe v2 / Triton gRPC service ({@code inference.GRPCInferenceService}) of this simulator, with the same
     * latency model, admission queue and metrics as its HTTP routes; started on 127.0.0.1 at an ephemeral port on
     * the first call and stopped by {@link #close()}.
     *
     * @param tls true for TLS with the simulator's self-signed certificate (clients set {@code verifyTls: false}),
     *            false for plaintext HTTP/2
     * @return {@code http://127.0.0.1:PORT} (plaintext) or {@code https://127.0.0.1:PORT} (TLS); no slash
     * @throws java.io.UncheckedIOException when the port cannot be bound
     * @throws IllegalStateException        after {@link #close()}
     */
    public String grpcBaseUrl(boolean tls) {
        checkOpen();
        return fronts.grpc(tls, options.host());
    }

    /**
     * The same HTTP routes served over HTTP/2 (by Jetty, through the {@code com.sun.net.httpserver} API, so the
     * handler and latency model are the very same): plaintext with HTTP/2 by prior knowledge (h2c) and HTTP/1.1, or
     * TLS with ALPN (h2, http/1.1) and the simulator's self-signed certificate. Started on the first call, stopped by
     * {@link #close()}.
     *
     * @param tls true for {@code https} (h2 over TLS), false for {@code http} (h2c or HTTP/1.1)
     * @return the base URL, e.g. {@code https://127.0.0.1:41235}; no slash
     * @throws java.io.UncheckedIOException when the port cannot be bound or Jetty does not start
     * @throws IllegalStateException        after {@link #close()}
     */
    public String http2BaseUrl(boolean tls) {
        checkOpen();
        return fronts.http2(tls, options.host());
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("the simulator is closed");
        }
    }

    /** @return the profile being served */
    public SimProfile profile() {
        return profile;
    }

    /** @return the options the server was started with */
    public SimOptions options() {
        return options;
    }

    /**
     * An endpoint that points at this server.
     *
     * @param protocol the protocol to speak; every {@link Protocol} is served ({@code kserve-grpc} by the plaintext
     *                 gRPC listener, started on first use)
     * @return an endpoint named {@code sim-PROFILE} with the server's base URL and model
     */
    public Endpoint endpoint(Protocol protocol) {
        String url = protocol == Protocol.KSERVE_GRPC ? grpcBaseUrl(false) : baseUrl;
        return Endpoint.of("sim-" + profile.name(), protocol, url, profile.model());
    }

    /** @return sequences being served right now (for monitoring and tests), >= 0 */
    public int runningSeqs() {
        return admission.running();
    }

    /** @return simulated GPU memory in use now, bytes (0 when the profile has no {@code engine.gpu}) */
    public long gpuMemoryUsedBytes() {
        return gpu.usedBytes();
    }

    /**
     * Sets what happens when a request does not fit in the simulated GPU's memory (the request fails either way);
     * the {@code sim} command ends its process, as a real engine would crash.
     *
     * @param handler called with a "CUDA out of memory" message, on the request's thread
     */
    public void onOutOfMemory(java.util.function.Consumer<String> handler) {
        gpu.onOutOfMemory(Objects.requireNonNull(handler, "handler"));
    }

    /** @return requests waiting for a slot right now, >= 0 */
    public int waitingRequests() {
        return admission.waiting();
    }

    /**
     * @return a few lines for people: profile, source, URL, model, the modelled TTFT at 2k/8k/32k prompt tokens,
     *         routes, stamping and seed
     */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("LatencyLab simulator: profile '").append(profile.name()).append("', model '")
                .append(profile.model()).append("'\n");
        sb.append("  URL:      ").append(baseUrl).append('\n');
        if (!profile.source().isEmpty()) {
            sb.append("  source:   ").append(profile.source().replaceAll("\\s+", " ")).append('\n');
        }
        sb.append(String.format(java.util.Locale.ROOT,
                "  model:    prefill %.3f s + %.3g·n^%.2f s (2k: %.3f s, 8k: %.3f s, 32k: %.3f s); "
                        + "decode %.1f ms/token, +%.2f%% per extra running sequence; max %d running%n",
                profile.prefill().t0Seconds(), profile.prefill().k(), profile.prefill().alpha(),
                profile.prefillNanos(2048) / 1e9, profile.prefillNanos(8192) / 1e9,
                profile.prefillNanos(32768) / 1e9, profile.decode().tpotSeconds() * 1e3,
                profile.decode().batchSlowdown() * 100, profile.maxRunningSeqs()));
        sb.append("  jitter σ: ").append(profile.jitter().sigma())
                .append(profile.prefixCache().enabled() ? "; prefix cache " + profile.prefixCache().capacityTokens()
                        + " tokens in blocks of " + profile.prefixCache().blockTokens() : "; no prefix cache")
                .append(profile.faults().any() ? "; faults on" : "; no faults").append('\n');
        sb.append("  routes:   OpenAI /v1/chat/completions /v1/completions /v1/models; Anthropic /v1/messages; "
                + "Ollama /api/chat /api/generate /api/tags; TGI /generate_stream /generate /info; /health /metrics\n");
        SimProfile.Engine e = profile.engine();
        if (e.gpu() != null) {
            sb.append(String.format(java.util.Locale.ROOT, "  engine:   %s metric names; GPU %s %.1f GiB; weights "
                            + "%.2f GiB + overhead %.2f GiB; KV %d bytes/token%s; %d prefill tokens per step "
                            + "(/sim/gpu: nvidia-smi CSV)%n", e.metrics(), e.gpu().name(), e.gpu().memoryGiB(),
                    e.weightsGiB(), e.overheadGiB(), e.kvBytesPerToken(),
                    e.reserveFullBatch() ? " (whole batch reserved at start)" : "", e.maxBatchedTokens()));
        }
        sb.append("  stamping: ").append(options.stamping() ? "on (x_sent_ns)" : "off")
                .append("; seed ").append(options.seed());
        return sb.toString();
    }

    /**
     * Stops listening, closes every open connection (streams in progress end abruptly) and waits up to 5 s for
     * serving threads to finish. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        fronts.close();
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "SimServer[" + profile.name() + " at " + baseUrl + "]";
    }
}
