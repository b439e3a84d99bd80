package org.latencylab.engine.scenario;

import org.latencylab.engine.compare.BaselineRunner;
import org.latencylab.engine.compare.BaselineSpec;
import org.latencylab.engine.compare.CompareEndpointsRunner;
import org.latencylab.engine.compare.CompareEndpointsSpec;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.RunEngine;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.GridStepRunner;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.load.LoadStepRunner;
import org.latencylab.engine.monitor.MonitorRunner;
import org.latencylab.engine.monitor.MonitorSpec;

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
                .registerType(CompareEndpointsSpec.TYPE, CompareEndpointsSpec.class)
                .registerType(BaselineSpec.TYPE, BaselineSpec.class)
                .registerType(MonitorSpec.TYPE, MonitorSpec.class);
    }

    /** @return a run engine that runs every known experiment type */
    public static RunEngine engine() {
        return new RunEngine()
                .register(LoadSpec.class, new LoadStepRunner())
                .register(GridSpec.class, new GridStepRunner())
                .register(CompareEndpointsSpec.class, new CompareEndpointsRunner())
                .register(BaselineSpec.class, new BaselineRunner())
                .register(MonitorSpec.class, new MonitorRunner());
    }
}
