package org.latencylab.engine.client;

import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.tokens.TokenCounter;

import java.io.IOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * The protocol client: sends one generation request to an endpoint and measures it into a {@link RequestRecord}.
 *
 * <p>Plain-HTTP ({@code http://}) endpoints are measured through {@link DirectHttp1}: an HTTP/1.1 exchange written
 * and read by the calling thread over a pooled connection, with nothing of the client's between the send stamp and
 * the wire. Everything else (TLS, HTTP/2, a proxy, or {@code -Dlatencylab.http=okhttp}) goes through one shared
 * {@link OkHttpClient} (connection pools sized for thousands of concurrent streams). Connections are reused across
 * requests either way. {@link #execute} blocks the
 * calling thread for the whole request; callers run it on virtual threads. It never throws for a failed
 * request: every failure becomes a record with an {@link ErrorKind}.
 *
 * <h2>Timeouts</h2>
 * From {@link ClientOptions}: {@code connectTimeout} (TCP + TLS connect), {@code firstByteTimeout} (the socket
 * read while waiting for the response headers, i.e. after the request was written), {@code idleTimeout} (the
 * gap between two reads of the body) and {@code totalTimeout} (the whole request, all attempts and backoff
 * included). A timeout is {@link ErrorKind#TIMEOUT} and its message says which limit fired.
 *
 * <h2>Retries</h2>
 * Up to {@code maxRetries} retries on 429, 5xx, or a connection failure before any response; the server's
 * {@code retry-after-ms}/{@code Retry-After} is honoured, else exponential backoff with full jitter (see
 * {@link RetryDelays}). Latencies still count from the first attempt's send time.
 *
 * <h2>Re-sends on a new connection</h2>
 * Apart from those retries, a request whose pooled connection the server had closed (the write failed, or the
 * connection ended or was reset before any response byte: {@link StaleConnectionException}) is sent once more on a
 * new connection, on both HTTP paths, and recorded as such ({@link org.latencylab.engine.api.Resend}); its latencies
 * count from that send. The server's {@code Connection: close}, HTTP/1.0 and {@code Keep-Alive: timeout, max} are
 * followed on the own path ({@link KeepAlive}); a server seen closing after each streamed response gets no reuse
 * after streamed responses ({@link ConnectionHabits}, said through {@link #takeConnectionNotices}).
 *
 * <h2>Secrets</h2>
 * The API key is read from the environment variable {@link Endpoint#apiKeyEnv()} at send time, through the
 * injected lookup; its value is removed from every error message and never stored in a record.
 *
 * <p>Thread-safe: any number of threads may call {@link #execute} at once. Call {@link #close} once no call is
 * in flight.
 */
public final class LlmClient implements AutoCloseable {

    private final ClientOptions options;
    private final Function<String, String> env;
    private final Map<Protocol, ProtocolAdapter> adapters = new EnumMap<>(Protocol.class);
    private final TokenCounter counter = TokenCounter.cl100k();
    private final StallWatchdog watchdog;
    /** The plain-HTTP measuring path; null when turned off or when HTTP/2 is asked for. */
    private final DirectHttp1 direct;
    /** How servers treat connections, learnt on either path. */
    private final ConnectionHabits habits = new ConnectionHabits();
    /** OkHttp's connections' last releases, for {@link #habits}. */
    private final AttemptReader reader;
    private final OkHttpPath okhttp;
    /** Sends over {@link #direct}; null when that is off. */
    private final DirectPath directPath;
    private final PreparedRequests requests;
    private final ConnectionWarmer warmer;
    private final KserveGrpcClient grpc;

    /**
     * A client reading API keys from {@link System#getenv(String)}.
     *
     * @param options timeouts, retries and what to keep; not null
     */
    public LlmClient(ClientOptions options) {
        this(options, System::getenv);
    }

    /**
     * @param options timeouts, retries and what to keep; not null
     * @param env     looks up an environment variable by name (returns null when unset); not null. Tests
     *                inject a map here instead of the real environment.
     */
    public LlmClient(ClientOptions options, Function<String, String> env) {
        this(options, env, HttpVersion.AUTO);
    }

    /**
     * @param options timeouts, retries and what to keep; not null
     * @param env     looks up an environment variable by name (returns null when unset); not null
     * @param version the HTTP version to speak (HTTP/1.1 only, h2c by prior knowledge, or ALPN's choice); not null
     */
    public LlmClient(ClientOptions options, Function<String, String> env, HttpVersion version) {
        this(options, env, version, DirectHttp1.enabled());
    }

    /**
     * @param options    timeouts, retries and what to keep; not null
     * @param env        looks up an environment variable by name; not null
     * @param version    the HTTP version to speak; not null
     * @param directHttp whether plain-HTTP endpoints use {@link DirectHttp1} (else OkHttp serves every endpoint, as
     *                   with {@code -Dlatencylab.http=okhttp})
     */
    public LlmClient(ClientOptions options, Function<String, String> env, HttpVersion version, boolean directHttp) {
        this.options = Objects.requireNonNull(options, "options");
        this.env = Objects.requireNonNull(env, "env");
        Objects.requireNonNull(version, "version");
        this.watchdog = new StallWatchdog(options.connectTimeout().toNanos(), options.firstByteTimeout().toNanos(),
                options.idleTimeout().toNanos());
        this.reader = new AttemptReader(options, counter);
        this.okhttp = new OkHttpPath(options, version, watchdog, habits, reader);
        this.direct = version != HttpVersion.H2C && directHttp
                ? new DirectHttp1(options.connectTimeout().toMillis(), habits) : null;
        this.directPath = direct == null ? null : new DirectPath(direct, watchdog, reader);
        this.requests = new PreparedRequests(options, direct);
        this.warmer = new ConnectionWarmer(this, okhttp, direct);
        register(OpenAiAdapter.CHAT);
        register(OpenAiAdapter.COMPLETIONS);
        register(AnthropicAdapter.INSTANCE);
        register(OllamaAdapter.CHAT);
        register(OllamaAdapter.GENERATE);
        register(TgiAdapter.INSTANCE);
        this.grpc = new KserveGrpcClient(options, counter);
        ConnectionWarmer.warmParsingOnce(counter);
    }

    private void register(ProtocolAdapter adapter) {
        adapters.put(adapter.protocol(), adapter);
    }

    /** @param protocol a protocol @return its adapter, or null */
    ProtocolAdapter adapter(Protocol protocol) {
        return adapters.get(protocol);
    }

    /**
     * @param endpoint an endpoint
     * @return true when its requests go through the own plain-HTTP/1.1 path, false when through OkHttp (TLS, HTTP/2,
     *         a proxy, gRPC, or the own path turned off)
     */
    public boolean measuresDirectly(Endpoint endpoint) {
        if (direct == null || endpoint.protocol() == Protocol.KSERVE_GRPC) {
            return false;
        }
        HttpUrl base = HttpUrl.parse(endpoint.baseUrl());
        return base != null && direct.handles(base);
    }

    /**
     * @param endpoint an endpoint
     * @return true when reader threads read and stamp its responses ({@link ReadAhead}): it is measured directly
     *         ({@link #measuresDirectly}) and read-ahead is on
     */
    public boolean readsAhead(Endpoint endpoint) {
        return measuresDirectly(endpoint) && direct.readsAhead();
    }

    /**
     * @param endpoint an endpoint
     * @return which code measures its requests: the own HTTP/1.1 exchange ({@link #measuresDirectly}), OkHttp, or
     *         grpc-java for the KServe gRPC protocol
     */
    public org.latencylab.engine.api.HttpPath httpPath(Endpoint endpoint) {
        return endpoint.protocol() == Protocol.KSERVE_GRPC ? org.latencylab.engine.api.HttpPath.GRPC
                : measuresDirectly(endpoint) ? org.latencylab.engine.api.HttpPath.DIRECT_HTTP1
                : org.latencylab.engine.api.HttpPath.OKHTTP;
    }

    /**
     * @return what this client learnt about servers' connection habits since the last call, one sentence each (e.g.
     *         that a server closes its connections after streamed responses and they are no longer reused), for the
     *         run's notices; each habit is said once per client
     */
    public java.util.List<String> takeConnectionNotices() {
        return habits.takeNotices();
    }

    /** @return the options this client was built with */
    public ClientOptions options() {
        return options;
    }

    /** @param protocol a protocol @return true when this client has an adapter for it */
    public boolean supports(Protocol protocol) {
        return adapters.containsKey(protocol) || protocol == Protocol.KSERVE_GRPC;
    }

    /** @return the protocols this client speaks */
    public Set<Protocol> supportedProtocols() {
        java.util.EnumSet<Protocol> all = java.util.EnumSet.copyOf(adapters.keySet());
        all.add(Protocol.KSERVE_GRPC);
        return Set.copyOf(all);
    }

    /**
     * Opens connections before a measurement, so that no measured request pays connect, TLS or DNS time and the
     * client's own code paths (HTTP, framing, JSON, records) are warm: sends {@code count} small requests at once (a
     * two-word prompt, one output token, streaming as the measurement will), waits until all ended and leaves their
     * connections idle in the pool. On the direct HTTP/1.1 path each of them connects anew, so the pool grows by
     * {@code count} connections; through OkHttp (TLS, a proxy) one that ended first may hand its connection to one
     * that starts later (HTTP/2 multiplexes them anyway). Their results are dropped. Skipped when the pool already
     * holds {@code count} idle connections. The requests run on {@link RequestThreads#startPooled}, so that many
     * pooled threads are left idle for the measurement. Blocks for about one request's latency.
     *
     * @param endpoint where the measurement will send
     * @param count    connections wanted (the concurrency the measurement keeps in flight); capped at 4,096
     * @param stream   whether the measured requests stream
     * @return how many of the warm-up requests failed (0 when all succeeded or none were needed)
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    public int openConnections(Endpoint endpoint, int count, boolean stream) throws InterruptedException {
        return warmer.openConnections(endpoint, count, stream);
    }

    /**
     * Sends one small unrecorded request (a two-word prompt, one output token) on the calling thread, so that the
     * thread's connection lane holds one more open connection and the code paths it will measure with are warm.
     *
     * @param endpoint where the measurement will send
     * @param stream   whether the measured requests stream
     * @return true when the request succeeded
     */
    public boolean warmConnection(Endpoint endpoint, boolean stream) {
        return warmConnection(endpoint, stream, Integer.MAX_VALUE);
    }

    /**
     * As {@link #warmConnection(Endpoint, boolean)}, connecting anew only while the pool holds fewer than
     * {@code connections} idle connections to the endpoint ({@link #warm(Endpoint, boolean, int)}).
     *
     * @param endpoint    where the measurement will send
     * @param stream      whether the measured requests stream
     * @param connections idle connections the measurement needs, >= 1
     * @return true when the request succeeded
     */
    public boolean warmConnection(Endpoint endpoint, boolean stream, int connections) {
        try {
            return warm(endpoint, stream, connections).succeeded();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Like {@link #warmConnection}, but returns the unrecorded request's record, so a caller can say why it failed.
     * The request connects anew (direct HTTP/1.1 path).
     *
     * @param endpoint where the measurement will send
     * @param stream   whether the measured requests stream
     * @return the record of the small request (label {@code connect}); never null
     */
    public RequestRecord warm(Endpoint endpoint, boolean stream) {
        return warm(endpoint, stream, Integer.MAX_VALUE);
    }

    /**
     * Sends the small unrecorded request of {@link #warm(Endpoint, boolean)}. On the direct HTTP/1.1 path it connects
     * anew while the pool holds fewer than {@code connections} idle connections to the endpoint, and else takes one
     * of them: a closed loop's workers warm at once and one after another, and a worker that took the connection
     * another one had just given back would leave the pool with fewer connections than workers, so measured requests
     * would connect (in {@code probe -n 1024 -c 256} of the built-in simulator, 111 of its requests did). With the
     * rule, once all workers warmed at least {@code connections} are idle, and a later step of the same size adds none.
     * Through OkHttp (TLS, a proxy) the pool decides.
     *
     * @param endpoint    where the measurement will send
     * @param stream      whether the measured requests stream
     * @param connections idle connections the measurement needs, >= 1 ({@link Integer#MAX_VALUE}: always anew)
     * @return the record of the small request (label {@code connect}); never null
     */
    public RequestRecord warm(Endpoint endpoint, boolean stream, int connections) {
        return warmer.warm(endpoint, stream, connections);
    }

    /**
     * Sends one request (with retries as configured) and measures it. Blocks until the response ended.
     *
     * <p>If the calling thread is interrupted while the request runs, the request is cancelled, the record's
     * outcome is {@link Outcome#CANCELLED} and the thread's interrupt flag is left set. On a virtual thread a
     * blocked socket read is interrupted at once; on a platform thread the interruption is noticed at the next
     * read or timeout.
     *
     * @param endpoint where to send it; its protocol must be supported (else the record is a
     *                 {@code protocol} error)
     * @param request  what to ask for
     * @param ticket   request id, label and intended start ({@code intendedStartNanos} is copied)
     * @return the record; never null; never throws for request failures
     */
    public RequestRecord execute(Endpoint endpoint, GenerationRequest request, RequestTicket ticket) {
        return execute(endpoint, request, ticket, null);
    }

    /**
     * Sends one request like {@link #execute(Endpoint, GenerationRequest, RequestTicket)} and tells the caller, while
     * the request still streams, that its first token-bearing event arrived (e.g. so a load generator can enforce a
     * hard first-token deadline by interrupting only requests that have none yet).
     *
     * @param endpoint     where to send it
     * @param request      what to ask for
     * @param ticket       request id, label and intended start
     * @param onFirstToken run once on the calling thread right after the first token was stamped (streaming requests
     *                     only); must be fast; an exception it throws is ignored; null for none
     * @return the record; never null; never throws for request failures
     */
    public RequestRecord execute(Endpoint endpoint, GenerationRequest request, RequestTicket ticket,
                                 Runnable onFirstToken) {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = ticket.id();
        b.label = ticket.label();
        b.phase = ticket.phase();
        b.protocol = endpoint.protocol();
        b.contextTokens = ticket.contextTokens();
        b.stream = request.stream();
        b.intendedStartNanos = ticket.intendedStartNanos();
        b.capWaitNanos = ticket.capWaitNanos();
        String key = endpoint.apiKeyEnv() == null ? null : env.apply(endpoint.apiKeyEnv());
        try {
            if (endpoint.protocol() == Protocol.KSERVE_GRPC) {
                RequestThreads.behindReaders(false); // grpc-java may read on this thread
                grpc.execute(endpoint, request, key, b); // gRPC: its own client, same record
            } else {
                run(endpoint, request, key, b, onFirstToken);
            }
        } catch (RuntimeException e) {
            // safety net: a bug in parsing must not kill the run; the request is recorded as unparseable
            AttemptReader.resetOutcome(b);
            b.error(ErrorKind.PROTOCOL, redact("response could not be processed: " + e, key));
        }
        if (b.outcome == Outcome.ERROR && b.errorMessage != null) {
            b.errorMessage = redact(b.errorMessage, key);
        }
        return b.build();
    }
    private void run(Endpoint endpoint, GenerationRequest request, String key, RequestRecord.Builder b,
                     Runnable onFirstToken) {
        ProtocolAdapter adapter = adapters.get(endpoint.protocol());
        if (adapter == null) {
            b.error(ErrorKind.PROTOCOL, "protocol " + endpoint.protocol().id() + " is not supported by this client");
            return;
        }
        Request httpRequest;
        PreparedRequests.Built built;
        try {
            built = requests.forSend(endpoint, request, adapter, key);
            if (options.trace()) {
                // a new trace context per request, added before the send stamp (taken in the attempt below)
                TraceParent tp = TraceParent.random();
                b.traceId = tp.traceId();
                b.spanId = tp.spanId();
                built = tp.applyTo(built);
            }
            httpRequest = built.http();
        } catch (IOException | IllegalArgumentException e) {
            b.error(ErrorKind.PROTOCOL, "request for endpoint '" + endpoint.name() + "' could not be built: "
                    + e.getMessage());
            return;
        }
        if (Thread.currentThread().isInterrupted()) {
            AttemptReader.cancelled(b, "cancelled before send: the calling thread was interrupted");
            return;
        }
        OkHttpClient client = okhttp.lane(endpoint);
        long total = options.totalTimeout().toNanos();
        for (int attempt = 1; ; attempt++) {
            AttemptReader.resetOutcome(b);
            b.attempts++;
            long deadline = attempt == 1 || total == 0 ? UNSET : AttemptReader.firstSend(b) + total;
            AttemptResult r = built.wire() != null
                    ? directPath.attempt(built, adapter, request.stream(), deadline, total, b, onFirstToken)
                    : okhttp.attempt(client, httpRequest, adapter, request.stream(), deadline, total, b, onFirstToken);
            if (!r.retryable() || attempt > options.maxRetries()) {
                break;
            }
            long delay = r.serverHintNanos() >= 0 ? r.serverHintNanos()
                    : RetryDelays.backoffNanos(options.retryBaseDelay(), attempt);
            if (total > 0 && System.nanoTime() + delay >= AttemptReader.firstSend(b) + total) {
                b.errorMessage = b.errorMessage + " (not retried: the total timeout of "
                        + options.totalTimeout().toMillis() + " ms would pass during the "
                        + TimeUnit.NANOSECONDS.toMillis(delay) + " ms retry delay)";
                break;
            }
            try {
                Thread.sleep(Duration.ofNanos(delay));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                AttemptReader.cancelled(b, "cancelled during retry backoff: the calling thread was interrupted");
                break;
            }
        }
    }

    /** @return how many reads of plain-HTTP responses waited for the reader thread so far (request-thread wake-ups) */
    long readAheadWaits() {
        return direct == null ? 0 : direct.readAheadWaits();
    }

    /**
     * Reads a 2xx response body with the adapter and classifies how it ended into {@code b}. Package-private
     * so framing tests can feed in-memory responses through the same path.
     */
    void readBody(Response response, TimingListener timing, ProtocolAdapter adapter, boolean stream,
                  RequestRecord.Builder b) {
        reader.readBody(response, timing, adapter, stream, b);
    }

    /** @return how many requests this client has built (URL, body, headers) so far */
    long builds() {
        return requests.builds();
    }

    /**
     * Builds a request's HTTP form (URL, JSON body, headers, and its HTTP/1.1 bytes where those are sent directly)
     * now, so that the {@link #execute} that later sends an equal request to the same endpoint does no building
     * between the moment its worker is ready and its send stamp. A closed loop prepares its prompts before the
     * measurement starts; at high concurrency, building a thousand bodies at the moment a thousand streams end
     * took CPU from the streams still being stamped and from the server. Optional: an unprepared request is built
     * when sent. Equal requests prepared n times serve n sends. A prepared request that is never sent is held until
     * {@link #close}. Thread-safe.
     *
     * @param endpoint the endpoint it will be sent to; not null
     * @param request  the request; not null
     * @return true when it was prepared; false when it cannot be built (its send will then record the error) or the
     *         protocol has no HTTP form (gRPC)
     */
    public boolean prepare(Endpoint endpoint, GenerationRequest request) {
        ProtocolAdapter adapter = adapters.get(endpoint.protocol());
        if (adapter == null || endpoint.protocol() == Protocol.KSERVE_GRPC) {
            return false;
        }
        String key = endpoint.apiKeyEnv() == null ? null : env.apply(endpoint.apiKeyEnv());
        return requests.prepare(endpoint, request, adapter, key);
    }

    /** See {@link PreparedRequests#joinUrl}. */
    static String joinUrl(String baseUrl, String path) {
        return PreparedRequests.joinUrl(baseUrl, path);
    }

    private static String redact(String message, String key) {
        if (message == null || key == null || key.isEmpty()) {
            return message;
        }
        return message.replace(key, "***");
    }

    /**
     * Closes every idle pooled connection (HTTP, all lanes) and every gRPC channel, so the next request opens a new
     * connection (DNS, TCP, TLS) inside its measured time. Call it between requests, not while one is in flight.
     */
    public void evictConnections() {
        if (direct != null) {
            direct.evictAll();
        }
        okhttp.evictAll();
        grpc.evictConnections();
    }

    /** Releases pooled connections and gRPC channels. Idempotent. */
    @Override
    public void close() {
        requests.clear();
        grpc.close();
        if (direct != null) {
            direct.close();
        }
        okhttp.evictAll();
        watchdog.close();
    }
}
