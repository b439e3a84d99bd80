package org.latencylab.engine.monitor;

import org.latencylab.engine.results.RunLayout;
import org.latencylab.engine.client.RequestThreads;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.compare.EndpointRanking;
import org.latencylab.engine.compare.TargetEntry;
import org.latencylab.engine.compare.Targets;
import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.Summaries;
import org.latencylab.engine.stats.TierTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link MonitorSpec}. State lives in {@code <label>.json} of the run directory; when that file exists at
 * the start (the same scenario run again with {@code --out} on the same directory, e.g. after a restart of
 * LatencyLab or of the machine) the run resumes: counters and histograms continue, the time between the last
 * state write and now is recorded as a gap, and monitoring goes on until {@code duration} has been monitored in
 * total. Stateless and thread-safe (per-run state lives in the call).
 */
public final class MonitorRunner implements StepRunner<MonitorSpec> {
    /** The state file is rewritten at least this often while probes run: {@value} s. */
    public static final int STATE_PERIOD_SECONDS = 5;
    /** Version of the state file format. */
    public static final int FORMAT = 1;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Override
    public StepResult run(MonitorSpec spec, String label, StepContext ctx) throws InterruptedException {
        Path dir = ctx.runDirectory();
        Path stateFile = RunLayout.monitorState(dir, label);
        List<String> names = spec.endpoints().stream().map(TargetEntry::name).toList();
        Map<String, EndpointTrack> tracks = new LinkedHashMap<>();
        for (String n : names) {
            String safe = n.replaceAll("[^A-Za-z0-9._-]+", "-");
            tracks.put(n, new EndpointTrack(n, dir.resolve(label + "-" + safe + ".hourly.hlog"),
                    spec.hourly().toMillis(), dir.resolve(label + "-" + safe + ".daily.hlog"), spec.daily().toMillis()));
        }
        State state = State.load(stateFile, names, tracks);
        // the requests of earlier sessions, read before this one appends any; this session's are kept in memory
        Map<String, List<RequestRecord>> by = new LinkedHashMap<>();
        names.forEach(n -> by.put(n, java.util.Collections.synchronizedList(new ArrayList<>())));
        Path log = dir.resolve(RunLayout.REQUESTS_JSONL);
        if (state.lastUpdate != null && Files.exists(log)) {
            for (RequestRecord r : RequestLog.read(log)) {
                String l = r.label();
                if (l.startsWith(label + "/") && by.containsKey(l.substring(label.length() + 1))) {
                    by.get(l.substring(label.length() + 1)).add(r);
                }
            }
        }
        Instant now = Instant.now();
        if (state.lastUpdate != null) {
            long gapMs = Duration.between(state.lastUpdate, now).toMillis();
            state.gaps.add(new Gap(state.lastUpdate.toString(), now.toString(), gapMs / 1000.0));
            ctx.notice(String.format(java.util.Locale.ROOT, "%s resumed into %s after a gap of %s (%s of %s monitored"
                            + " so far)", label, dir, span(gapMs / 1000.0), span(state.activeNanos / 1e9),
                    span(spec.duration().toNanos() / 1e9)));
        }
        state.sessions.add(new Session(now.toString(), null));
        long remaining = spec.duration().toNanos() - state.activeNanos;
        Map<String, String> descriptions = new LinkedHashMap<>();
        if (remaining > 0) {
            try (Targets targets = Targets.start(spec.endpoints(), label.hashCode());
                 LlmClient client = new LlmClient(ctx.clientOptions())) {
                descriptions.putAll(targets.descriptions());
                probe(spec, label, ctx, targets.endpoints(), client, tracks, by, state, stateFile, remaining);
            }
        } else {
            ctx.notice(label + ": the monitored time already reaches the duration (" + spec.duration() + ")");
        }
        long end = System.currentTimeMillis();
        tracks.values().forEach(t -> t.flush(end));
        state.sessions.set(state.sessions.size() - 1, new Session(now.toString(), Instant.ofEpochMilli(end).toString()));
        state.complete = state.activeNanos >= spec.duration().toNanos();
        state.write(stateFile, spec, label, tracks, descriptions);
        // the ranking of the whole monitor, every session included
        Map<String, List<RequestRecord>> all = new LinkedHashMap<>();
        by.forEach((k, v) -> {
            synchronized (v) {
                all.put(k, List.copyOf(v));
            }
        });
        EndpointRanking.Ranking ranking = EndpointRanking.rank(all, descriptions, spec.rankBy(), spec.sloList(), 42);
        return new MonitorResult(label, MonitorSpec.TYPE, stateFile.getFileName().toString(), state.activeNanos / 1e9,
                state.complete, List.copyOf(state.sessions), List.copyOf(state.gaps), ranking);
    }

