package org.latencylab.engine.step;

import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;

import java.nio.file.Path;

/**
 * What the {@link org.latencylab.engine.experiment.RunEngine} gives a {@link StepRunner}: the endpoint, a way to send, prompts, and the sink for
 * finished requests. Implementations are thread-safe: step runners call them from many virtual threads.
 */
public interface StepContext {
    /** @return the endpoint under test (the simulator's URL is already resolved) */
    Endpoint endpoint();

    /** @return client options of the run (timeouts, retries) */
    ClientOptions clientOptions();

    /**
     * Sends one request with the run's client and blocks until it ended. Does NOT record it: call
     * {@link #finished(RequestRecord)} (step runners may post-process first, e.g. to mark a deadline miss).
     *
     * @param request what to send
     * @param ticket  identity and intended start
     * @return the measured record (never null; failures are records)
     * @throws InterruptedException when interrupted before sending
     */
    RequestRecord send(GenerationRequest request, RequestTicket ticket) throws InterruptedException;

    /**
     * Sends like {@link #send(GenerationRequest, RequestTicket)} and runs {@code onFirstToken} once, while the request
     * still streams, right after its first token-bearing event was stamped. A context whose sender cannot tell
     * (this default) never runs it.
     *
     * @param request      what to send
     * @param ticket       identity and intended start
     * @param onFirstToken fast callback, run on the sending thread; null for none
     * @return the measured record (never null; failures are records)
     * @throws InterruptedException when interrupted before sending
     */
    default RequestRecord send(GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
            throws InterruptedException {
        return send(request, ticket);
    }

    /**
     * Prepares the client for a measurement that keeps up to {@code inFlight} requests in flight: unless the run
     * asked for cold connections ({@link ClientOptions#coldConnections()}), opens that many connections with
     * small unrecorded requests (see {@code LlmClient#openConnections}). Blocks for about one request's latency.
     *
     * @param inFlight requests the measurement will keep in flight at most, >= 1
     * @param stream   whether its requests stream
     * @throws InterruptedException when cancelled while waiting
     */
    default void openConnections(int inFlight, boolean stream) throws InterruptedException {
    }

    /**
     * Opens one connection for the calling thread (unless the run asked for cold connections) with one small
     * unrecorded request, for a closed-loop worker that will send its measured requests from this thread.
     *
     * @param stream      whether its requests stream
     * @param connections the connections the loop keeps in flight at most (its workers), >= 1: the request connects
     *                    anew while fewer are idle in the pool, so that after all workers warmed at least that many
     *                    are ({@code LlmClient#warm(Endpoint, boolean, int)})
     */
    default void warmConnection(boolean stream, int connections) {
    }

    /**
     * Whether a closed loop's workers take turns for their first sends ({@link
     * org.latencylab.engine.client.RequestThreads#awaitFirstSend}): true when the endpoint's responses are read and
     * stamped by reader threads, which also give the turn back once a send is written. False by default, and for
     * endpoints the request thread reads itself (TLS, HTTP/2, gRPC, read-ahead off), where a turn would be held for a
     * whole response.
     *
     * @return true to pace the first wave of sends
     */
    default boolean pacesFirstSends() {
        return false;
    }

    /**
     * Called once right before a step's clock starts, after its connections were opened: the run's context collects
     * the garbage that the set-up left (the warm-up, the connection-opening requests, the thread stacks of a large
     * closed loop), so that the collector has as little as possible to do while requests are timed (see
     * {@link org.latencylab.engine.trust.QuietHeap}). Blocks for that collection; does
     * nothing by default (a warm-up's scratch context).
     */
    default void beforeClock() {
    }

    /**
     * Builds a request's wire form now, ahead of its send (see {@code LlmClient#prepare}), so that sending it does no
     * building at the moment it is due. Optional: a context that cannot (this default) builds when it sends.
     *
     * @param request a request that will be sent through {@link #send} later (an equal one is found by value)
     */
    default void prepare(GenerationRequest request) {
    }

    /**
     * Builds a prompt of exactly {@code tokens} tokens (the run's tokenizer and corpus).
     *
     * @param tokens prompt length in tokens, >= 1
     * @param cold   true: a unique prefix so no prefix cache can help; false: the same text every time
     * @return prompt text with exactly that many tokens
     */
    String prompt(int tokens, boolean cold);

    /** @return the next request id of the run (thread-safe, strictly increasing from 0) */
    long nextRequestId();

    /**
     * Records a finished request: stamped with the step's label, appended to {@code requests.jsonl} and fed to the
     * run's result model before this method returns (in the same order for both), counted, and published in the next
     * snapshot. Thread-safe.
     *
     * @param record the finished request
     */
    void finished(RequestRecord record);

    /** @param inFlightDelta +1 when a request starts, -1 when it ends (for the in-flight gauge) */
    void inFlight(int inFlightDelta);

    /**
     * @param targetRateRps target arrival rate now (0 for closed loop), shown in snapshots
     */
    void targetRate(double targetRateRps);

    /** @return true once the user cancelled the run; step runners stop scheduling and return promptly */
    boolean cancelled();

    /** @param message a notice for the user (one line) */
    void notice(String message);

    /** @return the tier table the run is judged with (a step runner that judges tiers itself uses it) */
    default org.latencylab.engine.stats.TierTable tierTable() {
        return org.latencylab.engine.stats.TierTable.DEFAULT;
    }

    /**
     * Publishes what a running step has measured so far to listeners that want it ({@link StepProgressListener});
     * does nothing by default. Fast and non-blocking; may be called from any thread. Thread-safe.
     *
     * @param progress the event, e.g. a load step's closed second
     */
    default void progress(StepProgress progress) {
    }

    /** @return the run directory (step runners may write extra files, e.g. an HdrHistogram interval log) */
    Path runDirectory();

    /**
     * @return the built-in simulator this run started inside this JVM (its other listeners — HTTP/2, gRPC — can be
     *         reached through it: a run with a transports step gets one), or null when the run measures a configured
     *         endpoint or its simulator serves from a process of its own
     */
    default org.latencylab.engine.sim.SimServer simulator() {
        return null;
    }
}
