/**
 * The protocol client: sends generation requests to LLM endpoints and measures each one into a
 * {@link org.latencylab.engine.api.RequestRecord}.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li>One {@link org.latencylab.engine.client.LlmClient} holds one OkHttp client (connection pool and
 *       dispatcher shared by all requests; dispatcher on virtual threads). {@code execute} blocks the calling
 *       (virtual) thread, so thousands of in-flight streams cost thousands of cheap threads, not callbacks.</li>
 *   <li>One adapter per wire protocol behind a package-private interface: it builds the request body and
 *       reads the response into a per-attempt collector. SSE framing is okhttp-sse's parser, run
 *       synchronously on the calling thread; NDJSON framing is okio's line reader. JSON is Jackson.</li>
 *   <li>Timing: an OkHttp {@code EventListener} per attempt records DNS, connect, TLS, request sent and
 *       response headers; a wrapper around the response body stamps the first body byte; each event is stamped
 *       when the framing parser delivers it, before JSON parsing. All stamps are {@link System#nanoTime()}.</li>
 *   <li>Streaming requests send {@code Accept-Encoding: identity}: a gzip decoder buffers and would delay
 *       events, distorting TTFT and ITL.</li>
 *   <li>Failures never throw: each one is classified into an {@link org.latencylab.engine.api.ErrorKind} so a
 *       run goes on when requests fail.</li>
 * </ul>
 *
 * <h2>Metric semantics</h2>
 * TTFT is the first event carrying generated text of any kind: answer text, reasoning text
 * ({@code reasoning_content}/{@code reasoning}, Anthropic {@code thinking_delta}) or tool-call arguments.
 * Role-only events, empty or {@code null} strings, SSE comments, pings and usage-only events do not count.
 * Answer and reasoning text are kept apart; time to first answer text is recorded separately. Every
 * token-bearing event is one timeline entry whose token count is the cl100k_base count of its text (at least
 * 1). Output tokens come from the server's usage/details/done line when given (the last value, never summed),
 * otherwise from the sum of the per-event counts. Non-streaming requests have no TTFT; their E2E ends when the
 * body has been read.
 *
 * <h2>End of a stream</h2>
 * Each protocol's end marker ends the stream ({@code [DONE]}, {@code message_stop}, {@code done:true}, TGI's
 * final event with {@code generated_text}). An OpenAI stream that closes after a {@code finish_reason} but
 * without {@code [DONE]} is complete: some servers and proxies omit the marker. A stream closed before either is
 * {@code truncated}; a complete stream without generated text is {@code empty_response}.
 */
package org.latencylab.engine.client;
