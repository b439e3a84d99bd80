package org.latencylab.engine.compare;

import org.latencylab.engine.api.MillisText;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.step.StepRunner;

import java.util.List;
import java.util.Map;

/**
 * Runs a {@link CompareEndpointsSpec}: starts the simulators and proxies it names, sends the workload
 * interleaved round-robin ({@link InterleavedSender}) with a client of its own (the run's client options), and
 * ranks the endpoints ({@link EndpointRanking}). The records are labelled {@code <step>/<endpoint>}, so
 * {@code run.json} also carries one summary per endpoint in the step's {@code parts}. Stateless and thread-safe.
 */
public final class CompareEndpointsRunner implements StepRunner<CompareEndpointsSpec> {
    @Override
    public StepResult run(CompareEndpointsSpec spec, String label, StepContext ctx) throws InterruptedException {
        try (Targets targets = Targets.start(spec.endpoints(), label.hashCode());
             LlmClient client = new LlmClient(ctx.clientOptions())) {
            Map<String, List<RequestRecord>> byEndpoint = InterleavedSender.send(targets.endpoints(), spec.requests(),
                    spec.concurrency(), spec.warmup(), label, spec.promptTokens(),
                    () -> new GenerationRequest(ctx.prompt(spec.promptTokens(), spec.cold()), spec.promptTokens(),
                            spec.maxOutputTokens(), spec.stream(), Map.of()), client, ctx);
            EndpointRanking.Ranking ranking = EndpointRanking.rank(byEndpoint, targets.descriptions(), spec.rankBy(),
                    spec.sloList(), 42);
            return new CompareResult(label, CompareEndpointsSpec.TYPE, spec.slos().stream()
                    .map(s -> s.metric() + " ≤ " + MillisText.threshold(s.maxMs()) + " (target "
                            + num(s.percentile()) + " %)")
                    .toList(), ranking);
        }
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /**
     * What a compare-endpoints step reports.
     *
     * @param label   step label
     * @param type    {@code "compare-endpoints"}
     * @param slos    the SLOs of the attainment column, as text
     * @param ranking the ranking with its neighbour tests
     */
    public record CompareResult(String label, String type, List<String> slos, EndpointRanking.Ranking ranking)
            implements StepResult {
    }
}
