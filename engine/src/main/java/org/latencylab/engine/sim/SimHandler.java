package org.latencylab.engine.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.latencylab.engine.tokens.TokenCounter;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Serves every simulator route and runs the latency model for generation requests.
 *
 * <h2>Timeline of one generation request</h2>
 * All deadlines are absolute {@link System#nanoTime()} values computed from the moment the request's handler
 * starts, its request line and header fields read ({@code arrive}: reading the body, parsing it and tokenising the
 * prompt come after and are absorbed by the prefill time); the serving thread parks until each deadline, so lateness in one step is not carried into
 * the next and the model holds under high concurrency.
 * <ol>
 *   <li>Slow-headers fault: park until {@code arrive + delay}.</li>
 *   <li>429 / 5xx faults: answer the error and stop.</li>
 *   <li>Streaming: status and headers are sent now.</li>
 *   <li>FIFO admission ({@code maxRunningSeqs}); prefix-cache lookup; the protocol's opening events.
 *       {@code admitted} is {@code arrive} when no wait was needed, else the moment a slot was granted.</li>
 *   <li>First token at {@code admitted + prefill(uncached tokens)·jitter}; each next one a jittered decode gap
 *       (for the number of sequences running at that moment) later, plus a stall when the stall fault fires.</li>
 *   <li>Closing events and end marker; or, with the reset fault, an abrupt close after the configured tokens.</li>
 * </ol>
 * Thread-safe: shared state is the admission queue, the prefix cache, the metrics and the seeded random source
 * (split per request under a lock).
 */
final class SimHandler implements HttpHandler {

    /** Thrown to make the JDK server drop the connection without finishing the response. */
    private static final class AbruptClose extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AbruptClose(String why) {
            super(why, null, false, false);
        }
    }

    private final SimProfile profile;
    private final SimOptions options;
    private final AdmissionQueue admission;
    private final SimMetrics metrics;
    private final GpuModel gpu;
    private final BlockHashCache cache;
    private final SplittableRandom master;
    private final AtomicLong requestIds = new AtomicLong();
    private final long startedSeconds = Instant.now().getEpochSecond();
    private final Map<String, Dialect> dialects = Map.of(
            "/v1/chat/completions", new OpenAiDialect(true),
            "/v1/completions", new OpenAiDialect(false),
            "/v1/messages", new AnthropicDialect(),
            "/api/chat", new OllamaDialect(true),
            "/api/generate", new OllamaDialect(false),
            "/generate_stream", new TgiDialect(true),
            "/generate", new TgiDialect(false));
    private final Dialect fallbackErrors = new OpenAiDialect(true);

    SimHandler(SimProfile profile, SimOptions options, AdmissionQueue admission, SimMetrics metrics) {
        this(profile, options, admission, metrics, new GpuModel(profile));
    }

    SimHandler(SimProfile profile, SimOptions options, AdmissionQueue admission, SimMetrics metrics, GpuModel gpu) {
        this.gpu = gpu;
        this.profile = profile;
        this.options = options;
        this.admission = admission;
        this.metrics = metrics;
        SimProfile.PrefixCache pc = profile.prefixCache();
        this.cache = pc.enabled() ? new BlockHashCache(pc.blockTokens(), pc.capacityBlocks()) : null;
        this.master = new SplittableRandom(options.seed());
    }

    @Override
    public void handle(HttpExchange ex) {
        long arrive = System.nanoTime(); // request line and header fields read; the body not yet
        boolean abrupt = false;
        try {
            route(ex, arrive);
        } catch (AbruptClose e) {
            abrupt = true;
            throw e;
        } catch (IOException e) {
            // the client went away; nothing to answer
        } finally {
            if (!abrupt) {
                ex.close();
            }
        }
    }

    private void route(HttpExchange ex, long arrive) throws IOException {
        String path = ex.getRequestURI().getPath();
        String method = ex.getRequestMethod();
        Dialect dialect = dialects.get(path);
        if (dialect != null) {
            if (!"POST".equals(method)) {
                sendJson(ex, 405, dialect.error(405, Dialect.ErrorKind.INVALID_REQUEST,
                        "use POST for " + path, null), Map.of("Allow", "POST"));
                return;
            }
            generate(ex, dialect, arrive);
            return;
        }
        boolean get = "GET".equals(method);
        switch (path) {
            case "/health" -> {
                if (get) {
                    ex.getRequestBody().readAllBytes();
                    ex.sendResponseHeaders(200, -1);
                    return;
                }
            }
            case "/sim/gpu" -> {
                String csv = gpu.nvidiaSmiCsv(admission.running());
                if (get && csv != null) {
                    sendText(ex, 200, "text/csv; charset=utf-8", csv);
                    return;
                }
                if (csv == null) {
                    sendJson(ex, 404, fallbackErrors.error(404, Dialect.ErrorKind.NOT_FOUND,
                            "this simulator profile has no engine.gpu, so there is no simulated GPU", null), Map.of());
                    return;
                }
            }
            case "/metrics" -> {
                if (get && metrics.exposed()) {
                    sendText(ex, 200, SimMetrics.CONTENT_TYPE, metrics.scrape());
                    return;
                }
                if (!metrics.exposed()) {
                    sendJson(ex, 404, fallbackErrors.error(404, Dialect.ErrorKind.NOT_FOUND,
                            "this server exposes no /metrics (engine.metrics: none)", null), Map.of());
                    return;
                }
            }
            case "/v1/models" -> {
                if (get) {
                    ObjectNode root = Dialect.object().put("object", "list");
                    root.putArray("data").addObject().put("id", profile.model()).put("object", "model")
                            .put("created", startedSeconds).put("owned_by", "latencylab-sim")
                            .put("root", profile.model());
                    sendJson(ex, 200, root, Map.of());
                    return;
                }
            }
            case "/api/tags" -> {
                if (get) {
                    ObjectNode root = Dialect.object();
                    ObjectNode m = root.putArray("models").addObject().put("name", profile.model())
                            .put("model", profile.model())
                            .put("modified_at", Instant.ofEpochSecond(startedSeconds).toString())
                            .put("size", 0).put("digest", "sim-" + profile.name());
                    m.putObject("details").put("format", "simulated").put("family", "simulated")
                            .put("parameter_size", "").put("quantization_level", "");
                    sendJson(ex, 200, root, Map.of());
                    return;
                }
            }
            case "/info" -> {
                if (get) {
                    ObjectNode info = Dialect.object().put("model_id", profile.model()).put("model_dtype", "simulated")
                            .put("max_concurrent_requests", profile.maxRunningSeqs())
                            .put("max_input_tokens", 1_000_000).put("max_total_tokens", 2_000_000)
                            .put("version", "latencylab-sim").put("router", "latencylab-sim");
                    sendJson(ex, 200, info, Map.of());
                    return;
                }
            }
            default -> {
                sendJson(ex, 404, fallbackErrors.error(404, Dialect.ErrorKind.NOT_FOUND,
                        "no route " + method + " " + path + "; the simulator serves /v1/chat/completions, "
                                + "/v1/completions, /v1/messages, /api/chat, /api/generate, /generate_stream, "
                                + "/generate, /v1/models, /api/tags, /info, /health, /metrics", null), Map.of());
                return;
            }
        }
        sendJson(ex, 405, fallbackErrors.error(405, Dialect.ErrorKind.INVALID_REQUEST,
                "use GET for " + path, null), Map.of("Allow", "GET"));
    }

    // ---------------------------------------------------------------- generation

    private void generate(HttpExchange ex, Dialect dialect, long arrive) throws IOException {
        byte[] body = readBody(ex);
        SplittableRandom rnd;
        synchronized (master) {
            rnd = master.split();
        }

        SimRequest req;
        try {
            JsonNode json = EventWriter.JSON.readTree(body);
            req = dialect.parse(json);
        } catch (JsonProcessingException e) {
            sendJson(ex, 400, dialect.error(400, Dialect.ErrorKind.INVALID_REQUEST,
                    "the request body is not valid JSON: " + e.getOriginalMessage(), null), Map.of());
            return;
        } catch (BadRequestException e) {
            sendJson(ex, 400, dialect.error(400, Dialect.ErrorKind.INVALID_REQUEST, e.getMessage(), e.param()),
                    Map.of());
            return;
        }
        int[] ids = req.promptIds() != null ? req.promptIds() : TokenCounter.cl100k().encode(req.promptText());

        SimProfile.Faults f = profile.faults();
        try {
            if (f.slowHeaders().rate() > 0 && rnd.nextDouble() < f.slowHeaders().rate()) {
                parkUntil(arrive + seconds(f.slowHeaders().seconds()));
            }
        } catch (InterruptedException e) {
            throw new AbruptClose("server closing");
        }
        if (f.rateLimited().rate() > 0 || f.serverError().rate() > 0) {
            double u = rnd.nextDouble();
            if (u < f.rateLimited().rate()) {
                int s = f.rateLimited().retryAfterSeconds();
                sendJson(ex, 429, dialect.error(429, Dialect.ErrorKind.RATE_LIMITED,
                        "rate limit reached (simulated); retry after " + s + " s", null),
                        Map.of("Retry-After", Integer.toString(s), "retry-after-ms", Long.toString(s * 1000L)));
                return;
            }
            if (u < f.rateLimited().rate() + f.serverError().rate()) {
                int status = f.serverError().status();
                sendJson(ex, status, dialect.error(status, Dialect.ErrorKind.SERVER_ERROR,
                        "internal server error (simulated)", null), Map.of());
                return;
            }
        }
        boolean reset = f.reset().rate() > 0 && rnd.nextDouble() < f.reset().rate();

        Turn t = new Turn(req, dialect.idPrefix() + requestIds.incrementAndGet(), profile.model(),
                Instant.now().getEpochSecond(), ids.length, dialect.reasoning() ? profile.reasoning().tokens() : 0);
        t.arriveNanos = arrive;
        EventWriter writer = null;
        if (req.stream()) {
            ex.getResponseHeaders().set("Content-Type", dialect.framing().contentType());
            ex.getResponseHeaders().set("Cache-Control", "no-cache");
            ex.sendResponseHeaders(200, 0);
            writer = new EventWriter(ex.getResponseBody(), dialect.framing(), options.stamping());
        }
        boolean waited;
        try {
            waited = admission.admit();
        } catch (InterruptedException e) {
            throw new AbruptClose("server closing");
        }
        boolean fits = false;
        try {
            // without a wait, the model's clock runs from the handler's start (body read, parsing and tokenising are
            // absorbed)
            t.admittedNanos = waited ? System.nanoTime() : arrive;
            metrics.queued(t.admittedNanos - arrive);
            fits = gpu.admit(ids.length);
            if (!fits) {
                if (writer != null) {
                    throw new AbruptClose("simulated out of memory");
                }
                sendJson(ex, 500, dialect.error(500, Dialect.ErrorKind.SERVER_ERROR,
                        "CUDA out of memory (simulated)", null), Map.of());
                return;
            }
            run(ex, dialect, t, ids, writer, rnd, reset);
        } catch (InterruptedException e) {
            throw new AbruptClose("server closing");
        } finally {
            if (fits) {
                gpu.release(ids.length + (long) t.emitted);
            }
            admission.release();
        }
    }

    private void run(HttpExchange ex, Dialect dialect, Turn t, int[] ids, EventWriter writer, SplittableRandom rnd,
                     boolean reset) throws IOException, InterruptedException {
        t.cachedTokens = cache == null ? 0 : cache.lookupAndInsert(ids);
        if (writer != null) {
            for (WireEvent e : dialect.opening(t)) {
                writer.write(e);
            }
        }
        int max = t.request.maxTokens();
        int resetAt = reset ? Math.min(profile.faults().reset().afterTokens(), max) : -1;
        decode(t, ids, rnd, (piece, reasoning, i, last) -> {
            if (i == resetAt && writer != null) {
                writer.send(); // what was due before the reset reaches the client
                throw new AbruptClose("simulated connection reset after " + i + " tokens");
            }
            long written = System.nanoTime();
            if (writer != null) {
                for (WireEvent e : dialect.token(t, piece, reasoning, last)) {
                    written = writer.write(e);
                }
            }
            return written;
        }, writer);
        if (writer != null) {
            if (resetAt == max) {
                writer.send();
                throw new AbruptClose("simulated connection reset before the end marker");
            }
            for (WireEvent e : dialect.closing(t)) {
                writer.write(e);
            }
            writer.send();
        } else {
            ObjectNode whole = dialect.whole(t);
            if (options.stamping()) {
                whole.put("x_sent_ns", System.nanoTime());
            }
            byte[] bytes = EventWriter.json(whole).getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, bytes.length);
            OutputStream out = ex.getResponseBody();
            if (reset) {
                out.write(bytes, 0, bytes.length / 2);
                out.flush();
                throw new AbruptClose("simulated connection reset in the body");
            }
            out.write(bytes);
        }
        metrics.finished(System.nanoTime() - t.arriveNanos, "length", t.emitted);
    }

    /** Receives each generated token at its modelled time and writes it to the client. */
    @FunctionalInterface
    interface TokenSink {
        /**
         * @param piece     the token (its text is already appended to the turn)
         * @param reasoning whether it is a reasoning token
         * @param index     0-based position in the output
         * @param last      whether it is the last output token
         * @return {@link System#nanoTime()} just before the write [ns]
         * @throws IOException when the client has gone away
         */
        long token(WordSource.Piece piece, boolean reasoning, int index, boolean last) throws IOException;
    }

    /**
     * The decode loop shared by every front end: first token at {@code admitted + prefill(uncached)·jitter}, each
     * next one a jittered decode gap (for the sequences running at that moment) later, plus a stall when the stall
     * fault fires. Updates the turn's text, counts and token timestamps and the metrics. Before each wait for a
     * time still ahead, the events pending in {@code writer} (if not null) are sent; events already due share a write.
     */
    private void decode(Turn t, int[] ids, SplittableRandom rnd, TokenSink sink, EventWriter writer)
            throws IOException, InterruptedException {
        int max = t.request.maxTokens();
        double sigma = profile.jitter().sigma();
        SimProfile.Stall stall = profile.faults().stall();
        long deadline = t.admittedNanos + prefillDelayNanos(profile, ids.length - t.cachedTokens, rnd);
        WordSource words = new WordSource(rnd);
        long previous = 0;
        for (int i = 0; i < max; i++) {
            if (i > 0) {
                deadline += jitter(profile.gapNanos(Math.max(1, admission.running())), sigma, rnd);
                if (stall.rate() > 0 && rnd.nextDouble() < stall.rate()) {
                    deadline += seconds(stall.seconds());
                }
            }
            if (writer != null && deadline - System.nanoTime() > 0) {
                writer.send();
            }
            parkUntil(deadline);
            WordSource.Piece piece = words.next();
            boolean reasoning = i < t.reasoningTokens;
            (reasoning ? t.reasoning : t.answer).append(piece.text());
            t.emitted++;
            gpu.token();
            long written = sink.token(piece, reasoning, i, i == max - 1);
            if (i == 0) {
                t.firstTokenNanos = written;
                metrics.prefillDone(ids.length, t.cachedTokens);
                metrics.firstToken(written - t.arriveNanos);
            } else {
                metrics.interToken(written - previous);
            }
            previous = written;
            t.lastTokenNanos = written;
            metrics.token();
        }
    }

    /**
     * Serves one generation request that arrived through another front end than HTTP (the KServe gRPC service)
     * with the same latency model, admission queue, prefix cache and metrics as the HTTP routes. The rate-limit,
     * server-error, slow-header and reset faults are HTTP-only; stalls apply. Blocks for the whole generation.
     *
     * @param promptText the prompt (tokenised with cl100k for its length)
     * @param maxTokens  output tokens to generate, &gt;= 1
     * @param idPrefix   prefix of the response id, e.g. {@code kserve-}
     * @param sink       receives each token at its time; {@code last} marks the final one
     * @return the finished turn (text, counts, timestamps)
     * @throws IOException          when the sink fails (the client went away)
     * @throws InterruptedException when the server is closing
     */
    Turn generate(String promptText, int maxTokens, String idPrefix, TokenSink sink)
            throws IOException, InterruptedException {
        long arrive = System.nanoTime();
        SplittableRandom rnd;
        synchronized (master) {
            rnd = master.split();
        }
        int[] ids = TokenCounter.cl100k().encode(promptText);
        SimRequest req = new SimRequest(promptText, null, maxTokens, true, false, false);
        Turn t = new Turn(req, idPrefix + requestIds.incrementAndGet(), profile.model(),
                Instant.now().getEpochSecond(), ids.length, 0);
        t.arriveNanos = arrive;
        boolean waited = admission.admit();
        try {
            t.admittedNanos = waited ? System.nanoTime() : arrive;
            t.cachedTokens = cache == null ? 0 : cache.lookupAndInsert(ids);
            decode(t, ids, rnd, sink, null);
        } finally {
            admission.release();
        }
        metrics.finished(System.nanoTime() - t.arriveNanos, "length");
        return t;
    }

    /** @return the options this handler serves with (stamping) */
    SimOptions options() {
        return options;
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Parks the calling thread until {@code deadline}; absolute, so early wake-ups just park again.
     *
     * @param deadline a {@link System#nanoTime()} value
     * @throws InterruptedException when the thread is interrupted (the server is closing)
     */
    static void parkUntil(long deadline) throws InterruptedException {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /**
     * The simulated prefill of one request: the profile's median prefill time for its uncached prompt tokens times a
     * lognormal jitter factor {@code exp(σ·Z)}, Z standard normal from the request's own random stream (split from
     * the simulator's seeded one). The first token is written this long after admission.
     *
     * @param profile        the profile (prefill law, chunk overhead, jitter σ)
     * @param uncachedTokens prompt tokens to compute, >= 0
     * @param rnd            the request's random stream; one Gaussian is drawn when σ &gt; 0 and the time is &gt; 0
     * @return prefill time, ns
     * @throws IllegalArgumentException when {@code uncachedTokens < 0}
     */
    static long prefillDelayNanos(SimProfile profile, int uncachedTokens, SplittableRandom rnd) {
        return jitter(profile.prefillNanos(uncachedTokens), profile.jitter().sigma(), rnd);
    }

    private static long jitter(long nanos, double sigma, SplittableRandom rnd) {
        if (sigma == 0 || nanos == 0) {
            return nanos;
        }
        return Math.round(nanos * Math.exp(sigma * rnd.nextGaussian()));
    }

    private static long seconds(double s) {
        return Math.round(s * 1e9);
    }

    /**
     * Reads a request body into an array of its declared length (a few hundred bytes for a short prompt), or
     * whole when the length is absent or above 1 MiB ({@code readAllBytes} grows through 8 KiB buffers).
     */
    private static byte[] readBody(HttpExchange ex) throws IOException {
        String declared = ex.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            try {
                int n = Integer.parseInt(declared.trim());
                if (n >= 0 && n <= 1 << 20) {
                    byte[] body = new byte[n];
                    int read = ex.getRequestBody().readNBytes(body, 0, n);
                    return read == n ? body : Arrays.copyOf(body, read);
                }
            } catch (NumberFormatException e) {
                // the server rejects such a request before it gets here; read it whole anyway
            }
        }
        return ex.getRequestBody().readAllBytes();
    }

    private void sendJson(HttpExchange ex, int status, ObjectNode body, Map<String, String> headers)
            throws IOException {
        headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        sendText(ex, status, "application/json", EventWriter.json(body));
    }

    private static void sendText(HttpExchange ex, int status, String contentType, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, bytes.length);
        ex.getResponseBody().write(bytes);
    }
}
