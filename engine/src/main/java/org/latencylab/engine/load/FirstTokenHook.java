package org.latencylab.engine.load;

import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.step.StepContext;

/**
 * Sends one request through the step context and tells the load step when its first token arrived, so the
 * first-token deadline can interrupt only requests that have not produced one. Implementations are thread-safe
 * (called from many request threads at once).
 */
public interface FirstTokenHook {
    /** Sends through {@link StepContext#send} and never signals; deadlines of streams are then judged afterwards. */
    FirstTokenHook NONE = new FirstTokenHook() {
        @Override
        public RequestRecord send(StepContext ctx, GenerationRequest request, RequestTicket ticket,
                                  Runnable onFirstToken) throws InterruptedException {
            return ctx.send(request, ticket);
        }

        @Override
        public boolean signalsFirstToken() {
            return false;
        }
    };

    /**
     * Sends the request and blocks until it ended.
     *
     * @param ctx          the step context whose client sends
     * @param request      what to send
     * @param ticket       identity and intended start
     * @param onFirstToken to run (once, fast, on any thread) when the first token-bearing event arrived
     * @return the record (never null)
     * @throws InterruptedException as {@link StepContext#send}
     */
    RequestRecord send(StepContext ctx, GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
            throws InterruptedException;

    /**
     * @return true when {@code onFirstToken} is really called; when false, a streaming request is never interrupted
     *         at the deadline (its miss is judged from the record after it ended)
     */
    default boolean signalsFirstToken() {
        return true;
    }
}
