package org.latencylab.app.cli;

import org.latencylab.app.Defaults;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code latencylab probe}: N requests at concurrency C; percentiles, SLO rate and tier. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = {"Send N requests at concurrency C and report percentiles, SLO compliance and the tier.",
                "%nClosed loop; P50..P99.9 of TTFT, TPOT, ITL and E2E with confidence intervals; the latency tier is"
                        + " judged on P95 TTFT (Tier-0 <= 80 ms, Tier-1 <= 300 ms, Tier-2 <= 1.2 s, Tier-3 <= 4.5 s, Tier-4"
                        + " above)."})
final class ProbeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Option(names = {"-n", "--requests"}, defaultValue = "" + Defaults.PROBE_REQUESTS, description = "requests (default: ${DEFAULT-VALUE})")
    int requests;

    @Option(names = {"-c", "--concurrency"}, defaultValue = "" + Defaults.PROBE_CONCURRENCY, description = "in flight at once (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--prompt-tokens", defaultValue = "" + Defaults.PROBE_PROMPT_TOKENS, description = "prompt length in tokens (default: ${DEFAULT-VALUE})")
    int promptTokens;

    @Option(names = "--max-tokens", defaultValue = "" + Defaults.PROBE_MAX_OUTPUT_TOKENS, description = "tokens to generate (default: ${DEFAULT-VALUE})")
    int maxTokens;

    @Option(names = "--no-stream", description = "non-streaming requests (TTFT is then not measured)")
    boolean noStream;

    @Option(names = "--slo", paramLabel = "METRIC:PCT:MS",
            description = "SLO, e.g. ttft:95:500 (P95 TTFT <= 500 ms; 500ms and 0.5s read the same); repeatable")
    List<String> slos = List.of();

    @Option(names = "--warmup", defaultValue = "1",
            description = "unrecorded requests sent first, like the measured ones (default: ${DEFAULT-VALUE})")
    int warmup;

    @Override
    public Integer call() throws Exception {
        ProbeSpec probe = Options.spec(() -> new ProbeSpec(requests, concurrency, promptTokens, maxTokens, !noStream, true,
                warmup), Map.of("requests", "--requests", "concurrency", "--concurrency", "promptTokens", "--prompt-tokens",
                "maxOutputTokens", "--max-tokens", "warmup", "--warmup"));
        RunSpec run = new RunSpec("probe", target.target(spec.commandLine().getErr()), target.client(), TargetOptions.stats(slos), List.of(probe),
                null, null, 42);
        return RunExecution.execute(run, target.out, target.overwrite, !target.noCharts, spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }
}
