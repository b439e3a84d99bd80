package org.latencylab.engine.experiment;

import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;

import java.nio.file.Path;

/**
 * What the {@link RunEngine} gives a {@link StepRunner}: the endpoint, a way to send, prompts, and the sink for
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
     * Records a finished request: appended to {@code requests.jsonl} before this method returns, counted, and
     * published in the next snapshot. Thread-safe.
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
}
