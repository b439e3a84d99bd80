package org.latencylab.engine.load;

import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.FirstTokenSignal;
import org.latencylab.engine.experiment.StepContext;

/**
 * The first-token hook of LatencyLab's own client: {@link StepContext#send} runs
 * {@link org.latencylab.engine.client.LlmClient#execute} on the calling thread, which fires
 * {@link FirstTokenSignal} when a streamed request's first token arrives. Stateless and thread-safe.
 */
public final class ClientFirstTokenHook implements FirstTokenHook {
    /** The shared instance. */
    public static final ClientFirstTokenHook INSTANCE = new ClientFirstTokenHook();

    private ClientFirstTokenHook() {
    }

    @Override
    public RequestRecord send(StepContext ctx, GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
            throws InterruptedException {
        return FirstTokenSignal.observe(onFirstToken, () -> ctx.send(request, ticket));
    }
}
