package org.latencylab.engine.experiment;

import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.step.ClosedLoop;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.api.GenerationRequest;

import java.util.Map;

/**
 * Runs a {@link ProbeSpec}: optional unrecorded warmup, then {@code requests} requests in a closed loop at the
 * spec's concurrency (at most {@code requests} in flight: a larger concurrency is said once as a notice). The step's
 * statistics are computed by the {@link RunEngine} from the recorded requests.
 * Stateless and thread-safe.
 */
public final class ProbeRunner implements StepRunner<ProbeSpec> {
    @Override
    public StepResult run(ProbeSpec spec, String label, StepContext ctx) throws InterruptedException {
        if (spec.concurrency() > spec.requests()) {
            ctx.notice("probe '" + label + "': concurrency " + spec.concurrency() + " is more than its "
                    + spec.requests() + " requests: it keeps at most " + spec.requests() + " in flight");
        }
        if (spec.warmup() > 0) {
            ClosedLoop.requests(spec.warmup(), spec.concurrency(), label + "-warmup", spec.promptTokens(),
                    i -> request(spec, ctx), false, ctx);
        }
        ClosedLoop.requests(spec.requests(), spec.concurrency(), label, spec.promptTokens(),
                i -> request(spec, ctx), true, ctx);
        return new ProbeResult(label, ProbeSpec.TYPE, spec.requests(), spec.concurrency(), spec.promptTokens());
    }

    private static GenerationRequest request(ProbeSpec spec, StepContext ctx) {
        return new GenerationRequest(ctx.prompt(spec.promptTokens(), spec.cold()), spec.promptTokens(),
                spec.maxOutputTokens(), spec.stream(), Map.of());
    }

    /**
     * What a probe step reports besides its statistics.
     *
     * @param label        step label
     * @param type         {@code "probe"}
     * @param requests     requests planned
     * @param concurrency  concurrency asked for (more than {@code requests} keeps only {@code requests} in flight)
     * @param promptTokens prompt length in tokens
     */
    public record ProbeResult(String label, String type, int requests, int concurrency, int promptTokens)
            implements StepResult {
    }
}