    private static void probe(MonitorSpec spec, String label, StepContext ctx, Map<String, Endpoint> endpoints,
                              LlmClient client, Map<String, EndpointTrack> tracks,
                              Map<String, List<RequestRecord>> records, State state, Path stateFile,
                              long remainingNanos) throws InterruptedException {
        List<String> names = List.copyOf(endpoints.keySet());
        long spacing = spec.interval().toNanos() / names.size();
        long t0 = System.nanoTime();
        long activeAtStart = state.activeNanos;
        long nextWrite = t0;
        List<Thread> inFlight = new ArrayList<>();
        for (long k = 0; ; k++) {
            long intended = t0 + k * spacing;
            if (intended - t0 >= remainingNanos) {
                break;
            }
            long wait;
            while ((wait = intended - System.nanoTime()) > 0 && !ctx.cancelled()) {
                Thread.sleep(Duration.ofNanos(Math.min(wait, 100_000_000L)));
                if (System.nanoTime() >= nextWrite) {
                    state.activeNanos = activeAtStart + Math.min(remainingNanos, System.nanoTime() - t0);
                    state.write(stateFile, spec, label, tracks, Map.of());
                    nextWrite = System.nanoTime() + STATE_PERIOD_SECONDS * 1_000_000_000L;
                }
            }
            if (ctx.cancelled()) {
                break;
            }
            String name = names.get((int) (k % names.size()));
            EndpointTrack track = tracks.get(name);
            GenerationRequest req = new GenerationRequest(ctx.prompt(spec.promptTokens(), true), spec.promptTokens(),
                    spec.maxOutputTokens(), spec.stream(), Map.of());
            RequestTicket ticket = new RequestTicket(ctx.nextRequestId(), label + "/" + name, spec.promptTokens(),
                    intended);
            inFlight.removeIf(t -> !t.isAlive());
            inFlight.add(RequestThreads.startWorker("latencylab-" + label + "-" + name, () -> {
                ctx.inFlight(+1);
                try {
                    RequestRecord r = client.execute(endpoints.get(name), req, ticket);
                    ctx.finished(r);
                    records.get(name).add(r);
                    track.add(r, spec.sloList(), System.currentTimeMillis());
                } finally {
                    ctx.inFlight(-1);
                }
            }));
        }
        long wait;
        while (!ctx.cancelled() && (wait = t0 + remainingNanos - System.nanoTime()) > 0) {
            Thread.sleep(Duration.ofNanos(Math.min(wait, 100_000_000L))); // the last interval is monitored too
        }
        for (Thread t : inFlight) {
            while (!t.join(Duration.ofMillis(50))) {
                if (ctx.cancelled()) {
                    inFlight.forEach(Thread::interrupt);
                }
            }
        }
        state.activeNanos = activeAtStart + Math.min(remainingNanos, System.nanoTime() - t0);
    }

    /**
     * @param seconds a time span, s
     * @return it in the unit that suits it: {@code 42 s}, {@code 12.5 min} or {@code 71.9 h}
     */
    public static String span(double seconds) {
        if (seconds < 120) {
            return String.format(java.util.Locale.ROOT, "%.1f s", seconds);
        }
        if (seconds < 7200) {
            return String.format(java.util.Locale.ROOT, "%.1f min", seconds / 60);
        }
        return String.format(java.util.Locale.ROOT, "%.1f h", seconds / 3600);
    }

    /**
     * One session of a monitor (a process that ran it).
     *
     * @param from ISO-8601 start
     * @param to   ISO-8601 end, or null while running (or when the process died)
     */
    public record Session(String from, String to) {
    }

    /**
     * Time in which nothing was monitored, between two sessions.
     *
     * @param from    ISO-8601 time of the last state write before the gap
     * @param to      ISO-8601 start of the next session
     * @param seconds length of the gap, s
     */
    public record Gap(String from, String to, double seconds) {
    }

    /**
     * What a monitor step reports.
     *
     * @param label          step label
     * @param type           {@code "monitor"}
     * @param stateFile      name of the state file in the run directory
     * @param monitoredSeconds time monitored over every session, s
     * @param complete       true once the monitored time reached the duration
     * @param sessions       sessions, oldest first
     * @param gaps           gaps between sessions
     * @param ranking        ranking over every request of every session
     */
    public record MonitorResult(String label, String type, String stateFile, double monitoredSeconds,
                                boolean complete, List<Session> sessions, List<Gap> gaps,
                                EndpointRanking.Ranking ranking) implements StepResult {
    }

    /** The persisted state of a monitor. Guarded by the runner's loop thread. */
    private static final class State {
        long activeNanos;
        Instant lastUpdate;
        Instant startedAt;
        boolean complete;
        final List<Session> sessions = new ArrayList<>();
        final List<Gap> gaps = new ArrayList<>();

