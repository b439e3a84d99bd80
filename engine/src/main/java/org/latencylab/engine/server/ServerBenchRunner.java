package org.latencylab.engine.server;

import okhttp3.OkHttpClient;

import org.latencylab.engine.analysis.Cost;
import org.latencylab.engine.analysis.ParetoSet;
import org.latencylab.engine.analysis.Roofline;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.load.LatencyPercentiles;
import org.latencylab.engine.load.LoadMode;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.load.LoadStepRunner;
import org.latencylab.engine.load.LoadTotals;
import org.latencylab.engine.telemetry.GpuSource;
import org.latencylab.engine.telemetry.TelemetryRecorder;
import org.latencylab.engine.telemetry.TelemetrySummary;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Runs a {@link ServerBenchSpec}: for each variant (grids expanded, in order) launches the server or attaches to it,
 * waits until a readiness path answers 200, runs every load level with a {@link LoadStepRunner} against it (labels
 * {@code <label>-v<i>} or {@code <label>-v<i>-l<j>}), samples telemetry meanwhile, stops the server (SIGTERM, then
 * SIGKILL after the grace period, whole process tree), and finally compares the variants. A variant that fails to
 * start, is not ready in time, runs out of memory or crashes is recorded with its status and the server's last log
 * lines, and the run goes on.
 *
 * <p>Files per variant in the run directory: {@code <label>-v<i>.server.log} (the launched server's output, first
 * line the masked command), {@code <label>-v<i>.metrics.csv} and {@code <label>-v<i>.gpu.csv} (telemetry time
 * series, see {@link TelemetryRecorder}); per step {@code <label>.variants.csv} (one row per variant and level).
 *
 * <p>Stateless and thread-safe; per-run state lives in the call. Cancellation stops the current variant's load
 * within about a second and stops its server.
 */
public final class ServerBenchRunner implements StepRunner<ServerBenchSpec> {
    private static final int LOG_LINES_IN_ERRORS = 15;

    private final LoadStepRunner load;
    private final Consumer<Progress> progress;

    /**
     * Live progress of a benchmark, for displays: which variant runs and its latest telemetry.
     *
     * @param variant  variant name
     * @param index    1-based position
     * @param count    variants in all
     * @param phase    {@code starting}, {@code load}, {@code stopping} or {@code done}
     * @param tick     the latest telemetry tick, or null
     */
    public record Progress(String variant, int index, int count, String phase, TelemetryRecorder.TelemetryTick tick) {
    }

    /** A runner with a default {@link LoadStepRunner} and no progress listener. */
    public ServerBenchRunner() {
        this(new LoadStepRunner(), p -> { });
    }

