package org.latencylab.engine.client;

import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.Resend;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * {@link LlmClient}'s OkHttp transport: TLS, HTTP/2, proxies, and plain HTTP when the own path is off. Holds the
 * connection lanes (and their certificate-trusting twins for endpoints with {@code verifyTls: false}), sends one
 * attempt as a synchronous OkHttp call on the calling thread, and re-sends once on a new connection when the server
 * had closed the pooled one. Thread-safe.
 */
final class OkHttpPath {
    /**
     * Connection lanes: {@value #LANES} clients sharing everything but their connection pool; a request uses the lane
     * of its thread. OkHttp's pool scans every pooled connection on each acquire and on each release (its cleanup
     * task), so at a thousand concurrent streams one pool costs O(connections) per request under a lock; lanes keep
     * each pool small. A closed-loop worker always lands in the same lane, and so reuses its own connection.
     */
    static final int LANES = 16;
    private final OkHttpClient http;
    private final OkHttpClient[] lanes = new OkHttpClient[LANES];
    private volatile OkHttpClient[] insecureLanes;
    private final StallWatchdog watchdog;
    private final ConnectionHabits habits;
    /** OkHttp's connections' last releases, for {@link #habits}. */
    private final ConnectionLedger ledger = new ConnectionLedger();
    private final AttemptReader reader;

    /**
     * @param options  timeouts; not null
     * @param version  the HTTP version to speak; not null
     * @param watchdog enforces first-byte and idle limits; not null
     * @param habits   how servers treat connections, shared with the own path; not null
     * @param reader   reads responses into records; not null
     */
    OkHttpPath(ClientOptions options, HttpVersion version, StallWatchdog watchdog, ConnectionHabits habits,
               AttemptReader reader) {
        this.watchdog = watchdog;
        this.habits = habits;
        this.reader = reader;
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
    }

    /** @return the lane of the calling thread for the endpoint: a closed-loop worker always lands in the same one */
    OkHttpClient lane(Endpoint endpoint) {
        return lanes(endpoint)[(int) Math.floorMod(Thread.currentThread().threadId(), (long) LANES)];
    }

    /** @return idle pooled connections over all lanes that serve the endpoint */
    int idleCount(Endpoint endpoint) {
        int idle = 0;
        for (OkHttpClient c : lanes(endpoint)) {
            idle += c.connectionPool().idleConnectionCount();
        }
        return idle;
    }

    AttemptResult attempt(OkHttpClient client, Request base, ProtocolAdapter adapter, boolean stream,
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

    AttemptResult attempt(Call call, TimingListener timing, StallWatchdog.Watch watch, ProtocolAdapter adapter,
                                  boolean stream, long deadline, long total, RequestRecord.Builder b,
                                  Runnable onFirstToken, boolean resending) {
        Response response;
        RequestThreads.endFirstSend(); // OkHttp's path is not paced: a turn would be held for the whole response
        try {
            if (resending) {
                long first = b.sendNanos;
                AttemptReader.resend(b, timing); // the re-send after a pooled connection's failure: its own clock
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
                    AttemptReader.copyTimings(b, timing);
                    b.error(ErrorKind.TIMEOUT, reader.totalTimeoutMessage());
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
            AttemptReader.copyTimings(b, timing);
            b.httpStatus = 0;
            return reader.failedBeforeResponse(e, timing, watch, b);
        }
        return reader.received(response, timing, watch, adapter, stream, b, onFirstToken);
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

    /** Closes every idle pooled connection of all lanes. */
    void evictAll() {
        for (OkHttpClient c : lanes) {
            c.connectionPool().evictAll();
        }
        OkHttpClient[] insecure = insecureLanes;
        if (insecure != null) {
            for (OkHttpClient c : insecure) {
                c.connectionPool().evictAll();
            }
        }
    }
}
