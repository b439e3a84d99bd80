package org.latencylab.app.ui.experiment;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.transport.TransportsSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The transports form: the spec it builds, its defaults, and errors that name the form field. */
class TransportsFormTest {
    @Test
    void formBecomesARunWithOneTransportsStep() {
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.kindProperty().set(ExperimentViewModel.Kind.TRANSPORTS);
        TransportsForm f = vm.transports();
        f.transportProperty("sse-h2c").set(true);
        f.transportProperty("grpc").set(false);
        f.transportProperty("json").set(true);
        f.networkProperty("weak-3g").set(true);
        f.networkProperty("high-jitter").set(true);
        f.coldProperty().set(true);
        f.requestsProperty().set(7);
        f.promptTokensProperty().set(300);
        f.maxOutputTokensProperty().set(40);
        f.firstScreenCharsProperty().set(120);
        RunSpec spec = vm.runSpec(vm.suggestedName(), TargetSpec.simulator("small-fast"), StatsSettings.DEFAULTS);
        assertThat(spec.name()).isEqualTo("transports-3x3");
        assertThat(spec.experiments()).hasSize(1);
        TransportsSpec t = (TransportsSpec) spec.experiments().get(0);
        assertThat(t.transports()).containsExactly("sse-h1", "sse-h2c", "json");
        assertThat(t.networks()).containsExactly("wired", "weak-3g", "high-jitter");
        assertThat(t.connections()).containsExactly("warm", "cold");
        assertThat(t.requests()).isEqualTo(7);
        assertThat(t.promptTokens()).isEqualTo(300);
        assertThat(t.maxOutputTokens()).isEqualTo(40);
        assertThat(t.firstScreenChars()).isEqualTo(120);
        assertThat(t.firstScreenTokens()).isNull();
        assertThat(spec.plannedRequests()).isEqualTo(7L * 3 * 3 * 2);
    }

    @Test
    void defaultsAreTheEnginesDefaults() {
        TransportsSpec fromForm = new TransportsForm().spec();
        TransportsSpec engine = new TransportsSpec(null, null, null, null, null, null, null, null, null);
        assertThat(fromForm).isEqualTo(engine);
    }

    @Test
    void invalidFieldsAreNamed() {
        TransportsForm f = new TransportsForm();
        f.transportProperty("sse-h1").set(false);
        f.transportProperty("grpc").set(false);
        assertThatThrownBy(f::spec).hasMessageStartingWith("transports:");
        f.transportProperty("grpc-tls").set(true);
        f.networkProperty("wired").set(false);
        assertThatThrownBy(f::spec).hasMessageStartingWith("networks:");
        f.networkProperty("stable-4g").set(true);
        f.warmProperty().set(false);
        assertThatThrownBy(f::spec).hasMessageStartingWith("connections:");
        f.coldProperty().set(true);
        f.requestsProperty().set(0);
        assertThatThrownBy(f::spec).hasMessage("requests per cell must be >= 1, was 0");
        f.requestsProperty().set(2);
        f.promptTokensProperty().set(-1);
        assertThatThrownBy(f::spec).hasMessage("prompt tokens must be >= 1, was -1");
        f.promptTokensProperty().set(16);
        f.maxOutputTokensProperty().set(0);
        assertThatThrownBy(f::spec).hasMessageStartingWith("max output tokens");
        f.maxOutputTokensProperty().set(8);
        f.firstScreenCharsProperty().set(0);
        assertThatThrownBy(f::spec).hasMessageStartingWith("first screen [characters]");
        f.firstScreenCharsProperty().set(50);
        TransportsSpec ok = f.spec();
        assertThat(ok.transports()).containsExactly("grpc-tls");
        assertThat(ok.networks()).containsExactly("stable-4g");
        assertThat(ok.connections()).containsExactly("cold");
        assertThatThrownBy(() -> f.transportProperty("quic")).hasMessageContaining("'quic'");
    }
}
