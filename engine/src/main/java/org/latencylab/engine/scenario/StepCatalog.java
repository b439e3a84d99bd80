package org.latencylab.engine.scenario;

import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.RunEngine;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.GridStepRunner;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.load.LoadStepRunner;
import org.latencylab.engine.transport.TransportsRunner;
import org.latencylab.engine.transport.TransportsSpec;

/**
 * The one place that lists every experiment type LatencyLab knows, for the scenario reader and the run engine
 * alike, so the two can never disagree. Thread-safe (returns new instances).
 */
public final class StepCatalog {
    private StepCatalog() {
    }

    /** @return a scenario loader that reads every known experiment type */
    public static ScenarioLoader loader() {
        return new ScenarioLoader()
                .registerType(ProbeSpec.TYPE, ProbeSpec.class)
                .registerType(SweepSpec.TYPE, SweepSpec.class)
                .registerType(LoadSpec.TYPE, LoadSpec.class)
                .registerType(GridSpec.TYPE, GridSpec.class)
                .registerType(TransportsSpec.TYPE, TransportsSpec.class);
    }

    /** @return a run engine that runs every known experiment type */
    public static RunEngine engine() {
        return new RunEngine()
                .register(LoadSpec.class, new LoadStepRunner())
                .register(GridSpec.class, new GridStepRunner())
                .register(TransportsSpec.class, new TransportsRunner());
    }
}
