package org.latencylab.app.ui.experiment;

import org.junit.jupiter.api.Test;
import org.latencylab.app.ui.settings.ExperimentDraft;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.run.TargetSpec;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExperimentViewModelTest {
    @Test
    void probeFormBecomesAProbeSpec() {
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.requestsProperty().set(40);
        vm.concurrencyProperty().set(4);
        vm.maxOutputTokensProperty().set(8);
        vm.streamProperty().set(false);
        RunSpec spec = vm.runSpec(vm.suggestedName(), TargetSpec.simulator("small-fast"), StatsSettings.DEFAULTS);
        assertThat(spec.name()).isEqualTo("probe-40x4");
        ProbeSpec p = (ProbeSpec) spec.experiments().get(0);
        assertThat(p.requests()).isEqualTo(40);
        assertThat(p.concurrency()).isEqualTo(4);
        assertThat(p.maxOutputTokens()).isEqualTo(8);
        assertThat(p.stream()).isFalse();
        assertThat(spec.plannedRequests()).isEqualTo(40);
    }

    @Test
    void sweepLengthsCombinePresetsAndCustomValues() {
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.kindProperty().set(ExperimentViewModel.Kind.SWEEP);
        vm.presetCheckedProperty(1).set(false);
        vm.customLengthsProperty().set("4k, 16384;  2048");
        vm.requestsPerLengthProperty().set(3);
        assertThat(vm.sweepLengths()).containsExactly(2048, 4096, 16384, 32768);
        SweepSpec s = (SweepSpec) vm.experiment();
        assertThat(s.contextTokens()).containsExactly(2048, 4096, 16384, 32768);
        assertThat(s.requestsPerLength()).isEqualTo(3);
        assertThat(vm.suggestedName()).isEqualTo("sweep-4-lengths");

        vm.customLengthsProperty().set("12x");
        assertThatThrownBy(vm::experiment).hasMessageContaining("'12x'");
        vm.customLengthsProperty().set("");
        for (int i = 0; i < 3; i++) {
            vm.presetCheckedProperty(i).set(false);
        }
        assertThatThrownBy(vm::experiment).hasMessageContaining("at least one context length");
    }

    @Test
    void invalidValuesAreRejectedByTheEngineWithTheFieldName() {
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.concurrencyProperty().set(0);
        assertThatThrownBy(vm::experiment).hasMessage("concurrency must be >= 1, was 0");
    }

    @Test
    void draftRoundTrip() {
        ExperimentViewModel vm = new ExperimentViewModel();
        ExperimentDraft d = new ExperimentDraft("sweep", 7, 3, 100, 9, false, List.of(2048, 5000), 4, false,
                "o200k_base");
        vm.fromDraft(d);
        assertThat(vm.kindProperty().get()).isEqualTo(ExperimentViewModel.Kind.SWEEP);
        assertThat(vm.presetCheckedProperty(0).get()).isTrue();
        assertThat(vm.presetCheckedProperty(2).get()).isFalse();
        assertThat(vm.customLengthsProperty().get()).isEqualTo("5000");
        assertThat(vm.toDraft()).isEqualTo(d);
    }
}
