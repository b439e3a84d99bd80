/**
 * The built-in simulated LLM server: LatencyLab's default endpoint, so the lab works offline, and a
 * reference server with known timing for testing the measuring side.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li>{@link org.latencylab.engine.sim.SimServer} runs the JDK's own HTTP server
 *       ({@code com.sun.net.httpserver}) with a virtual thread per exchange: no extra dependency, blocking code
 *       per request, and thousands of concurrent streams. Each event is one write and one flush (one HTTP chunk).</li>
 *   <li>{@link org.latencylab.engine.sim.SimProfile} is the latency model (prefill power law, batch-dependent
 *       decode, FIFO admission, lognormal jitter, chained-hash prefix cache, faults), read from YAML/JSON profile
 *       files with messages that name the file, the field and the expected form. Built-in profiles come from
 *       {@code sample-data/profiles/} and are packaged under {@code org/latencylab/engine/sim/profiles/}.</li>
 *   <li>The model is applied with absolute deadlines ({@link java.lang.System#nanoTime()} plus
 *       {@link java.util.concurrent.locks.LockSupport#parkNanos(long)}), measured from the moment the request
 *       body has been read, so late wake-ups never accumulate.</li>
 *   <li>One timeline, several wire dialects (OpenAI chat/completions, Anthropic Messages, Ollama, TGI): only the
 *       event shapes differ, so every protocol sees the same latency.</li>
 *   <li>Output text is made of pieces that are exactly one {@code cl100k_base} token each and never merge, so the
 *       number of token events, the usage the server reports and a client's own token count all agree.</li>
 *   <li>With stamping on, every JSON event carries {@code x_sent_ns}, the server's {@code System.nanoTime()} at
 *       the write; on Linux that clock is shared by all processes, so a client on the same machine can measure
 *       its own delay (receive time minus send stamp).</li>
 *   <li>Metrics use vLLM's names ({@code vllm:num_requests_running}, {@code vllm:time_to_first_token_seconds},
 *       ...) through prometheus-metrics-core, so GPU-server benchmark code can be tested against the simulator.</li>
 * </ul>
 *
 * <h2>Metric definitions</h2>
 * The server's own TTFT ({@code vllm:time_to_first_token_seconds}) runs from the request body read to the write of
 * the first token event; its E2E from the body read to the last event. A client measures from its send time, so
 * its numbers are larger by the request transfer and its own overheads.
 */
package org.latencylab.engine.sim;
