package org.latencylab.engine.load;

import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.step.StepContext;

/**
 * The first-token hook of LatencyLab's own client: passes the callback with the request
 * ({@link StepContext#send(GenerationRequest, RequestTicket, Runnable)}), and the client runs it when a streamed
 * request's first token was stamped. Stateless and thread-safe.
 */
public final class ClientFirstTokenHook implements FirstTokenHook {
    /** The shared instance. */
    public static final ClientFirstTokenHook INSTANCE = new ClientFirstTokenHook();

    private ClientFirstTokenHook() {
    }

    @Override
    public RequestRecord send(StepContext ctx, GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
            throws InterruptedException {
        return ctx.send(request, ticket, onFirstToken);
    }
}
