package org.latencylab.app.ui;

import org.junit.jupiter.api.Test;
import org.latencylab.app.ui.background.DirectUiExecutor;
import org.latencylab.app.ui.endpoint.ConnectionTester;
import org.latencylab.app.ui.endpoint.EndpointsViewModel;
import org.latencylab.app.ui.experiment.ExperimentViewModel;
import org.latencylab.app.ui.settings.AppSettings;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.client.EndpointChecks;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The window's side of the newcomer mistakes: the endpoint form and the experiment form show the command line's words
 * (one source: {@link EndpointChecks}, the detector's and the specs' messages), through the view models.
 */
class ClearWordsWindowTest {
    private final Map<String, String> env = Map.of("MY_KEY", "sk-123456789");
    private final EndpointsViewModel vm = new EndpointsViewModel(new DirectUiExecutor(), env::get,
            List.of("small-fast"));

    @Test
    void aUrlPastedWithTheChatPathIsSavedAsItsBaseUrlInTheCommandLinesWords() {
        vm.load(AppSettings.DEFAULTS);
        vm.addNew();
        vm.nameProperty().set("vllm");
        vm.baseUrlProperty().set("http://127.0.0.1:8000/v1/chat/completions");
        assertThat(vm.apply()).isTrue();
        assertThat(vm.baseUrlProperty().get()).isEqualTo("http://127.0.0.1:8000");
        assertThat(vm.savedEndpoints().get(0).baseUrl()).isEqualTo("http://127.0.0.1:8000");
        assertThat(vm.messageProperty().get()).isEqualTo("saved vllm · "
                + EndpointChecks.baseUrl("http://127.0.0.1:8000/v1/chat/completions").notice())
                .contains("the URL ends in the API path /v1/chat/completions; using its base URL http://127.0.0.1:8000");
        assertThat(vm.target().endpoint().baseUrl()).isEqualTo("http://127.0.0.1:8000");
    }

    @Test
    void anUnsetKeyVariableStopsTheTestAndTheRunBeforeAnythingIsSent() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try (Socket s = server.accept()) {
                        connections.incrementAndGet();
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            vm.load(AppSettings.DEFAULTS);
            vm.addNew();
            vm.baseUrlProperty().set("http://127.0.0.1:" + server.getLocalPort());
            vm.modelProperty().set("m");
            vm.apiKeyEnvProperty().set("MISSING_KEY");
            assertThat(vm.apply()).isTrue();
            String words = EndpointChecks.keyProblem("MISSING_KEY", env::get);
            assertThat(words).startsWith("the environment variable MISSING_KEY is not set");
            assertThat(vm.messageProperty().get()).endsWith(" · " + words);
            assertThat(vm.keyProblem()).isEqualTo(words);
            vm.testConnection();
            assertThat(vm.testStatusProperty().get()).isEqualTo("FAILED · " + words);
            assertThat(connections.get()).as("nothing was sent").isZero();
            vm.apiKeyEnvProperty().set("MY_KEY");
            assertThat(vm.keyProblem()).isEmpty();
            server.close();
            t.join(2000);
        }
    }

    @Test
    void aConnectionTestOverHttpsToAPlainHttpServerSaysSoInTheDetectorsWords() {
        try (SimServer sim = SimServer.start(SimProfile.builtin("small-fast"), SimOptions.defaults())) {
            Endpoint e = new Endpoint("sim", Protocol.OPENAI_CHAT, sim.baseUrl().replace("http://", "https://"),
                    "small-fast-sim", null, Map.of(), true);
            ConnectionTester.ConnectionResult r = ConnectionTester.test(e);
            assertThat(r.ok()).isFalse();
            assertThat(r.detail()).contains("TLS handshake").contains("got no TLS answer")
                    .contains("an http:// URL reaches a plain-HTTP server").doesNotContain("Exception");
        }
    }

    @Test
    void aSweepLengthAboveTheLongestPromptIsAFormErrorInTheEnginesWords() {
        ExperimentViewModel form = new ExperimentViewModel();
        form.kindProperty().set(ExperimentViewModel.Kind.SWEEP);
        form.customLengthsProperty().set("10000000");
        assertThatThrownBy(form::experiment).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("context length must be at most 4000000 tokens (the longest prompt LatencyLab builds),"
                        + " was 10000000");
    }
}
