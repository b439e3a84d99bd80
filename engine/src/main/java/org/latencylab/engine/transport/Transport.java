package org.latencylab.engine.transport;

import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.client.HttpVersion;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A way of carrying the same generation request, compared by the {@code transports} experiment. Thread-safe (an
 * enum).
 */
public enum Transport {
    /** OpenAI-compatible SSE over HTTP/1.1, plaintext. */
    SSE_H1("sse-h1", "SSE HTTP/1.1", Protocol.OPENAI_CHAT, HttpVersion.HTTP_1_1, false, true),
    /** OpenAI-compatible SSE over HTTP/2 with TLS (ALPN h2). */
    SSE_H2("sse-h2", "SSE HTTP/2 TLS", Protocol.OPENAI_CHAT, HttpVersion.AUTO, true, true),
    /** OpenAI-compatible SSE over HTTP/2 in plaintext by prior knowledge (h2c). */
    SSE_H2C("sse-h2c", "SSE h2c", Protocol.OPENAI_CHAT, HttpVersion.H2C, false, true),
    /** KServe v2 / Triton {@code ModelStreamInfer} over plaintext HTTP/2. */
    GRPC("grpc", "gRPC stream", Protocol.KSERVE_GRPC, HttpVersion.AUTO, false, true),
    /** KServe v2 / Triton {@code ModelStreamInfer} over TLS. */
    GRPC_TLS("grpc-tls", "gRPC stream TLS", Protocol.KSERVE_GRPC, HttpVersion.AUTO, true, true),
    /** OpenAI-compatible chat completion as one JSON body (not streamed) over HTTP/1.1: the baseline. */
    JSON("json", "JSON (no stream)", Protocol.OPENAI_CHAT, HttpVersion.HTTP_1_1, false, false);

    private final String id;
    private final String label;
    private final Protocol protocol;
    private final HttpVersion httpVersion;
    private final boolean tls;
    private final boolean stream;

    Transport(String id, String label, Protocol protocol, HttpVersion httpVersion, boolean tls, boolean stream) {
        this.id = id;
        this.label = label;
        this.protocol = protocol;
        this.httpVersion = httpVersion;
        this.tls = tls;
        this.stream = stream;
    }

    /** @return the scenario name, e.g. {@code sse-h1} */
    public String id() {
        return id;
    }

    /** @return a short label for tables and legends, e.g. {@code SSE HTTP/1.1} */
    public String label() {
        return label;
    }

    /** @return the wire protocol */
    public Protocol protocol() {
        return protocol;
    }

    /** @return the HTTP version the client speaks (ignored by gRPC, which is always HTTP/2) */
    public HttpVersion httpVersion() {
        return httpVersion;
    }

    /** @return whether the connection uses TLS */
    public boolean tls() {
        return tls;
    }

    /** @return whether the answer is streamed */
    public boolean stream() {
        return stream;
    }

    /**
     * @param id a scenario name such as {@code grpc} (case-insensitive)
     * @return the transport
     * @throws IllegalArgumentException for an unknown name; the message lists the known ones
     */
    public static Transport fromId(String id) {
        String wanted = id == null ? "" : id.strip().toLowerCase(Locale.ROOT);
        for (Transport t : values()) {
            if (t.id.equals(wanted)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport '" + id + "', expected one of "
                + Arrays.stream(values()).map(Transport::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
