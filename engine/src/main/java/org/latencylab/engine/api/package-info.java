/**
 * Immutable values shared by every part of the engine: endpoints, what to send, what was measured.
 *
 * <h2>Metric definitions</h2>
 * All times are {@link java.lang.System#nanoTime()} readings of the measuring process; durations are derived
 * from them in nanoseconds. The <em>send time</em> is when the client started the request's first attempt; in an
 * open-loop run the <em>intended start</em> is when the schedule wanted the request to start, and latencies from
 * it include any queueing inside the client (so coordinated omission is never hidden).
 * <ul>
 *   <li><b>TTFB</b> (time to first byte): send &rarr; response headers received.</li>
 *   <li><b>TTFT</b> (time to first token): send &rarr; the first event that carries generated text of any kind
 *       (answer, reasoning, tool-call arguments). Role-only events, empty strings, SSE comments, pings and
 *       usage-only events do not count.</li>
 *   <li><b>Time to first answer text</b>: send &rarr; first non-reasoning answer text.</li>
 *   <li><b>E2E</b> (end-to-end latency): send &rarr; end of the stream (end marker or close).</li>
 *   <li><b>TPOT</b> (time per output token): (E2E &minus; TTFT) / (output tokens &minus; 1).</li>
 *   <li><b>ITL</b> (inter-token latency): gaps between consecutive token-bearing events, also reported divided
 *       by the number of tokens the later event carries.</li>
 * </ul>
 * Output tokens come from the server's usage report when it gives one (a cumulative count is taken as the last
 * value, never summed), otherwise from a tokenizer; {@link org.latencylab.engine.api.TokenSource} says which.
 *
 * <p>Every type here is an immutable value and safe to share between threads.
 */
package org.latencylab.engine.api;
