package org.latencylab.app.cli;

import org.latencylab.engine.api.InvalidFieldException;
import org.latencylab.engine.run.DurationText;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.trace.ReplaySpec;
import org.latencylab.engine.trace.TraceScan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code latencylab replay FILE}: sends a request trace at its traced times (open loop) and writes a run directory. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Replay a request trace: each request leaves at its traced time (open loop, latency from that"
                + " intended time), with its traced prompt and answer lengths.",
                "%nFormats: mooncake (JSON lines: timestamp ms, input_length, output_length, hash_ids), burstgpt"
                        + " (CSV: Timestamp s, Model, Request tokens, Response tokens, Total tokens, Log Type), azure"
                        + " (CSV: TIMESTAMP, ContextTokens, GeneratedTokens). The file is streamed, never loaded whole."
                        + " Malformed lines are skipped and counted (file, line and field named); schedule fidelity"
                        + " is the dispatch lag (send - intended) in the summary. Exit status as for run."})
final class ReplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    @Parameters(index = "0", paramLabel = "FILE", description = "trace file, e.g. sample-data/traces/mooncake-chat.jsonl")
    Path file;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "mooncake, burstgpt or azure (default: from the file name: .jsonl mooncake, .csv with"
                    + " 'burst' in its name burstgpt, other .csv azure)")
    String format;

    @Option(names = "--speed", paramLabel = "K", description = "speed-up of the trace's times (10: ten times as fast;"
            + " default 1)")
    Double speed;

    @Option(names = "--rate", paramLabel = "R", description = "instead of --speed: rescale the times to this mean"
            + " rate, req/s")
    Double rate;

    @Option(names = "--start", paramLabel = "T", description = "trace time to start at, e.g. 5m (default: its start)")
    String start;

    @Option(names = "--duration", paramLabel = "D", description = "trace time to replay from --start, e.g. 10m"
            + " (default: the rest of the trace)")
    String duration;

    @Option(names = "--limit", paramLabel = "N", description = "send at most N requests")
    Long limit;

    @Option(names = "--trace-model", paramLabel = "NAME", description = "burstgpt: replay only rows of this Model"
            + " (e.g. ChatGPT)")
    String traceModel;

    @Option(names = "--log-type", paramLabel = "TYPE", description = "burstgpt: replay only rows of this Log Type"
            + " (e.g. 'Conversation log')")
    String logType;

    @Option(names = "--slo", paramLabel = "METRIC:PCT:MS", description = "an SLO judged on the replay, e.g."
            + " ttft:95:500 (repeatable)")
    List<String> slos = List.of();

    private static final Map<String, String> OPTIONS = Map.of("file", "FILE", "format", "--format", "speed", "--speed",
            "rate", "--rate", "start", "--start", "duration", "--duration", "limit", "--limit", "model",
            "--trace-model", "logType", "--log-type");

    @Override
    public Integer call() throws Exception {
        Duration from = duration("--start", start);
        Duration span = duration("--duration", duration);
        ReplaySpec replay;
        try {
            replay = new ReplaySpec(file.toAbsolutePath().toString(), format, speed, rate, from, span, limit,
                    traceModel, logType, true, List.of(), null);
        } catch (InvalidFieldException e) {
            String m = e.getMessage().startsWith("replay: ") ? e.getMessage().substring(8) : e.getMessage();
            String option = OPTIONS.getOrDefault(e.field(), e.field());
            throw new IllegalArgumentException(m.startsWith(e.field() + " ") ? option + m.substring(e.field().length())
                    : option + ": " + m, e);
        }
        // read the trace before starting a run: a file that cannot be replayed is bad input (exit 2), not a failed run
        TraceScan scan = TraceScan.of(replay.window());
        if (scan.requests() == 0) {
            throw new IllegalArgumentException(file.getFileName() + ": no valid request"
                    + (from != null || span != null ? " between --start and --duration" : "") + ": nothing to replay"
                    + (scan.skipped() > 0 ? "; first problem: " + scan.skipSamples().get(0) : ""));
        }
        RunSpec run = new RunSpec("replay", target.target(spec.commandLine().getErr()), target.client(),
                TargetOptions.stats(slos), List.of(replay), null, null, 42);
        return RunExecution.execute(run, target.out, target.overwrite, !target.noCharts, spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }

    private static Duration duration(String option, String text) {
        if (text == null) {
            return null;
        }
        try {
            return DurationText.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }
}
