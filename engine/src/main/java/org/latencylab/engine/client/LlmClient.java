package org.latencylab.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.EventListener;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.tokens.TokenCounter;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
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
    /**
     * Set on a thread while it sends the small request of {@link #warm(Endpoint, boolean, int)}: the idle connections
     * below which that request connects anew.
     */
    private static final ThreadLocal<Integer> OPENING = new ThreadLocal<>();
    private static final MediaType JSON_TYPE = MediaType.get("application/json; charset=utf-8");
    /** Body bytes kept from a non-2xx response for the error message. */
    private static final long ERROR_BODY_PEEK_BYTES = 2048;

    private final ClientOptions options;
    private final Function<String, String> env;
    /**
     * Connection lanes: {@value #LANES} clients sharing everything but their connection pool; a request uses the lane
     * of its thread. OkHttp's pool scans every pooled connection on each acquire and on each release (its cleanup
     * task), so at a thousand concurrent streams one pool costs O(connections) per request under a lock; lanes keep
     * each pool small. A closed-loop worker always lands in the same lane, and so reuses its own connection.
     */
    static final int LANES = 16;
    private final OkHttpClient http;
    private final OkHttpClient[] lanes = new OkHttpClient[LANES];
    private final Map<Protocol, ProtocolAdapter> adapters = new EnumMap<>(Protocol.class);
    private final TokenCounter counter = TokenCounter.cl100k();
    private final StallWatchdog watchdog;
    private volatile OkHttpClient[] insecureLanes;
    /** The HTTP request built last, reused while the same request object is sent again; immutable. */
    private volatile Built lastBuilt;

    /**
     * Requests built by {@link #prepare} and not sent yet, by request value. Taken out by the send that uses them, so
     * the map only holds what a closed loop prepared ahead of its clock.
     */
    private final java.util.concurrent.ConcurrentHashMap<GenerationRequest, Ahead> prepared =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.concurrent.atomic.LongAdder builds = new java.util.concurrent.atomic.LongAdder();

    /**
     * A prepared request and how many sends of an equal request it still serves. Sends take a use without a lock
     * ({@link #takePrepared}): a warm probe's requests are all equal, so every send of a 1,024-way closed loop looked
     * up the same map entry, and with the map's bin lock around the count the 1,024 workers whose streams had just
     * ended queued on that one monitor before their next sends.
     */
    private static final class Ahead {
        final Built built;
        final java.util.concurrent.atomic.AtomicInteger uses = new java.util.concurrent.atomic.AtomicInteger(1);

        Ahead(Built built) {
            this.built = built;
        }
    }

    /** {@code wire}: the request's HTTP/1.1 bytes when {@link DirectHttp1} serves its URL, else null. */
    private record Built(Endpoint endpoint, GenerationRequest request, String key, Request http, byte[] wire) {
    }
    /** The plain-HTTP measuring path; null when turned off or when HTTP/2 is asked for. */
    private final DirectHttp1 direct;
    /** How servers treat connections, learnt on either path. */
    private final ConnectionHabits habits = new ConnectionHabits();
    /** OkHttp's connections' last releases, for {@link #habits}. */
    private final ConnectionLedger ledger = new ConnectionLedger();
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
        // calls run synchronously on the caller's (virtual) thread (Call.execute): OkHttp's Dispatcher and its
        // executor, which only serve asynchronous calls, are never used
        this.http = new OkHttpClient.Builder()
                .connectionPool(new ConnectionPool(4096, 5, TimeUnit.MINUTES))
                .socketFactory(new NoDelaySocketFactory())
                .connectTimeout(options.connectTimeout())
                // first-byte and idle limits are enforced by the watchdog, not by a timer per socket read
                .readTimeout(Duration.ZERO)
                .writeTimeout(Duration.ZERO)
                .callTimeout(Duration.ZERO)
                .retryOnConnectionFailure(false)
                .protocols(Objects.requireNonNull(version, "version").okhttpProtocols())
                .addNetworkInterceptor(ledger.keepAliveRules())
                .eventListenerFactory(call -> {
                    TimingListener t = call.request().tag(TimingListener.class);
                    return t != null ? t : EventListener.NONE;
                })
                .build();
        for (int i = 0; i < LANES; i++) {
            lanes[i] = i == 0 ? http : http.newBuilder().connectionPool(new ConnectionPool(4096, 5, TimeUnit.MINUTES))
                    .build();
        }
        this.watchdog = new StallWatchdog(options.connectTimeout().toNanos(), options.firstByteTimeout().toNanos(),
                options.idleTimeout().toNanos());
        this.direct = version != HttpVersion.H2C && directHttp
                ? new DirectHttp1(options.connectTimeout().toMillis(), habits) : null;
        register(OpenAiAdapter.CHAT);
        register(OpenAiAdapter.COMPLETIONS);
        register(AnthropicAdapter.INSTANCE);
        register(OllamaAdapter.CHAT);
        register(OllamaAdapter.GENERATE);
        register(TgiAdapter.INSTANCE);
        this.grpc = new KserveGrpcClient(options, counter);
        warmUpOnce();
    }

    private static final java.util.concurrent.atomic.AtomicBoolean WARMED_UP =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Runs the parsing path (SSE and NDJSON framing, Jackson, the tokenizer) once on in-memory responses, so the
     * class loading and tokenizer loading of the first use do not delay the first measured request.
     */
    private void warmUpOnce() {
        if (!WARMED_UP.compareAndSet(false, true)) {
            return;
        }
        String sse = "data: {\"choices\":[{\"delta\":{\"content\":\"warm up\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n";
        String anthropic = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":\"warm up\"}}\n\ndata: {\"type\":\"message_stop\"}\n\n";
        String ndjson = "{\"message\":{\"content\":\"warm\"},\"done\":false}\n{\"message\":{\"content\":\" up\"},"
                + "\"done\":true,\"eval_count\":2}\n";
        try {
            warmUp(OpenAiAdapter.CHAT, sse, "text/event-stream");
            warmUp(AnthropicAdapter.INSTANCE, anthropic, "text/event-stream");
            warmUp(OllamaAdapter.CHAT, ndjson, "application/x-ndjson");
        } catch (IOException | RuntimeException e) {
            // a failed warm-up only costs the first request some milliseconds
        }
    }

    private void warmUp(ProtocolAdapter adapter, String body, String contentType) throws IOException {
        Response r = new Response.Builder()
                .request(new Request.Builder().url("http://127.0.0.1/").build())
                .protocol(okhttp3.Protocol.HTTP_1_1).code(200).message("OK")
                .body(ResponseBody.create(body, MediaType.get(contentType))).build();
        ResponseCollector c = new ResponseCollector(counter, true, null);
        adapter.readStream(r, c);
        c.applyTo(RequestRecord.builder(), System.nanoTime(), true);
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
        int idle = 0;
        for (OkHttpClient c : lanes(endpoint)) {
            idle += c.connectionPool().idleConnectionCount();
        }
        HttpUrl base = HttpUrl.parse(endpoint.baseUrl());
        if (direct != null && base != null && direct.handles(base)) {
            idle += direct.idleCount(base);
        }
        int wanted = Math.min(count, 4096) - idle;
        if (wanted <= 0) {
            return 0;
        }
        java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(wanted);
        for (int i = 0; i < wanted; i++) {
            // on the request pool: all run at once, so the pool grows by `wanted` threads that then wait, idle, for
            // the measurement's requests (an open loop's dispatcher never creates a thread)
            RequestThreads.startPooled(() -> {
                try {
                    if (!warmConnection(endpoint, stream)) {
                        failed.incrementAndGet();
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        done.await();
        return failed.get();
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
        OPENING.set(connections); // read by attemptDirect
        try {
            return execute(endpoint, new GenerationRequest("Hi there", 2, 1, stream, Map.of()),
                    new RequestTicket(0, "connect", 2, System.nanoTime()));
        } finally {
            OPENING.remove();
        }
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
            resetOutcome(b);
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
        Built built = null;
        try {
            Built last = lastBuilt;
            Built ahead = prepared.isEmpty() ? null : takePrepared(request);
            if (ahead != null && ahead.endpoint.equals(endpoint) && Objects.equals(ahead.key, key)) {
                httpRequest = ahead.http; // built before the clock by prepare()
                built = ahead;
            } else if (last != null && last.request == request && last.endpoint.equals(endpoint)
                    && Objects.equals(last.key, key)) {
                httpRequest = last.http; // a load step sends one request object many times: build it once
                built = last;
            } else {
                built = build(endpoint, request, adapter, key);
                httpRequest = built.http;
                lastBuilt = built;
            }
        } catch (IOException | IllegalArgumentException e) {
            b.error(ErrorKind.PROTOCOL, "request for endpoint '" + endpoint.name() + "' could not be built: "
                    + e.getMessage());
            return;
        }
        if (Thread.currentThread().isInterrupted()) {
            cancelled(b, "cancelled before send: the calling thread was interrupted");
            return;
        }
        OkHttpClient client = lanes(endpoint)[(int) Math.floorMod(Thread.currentThread().threadId(), (long) LANES)];
        long total = options.totalTimeout().toNanos();
        for (int attempt = 1; ; attempt++) {
            resetOutcome(b);
            b.attempts++;
            long deadline = attempt == 1 || total == 0 ? UNSET : firstSend(b) + total;
            AttemptResult r = built.wire() != null
                    ? attemptDirect(built, adapter, request.stream(), deadline, total, b, onFirstToken)
                    : attempt(client, httpRequest, adapter, request.stream(), deadline, total, b, onFirstToken);
            if (!r.retryable() || attempt > options.maxRetries()) {
                break;
            }
            long delay = r.serverHintNanos() >= 0 ? r.serverHintNanos()
                    : RetryDelays.backoffNanos(options.retryBaseDelay(), attempt);
            if (total > 0 && System.nanoTime() + delay >= firstSend(b) + total) {
                b.errorMessage = b.errorMessage + " (not retried: the total timeout of "
                        + options.totalTimeout().toMillis() + " ms would pass during the "
                        + TimeUnit.NANOSECONDS.toMillis(delay) + " ms retry delay)";
                break;
            }
            try {
                Thread.sleep(Duration.ofNanos(delay));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancelled(b, "cancelled during retry backoff: the calling thread was interrupted");
                break;
            }
        }
    }

    /** Whether the attempt may be retried, and the server's delay hint (ns, or -1). */
    private record AttemptResult(boolean retryable, long serverHintNanos) {
        static final AttemptResult FINAL = new AttemptResult(false, -1);
        /** OkHttp's path: send once more on a new connection ({@link Resend}); never leaves this class's loop. */
        static final AttemptResult RESEND = new AttemptResult(false, -2);
    }

    private AttemptResult attempt(OkHttpClient client, Request base, ProtocolAdapter adapter, boolean stream,
                                  long deadline, long total, RequestRecord.Builder b, Runnable onFirstToken) {
        RequestThreads.behindReaders(false); // this thread reads its own socket: its wake-up is the stamp
        String hostPort = base.url().host() + ':' + base.url().port();
        // a server that closes its connections after streamed responses gets a new connection for each stream
        OkHttpClient via = stream && habits.closesAfterStreams(hostPort) ? unpooled(client) : client;
        for (boolean resending = false; ; resending = true) {
            TimingListener timing = new TimingListener();
            timing.ledger = ledger;
            timing.streams = stream;
            Call call = via.newCall(base.newBuilder().tag(TimingListener.class, timing).build());
            try (StallWatchdog.Watch watch = watchdog.watch(call, timing)) {
                AttemptResult r = attempt(call, timing, watch, adapter, stream, deadline, total, b, onFirstToken,
                        resending);
                if (r != AttemptResult.RESEND) {
                    return r;
                }
            }
            via = unpooled(client); // the re-send: on a new connection, as on the own path
        }
    }

    /**
     * @param client a lane
     * @return a client like it whose calls each open a connection and close it afterwards (a pool that keeps no idle
     *         connection): OkHttp has no per-call way to skip its pool
     */
    private static OkHttpClient unpooled(OkHttpClient client) {
        return client.newBuilder().connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS)).build();
    }

    /**
     * Decides whether a failed OkHttp call is the server's close of a pooled connection (see
     * {@link StaleConnectionException} for the rules), and if so marks the record for its one re-send.
     *
     * @return true when the request is to be sent once more on a new connection
     */
    private boolean resendable(Call call, TimingListener timing, StallWatchdog.Watch watch, IOException e,
                               RequestRecord.Builder b) {
        if (b.resend != Resend.NONE || !timing.pooled() || timing.headersReceived() || call.isCanceled()
                || watch.expired() != null || !StaleConnectionException.closeLike(e) || responseBytesSeen(e)) {
            return false;
        }
        long[] last = ledger.lastRelease(timing.connection);
        if (last != null) {
            habits.closedInPool(call.request().url().host() + ':' + call.request().url().port(), last[1] == 1,
                    timing.pooledAt - last[0], (int) last[2]);
        }
        b.resend = StaleConnectionException.reasonOf(e, timing.requestSent == UNSET);
        return true;
    }

    /**
     * @param e an OkHttp failure while reading a response head
     * @return true when part of the head had arrived: okio's line reader says how many bytes it held when the stream
     *         ended ("\n not found: limit=N content=...")
     */
    private static boolean responseBytesSeen(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (t instanceof java.io.EOFException && m != null && m.contains("limit=") && !m.contains("limit=0 ")) {
                return true;
            }
        }
        return false;
    }

    private AttemptResult attemptDirect(Built built, ProtocolAdapter adapter, boolean stream, long deadline, long total,
                                        RequestRecord.Builder b, Runnable onFirstToken) {
        RequestThreads.behindReaders(direct.readsAhead()); // parse behind the reader threads that stamp
        Integer opening = OPENING.get();
        long until = deadline;
        for (boolean resending = false; ; resending = true) {
            TimingListener timing = new TimingListener();
            DirectHttp1.Exchange exchange;
            try {
                // a pooled connection, checked before the clock starts; a new one for a request that opens
                // connections, and for the re-send of one whose pooled connection the server had closed
                exchange = direct.exchange(built.http().url(),
                        resending ? Integer.MAX_VALUE : opening == null ? 0 : opening);
                exchange.eager(onFirstToken != null); // a callback while it streams: woken by every read
                exchange.streams(stream);
            } catch (IOException e) {
                RequestThreads.endFirstSend(); // no connection takes a first send's turn over: the other workers go on
                b.error(ErrorKind.CONNECTION, "no response: " + describe(e));
                return AttemptResult.FINAL;
            }
            if (resending) {
                resend(b, timing);
            } else if (b.sendNanos == UNSET) {
                b.sendNanos = System.nanoTime();
                until = total > 0 ? b.sendNanos + total : UNSET;
            } else if (deadline != UNSET && deadline - System.nanoTime() <= 0) {
                b.error(ErrorKind.TIMEOUT, totalTimeoutMessage());
                return AttemptResult.FINAL;
            }
            try (StallWatchdog.Watch watch = watchdog.watch(exchange, timing, until)) {
                Response response;
                try {
                    response = exchange.execute(built.http(), built.wire(), timing);
                } catch (StaleConnectionException e) {
                    if (b.resend == Resend.NONE && watch.expired() == null) {
                        b.resend = e.reason();
                        continue; // once, on a new connection: see Resend for why this is safe
                    }
                    copyTimings(b, timing);
                    b.httpStatus = 0;
                    return failedBeforeResponse((IOException) e.getCause(), timing, watch, b);
                } catch (IOException e) {
                    copyTimings(b, timing);
                    b.httpStatus = 0;
                    return failedBeforeResponse(e, timing, watch, b);
                }
                return received(response, timing, watch, adapter, stream, b, onFirstToken);
            }
        }
    }

    /**
     * Starts the clock of a re-send ({@link Resend}): the failed attempt on the pooled connection is kept as
     * {@code resendWastedNanos}, and TTFT and E2E count from this send, whose connect is stamped in {@code timing}.
     * The total timeout keeps counting from the first send.
     */
    /** @return the first attempt's send: the total timeout counts from it, re-send or not */
    private static long firstSend(RequestRecord.Builder b) {
        return b.sendNanos - b.resendWastedNanos;
    }

    private static void resend(RequestRecord.Builder b, TimingListener timing) {
        long now = System.nanoTime();
        b.resendWastedNanos = now - b.sendNanos;
        b.sendNanos = now;
        b.attempts++;
    }

    private AttemptResult attempt(Call call, TimingListener timing, StallWatchdog.Watch watch, ProtocolAdapter adapter,
                                  boolean stream, long deadline, long total, RequestRecord.Builder b,
                                  Runnable onFirstToken, boolean resending) {
        Response response;
        RequestThreads.endFirstSend(); // OkHttp's path is not paced: a turn would be held for the whole response
        try {
            if (resending) {
                long first = b.sendNanos;
                resend(b, timing); // the re-send after a pooled connection's failure: its own clock
                long until = deadline != UNSET ? deadline : total > 0 ? first + total : UNSET;
                if (until != UNSET) { // the total timeout keeps counting from the first send
                    call.timeout().timeout(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS);
                }
                response = call.execute();
            } else if (b.sendNanos == UNSET) {
                if (total > 0) {
                    call.timeout().timeout(total, TimeUnit.NANOSECONDS);
                }
                b.sendNanos = System.nanoTime();
                response = call.execute();
            } else {
                long remaining = deadline == UNSET ? 0 : deadline - System.nanoTime();
                if (deadline != UNSET && remaining <= 0) {
                    copyTimings(b, timing);
                    b.error(ErrorKind.TIMEOUT, totalTimeoutMessage());
                    return AttemptResult.FINAL;
                }
                if (remaining > 0) {
                    call.timeout().timeout(remaining, TimeUnit.NANOSECONDS);
                }
                response = call.execute();
            }
        } catch (IOException e) {
            if (resendable(call, timing, watch, e, b)) {
                return AttemptResult.RESEND;
            }
            copyTimings(b, timing);
            b.httpStatus = 0;
            return failedBeforeResponse(e, timing, watch, b);
        }
        return received(response, timing, watch, adapter, stream, b, onFirstToken);
    }

    private AttemptResult received(Response response, TimingListener timing, StallWatchdog.Watch watch,
                                   ProtocolAdapter adapter, boolean stream, RequestRecord.Builder b,
                                   Runnable onFirstToken) {
        try (response) {
            copyTimings(b, timing);
            b.httpStatus = response.code();
            // OkHttp itself repeats a request once after "503 + Retry-After: 0"; count it as an attempt
            for (Response prior = response.priorResponse(); prior != null; prior = prior.priorResponse()) {
                if (prior.code() == 503) {
                    b.attempts++;
                }
            }
            if (!response.isSuccessful()) {
                return refused(response, b);
            }
            readBody(response, timing, watch, adapter, stream, b, onFirstToken);
            copyTimings(b, timing);
            return AttemptResult.FINAL;
        }
    }

    private AttemptResult failedBeforeResponse(IOException e, TimingListener timing, StallWatchdog.Watch watch,
                                               RequestRecord.Builder b) {
        if (watch.expired() == StallWatchdog.Expiry.FIRST_BYTE) {
            b.error(ErrorKind.TIMEOUT, firstByteTimeoutMessage());
            return AttemptResult.FINAL;
        }
        if (watch.expired() == StallWatchdog.Expiry.CONNECT) {
            b.error(ErrorKind.TIMEOUT, "connect timeout: the TLS handshake did not finish within "
                    + options.connectTimeout().toMillis() + " ms of the connect's start (does the server speak TLS on"
                    + " this port? an http:// URL reaches a plain-HTTP server)");
            return AttemptResult.FINAL;
        }
        if (interrupted(e, totalTimeoutFired(b))) {
            cancelled(b, "cancelled: the calling thread was interrupted");
            return AttemptResult.FINAL;
        }
        if (totalTimeoutFired(b)) {
            b.error(ErrorKind.TIMEOUT, totalTimeoutMessage());
            return AttemptResult.FINAL;
        }
        if (e instanceof java.net.ProtocolException) { // the server's answer is not HTTP/1.1 as this client reads it
            b.error(ErrorKind.PROTOCOL, "invalid response: " + describe(e));
            return AttemptResult.FINAL;
        }
        if (e instanceof SocketTimeoutException) {
            if (timing.connecting() || timing.beforeRequestSent()) { // by the phase that timed out, not by text
                b.error(ErrorKind.TIMEOUT, "connect timeout: no connection within "
                        + options.connectTimeout().toMillis() + " ms");
            } else {
                b.error(ErrorKind.TIMEOUT, firstByteTimeoutMessage());
            }
            return AttemptResult.FINAL;
        }
        b.error(ErrorKind.CONNECTION, "no response: " + describe(e));
        return new AttemptResult(true, -1);
    }

    private AttemptResult refused(Response response, RequestRecord.Builder b) {
        String body = "";
        try {
            body = response.peekBody(ERROR_BODY_PEEK_BYTES).string();
        } catch (IOException | RuntimeException e) {
            body = "(body unreadable: " + e.getClass().getSimpleName() + ")";
        }
        int code = response.code();
        String msg = "HTTP " + code + (response.message().isEmpty() ? "" : " " + response.message())
                + (body.isBlank() ? "" : ": " + ProtocolAdapter.excerpt(body));
        long hint = RetryDelays.serverHintNanos(response.headers(), System.currentTimeMillis());
        if (code == 429) {
            b.rateLimitedAttempts++;
            b.error(ErrorKind.RATE_LIMITED, msg);
            return new AttemptResult(true, hint);
        }
        if ((code == 401 || code == 403) && response.request().header("Authorization") == null
                && response.request().header("x-api-key") == null) {
            msg += " (no API key was sent: is the endpoint's API key environment variable set?)";
        }
        b.error(ErrorKind.HTTP_STATUS, msg);
        return code >= 500 ? new AttemptResult(true, hint) : AttemptResult.FINAL;
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
        readBody(response, timing, null, adapter, stream, b, null);
    }

    private void readBody(Response response, TimingListener timing, StallWatchdog.Watch watch, ProtocolAdapter adapter,
                          boolean stream, RequestRecord.Builder b, Runnable onFirstToken) {
        StampedBody body = new StampedBody(response.body());
        if (watch != null) {
            watch.reading(body);
        }
        Response wrapped = response.newBuilder().body(body).build();
        ResponseCollector c = new ResponseCollector(counter, stream, onFirstToken);
        try {
            readBody(response, wrapped, body, watch, adapter, stream, b, c);
        } finally {
            timing.firstByte = body.firstByteNanos();
        }
    }

    private void readBody(Response response, Response wrapped, StampedBody body, StallWatchdog.Watch watch,
                          ProtocolAdapter adapter, boolean stream, RequestRecord.Builder b, ResponseCollector c) {
        try {
            if (stream && answeredWithWholeBody(response, adapter)) {
                byte[] bytes = body.source().readByteArray();
                long end = body.consumedStamp();
                String text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
                JsonNode node = ProtocolAdapter.parseObject(text);
                ResponseCollector whole = ResponseCollector.forUnstreamedBody(counter, end);
                if (node == null) {
                    whole.fail(ErrorKind.PROTOCOL, "a stream was asked for; the response is application/json but not"
                            + " a JSON object: " + ProtocolAdapter.excerpt(text), end);
                } else {
                    adapter.readBody(node, whole);
                    whole.endMarker(end);
                }
                whole.applyTo(b, end, options.keepText());
                b.streamHonoured = false;
                return;
            }
            if (stream) {
                adapter.readStream(wrapped, c);
            } else {
                byte[] bytes = body.source().readByteArray();
                long end = body.consumedStamp();
                JsonNode node = ProtocolAdapter.parseObject(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
                if (node == null) {
                    c.fail(ErrorKind.PROTOCOL, "response body is not a JSON object: "
                            + ProtocolAdapter.excerpt(new String(bytes, java.nio.charset.StandardCharsets.UTF_8)), end);
                } else {
                    adapter.readBody(node, c);
                }
                c.applyTo(b, end, options.keepText());
                return;
            }
            c.applyTo(b, System.nanoTime(), options.keepText());
        } catch (StreamFormatException e) {
            c.fail(ErrorKind.PROTOCOL, e.getMessage(), System.nanoTime());
            c.applyTo(b, System.nanoTime(), options.keepText());
        } catch (IOException e) {
            long now = System.nanoTime();
            if (c.complete()) {
                c.applyTo(b, now, options.keepText());
                return;
            }
            if (interrupted(e, totalTimeoutFired(b))) {
                c.applyTo(b, now, options.keepText());
                cancelled(b, "cancelled: the calling thread was interrupted");
                return;
            }
            if (watch != null && watch.expired() == StallWatchdog.Expiry.IDLE) {
                c.fail(ErrorKind.TIMEOUT, "idle timeout: no body bytes for "
                        + options.idleTimeout().toMillis() + " ms after " + c.events() + " token-bearing events", now);
            } else if (totalTimeoutFired(b)) {
                c.fail(ErrorKind.TIMEOUT, totalTimeoutMessage(), now);
            } else if (e instanceof SocketTimeoutException) {
                c.fail(ErrorKind.TIMEOUT, "idle timeout: no body bytes for "
                        + options.idleTimeout().toMillis() + " ms after " + c.events() + " token-bearing events", now);
            } else if (e instanceof SseEvents.CutInsideEvent) {
                c.fail(ErrorKind.TRUNCATED, "the body ended inside an SSE event after " + c.events()
                        + " token-bearing events", now);
            } else if (e instanceof java.net.ProtocolException) { // body framing the HTTP layer cannot read
                c.fail(ErrorKind.PROTOCOL, "invalid response body after " + c.events() + " token-bearing events: "
                        + describe(e), now);
            } else {
                c.fail(ErrorKind.TRUNCATED, "connection closed before the end marker after " + c.events()
                        + " token-bearing events: " + describe(e), now);
            }
            c.applyTo(b, now, options.keepText());
        }
    }

    /**
     * True when a streaming request of an SSE protocol was answered with {@code application/json}: the server (or a
     * proxy) ignored {@code stream: true} and sent one complete body. Ollama's native API streams NDJSON, whose
     * content type some proxies relabel, so it keeps its stream reader.
     */
    private static boolean answeredWithWholeBody(Response response, ProtocolAdapter adapter) {
        if (adapter instanceof OllamaAdapter) {
            return false;
        }
        MediaType type = response.body().contentType();
        return type != null && "application".equals(type.type()) && "json".equals(type.subtype());
    }

    private boolean totalTimeoutFired(RequestRecord.Builder b) {
        long total = options.totalTimeout().toNanos();
        // OkHttp's call timeout fires on its own watchdog; allow 1 ms of clock granularity
        return total > 0 && b.sendNanos != UNSET && System.nanoTime() - firstSend(b) >= total - 1_000_000L;
    }

    private String firstByteTimeoutMessage() {
        return "first-byte timeout: no response headers within " + options.firstByteTimeout().toMillis()
                + " ms after the request was sent";
    }

    private String totalTimeoutMessage() {
        return "total timeout: the request (all attempts) took longer than "
                + options.totalTimeout().toMillis() + " ms";
    }

    /**
     * Whether an I/O failure was an interrupt of the calling thread (the run was cancelled), decided by exception
     * type and by whether the total timeout had run out, never by message text.
     */
    private static boolean interrupted(IOException e, boolean totalTimeoutFired) {
        if (Thread.currentThread().isInterrupted() || e instanceof ClosedByInterruptException) {
            return true;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ClosedByInterruptException || t instanceof InterruptedException) {
                return true;
            }
        }
        // okio reports both an interrupt of the calling thread and OkHttp's call timeout (our total timeout) as a
        // plain InterruptedIOException; a read or connect timeout is a SocketTimeoutException
        return e instanceof InterruptedIOException && !(e instanceof SocketTimeoutException) && !totalTimeoutFired;
    }

    private static void cancelled(RequestRecord.Builder b, String message) {
        b.outcome = Outcome.CANCELLED;
        b.errorKind = null;
        b.errorMessage = message;
        Thread.currentThread().interrupt();
    }

    private static void resetOutcome(RequestRecord.Builder b) {
        b.outcome = Outcome.SUCCESS;
        b.errorKind = null;
        b.errorMessage = null;
        b.firstByteNanos = UNSET;
        b.firstChunkNanos = UNSET;
        b.firstTokenNanos = UNSET;
        b.firstContentNanos = UNSET;
        b.endNanos = UNSET;
        b.tokens = TokenTimeline.EMPTY;
        b.outputTokens = 0;
        b.inputTokens = -1;
        b.outputTokenSource = TokenSource.NONE;
        b.outputText = "";
        b.reasoningText = "";
        b.serverTimingsMs = Map.of();
        b.streamHonoured = true;
    }

    private static void copyTimings(RequestRecord.Builder b, TimingListener t) {
        b.dnsStartNanos = t.dnsStart;
        b.dnsEndNanos = t.dnsEnd;
        b.connectStartNanos = t.connectStart;
        b.connectEndNanos = t.connectEnd;
        b.tlsStartNanos = t.tlsStart;
        b.tlsEndNanos = t.tlsEnd;
        b.requestSentNanos = t.requestSent;
        b.responseHeadersNanos = t.responseHeaders;
        b.firstByteNanos = t.firstByte;
    }

    private static String describe(IOException e) {
        return IoErrors.describe(e);
    }

    /** @return how many requests this client has built (URL, body, headers) so far */
    long builds() {
        return builds.sum();
    }

    private Built build(Endpoint endpoint, GenerationRequest request, ProtocolAdapter adapter, String key)
            throws IOException {
        builds.increment();
        Request httpRequest = buildRequest(endpoint, request, adapter, key);
        byte[] wire = direct != null && direct.handles(httpRequest.url()) ? DirectHttp1.encode(httpRequest) : null;
        return new Built(endpoint, request, key, httpRequest, wire);
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
        Built built;
        try {
            built = build(endpoint, request, adapter, key);
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
        prepared.compute(request, (k, v) -> {
            if (v == null || !v.built.endpoint.equals(endpoint) || !Objects.equals(v.built.key, key)
                    || v.uses.getAndUpdate(n -> n > 0 ? n + 1 : n) <= 0) {
                return new Ahead(built); // none yet, another endpoint or key, or one that sends just used up
            }
            return v; // equal requests (a warm prompt sent many times) share one build
        });
        return true;
    }

    /**
     * Takes one use of the build prepared for an equal request, without a lock. A use lost to a race with
     * {@link #prepare} only means that one send builds its request itself; a build is never used for another request.
     */
    private Built takePrepared(GenerationRequest request) {
        Ahead a = prepared.get(request);
        if (a == null) {
            return null;
        }
        int left = a.uses.decrementAndGet();
        if (left == 0) {
            prepared.remove(request, a);
        }
        return left >= 0 ? a.built : null;
    }

    private Request buildRequest(Endpoint endpoint, GenerationRequest request, ProtocolAdapter adapter,
                                 String key) throws IOException {
        HttpUrl url = HttpUrl.parse(joinUrl(endpoint.baseUrl(), adapter.path(request)));
        if (url == null) {
            throw new IllegalArgumentException("URL '" + endpoint.baseUrl() + adapter.path(request) + "' is invalid");
        }
        byte[] json = ProtocolAdapter.JSON.writeValueAsBytes(adapter.body(endpoint, request, options));
        Request.Builder rb = new Request.Builder().url(url).post(RequestBody.create(json, JSON_TYPE));
        adapter.headers(rb, key);
        if (request.stream()) {
            // OkHttp adds gzip by itself; compressed streams are buffered by the decoder and distort timing
            rb.header("Accept-Encoding", "identity");
        }
        endpoint.headers().forEach(rb::header);
        return rb.build();
    }

    /**
     * Appends a protocol path to a base URL, avoiding a doubled {@code /v1} when the base already ends in it
     * (as in {@code https://api.openai.com/v1}).
     *
     * @param baseUrl base URL without trailing slash
     * @param path    protocol path starting with {@code /}
     * @return the joined URL
     */
    static String joinUrl(String baseUrl, String path) {
        if (baseUrl.endsWith("/v1") && path.startsWith("/v1/")) {
            return baseUrl + path.substring(3);
        }
        return baseUrl + path;
    }

    private static String redact(String message, String key) {
        if (message == null || key == null || key.isEmpty()) {
            return message;
        }
        return message.replace(key, "***");
    }

    private OkHttpClient[] lanes(Endpoint endpoint) {
        if (endpoint.verifyTls()) {
            return lanes;
        }
        OkHttpClient[] c = insecureLanes;
        if (c == null) {
            synchronized (this) {
                c = insecureLanes;
                if (c == null) {
                    OkHttpClient insecure = buildInsecure();
                    c = new OkHttpClient[LANES];
                    for (int i = 0; i < LANES; i++) {
                        c[i] = insecure.newBuilder().connectionPool(new ConnectionPool(4096, 5, TimeUnit.MINUTES))
                                .build();
                    }
                    insecureLanes = c;
                }
            }
        }
        return c;
    }

    private OkHttpClient buildInsecure() {
        X509TrustManager trustAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
                // trusts every certificate: only used for endpoints with verifyTls=false
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
                // trusts every certificate: only used for endpoints with verifyTls=false
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {trustAll}, null);
            return http.newBuilder().sslSocketFactory(ctx.getSocketFactory(), trustAll)
                    .hostnameVerifier((host, session) -> true).build();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS is not available in this JVM", e);
        }
    }

    /**
     * Closes every idle pooled connection (HTTP, all lanes) and every gRPC channel, so the next request opens a new
     * connection (DNS, TCP, TLS) inside its measured time. Call it between requests, not while one is in flight.
     */
    public void evictConnections() {
        if (direct != null) {
            direct.evictAll();
        }
        for (OkHttpClient c : lanes) {
            c.connectionPool().evictAll();
        }
        OkHttpClient[] insecure = insecureLanes;
        if (insecure != null) {
            for (OkHttpClient c : insecure) {
                c.connectionPool().evictAll();
            }
        }
        grpc.evictConnections();
    }

    /** Releases pooled connections and gRPC channels. Idempotent. */
    @Override
    public void close() {
        prepared.clear();
        grpc.close();
        if (direct != null) {
            direct.close();
        }
        for (OkHttpClient c : lanes) {
            c.connectionPool().evictAll();
        }
        OkHttpClient[] insecure = insecureLanes;
        if (insecure != null) {
            for (OkHttpClient c : insecure) {
                c.connectionPool().evictAll();
            }
        }
        watchdog.close();
    }
}
