package org.latencylab.engine.client;

import okhttp3.Protocol;

import java.util.List;

/**
 * Which HTTP version the protocol client speaks. Thread-safe (an enum).
 */
public enum HttpVersion {
    /** OkHttp's default: HTTP/2 when TLS's ALPN agrees on it ({@code https}), else HTTP/1.1. */
    AUTO(List.of(Protocol.HTTP_2, Protocol.HTTP_1_1)),
    /** HTTP/1.1 only, also over TLS. */
    HTTP_1_1(List.of(Protocol.HTTP_1_1)),
    /**
     * HTTP/2 over plaintext TCP by prior knowledge (h2c, RFC 9113 §3.3): for {@code http://} URLs only; an
     * {@code https://} request fails as a {@code protocol} error.
     */
    H2C(List.of(Protocol.H2_PRIOR_KNOWLEDGE));

    private final List<Protocol> protocols;

    HttpVersion(List<Protocol> protocols) {
        this.protocols = protocols;
    }

    /** @return OkHttp's protocol list for this version */
    List<Protocol> okhttpProtocols() {
        return protocols;
    }
}
