package org.latencylab.engine.client;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCalls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.api.ScreenSize;
import org.latencylab.engine.api.TokenSource;
import org.latencylab.engine.kserve.InferenceService;
import org.latencylab.engine.kserve.ServerLiveResponse;
import org.latencylab.engine.prompt.Corpus;
import org.latencylab.engine.prompt.PromptBuilder;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code kserve-grpc} client against the simulator's KServe gRPC service over real loopback HTTP/2 (plaintext
 * and TLS, streaming and unary), and against servers that are not what the endpoint says. Timing: with the
 * simulator stamping each response, TTFT and ITL measured by the client agree with the server's own send times to
 * within 2 ms at concurrency 1.
 */
class KserveGrpcClientTest {
    private static final int PROMPT_TOKENS = 200;
    private static final int MAX_TOKENS = 40;
    private static SimServer sim;
    private static LlmClient client;
    private static String prompt;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimProfile.builtin("small-fast"), SimOptions.builder().stamping(true).build());
        client = new LlmClient(ClientOptions.DEFAULTS, name -> null);
        prompt = new PromptBuilder(Corpus.builtin("en")).build(PROMPT_TOKENS);
        for (int i = 0; i < 3; i++) {
            send(sim.endpoint(Protocol.KSERVE_GRPC), true); // class loading and JIT outside the timed requests
        }
    }

    @AfterAll
    static void stop() {
        client.close();
        sim.close();
    }

    private static RequestRecord send(Endpoint e, boolean stream) {
        GenerationRequest req = new GenerationRequest(prompt, PROMPT_TOKENS, MAX_TOKENS, stream, Map.of());
        return client.execute(e, req, new RequestTicket(1, "grpc", PROMPT_TOKENS, System.nanoTime()));
    }

    private static Endpoint endpoint(String url, boolean verify) {
        return new Endpoint("grpc", Protocol.KSERVE_GRPC, url, sim.profile().model(), null, Map.of(), verify);
    }

    @Test
    void aStreamAgreesWithTheSimulatorOnTextTokensAndTiming() {
        RequestRecord r = send(sim.endpoint(Protocol.KSERVE_GRPC), true);
        assertThat(r.outcome()).as(r.errorMessage()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.protocol()).isEqualTo(Protocol.KSERVE_GRPC);
        assertThat(r.tokens().size()).as("one response per token").isEqualTo(MAX_TOKENS);
        assertThat(r.outputTokens()).isEqualTo(MAX_TOKENS);
        assertThat(r.outputTokenSource()).isEqualTo(TokenSource.TOKENIZER);
        assertThat(r.outputText()).isNotBlank();
        assertThat(r.ttftNanos()).isPositive().isLessThan(r.e2eNanos());
        assertThat(r.ttfbNanos()).isPositive().isLessThanOrEqualTo(r.ttftNanos());
        assertThat(r.firstContentNanos()).isEqualTo(r.firstTokenNanos());
        assertThat(r.firstScreenNanos(ScreenSize.DEFAULT)).isBetween(r.ttftNanos(), r.e2eNanos());

        assertThat(r.tokens().hasServerStamps()).isTrue();
    }

    @Test
    void ttftAndItlAgreeWithTheSimulatorsStampsWithinTwoMilliseconds() {
        int n = 7;
        long[] ttftErrors = new long[n];
        long[] itlErrors = new long[n * (MAX_TOKENS - 1)];
        int k = 0;
        for (int j = 0; j < n; j++) {
            RequestRecord r = send(sim.endpoint(Protocol.KSERVE_GRPC), true);
            assertThat(r.outcome()).as(r.errorMessage()).isEqualTo(Outcome.SUCCESS);
            // TTFT: the client's first-token stamp trails the server's send of the first response
            ttftErrors[j] = r.firstTokenNanos() - r.tokens().serverStampNanos(0);
            assertThat(ttftErrors[j]).as("never before the server sent it").isNotNegative();
            // ITL: each gap the client saw against the server's gap between its sends
            for (int i = 1; i < r.tokens().size(); i++) {
                long seen = r.tokens().arrivalNanos(i) - r.tokens().arrivalNanos(i - 1);
                long sent = r.tokens().serverStampNanos(i) - r.tokens().serverStampNanos(i - 1);
                itlErrors[k++] = Math.abs(seen - sent);
            }
        }
        Arrays.sort(ttftErrors);
        Arrays.sort(itlErrors);
        // TTFT: the error of the best of 7 requests. The first message crosses three threads (the serving virtual
        // thread, the server's and the client's event loops); on a loaded 2-core machine each hand-off can wait
        // for a core, which the minimum leaves out while a delay added by the client's own code path would remain
        assertThat(ttftErrors[0]).as("smallest TTFT error, ns; all: " + Arrays.toString(ttftErrors))
                .isLessThanOrEqualTo(2_000_000L);
        // ITL: the median gap error within 2 ms (a client that held responses back would be off by whole 4 ms decode
        // steps in most gaps); the tail only within 20 ms, as a loaded machine delays some wake-ups by several ms
        assertThat(itlErrors[itlErrors.length / 2]).as("median ITL error, ns").isLessThanOrEqualTo(2_000_000L);
        assertThat(itlErrors[(int) Math.ceil(itlErrors.length * 0.95) - 1]).as("P95 ITL error, ns")
                .isLessThanOrEqualTo(20_000_000L);
    }

    @Test
    void aUnaryCallReturnsTheWholeAnswer() {
        RequestRecord r = send(sim.endpoint(Protocol.KSERVE_GRPC), false);
        assertThat(r.outcome()).as(r.errorMessage()).isEqualTo(Outcome.SUCCESS);
        assertThat(r.outputTokens()).isEqualTo(MAX_TOKENS);
        assertThat(r.outputText()).isNotBlank();
        assertThat(r.ttftNanos()).as("no TTFT without a stream").isEqualTo(-1);
        assertThat(r.e2eNanos()).isPositive();
        assertThat(r.firstScreenNanos(ScreenSize.DEFAULT)).isEqualTo(r.e2eNanos());
    }

    @Test
    void tlsWorksWithVerificationOffAndFailsAsAConnectionErrorWithItOn() {
        String tls = sim.grpcBaseUrl(true);
        RequestRecord ok = send(endpoint(tls, false), true);
        assertThat(ok.outcome()).as(ok.errorMessage()).isEqualTo(Outcome.SUCCESS);
        assertThat(ok.tokens().size()).isEqualTo(MAX_TOKENS);

        RequestRecord refused = send(endpoint(tls, true), true);
        assertThat(refused.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(refused.errorKind()).isEqualTo(ErrorKind.CONNECTION);
        assertThat(refused.errorMessage()).contains("TLS");
    }

    @Test
    void tlsAgainstAPlaintextServerIsAClassifiedError() {
        String plain = sim.grpcBaseUrl(false).replace("http://", "https://");
        RequestRecord r = send(endpoint(plain, false), true);
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.errorKind()).isIn(ErrorKind.CONNECTION, ErrorKind.PROTOCOL);
        assertThat(r.errorMessage()).isNotBlank();
    }

    @Test
    void anHttpEndpointGivenAsGrpcIsAProtocolError() {
        RequestRecord r = send(endpoint(sim.baseUrl(), true), true);
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.errorKind()).as(r.errorMessage()).isEqualTo(ErrorKind.PROTOCOL);
        assertThat(r.errorMessage()).contains("gRPC");
    }

    @Test
    void aGrpcEndpointGivenAsHttpIsAClassifiedError() {
        Endpoint wrong = Endpoint.of("http", Protocol.OPENAI_CHAT, sim.grpcBaseUrl(false), sim.profile().model());
        RequestRecord r = send(wrong, true);
        assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.errorKind()).isNotNull();
        assertThat(r.errorMessage()).isNotBlank();
    }

    @Test
    void aServerSpeakingAnotherServiceIsAProtocolError() throws Exception {
        // a gRPC server that knows only ServerLive, under another service name
        ServerServiceDefinition other = ServerServiceDefinition.builder("other.Health")
                .addMethod(InferenceService.SERVER_LIVE.toBuilder().setFullMethodName("other.Health/Check").build(),
                        ServerCalls.asyncUnaryCall((req, out) -> {
                            out.onNext(ServerLiveResponse.newBuilder().setLive(true).build());
                            out.onCompleted();
                        }))
                .build();
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                InsecureServerCredentials.create()).addService(other).build().start();
        try {
            RequestRecord r = send(endpoint("http://127.0.0.1:" + server.getPort(), true), true);
            assertThat(r.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(r.errorKind()).isEqualTo(ErrorKind.PROTOCOL);
            assertThat(r.errorMessage()).contains("does not implement").contains("ModelStreamInfer");
        } finally {
            server.shutdownNow();
        }
    }

    @Test
    void aColdChannelRecordsItsConnectPhaseInsideTheMeasuredTime() {
        client.evictConnections();
        RequestRecord cold = send(sim.endpoint(Protocol.KSERVE_GRPC), true);
        assertThat(cold.outcome()).as(cold.errorMessage()).isEqualTo(Outcome.SUCCESS);
        assertThat(cold.connectStartNanos()).isEqualTo(cold.sendNanos());
        assertThat(cold.connectEndNanos()).isGreaterThan(cold.connectStartNanos()).isLessThan(cold.firstTokenNanos());
        RequestRecord warm = send(sim.endpoint(Protocol.KSERVE_GRPC), true);
        assertThat(warm.connectStartNanos()).as("a reused channel has no connect phase").isEqualTo(RequestRecord.UNSET);
    }
}
