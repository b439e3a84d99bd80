package org.latencylab.app.ui.experiment;

import org.junit.jupiter.api.Test;
import org.latencylab.app.ui.settings.ExperimentDraft;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.run.TargetSpec;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.CapPolicy;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.LoadMode;
import org.latencylab.engine.load.LoadSpec;

import java.time.Duration;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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

    @Test
    void loadFormBecomesALoadSpecForEachLoopAndShape() {
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.kindProperty().set(ExperimentViewModel.Kind.LOAD);
        LoadForm f = vm.load();
        f.rateProperty().set(200);
        f.durationProperty().set("10m");
        f.warmupProperty().set("10s");
        f.maxInFlightProperty().set(2000);
        f.atCapProperty().set(CapPolicy.DROP);
        f.firstTokenDeadlineProperty().set("120ms");
        f.sloMaxMsProperty().set(300);
        LoadSpec open = (LoadSpec) vm.experiment();
        assertThat(open.mode()).isEqualTo(LoadMode.OPEN);
        assertThat(open.rate()).isEqualTo(200.0);
        assertThat(open.arrival()).isEqualTo(ArrivalProcess.POISSON);
        assertThat(open.duration()).isEqualTo(Duration.ofMinutes(10));
        assertThat(open.warmup()).isEqualTo(Duration.ofSeconds(10));
        assertThat(open.maxInFlight()).isEqualTo(2000);
        assertThat(open.atCap()).isEqualTo(CapPolicy.DROP);
        assertThat(open.firstTokenDeadline()).isEqualTo(Duration.ofMillis(120));
        assertThat(open.requests()).isNull();
        assertThat(open.maxRateRps()).isNull();
        assertThat(open.slos()).extracting(org.latencylab.engine.stats.Slo::metric).containsExactly("ttft_from_intended");
        assertThat(open.plannedRequests()).isEqualTo(-1);
        assertThat(vm.suggestedName()).isEqualTo("load-open-200rps-10m");

        f.shapeProperty().set(LoadForm.Shape.RAMP);
        f.rampFromProperty().set(10);
        f.rampToProperty().set(200);
        f.rampOverProperty().set("60s");
        LoadSpec ramp = (LoadSpec) vm.experiment();
        assertThat(ramp.rate()).isNull();
        assertThat(ramp.ramp()).isEqualTo(new LoadSpec.Ramp(10, 200, Duration.ofSeconds(60)));
        assertThat(ramp.rateProfile().rateAt(30_000_000_000L)).isCloseTo(105.0, within(1e-9));

        f.shapeProperty().set(LoadForm.Shape.BURST);
        f.arrivalProperty().set(ArrivalProcess.GAMMA);
        f.gammaShapeProperty().set(0.5);
        LoadSpec burst = (LoadSpec) vm.experiment();
        assertThat(burst.burst().peak()).isEqualTo(60.0);
        assertThat(burst.shape()).isEqualTo(0.5);

        f.modeProperty().set(LoadMode.CLOSED);
        f.concurrencyProperty().set(32);
        f.thinkTimeProperty().set("100ms");
        LoadSpec closed = (LoadSpec) vm.experiment();
        assertThat(closed.mode()).isEqualTo(LoadMode.CLOSED);
        assertThat(closed.concurrency()).isEqualTo(32);
        assertThat(closed.thinkTime()).isEqualTo(Duration.ofMillis(100));
        assertThat(closed.maxInFlight()).as("an open-loop cap is not sent for a closed loop").isNull();
        assertThat(vm.suggestedName()).isEqualTo("load-closed-32");
    }

    @Test
    void loadAndGridFormErrorsNameTheField() {
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.kindProperty().set(ExperimentViewModel.Kind.LOAD);
        vm.load().durationProperty().set("soon");
        assertThatThrownBy(vm::experiment).hasMessageStartingWith("duration: ").hasMessageContaining("'soon'");
        vm.load().durationProperty().set("30s");
        vm.load().warmupProperty().set("40s");
        assertThatThrownBy(vm::experiment).hasMessageContaining("warmup + cooldown");
        vm.load().warmupProperty().set("0s");
        vm.load().shapeProperty().set(LoadForm.Shape.RAMP);
        vm.load().rampOverProperty().set("");
        assertThatThrownBy(vm::experiment).hasMessageStartingWith("ramp over: ");

        vm.kindProperty().set(ExperimentViewModel.Kind.GRID);
        vm.grid().rowValuesProperty().set("1, x");
        assertThatThrownBy(vm::experiment).hasMessage("row values: 'x' is not a number");
        vm.grid().rowValuesProperty().set("1, 4");
        vm.grid().contextTokensProperty().set("2k, ten");
        assertThatThrownBy(vm::experiment).hasMessageContaining("context lengths 'ten'");
        vm.grid().contextTokensProperty().set("512, 2k");
        vm.grid().cellDurationProperty().set("");
        assertThatThrownBy(vm::experiment).hasMessageContaining("cellDuration");
        vm.grid().cellRequestsProperty().set(12);
        GridSpec g = (GridSpec) vm.experiment();
        assertThat(g.rowValues()).containsExactly(1.0, 4.0);
        assertThat(g.contextTokens()).containsExactly(512, 2048);
        assertThat(g.plannedRequests()).isEqualTo(48);
        assertThat(vm.suggestedName()).isEqualTo("grid-2x2-concurrency");
    }

    @Test
    void loadAndGridFormsSurviveTheSettingsFileStoringOnlyWhatDiffersFromTheDefaults() {
        ExperimentViewModel vm = new ExperimentViewModel();
        vm.kindProperty().set(ExperimentViewModel.Kind.GRID);
        vm.load().modeProperty().set(LoadMode.CLOSED);
        vm.load().rateProperty().set(123.5);
        vm.grid().metricProperty().set("goodput_rps");
        ExperimentDraft d = vm.toDraft();
        assertThat(d.kind()).isEqualTo("grid");
        assertThat(d.load()).containsOnlyKeys("mode", "rate");
        assertThat(d.grid()).containsOnlyKeys("metric");

        ExperimentViewModel again = new ExperimentViewModel();
        again.fromDraft(d);
        assertThat(again.kindProperty().get()).isEqualTo(ExperimentViewModel.Kind.GRID);
        assertThat(again.load().modeProperty().get()).isEqualTo(LoadMode.CLOSED);
        assertThat(again.load().rateProperty().get()).isEqualTo(123.5);
        assertThat(again.grid().metricProperty().get()).isEqualTo("goodput_rps");
        assertThat(again.toDraft()).isEqualTo(d);

        // an edited file with a bad value keeps that field's default
        ExperimentViewModel edited = new ExperimentViewModel();
        edited.fromDraft(new ExperimentDraft("load", null, null, null, null, null, null, null, null, null,
                java.util.Map.of("rate", "fast", "mode", "SIDEWAYS", "concurrency", "3"), null));
        assertThat(edited.load().rateProperty().get()).isEqualTo(20.0);
        assertThat(edited.load().modeProperty().get()).isEqualTo(LoadMode.OPEN);
        assertThat(edited.load().concurrencyProperty().get()).isEqualTo(3);
    }
}
