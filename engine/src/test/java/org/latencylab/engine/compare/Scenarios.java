package org.latencylab.engine.compare;

import org.latencylab.engine.experiment.RunHandle;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/** Runs scenario text through the real loader and engine. */
public final class Scenarios {
    private Scenarios() {
    }

    /** @param yaml scenario text @return the parsed run */
    public static RunSpec parse(String yaml) {
        return StepCatalog.loader().parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), "test.yaml");
    }

    /** @param yaml scenario @param dir run directory @param timeout limit @return the result */
    public static RunResult run(String yaml, Path dir, Duration timeout) throws InterruptedException {
        RunHandle h = StepCatalog.engine().start(parse(yaml), dir, null);
        RunResult r = h.await(timeout);
        if (r == null) {
            h.cancel();
            throw new AssertionError("run did not finish within " + timeout);
        }
        return r;
    }
}