    /**
     * @param load     runs each load level
     * @param progress receives progress and telemetry ticks (on engine threads; must be fast and not throw)
     */
    public ServerBenchRunner(LoadStepRunner load, Consumer<Progress> progress) {
        this.load = Objects.requireNonNull(load, "load");
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /** One expanded variant. */
    private record Planned(int index, String name, VariantSpec spec, Map<String, String> values) {
    }

    /**
     * @param spec    the benchmark
     * @param label   step label, prefix of every variant's label
     * @param context the run's services
     * @return the {@link ServerBenchResult}
     * @throws InterruptedException when the calling thread is interrupted (the current server is stopped first)
     */
    @Override
    public ServerBenchResult run(ServerBenchSpec spec, String label, StepContext context) throws InterruptedException {
        String base = label == null ? ServerBenchSpec.TYPE : label;
        List<Planned> planned = new ArrayList<>();
        for (VariantSpec v : spec.variants()) {
            List<Map<String, String>> combos = v.combinations();
            for (Map<String, String> c : combos) {
                StringBuilder name = new StringBuilder(v.name());
                v.grid().keySet().forEach(k -> name.append(' ').append(k).append('=').append(c.get(k)));
                planned.add(new Planned(planned.size() + 1, name.toString(), v, c));
            }
        }
        OkHttpClient http = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(3)).build();
        List<String> notes = new ArrayList<>();
        List<VariantResult> results = new ArrayList<>();
        try {
            for (Planned p : planned) {
                if (context.cancelled()) {
                    results.add(skipped(p, base, "the run was cancelled before this variant"));
                    publish(context, base, p, planned.size(), ServerBenchProgress.Phase.DONE,
                            VariantResult.Status.CANCELLED, null, null);
                    continue;
                }
                context.notice("server-bench: variant " + p.index() + "/" + planned.size() + " '" + p.name() + "'");
                VariantResult r;
                try {
                    r = runVariant(spec, base, p, planned.size(), context, http);
                } catch (InterruptedException e) {
                    publish(context, base, p, planned.size(), ServerBenchProgress.Phase.DONE,
                            VariantResult.Status.CANCELLED, null, null);
                    throw e;
                } catch (RuntimeException e) {
                    publish(context, base, p, planned.size(), ServerBenchProgress.Phase.DONE, null,
                            e.getMessage(), null);
                    throw e;
                }
                results.add(r);
                publish(context, base, p, planned.size(), ServerBenchProgress.Phase.DONE, r.status(),
                        r.status() == VariantResult.Status.OK || r.message() == null ? null
                                : r.message().lines().findFirst().orElse(null), null);
            }
        } finally {
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
        ServerBenchResult.RooflineInfo roofline = null;
        if (spec.roofline() != null) {
            Roofline.Gpu gpu = Roofline.gpu(spec.roofline().gpu());
            Roofline.Model model = spec.roofline().resolveModel();
            double ctxTokens = contextTokens(spec.load());
            double prompt = spec.load().contextTokens() == null ? 0 : spec.load().contextTokens();
            roofline = new ServerBenchResult.RooflineInfo(gpu.name(), gpu.bandwidthGBps(), model.id(),
                    model.weightBytes(), model.kvBytesPerToken(), ctxTokens, prompt,
                    Roofline.prefillBoundMs(gpu, model, spec.gpus(), prompt), List.of(gpu.source(), model.source()));
            results = withRoofline(results, gpu, model, ctxTokens);
        }
        List<String> objectives = new ArrayList<>(List.of("output tokens/s (higher is better)",
                "P99 " + spec.latencyMetric().toUpperCase(Locale.ROOT) + " ms (lower is better)"));
        results = withPareto(results, objectives, notes);
        for (VariantResult r : results) {
            if (r.status() != VariantResult.Status.OK) {
                String first = r.message() == null ? "" : r.message().lines().findFirst().orElse("")
                        .replace("variant '" + r.name() + "': ", "");
                notes.add("variant '" + r.name() + "': " + r.status().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                        + (first.isEmpty() ? "" : ": " + first));
            }
            if (r.telemetry() != null) {
                r.telemetry().notes().forEach(n -> notes.add("variant '" + r.name() + "': " + n));
            }
        }
        ServerBenchResult result = new ServerBenchResult(base, results, objectives,
                heatmap(spec, planned, results), roofline, notes.stream().distinct().toList());
        writeCsv(context.runDirectory().resolve(base + ".variants.csv"), result);
        return result;
    }

    /**
     * Reports a variant's phase to the constructor's listener and, as a {@link ServerBenchProgress}, to the run's
     * step-progress listeners. Never throws: a display's failure must not end a benchmark.
     */
    private void publish(StepContext context, String step, Planned p, int count, ServerBenchProgress.Phase phase,
                         VariantResult.Status status, String message, TelemetryRecorder.TelemetryTick tick) {
        try {
            progress.accept(new Progress(p.name(), p.index(), count, phase.name().toLowerCase(Locale.ROOT), tick));
        } catch (RuntimeException e) {
            // a listener's failure is not the benchmark's
        }
        context.progress(new ServerBenchProgress(step, p.name(), p.index(), count, phase, status, message, tick));
    }

    private static VariantResult skipped(Planned p, String base, String why) {
        return new VariantResult(p.index(), p.name(), base + "-v" + p.index(), p.values(), null,
                p.spec().attach(), VariantResult.Status.CANCELLED, why, null, null, null, null, null, List.of(), null,
                p.spec().pricePerGpuHour(), p.spec().gpus() == null ? 1 : p.spec().gpus(), p.spec().instanceType());
    }

    // ------------------------------------------------------------------------------------------------ one variant

    private VariantResult runVariant(ServerBenchSpec spec, String base, Planned p, int count, StepContext context,
                                     OkHttpClient http) throws InterruptedException {
        VariantSpec v = p.spec();
        String vlabel = base + "-v" + p.index();
        Path dir = context.runDirectory();
        Double price = v.pricePerGpuHour() != null ? v.pricePerGpuHour() : spec.pricePerGpuHour();
        int gpus = v.gpus() != null ? v.gpus() : spec.gpus();
        String command = null;
        String url = v.attach() == null ? null : v.attach().replaceAll("/+$", "");
        String logFile = null;
        ServerProcess proc = null;
        Double startup = null;
        publish(context, base, p, count, ServerBenchProgress.Phase.STARTING, null, null, null);
        try {
            if (url == null) {
                int port;
                if (v.port() != null) {
                    port = v.port();
                    if (!ServerReadiness.portFree(port)) {
                        return failed(p, vlabel, price, gpus, null, "http://127.0.0.1:" + port,
                                VariantResult.Status.START_FAILED, "port " + port + " on 127.0.0.1 is in use; free it "
                                        + "or leave out 'port' so that LatencyLab picks a free one", null, null);
                    }
                } else {
                    port = ServerReadiness.freePort();
                }
                url = "http://127.0.0.1:" + port;
                Map<String, String> values = new LinkedHashMap<>(p.values());
                values.put("port", Integer.toString(port));
                values.put("host", "127.0.0.1");
                values.put("model", v.model() == null ? "default" : v.model());
                List<String> cmd;
                Map<String, String> env = new LinkedHashMap<>();
                try {
                    cmd = LaunchTemplates.expand(v.commandTemplate(), values);
                    v.envTemplate().forEach((k, val) -> env.put(k, LaunchTemplates.fill(val, values)));
                } catch (IllegalArgumentException e) {
                    return failed(p, vlabel, price, gpus, null, url, VariantResult.Status.START_FAILED,
                            "variant '" + p.name() + "': " + e.getMessage(), null, null);
                }
                command = SecretMask.display(cmd);
                logFile = vlabel + ".server.log";
                long t0 = System.nanoTime();
                try {
                    proc = ServerProcess.start(p.name(), cmd, env, dir.resolve(logFile));
                } catch (IllegalArgumentException e) {
                    return failed(p, vlabel, price, gpus, command, url, VariantResult.Status.START_FAILED,
                            e.getMessage(), null, logFile);
                }
                String ready = ServerReadiness.awaitReady(http, url, v.readinessPaths(), spec.readyTimeout(), proc,
                        context);
                if (ready != null) {
                    proc.stop(spec.stopGrace());
                    Integer code = proc.exitCode();
                    VariantResult.Status status = ServerProcess.logSaysOutOfMemory(proc.log())
                            ? VariantResult.Status.OOM : ready.startsWith("exited") ? VariantResult.Status.START_FAILED
                            : context.cancelled() ? VariantResult.Status.CANCELLED : VariantResult.Status.NOT_READY;
                    String oomLine = ServerProcess.outOfMemoryLine(proc.log());
                    return failed(p, vlabel, price, gpus, command, url, status, "variant '" + p.name() + "': "
                            + ready + (oomLine == null ? "" : ": " + oomLine) + "\nlast lines of " + logFile + ":\n"
                            + proc.lastLogLines(LOG_LINES_IN_ERRORS), code, logFile);
                }
                startup = (System.nanoTime() - t0) / 1e9;
            }
            return measure(spec, base, p, vlabel, url, command, logFile, proc, startup, price, gpus, count, context,
                    http);
        } finally {
            if (proc != null && proc.isAlive()) {
                publish(context, base, p, count, ServerBenchProgress.Phase.STOPPING, null, null, null);
                proc.stop(spec.stopGrace());
            }
        }
    }

    private VariantResult measure(ServerBenchSpec spec, String base, Planned p, String vlabel, String url, String command,
                                  String logFile, ServerProcess proc, Double startup, Double price, int gpus,
                                  int count, StepContext context, OkHttpClient http) throws InterruptedException {
        VariantSpec v = p.spec();
        Path dir = context.runDirectory();
        String model = v.model() != null ? v.model() : ServerReadiness.firstModel(http, url);
        Endpoint endpoint = Endpoint.of(p.name(), Protocol.fromId(v.protocolId()), url, model);
        List<String> telemetryNotes = new ArrayList<>();
        String metricsUrl = null;
        if (!v.metricsPathOrDefault().isEmpty()) {
            String m = url + v.metricsPathOrDefault();
            if (ServerReadiness.answers(http, m)) {
                metricsUrl = m;
            } else {
                telemetryNotes.add("no Prometheus metrics at " + m + " (the server exposes none there)");
            }
        }
        GpuSource gpu = ServerReadiness.gpuSource(spec.gpuTelemetry(), http, url, telemetryNotes);
        String metricsFile = metricsUrl == null ? null : vlabel + ".metrics.csv";
        String gpuFile = gpu == null ? null : vlabel + ".gpu.csv";
        TelemetryRecorder rec = TelemetryRecorder.start(http, metricsUrl, gpu,
                dir.resolve(vlabel + ".metrics.csv"), dir.resolve(vlabel + ".gpu.csv"), spec.scrapeInterval(),
                tick -> publish(context, base, p, count, ServerBenchProgress.Phase.LOAD, null, null, tick));
        telemetryNotes.forEach(rec::note);
        AtomicBoolean died = new AtomicBoolean();
        List<LoadSpec> levels = spec.levels();
        List<VariantResult.Point> points = new ArrayList<>();
        VariantResult.Status status = VariantResult.Status.OK;
        String message = null;
        TelemetrySummary summary;
        try (LlmClient client = new LlmClient(context.clientOptions())) {
            VariantContext vctx = new VariantContext(context, endpoint, client, died::get);
            if (proc != null) {
                ProcessHandle h = proc.tree().get(0);
                h.onExit().thenRun(() -> died.set(true));
            }
            for (int j = 0; j < levels.size() && !context.cancelled() && !died.get(); j++) {
                LoadSpec level = levels.get(j);
                String levelLabel = levels.size() == 1 ? vlabel : vlabel + "-l" + (j + 1);
                LoadResult lr = load.run(level, levelLabel, vctx);
                points.add(point(levelLabel, level, lr.totals(), vctx.outputTokens(levelLabel),
                        vctx.windowTokensPerSecond(levelLabel), spec, price, gpus));
            }
        } finally {
            summary = rec.stop();
        }
        if (proc != null && (died.get() || !proc.isAlive())) {
            try {
                proc.tree().get(0).onExit().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // still alive or unknown: judged by the log below
            }
            boolean oom = ServerProcess.logSaysOutOfMemory(proc.log());
            status = oom ? VariantResult.Status.OOM : VariantResult.Status.CRASHED;
            String oomLine = ServerProcess.outOfMemoryLine(proc.log());
            message = "variant '" + p.name() + "': the server exited under load (status " + proc.exitCode() + ")"
                    + (oomLine == null ? "" : ": " + oomLine) + "\nlast lines of " + logFile + ":\n"
                    + proc.lastLogLines(LOG_LINES_IN_ERRORS);
        } else if (context.cancelled()) {
            status = VariantResult.Status.CANCELLED;
        }
        Double serverTtft = summary.serverTtftMeanMs();
        List<VariantResult.Point> withServer = new ArrayList<>();
        for (VariantResult.Point pt : points) {
            withServer.add(new VariantResult.Point(pt.label(), pt.level(), pt.outputTokensPerSecond(),
                    pt.requestsPerSecond(), pt.goodputRps(), pt.latencyP99Ms(), pt.tpotP50Ms(), pt.clientTtftMeanMs(),
                    points.size() == 1 ? serverTtft : null, pt.tier(), pt.costPerMillionTokens(), null, null,
                    summary.meanRunning() != null && points.size() == 1 ? Math.max(1, summary.meanRunning())
                            : pt.batchForBound(), false, pt.totals()));
        }
        Integer exit = proc == null ? null : proc.isAlive() ? null : proc.exitCode();
        if (proc != null && proc.isAlive()) {
            publish(context, base, p, count, ServerBenchProgress.Phase.STOPPING, null, null, null);
            exit = proc.stop(spec.stopGrace());
        }
        return new VariantResult(p.index(), p.name(), vlabel, p.values(), command, url, status, message, exit,
                startup, logFile, metricsFile, gpuFile, withServer, summary, price, gpus, v.instanceType());
    }

    private static VariantResult.Point point(String label, LoadSpec level, LoadTotals t, long outputTokens,
                                             double windowTokS, ServerBenchSpec spec, Double price, int gpus) {
        double warm = level.warmup() == null ? 0 : level.warmup().toNanos() / 1e9;
        double seconds = Math.max(1e-9, t.elapsedSeconds() - warm);
        double tokS = Double.isFinite(windowTokS) ? windowTokS : outputTokens / seconds;
        LatencyPercentiles lat = switch (spec.latencyMetric()) {
            case "e2e" -> t.e2eSend();
            case "tpot" -> t.tpot();
            default -> t.ttftSend();
        };
        String levelText = level.mode() == LoadMode.CLOSED ? "concurrency " + level.concurrency()
                : level.rate() != null ? "rate " + trim(level.rate()) + " req/s" : "open loop";
        Double cost = price == null || !(tokS > 0) ? null : Cost.perMillionOutputTokens(price, gpus, tokS);
        return new VariantResult.Point(label, levelText, tokS, t.achievedRateRps(), t.goodputRps(), lat.p99Ms(),
                t.tpot().p50Ms(), t.ttftSend().meanMs(), null, t.tier(), cost, null, null,
                level.mode() == LoadMode.CLOSED ? (double) level.concurrency() : 1.0, false, t);
    }

    private static VariantResult failed(Planned p, String vlabel, Double price, int gpus, String command, String url,
                                        VariantResult.Status status, String message, Integer exit, String logFile) {
        return new VariantResult(p.index(), p.name(), vlabel, p.values(), command, url, status, message, exit, null,
                logFile, null, null, List.of(), null, price, gpus, p.spec().instanceType());
    }

    private static double contextTokens(LoadSpec load) {
        int prompt = load.contextTokens() == null ? 0 : load.contextTokens();
        int out = load.maxOutputTokens() == null ? 0 : load.maxOutputTokens();
        return prompt + out / 2.0;
    }

    // ------------------------------------------------------------------------------------------------ analysis

    private static List<VariantResult> withRoofline(List<VariantResult> results, Roofline.Gpu gpu,
                                                    Roofline.Model model, double context) {
        List<VariantResult> out = new ArrayList<>();
        for (VariantResult r : results) {
            List<VariantResult.Point> pts = new ArrayList<>();
            for (VariantResult.Point p : r.points()) {
                double batch = p.batchForBound() == null ? 1 : Math.max(1, p.batchForBound());
                double bound = Roofline.tpotBoundMs(gpu, model, r.gpus(), batch, context);
                Double pct = p.tpotP50Ms() == null ? null : p.tpotP50Ms() / bound * 100;
                pts.add(new VariantResult.Point(p.label(), p.level(), p.outputTokensPerSecond(),
                        p.requestsPerSecond(), p.goodputRps(), p.latencyP99Ms(), p.tpotP50Ms(), p.clientTtftMeanMs(),
                        p.serverTtftMeanMs(), p.tier(), p.costPerMillionTokens(), bound, pct, batch,
                        p.paretoOptimal(), p.totals()));
            }
            out.add(r.withPoints(pts));
        }
        return out;
    }

    private static List<VariantResult> withPareto(List<VariantResult> results, List<String> objectives,
                                                  List<String> notes) {
        List<VariantResult.Point> eligible = new ArrayList<>();
        List<VariantResult> owners = new ArrayList<>();
        for (VariantResult r : results) {
            for (VariantResult.Point p : r.points()) {
                if (r.status() == VariantResult.Status.OK && p.outputTokensPerSecond() > 0
                        && p.latencyP99Ms() != null) {
                    eligible.add(p);
                    owners.add(r);
                }
            }
        }
        boolean memory = !eligible.isEmpty() && owners.stream().allMatch(r -> r.peakGpuMemoryGiB() != null);
        if (memory) {
            objectives.add("peak GPU memory GiB (lower is better)");
        } else if (!eligible.isEmpty()) {
            notes.add("the Pareto front leaves out GPU memory: not every variant has GPU telemetry");
        }
        List<double[]> scores = new ArrayList<>();
        for (int i = 0; i < eligible.size(); i++) {
            VariantResult.Point p = eligible.get(i);
            scores.add(memory ? new double[] {p.outputTokensPerSecond(), p.latencyP99Ms(),
                    owners.get(i).peakGpuMemoryGiB()} : new double[] {p.outputTokensPerSecond(), p.latencyP99Ms()});
        }
        List<ParetoSet.Goal> goals = memory
                ? List.of(ParetoSet.Goal.MAXIMIZE, ParetoSet.Goal.MINIMIZE, ParetoSet.Goal.MINIMIZE)
                : List.of(ParetoSet.Goal.MAXIMIZE, ParetoSet.Goal.MINIMIZE);
        boolean[] optimal = ParetoSet.optimal(scores, goals);
        List<VariantResult> out = new ArrayList<>();
        for (VariantResult r : results) {
            List<VariantResult.Point> pts = new ArrayList<>();
            for (VariantResult.Point p : r.points()) {
                int k = eligible.indexOf(p);
                pts.add(p.withParetoOptimal(k >= 0 && optimal[k]));
            }
            out.add(r.withPoints(pts));
        }
        return out;
    }

    private static ServerBenchResult.Heatmap heatmap(ServerBenchSpec spec, List<Planned> planned,
                                                     List<VariantResult> results) {
        VariantSpec source = null;
        String rows = null;
        String columns = null;
        for (VariantSpec v : spec.variants()) {
            if (spec.heatmap() != null && v.grid().containsKey(spec.heatmap().rows())
                    && v.grid().containsKey(spec.heatmap().columns())) {
                source = v;
                rows = spec.heatmap().rows();
                columns = spec.heatmap().columns();
                break;
            }
            if (spec.heatmap() == null && v.grid().size() == 2) {
                source = v;
                List<String> keys = new ArrayList<>(v.grid().keySet());
                rows = keys.get(0);
                columns = keys.get(1);
                break;
            }
        }
        if (source == null) {
            return null;
        }
        List<String> rv = source.grid().get(rows);
        List<String> cv = source.grid().get(columns);
        List<List<Double>> tok = new ArrayList<>();
        List<List<Double>> mem = new ArrayList<>();
        List<List<String>> marks = new ArrayList<>();
        for (int r = 0; r < rv.size(); r++) {
            tok.add(new ArrayList<>(java.util.Collections.nCopies(cv.size(), (Double) null)));
            mem.add(new ArrayList<>(java.util.Collections.nCopies(cv.size(), (Double) null)));
            marks.add(new ArrayList<>(java.util.Collections.nCopies(cv.size(), "not run")));
        }
        for (int i = 0; i < planned.size() && i < results.size(); i++) {
            if (planned.get(i).spec() != source) {
                continue;
            }
            VariantResult res = results.get(i);
            int r = rv.indexOf(planned.get(i).values().get(rows));
            int c = cv.indexOf(planned.get(i).values().get(columns));
            double best = res.points().stream().mapToDouble(VariantResult.Point::outputTokensPerSecond).max()
                    .orElse(Double.NaN);
            if (res.status() == VariantResult.Status.OK && best > 0) {
                tok.get(r).set(c, best);
                marks.get(r).set(c, null);
            } else {
                marks.get(r).set(c, res.status() == VariantResult.Status.OOM ? "OOM"
                        : res.status() == VariantResult.Status.CANCELLED ? "not run" : "failed");
            }
            mem.get(r).set(c, res.peakGpuMemoryGiB());
        }
        return new ServerBenchResult.Heatmap(rows, columns, rv, cv, tok, mem, marks);
    }

    private static void writeCsv(Path file, ServerBenchResult result) {
        try (java.io.Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            org.latencylab.engine.csv.CsvWriter w = org.latencylab.engine.csv.CsvWriter.to(out,
                    org.latencylab.engine.csv.CsvWriter.LineEnd.LF);
            w.row("variant", "name", "status", "level", "output_tokens_per_s", "requests_per_s", "goodput_rps",
                    "latency_p99_ms", "tpot_p50_ms", "client_ttft_mean_ms", "server_ttft_mean_ms",
                    "peak_gpu_memory_gib", "tier", "cost_per_million_tokens", "tpot_bound_ms", "tpot_of_bound_pct",
                    "pareto_optimal");
            for (VariantResult v : result.variants()) {
                Object name = org.latencylab.engine.csv.CsvWriter.quoted(v.name());
                String status = v.status().name().toLowerCase(Locale.ROOT);
                if (v.points().isEmpty()) {
                    w.row(v.index(), name, status, null, null, null, null, null, null, null, null,
                            cell(v.peakGpuMemoryGiB()), null, null, null, null, null);
                    continue;
                }
                for (VariantResult.Point p : v.points()) {
                    w.row(v.index(), name, status, p.level(), cell(p.outputTokensPerSecond()),
                            cell(p.requestsPerSecond()), cell(p.goodputRps()), cell(p.latencyP99Ms()),
                            cell(p.tpotP50Ms()), cell(p.clientTtftMeanMs()), cell(p.serverTtftMeanMs()),
                            cell(v.peakGpuMemoryGiB()), p.tier(), cell(p.costPerMillionTokens()),
                            cell(p.tpotBoundMs()), cell(p.tpotOfBoundPct()), p.paretoOptimal());
                }
            }
            w.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static String cell(Double v) {
        return v == null || v.isNaN() ? "" : String.format(Locale.ROOT, "%.4g", v);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
