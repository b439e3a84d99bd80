package org.latencylab.engine.client;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.prompt.Corpus;
import org.latencylab.engine.prompt.PromptBuilder;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every protocol adapter of the client against the built-in simulator speaking that protocol, over real loopback
 * HTTP: the client's parsing and the simulator's framing must agree on text, token counts and timing order.
 */
class ClientAgainstSimulatorTest {
    private static final int PROMPT_TOKENS = 300;
    private static final int MAX_TOKENS = 12;
    private static SimServer plain;
    private static SimServer thinking;
    private static LlmClient client;
    private static String prompt;

    @BeforeAll
    static void start() throws Exception {
        SimProfile fast = SimProfile.builtin("small-fast");
        plain = SimServer.start(fast, SimOptions.builder().stamping(true).build());
        thinking = SimServer.start(fast.withReasoning(new SimProfile.Reasoning(3)), SimOptions.defaults());
        client = new LlmClient(ClientOptions.DEFAULTS);
        prompt = new PromptBuilder(Corpus.builtin("en")).build(PROMPT_TOKENS);
    }

    @AfterAll
    static void stop() {
        client.close();
        plain.close();
        thinking.close();
    }

    private static RequestRecord send(SimServer server, Protocol p, boolean stream) {
        GenerationRequest req = new GenerationRequest(prompt, PROMPT_TOKENS, MAX_TOKENS, stream, Map.of());
        return client.execute(server.endpoint(p), req, new RequestTicket(1, "it", PROMPT_TOKENS, System.nanoTime()));
    }

    @org.junit.jupiter.api.Test
    void aResponseReadBeforeTheSendingThreadStampedItsRequestNeverPrecedesTheRequestSentStamp() throws Exception {
        // a zero-latency server answers within microseconds of the request's last byte; the reader thread can stamp
        // that answer before the sending thread, preempted right after its write, stamps request_sent. Busy threads
        // make that preemption likely on a small machine.
        try (SimServer zero = SimServer.start(SimProfile.builtin("zero-latency"), SimOptions.defaults());
             LlmClient own = new LlmClient(ClientOptions.DEFAULTS)) {
            java.util.concurrent.atomic.AtomicBoolean spin = new java.util.concurrent.atomic.AtomicBoolean(true);
            java.util.List<Thread> busy = new java.util.ArrayList<>();
            for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
                busy.add(Thread.ofPlatform().daemon().start(() -> {
                    long x = 0;
                    while (spin.get()) {
                        x += System.nanoTime() & 1;
                    }
                }));
            }
            try {
                GenerationRequest req = new GenerationRequest(prompt, PROMPT_TOKENS, 4, true, Map.of());
                for (int i = 0; i < 400; i++) {
                    RequestRecord r = own.execute(zero.endpoint(Protocol.OPENAI_CHAT), req,
                            new RequestTicket(i, "it", PROMPT_TOKENS, System.nanoTime()));
                    assertThat(r.outcome()).as(r.errorMessage()).isEqualTo(Outcome.SUCCESS);
                    assertThat(r.requestSentNanos()).as("request %d: sent <= headers", i)
                            .isLessThanOrEqualTo(r.responseHeadersNanos());
                    assertThat(r.responseHeadersNanos()).as("request %d: headers <= first token", i)
                            .isLessThanOrEqualTo(r.firstTokenNanos());
                    assertThat(r.firstTokenNanos()).as("request %d: first token <= end", i)
                            .isLessThanOrEqualTo(r.endNanos());
                }
            } finally {
                spin.set(false);
                for (Thread t : busy) {
                    t.join();
                }
            }
        }
    }

    @ParameterizedTest
    // kserve-grpc reports no usage (Triton's text backends do not), so its tokens come from the tokenizer:
    // KserveGrpcClientTest checks its stream against the simulator
    @EnumSource(value = Protocol.class, mode = EnumSource.Mode.EXCLUDE, names = "KSERVE_GRPC")
    void streamingAgreesWithTheSimulator(Protocol p) {
        RequestRecord r = send(plain, p, true);
        assertThat(r.outcome()).as(r.errorMessage()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputTokens()).isEqualTo(MAX_TOKENS);
        assertThat(r.outputTokenSource()).isEqualTo(TokenSource.SERVER);
        assertThat(r.tokens().size()).as("one token per event").isEqualTo(MAX_TOKENS);
        assertThat(r.tokens().totalTokens()).isEqualTo(MAX_TOKENS);
        assertThat(r.outputText()).isNotBlank();
        assertThat(r.ttftNanos()).isPositive().isLessThan(r.e2eNanos());
        assertThat(r.ttfbNanos()).isPositive().isLessThanOrEqualTo(r.ttftNanos());
        assertThat(r.tpotNanos()).isPositive();
        if (p != Protocol.TGI_GENERATE) { // TGI reports prompt tokens only with details.prefill
            assertThat(r.inputTokens()).isEqualTo(PROMPT_TOKENS);
        }
        assertThat(r.tokens().hasServerStamps()).as("stamps parsed from x_sent_ns").isTrue();
        for (int i = 0; i < r.tokens().size(); i++) {
            assertThat(r.tokens().arrivalNanos(i)).isGreaterThanOrEqualTo(r.tokens().serverStampNanos(i));
        }
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void nonStreamingAgreesWithTheSimulator(Protocol p) {
        RequestRecord r = send(plain, p, false);
        assertThat(r.outcome()).as(r.errorMessage()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputTokens()).isEqualTo(MAX_TOKENS);
        assertThat(r.outputText()).isNotBlank();
        assertThat(r.ttftNanos()).as("no TTFT without a stream").isEqualTo(-1);
        assertThat(r.e2eNanos()).isPositive();
    }

    @ParameterizedTest
    @EnumSource(value = Protocol.class, names = {"OPENAI_CHAT", "ANTHROPIC_MESSAGES", "OLLAMA_CHAT", "OLLAMA_GENERATE"})
    void reasoningCountsForTtftButNotAsAnswerText(Protocol p) {
        RequestRecord r = send(thinking, p, true);
        assertThat(r.outcome()).as(r.errorMessage()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.reasoningText()).isNotBlank();
        assertThat(r.outputText()).isNotBlank().doesNotContain(r.reasoningText().strip());
        assertThat(r.firstTokenNanos()).isLessThan(r.firstContentNanos());
    }
}
