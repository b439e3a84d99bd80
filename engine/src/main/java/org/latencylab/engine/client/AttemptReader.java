package org.latencylab.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import okhttp3.MediaType;
import okhttp3.Response;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.Resend;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.api.TokenTimeline;
import org.latencylab.engine.tokens.TokenCounter;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;
import java.util.Map;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * What both HTTP paths of {@link LlmClient} do with an attempt once it was sent: reads a 2xx body with the protocol's
 * adapter, turns a refusal (non-2xx) or a failure before any response into the record's error, and holds the
 * record-level helpers (timeouts, cancellation, re-send clocks) both paths share. Stateless apart from its options
 * and token counter; thread-safe.
 */
final class AttemptReader {
    /** Body bytes kept from a non-2xx response for the error message. */
    private static final long ERROR_BODY_PEEK_BYTES = 2048;

    private final ClientOptions options;
    private final TokenCounter counter;

    /**
     * @param options the client's timeouts and what to keep; not null
     * @param counter counts output tokens where the server gives no usage; not null
     */
    AttemptReader(ClientOptions options, TokenCounter counter) {
        this.options = options;
        this.counter = counter;
    }

    /** @return the first attempt's send: the total timeout counts from it, re-send or not */
    static long firstSend(RequestRecord.Builder b) {
        return b.sendNanos - b.resendWastedNanos;
    }

    /**
     * Starts the clock of a re-send ({@link Resend}): the failed attempt on the pooled connection is kept as
     * {@code resendWastedNanos}, and TTFT and E2E count from this send, whose connect is stamped in {@code timing}.
     * The total timeout keeps counting from the first send.
     */
    static void resend(RequestRecord.Builder b, TimingListener timing) {
        long now = System.nanoTime();
        b.resendWastedNanos = now - b.sendNanos;
        b.sendNanos = now;
        b.attempts++;
    }

    AttemptResult received(Response response, TimingListener timing, StallWatchdog.Watch watch,
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

    AttemptResult failedBeforeResponse(IOException e, TimingListener timing, StallWatchdog.Watch watch,
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

    AttemptResult refused(Response response, RequestRecord.Builder b) {
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

    /**
     * Reads a 2xx response body with the adapter and classifies how it ended into {@code b}. Package-private
     * so framing tests can feed in-memory responses through the same path.
     */
    void readBody(Response response, TimingListener timing, ProtocolAdapter adapter, boolean stream,
                  RequestRecord.Builder b) {
        readBody(response, timing, null, adapter, stream, b, null);
    }

    void readBody(Response response, TimingListener timing, StallWatchdog.Watch watch, ProtocolAdapter adapter,
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

    void readBody(Response response, Response wrapped, StampedBody body, StallWatchdog.Watch watch,
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
    static boolean answeredWithWholeBody(Response response, ProtocolAdapter adapter) {
        if (adapter instanceof OllamaAdapter) {
            return false;
        }
        MediaType type = response.body().contentType();
        return type != null && "application".equals(type.type()) && "json".equals(type.subtype());
    }

    boolean totalTimeoutFired(RequestRecord.Builder b) {
        long total = options.totalTimeout().toNanos();
        // OkHttp's call timeout fires on its own watchdog; allow 1 ms of clock granularity
        return total > 0 && b.sendNanos != UNSET && System.nanoTime() - firstSend(b) >= total - 1_000_000L;
    }

    String firstByteTimeoutMessage() {
        return "first-byte timeout: no response headers within " + options.firstByteTimeout().toMillis()
                + " ms after the request was sent";
    }

    String totalTimeoutMessage() {
        return "total timeout: the request (all attempts) took longer than "
                + options.totalTimeout().toMillis() + " ms";
    }

    /**
     * Whether an I/O failure was an interrupt of the calling thread (the run was cancelled), decided by exception
     * type and by whether the total timeout had run out, never by message text.
     */
    static boolean interrupted(IOException e, boolean totalTimeoutFired) {
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

    static void cancelled(RequestRecord.Builder b, String message) {
        b.outcome = Outcome.CANCELLED;
        b.errorKind = null;
        b.errorMessage = message;
        Thread.currentThread().interrupt();
    }

    static void resetOutcome(RequestRecord.Builder b) {
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

    static void copyTimings(RequestRecord.Builder b, TimingListener t) {
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

    static String describe(IOException e) {
        return IoErrors.describe(e);
    }
}
