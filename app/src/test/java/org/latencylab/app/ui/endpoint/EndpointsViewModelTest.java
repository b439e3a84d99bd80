package org.latencylab.app.ui.endpoint;

import org.junit.jupiter.api.Test;
import org.latencylab.app.ui.background.DirectUiExecutor;
import org.latencylab.app.ui.settings.AppSettings;
import org.latencylab.app.ui.settings.EndpointConfig;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.run.TargetSpec;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EndpointsViewModelTest {
    private final Map<String, String> env = Map.of("MY_KEY", "sk-123456789");
    private final EndpointsViewModel vm = new EndpointsViewModel(new DirectUiExecutor(), env::get,
            List.of("small-fast", "zero-latency"));

    @Test
    void simulatorIsAlwaysFirstAndIsTheDefaultTarget() {
        vm.load(AppSettings.DEFAULTS);
        assertThat(vm.names()).containsExactly(AppSettings.SIMULATOR);
        assertThat(vm.simulatorSelectedProperty().get()).isTrue();
        TargetSpec t = vm.target();
        assertThat(t.isSimulator()).isTrue();
        assertThat(t.simProfile()).isEqualTo("small-fast");
        vm.removeSelected();
        assertThat(vm.names()).containsExactly(AppSettings.SIMULATOR);
    }

    @Test
    void editorValidatesAndSavesAndPreviewsTheKeyWithoutShowingIt() {
        int[] changes = {0};
        vm.load(AppSettings.DEFAULTS);
        vm.setOnChange(() -> changes[0]++);
        vm.addNew();
        assertThat(vm.names()).containsExactly(AppSettings.SIMULATOR, "New endpoint");
        vm.nameProperty().set("local vLLM");
        vm.baseUrlProperty().set("ftp://nope");
        assertThat(vm.apply()).isFalse();
        assertThat(vm.messageProperty().get()).contains("http:// or https://");
        vm.baseUrlProperty().set("http://127.0.0.1:8000/");
        vm.protocolProperty().set(Protocol.OPENAI_COMPLETIONS);
        vm.headersProperty().set("Authorization: Bearer x");
        assertThat(vm.apply()).isFalse();
        assertThat(vm.messageProperty().get()).contains("environment variable");
        vm.headersProperty().set("X-Trace: on\n\n");
        vm.apiKeyEnvProperty().set("MY_KEY");
        assertThat(vm.apiKeyPreviewProperty().get()).contains("is set").contains("12 characters")
                .doesNotContain("sk-1");
        vm.apiKeyEnvProperty().set("MISSING_KEY");
        assertThat(vm.apiKeyPreviewProperty().get()).isEqualTo("$MISSING_KEY is not set");
        assertThat(vm.apply()).isTrue();
        assertThat(vm.names()).containsExactly(AppSettings.SIMULATOR, "local vLLM");
        EndpointConfig saved = vm.savedEndpoints().get(0);
        assertThat(saved.baseUrl()).isEqualTo("http://127.0.0.1:8000/");
        assertThat(saved.toEndpoint().baseUrl()).isEqualTo("http://127.0.0.1:8000");
        assertThat(saved.headers()).containsExactly(Map.entry("X-Trace", "on"));
        assertThat(vm.target().endpoint().protocol()).isEqualTo(Protocol.OPENAI_COMPLETIONS);
        assertThat(changes[0]).isGreaterThanOrEqualTo(2);
        AppSettings stored = vm.storeInto(AppSettings.DEFAULTS);
        assertThat(stored.selected()).isEqualTo("local vLLM");
        assertThat(stored.endpoints()).hasSize(1);
    }

    @Test
    void importCurlAddsASelectedEndpoint() {
        vm.load(AppSettings.DEFAULTS);
        assertThat(vm.importCurl("curl https://api.openai.com/v1/chat/completions -H 'Authorization: Bearer sk-x'"
                + " -d '{\"model\":\"gpt-4o-mini\"}'")).isTrue();
        assertThat(vm.selectedProperty().get()).isEqualTo("api.openai.com gpt-4o-mini");
        assertThat(vm.apiKeyEnvProperty().get()).isEqualTo("OPENAI_API_KEY");
        assertThat(vm.messageProperty().get()).contains("NOT saved");
        assertThat(vm.importCurl("not curl")).isFalse();
        assertThat(vm.messageProperty().get()).startsWith("cannot import");
    }

    @Test
    void testConnectionAgainstTheSimulatorReportsTtfbAndTtft() {
        vm.load(AppSettings.DEFAULTS);
        vm.simProfileProperty().set("small-fast");
        vm.testConnection();
        assertThat(vm.testingProperty().get()).isFalse();
        // the status, the API the URL answered as with the models it lists, then the first words of the answer
        assertThat(vm.testStatusProperty().get()).matches("OK · HTTP 200 · TTFB [0-9.]+ (ms|s) · TTFT [0-9.]+ (ms|s)\n"
                + "API openai-chat, as set · 1 model: [^\n]+\nanswer: .*");
    }

    @Test
    void testConnectionToAClosedPortFails() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        vm.load(AppSettings.DEFAULTS);
        vm.addNew();
        vm.baseUrlProperty().set("http://127.0.0.1:" + port);
        vm.testConnection();
        assertThat(vm.testStatusProperty().get()).startsWith("FAILED · HTTP – ").contains("connection");
    }
}
