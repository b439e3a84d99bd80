package org.latencylab.engine.experiment;

import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.client.LlmClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The JIT warm-up streams real requests through the client to an in-process simulator, within its time limit. */
class JitWarmUpTest {
    @Test
    void warmUpStreamsRequestsThroughTheClientWithinItsLimit() {
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            long t0 = System.nanoTime();
            int done = JitWarmUp.run(client, Protocol.OPENAI_CHAT);
            double seconds = (System.nanoTime() - t0) / 1e9;
            // a busy 2-core machine may stop at the time limit long before all requests; an idle one finishes them
            assertThat(done).isBetween(50, JitWarmUp.REQUESTS);
            assertThat(seconds).isLessThan(JitWarmUp.LIMIT_MILLIS / 1000.0 + 3.0);
        }
    }

    @Test
    void otherProtocolsWarmUpWithTheirOwnParser() {
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS)) {
            assertThat(JitWarmUp.run(client, Protocol.ANTHROPIC_MESSAGES)).isPositive();
            assertThat(JitWarmUp.run(client, Protocol.KSERVE_GRPC)).isPositive(); // warms the shared parts over HTTP
        }
    }
}
