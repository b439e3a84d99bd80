package org.latencylab.engine.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import org.latencylab.engine.experiment.ProbeRunner;
import org.latencylab.engine.compare.BaselineRunner;
import org.latencylab.engine.compare.BaselineSpec;
import org.latencylab.engine.compare.CompareEndpointsRunner;
import org.latencylab.engine.compare.CompareEndpointsSpec;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.experiment.RunEngine;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.GridStepRunner;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.load.LoadStepRunner;
import org.latencylab.engine.results.RunReader;
import org.latencylab.engine.results.StepTypes;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.run.StepResult;
import java.util.Map;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.ServerBenchRunner;
import org.latencylab.engine.server.ServerBenchSpec;
import org.latencylab.engine.transport.TransportsResult;
import org.latencylab.engine.transport.TransportsRunner;
import org.latencylab.engine.transport.TransportsSpec;
import org.latencylab.engine.monitor.MonitorRunner;
import org.latencylab.engine.monitor.MonitorSpec;
import org.latencylab.engine.trace.ReplaySpec;
import org.latencylab.engine.trace.ReplayStepRunner;

/**
 * The composition root of step types: the one place that lists every experiment type LatencyLab knows (probe,
 * sweep, load, grid, server-bench, transports, replay, ...) with its spec, its runner and its result, for the scenario reader, the run engine and the
 * reader of run directories alike, so they can never disagree. Thread-safe (returns new instances).
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
                .registerType(ServerBenchSpec.TYPE, ServerBenchSpec.class)
                .registerType(TransportsSpec.TYPE, TransportsSpec.class)
                .registerType(CompareEndpointsSpec.TYPE, CompareEndpointsSpec.class)
                .registerType(BaselineSpec.TYPE, BaselineSpec.class)
                .registerType(MonitorSpec.TYPE, MonitorSpec.class)
                .registerType(ReplaySpec.TYPE, ReplaySpec.class);
    }

    /** @return a run engine that runs every known experiment type */
    public static RunEngine engine() {
        return new RunEngine()
                .register(ProbeSpec.class, new ProbeRunner())
                .register(SweepSpec.class, new SweepRunner())
                .register(LoadSpec.class, new LoadStepRunner())
                .register(GridSpec.class, new GridStepRunner())
                .register(ServerBenchSpec.class, new ServerBenchRunner())
                .register(TransportsSpec.class, new TransportsRunner())
                .register(CompareEndpointsSpec.class, new CompareEndpointsRunner())
                .register(BaselineSpec.class, new BaselineRunner())
                .register(MonitorSpec.class, new MonitorRunner())
                .register(ReplaySpec.class, new ReplayStepRunner());
    }

    /** @return the step types as a reader of run directories needs them */
    public static StepTypes types() {
        ScenarioLoader loader = loader();
        Map<String, Class<? extends StepResult>> results = Map.of(ProbeSpec.TYPE, ProbeRunner.ProbeResult.class,
                SweepSpec.TYPE, SweepRunner.SweepResult.class, LoadSpec.TYPE, LoadResult.class,
                GridSpec.TYPE, GridResult.class, ServerBenchSpec.TYPE, ServerBenchResult.class,
                TransportsSpec.TYPE, TransportsResult.class,
                CompareEndpointsSpec.TYPE, CompareEndpointsRunner.CompareResult.class,
                BaselineSpec.TYPE, BaselineRunner.BaselineResult.class, MonitorSpec.TYPE, MonitorRunner.MonitorResult.class,
                ReplaySpec.TYPE, LoadResult.class);
        return new StepTypes() {
            @Override
            public ExperimentSpec spec(String file, String at, JsonNode node) {
                return loader.experiment(file, at, node);
            }

            @Override
            public Class<? extends StepResult> resultType(String type) {
                return results.get(type);
            }
        };
    }

    /** @return a reader of run directories that knows every step type */
    public static RunReader reader() {
        return new RunReader(types());
    }
}
