package org.latencylab.app.cli;

import org.latencylab.app.Defaults;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.experiment.SweepSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code latencylab sweep}: TTFT over context lengths with a power-law fit. */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Measure TTFT over prompt lengths and fit a power law TTFT = a * n^alpha.",
                "%nPrompts are cold by default (a unique prefix per request, so no prefix cache helps); the fit"
                        + " reports alpha with its 95%% confidence interval and R^2, and can extrapolate to longer contexts."})
final class SweepCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Option(names = {"-l", "--lengths"}, split = ",", defaultValue = "2048,8192,32768",
            converter = Options.TokenCountConverter.class,
            description = "context lengths in tokens, e.g. 2048 or 2k (k = 1024; default: ${DEFAULT-VALUE})")
    List<Integer> lengths;

    @Option(names = {"-n", "--requests-per-length"}, defaultValue = "" + Defaults.SWEEP_REQUESTS_PER_LENGTH,
            description = "requests per length (default: ${DEFAULT-VALUE})")
    int requests;

    @Option(names = {"-c", "--concurrency"}, defaultValue = "1", description = "in flight at once (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--max-tokens", defaultValue = "" + Defaults.SWEEP_MAX_OUTPUT_TOKENS, description = "tokens to generate (default: ${DEFAULT-VALUE})")
    int maxTokens;

    @Option(names = "--warm", description = "reuse the same prompt per length (prefix caches may help)")
    boolean warm;

    @Option(names = "--tokenizer", paramLabel = "NAME", defaultValue = "cl100k_base",
            description = "who counts prompt tokens: a jtokkit encoding (cl100k_base, o200k_base, ...) or 'server'"
                    + " (the server's /tokenize; its usage.prompt_tokens when it has none) (default: ${DEFAULT-VALUE})")
    String tokenizer;

    @Option(names = "--fit-offset", description = "fit c + a * n^alpha instead of a * n^alpha")
    boolean offset;

    @Option(names = "--extrapolate", split = ",", converter = Options.TokenCountConverter.class,
            description = "context lengths to extrapolate the fit to, e.g. 131072 or 128k")
    List<Integer> extrapolate = List.of();

    @Option(names = "--warmup", defaultValue = "1",
            description = "unrecorded requests sent first, like the measured ones (default: ${DEFAULT-VALUE})")
    int warmup;

    /** Not offered (hidden from the help): only here to explain why a sweep takes no SLO. */
    @Option(names = "--slo", hidden = true, paramLabel = "METRIC:PCT:MS")
    List<String> slos = List.of();

    @Override
    public Integer call() throws Exception {
        if (!slos.isEmpty()) {
            throw new IllegalArgumentException("--slo is not judged on sweeps: one threshold across context lengths "
                    + "that differ by design means little; probe one length with an SLO instead");
        }
        SweepSpec sweep = Options.spec(() -> new SweepSpec(lengths, requests, concurrency, maxTokens, !warm, offset, extrapolate, warmup), Map.of(
                "contextTokens", "--lengths", "requestsPerLength", "--requests-per-length", "concurrency", "--concurrency",
                "maxOutputTokens", "--max-tokens", "extrapolateTo", "--extrapolate", "warmup", "--warmup"));
        RunSpec run = new RunSpec("sweep", target.target(spec.commandLine().getErr()), target.client(), TargetOptions.stats(List.of()), List.of(sweep),
                tokenizer, null, 42);
        return RunExecution.execute(run, target.out, target.overwrite, !target.noCharts, spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }
}
