/**
 * The {@code transports} experiment: the same generation request carried by SSE over HTTP/1.1, SSE over HTTP/2
 * (TLS, h2c), gRPC streaming (KServe v2 / Triton {@code ModelStreamInfer}, plaintext or TLS) and a non-streamed JSON
 * baseline, each through an emulated network link ({@link org.latencylab.engine.link}), with warm (pooled) or cold
 * (new per request) connections.
 *
 * <h2>First-screen latency</h2>
 * From the user's action (the request's send; for a cold connection that is before DNS, TCP and TLS) until the
 * client holds the first screenful of answer text: by default 200 characters (Unicode code points of answer text,
 * reasoning excluded), configurable in characters or tokens ({@link org.latencylab.engine.api.ScreenSize}). An answer
 * shorter than a screen counts at its last answer event; a non-streamed answer at the end of its body. Defined on the
 * record by {@link org.latencylab.engine.api.RequestRecord#firstScreenNanos}.
 *
 * <h2>Other columns</h2>
 * Bytes per response and per token-bearing event are what crossed the emulated link server → client (HTTP or gRPC
 * headers, framing, TLS records included) divided by requests or events; connection setup is TCP connect plus TLS
 * (0 on a reused connection); stalls are lost segments (each held back by the profile's retransmission timeout).
 */
package org.latencylab.engine.transport;