        static State load(Path file, List<String> names, Map<String, EndpointTrack> tracks) {
            State s = new State();
            if (!Files.exists(file)) {
                s.startedAt = Instant.now();
                return s;
            }
            try {
                JsonNode n = JSON.readTree(file.toFile());
                if (n.path("format").asInt(-1) != FORMAT) {
                    throw new IllegalArgumentException(file + ": field 'format' must be " + FORMAT + ", was "
                            + n.path("format"));
                }
                s.activeNanos = Math.round(n.path("monitored_s").asDouble() * 1e9);
                s.lastUpdate = Instant.parse(n.path("updated_at").asText());
                s.startedAt = Instant.parse(n.path("started_at").asText());
                for (JsonNode x : n.path("sessions")) {
                    s.sessions.add(new Session(x.path("from").asText(), x.hasNonNull("to") ? x.get("to").asText() : null));
                }
                for (JsonNode x : n.path("gaps")) {
                    s.gaps.add(new Gap(x.path("from").asText(), x.path("to").asText(), x.path("seconds").asDouble()));
                }
                List<String> stored = new ArrayList<>();
                n.path("endpoints").forEach(e -> stored.add(e.path("name").asText()));
                if (!stored.equals(names)) {
                    throw new IllegalArgumentException(file + ": field 'endpoints' lists " + stored
                            + " but the scenario monitors " + names + "; use a new run directory");
                }
                for (JsonNode e : n.path("endpoints")) {
                    EndpointTrack t = tracks.get(e.path("name").asText());
                    t.sent = e.path("sent").asLong();
                    t.succeeded = e.path("succeeded").asLong();
                    t.failed = e.path("failed").asLong();
                    t.cancelled = e.path("cancelled").asLong();
                    t.judged = e.path("judged").asLong();
                    t.met = e.path("met").asLong();
                    EndpointTrack.decodeInto(e.path("ttft_histogram").asText(), t.ttft);
                    EndpointTrack.decodeInto(e.path("e2e_histogram").asText(), t.e2e);
                }
                return s;
            } catch (IOException | RuntimeException e) {
                if (e instanceof IllegalArgumentException iae && iae.getMessage().startsWith(file.toString())) {
                    throw iae;
                }
                throw new IllegalArgumentException(file + ": cannot resume from this state file: " + e.getMessage(), e);
            }
        }

        synchronized void write(Path file, MonitorSpec spec, String label, Map<String, EndpointTrack> tracks,
                                Map<String, String> descriptions) {
            lastUpdate = Instant.now();
            ObjectNode o = JSON.createObjectNode();
            o.put("format", FORMAT);
            o.put("label", label);
            o.put("started_at", startedAt.toString());
            o.put("updated_at", lastUpdate.toString());
            o.put("interval_s", spec.interval().toNanos() / 1e9);
            o.put("duration_s", spec.duration().toNanos() / 1e9);
            o.put("monitored_s", activeNanos / 1e9);
            o.put("complete", complete);
            o.put("rank_by", spec.rankBy());
            o.set("sessions", JSON.valueToTree(sessions));
            o.set("gaps", JSON.valueToTree(gaps));
            ArrayNode eps = o.putArray("endpoints");
            List<ObjectNode> rows = new ArrayList<>();
            for (EndpointTrack t : tracks.values()) {
                synchronized (t) {
                    ObjectNode e = eps.addObject();
                    e.put("name", t.name);
                    if (descriptions.containsKey(t.name)) {
                        e.put("description", descriptions.get(t.name));
                    }
                    e.put("sent", t.sent);
                    e.put("succeeded", t.succeeded);
                    e.put("failed", t.failed);
                    e.put("cancelled", t.cancelled);
                    e.put("judged", t.judged);
                    e.put("met", t.met);
                    e.put("sla_attainment", Double.isNaN(t.attainment()) ? null : t.attainment());
                    long finished = t.succeeded + t.failed;
                    e.put("error_rate", finished == 0 ? null : (double) t.failed / finished);
                    percentiles(e.putObject("ttft_ms"), Summaries.of("ttft", t.ttft));
                    percentiles(e.putObject("e2e_ms"), Summaries.of("e2e", t.e2e));
                    org.HdrHistogram.Histogram ranked = "e2e".equals(spec.rankBy()) ? t.e2e : t.ttft;
                    if (ranked.getTotalCount() > 0) {
                        e.put("tier", TierTable.DEFAULT.classify(ranked.getValueAtPercentile(95)).name());
                        e.put("rank_p95_ms", ranked.getValueAtPercentile(95) / 1e6);
                    }
                    e.put("ttft_histogram", EndpointTrack.encode(t.ttft));
                    e.put("e2e_histogram", EndpointTrack.encode(t.e2e));
                    rows.add(e);
                }
            }
            rows.sort(Comparator.comparingDouble(e -> e.path("rank_p95_ms").asDouble(Double.MAX_VALUE)));
            for (int i = 0; i < rows.size(); i++) {
                rows.get(i).put("rank", i + 1);
            }
            try {
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                JSON.writeValue(tmp.toFile(), o);
                try {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
            }
        }

        private static void percentiles(ObjectNode o, MetricSummary s) {
            o.put("count", s.count());
            if (s.count() > 0) {
                for (double p : new double[]{50, 95, 99}) {
                    o.put("p" + (int) p, s.pMillis(p));
                }
            }
        }
    }
}
