package org.latencylab.app.report;

import org.latencylab.engine.results.RunLayout;
import org.latencylab.engine.stats.Metric;
import org.latencylab.charts.MetricNames;
import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.ErrorParty;
import org.latencylab.engine.api.TrustCheck;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadTotals;
import org.latencylab.engine.results.RequestLog;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.SloResult;
import org.latencylab.engine.stats.StatsReport;
import org.latencylab.engine.transport.TransportsResult;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The console summary of a run: per step a percentile table of TTFT, TPOT, ITL and E2E, the tier line
 * ("P95 TTFT 412 ms → Tier-2"), SLO compliance, errors by kind; for sweeps the per-length points and the fit; the
 * run's trust check last. When the trust check found the client saturated its message comes first and every tier
 * line says it is not a verdict on the server.
 * Thread-safe (stateless).
 */
public final class ConsoleReport {
    private static final List<String> METRICS = Metric.ids(Metric.TTFT, Metric.TIME_TO_FIRST_CONTENT, Metric.TTFB,
            Metric.TPOT, Metric.ITL, Metric.E2E, Metric.TTFT_FROM_INTENDED, Metric.E2E_FROM_INTENDED,
            Metric.DISPATCH_LAG);

    private ConsoleReport() {
    }

    /**
     * The summary of a run read back (or of one whose notices nobody has seen yet): each notice is printed under
     * the step that raised it, the run's other notices after the last step.
     *
     * @param r      the finished run
     * @param charts chart files written (may be empty)
     * @param out    where to print
     */
    public static void print(RunResult r, List<Path> charts, PrintWriter out) {
        print(r, charts, true, out);
    }

    /**
     * @param r           the finished run
     * @param charts      chart files written (may be empty)
     * @param withNotices whether to print the run's notices; false when they were already printed (on stderr) as
     *                    they were raised, so that each is said once
     * @param out         where to print
     */
    public static void print(RunResult r, List<Path> charts, boolean withNotices, PrintWriter out) {
        double seconds = Nanos.toSeconds(r.duration().toNanos());
        if (noRequestSucceeded(r)) {
            // run.json keeps status "completed" (every request ran to its end), but the console must not read as success
            out.printf(Locale.ROOT, "%nLatencyLab — %s — %s — finished in %.1f s with %s%n", r.name(),
                    r.endpointDescription(), seconds, r.overall().cancelled() == 0
                            ? String.format(Locale.ROOT, "every request failed (%d of %d)", r.overall().failed(),
                            r.overall().sent())
                            : String.format(Locale.ROOT, "no request succeeded (%d failed, %d cancelled, of %d)",
                            r.overall().failed(), r.overall().cancelled(), r.overall().sent()));
        } else {
            out.printf(Locale.ROOT, "%nLatencyLab — %s — %s — %s in %.1f s%n", r.name(), r.endpointDescription(),
                    r.status().id(), seconds);
        }
        if (r.failure() != null) {
            out.println("run failed: " + r.failure());
        }
        Map<ErrorKind, String> examples = errorExamples(r);
        TrustCheck trust = r.trust();
        boolean saturated = trust != null && trust.saturated();
        if (saturated) {
            out.println(trust.message()); // before any number, so nobody reads a tier without it
        }
        boolean anySlo = false;
        // with several steps, each is judged on its own: one that saturated the client does not disqualify the others
        boolean perStep = r.steps().stream().filter(s -> s.trust() != null).count() > 1;
        for (RunResult.StepOutcome s : r.steps()) {
            out.println();
            out.println("== " + s.label() + " (" + s.type() + ")");
            if (perStep && s.trust() != null) {
                out.println("trust check, this step: " + s.trust().message());
            }
            anySlo |= s.stats() != null && !s.stats().sloResults().isEmpty();
            if (s.result() instanceof SweepRunner.SweepResult sw) {
                printSweep(sw, out);
                out.println("tier: " + TierStatement.of(s));
                if (s.stats() != null) {
                    printCounts(s.stats(), examples, out);
                }
            } else if (EndpointsReport.handles(s.result())) {
                EndpointsReport.print(s.result(), out); // per endpoint: the pooled step summary would mix them
            } else if (s.result() instanceof org.latencylab.engine.server.ServerBenchResult sb) {
                ServerBenchReport.print(sb, out);
                if (s.stats() != null) {
                    printCounts(s.stats(), examples, out);
                }
            } else if (s.result() instanceof TransportsResult tr) {
                ConsoleSteps.printTransports(tr, out);
                if (s.stats() != null) {
                    printCounts(s.stats(), examples, out);
                }
            } else if (s.result() instanceof GridResult g) {
                ConsoleSteps.printGrid(g, out);
                if (s.stats() != null) {
                    printCounts(s.stats(), examples, out);
                }
            } else {
                if (s.result() instanceof LoadResult lr) {
                    printLoad(lr, s.spec(), out);
                }
                if (s.stats() != null) {
                    printStats(s.stats(), examples, s.result() instanceof LoadResult,
                            perStep ? s.clientSaturated(trust) : saturated, out);
                }
            }
            if (withNotices) {
                s.notices().forEach(n -> out.println("note: " + n)); // under the step they are about
            }
        }
        if (withNotices) {
            // the run's notices hold the steps' too: print those no step printed above
            List<String> left = new java.util.ArrayList<>(r.notices());
            r.steps().forEach(s -> s.notices().forEach(left::remove));
            left.forEach(n -> out.println("note: " + n));
        }
        if (trust != null) {
            out.println();
            out.println("trust check: " + trust.message());
        }
        out.println();
        out.println("run directory: " + r.runDirectory());
        if (!charts.isEmpty()) {
            out.println("charts: " + charts.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", ")));
        }
        if (r.status() == RunResult.Status.COMPLETED) {
            if (noRequestSucceeded(r)) {
                // said once, by the command on stderr (noRequestSucceededMessage), which also sets the exit status
            } else if (!anySlo) {
                List<String> own = r.steps().stream().filter(s -> s.spec() != null && !s.spec().stepSlos().isEmpty())
                        .map(s -> "'" + s.label() + "' (" + s.type() + ")").toList();
                out.println(own.isEmpty() ? "SLOs: none set"
                        : "SLOs: no run-level SLO; judged per step, see above: " + String.join(", ", own));
            } else {
                out.println(r.slosPassed() ? "SLOs: all passed" : "SLOs: FAILED (exit status 1)");
            }
        }
    }

    /**
     * @param r a finished run
     * @return whether the run completed, sent requests and none of them succeeded (the command line then exits with
     *         status 3 and prints {@link #noRequestSucceededMessage})
     */
    public static boolean noRequestSucceeded(RunResult r) {
        return r.status() == RunResult.Status.COMPLETED && r.overall() != null && r.overall().sent() > 0
                && r.overall().succeeded() == 0;
    }

    /**
     * The one line that says a run had no successful request; printed once, after the summary (which lists the
     * errors by kind with an example each).
     *
     * @param r a run for which {@link #noRequestSucceeded} holds
     * @return e.g. {@code no request succeeded (5 of 5 failed: connection 5); see the errors above and
     *         runs/x/requests.jsonl}
     */
    public static String noRequestSucceededMessage(RunResult r) {
        StatsReport s = r.overall();
        String kinds = s.errorsByKind().entrySet().stream().map(e -> e.getKey().id() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        if (s.failed() == 0) { // every request was cancelled: there is no error to point at
            return String.format(Locale.ROOT, "no request succeeded (%d of %d cancelled: see the notices above for why);"
                    + " see %s", s.cancelled(), s.sent(), r.runDirectory().resolve(RunLayout.REQUESTS_JSONL));
        }
        return String.format(Locale.ROOT, "no request succeeded (%d of %d failed%s%s); see the errors above and %s",
                s.failed(), s.sent(), kinds.isEmpty() ? "" : ": " + kinds,
                s.cancelled() > 0 ? ", " + s.cancelled() + " cancelled" : "",
                r.runDirectory().resolve(RunLayout.REQUESTS_JSONL));
    }

    /** The first error message of each kind in the run's requests.jsonl, to show what went wrong. */
    private static Map<ErrorKind, String> errorExamples(RunResult r) {
        Map<ErrorKind, String> m = new EnumMap<>(ErrorKind.class);
        for (RunResult.StepOutcome s : r.steps()) {
            if (s.stats() != null) {
                s.stats().errorExamples().forEach(m::putIfAbsent);
            }
        }
        return m;
    }

    private static void printLoad(LoadResult lr, org.latencylab.engine.run.ExperimentSpec spec, PrintWriter out) {
        LoadTotals t = lr.totals();
        out.println(loadLine(loadShape(t, spec), t.mode() == org.latencylab.engine.load.LoadMode.OPEN,
                t.achievedRateRps(), t.goodputRps(), t.goodput(), t.measuredSeconds(), t.dropped(), t.excluded(),
                t.stopReason()));
        if (t.ttft() != null && t.ttft().count() > 0) {
            out.printf(Locale.ROOT, "P99−P50 jitter: TTFT %s, E2E %s (from the intended start)%n",
                    Units.ms(t.ttft().jitterMs()), Units.ms(t.e2e().jitterMs()));
        } else if (t.e2e() != null && t.e2e().count() > 0) {
            out.printf(Locale.ROOT, "P99−P50 jitter: E2E %s (from the intended start)%n", Units.ms(t.e2e().jitterMs()));
        }
    }

    /**
     * @param t    a load step's totals
     * @param spec the step's spec, or null when unknown
     * @return what the step held to: {@code open loop: target 40.0 req/s}, or for a closed loop, which has no target
     *         rate, its concurrency: {@code closed loop, 64 streams} (with the think time when there is one)
     */
    static String loadShape(LoadTotals t, org.latencylab.engine.run.ExperimentSpec spec) {
        org.latencylab.engine.load.LoadSpec l = spec instanceof org.latencylab.engine.load.LoadSpec ls ? ls : null;
        return loadShape(t.mode() == org.latencylab.engine.load.LoadMode.OPEN, t.targetRateRps(),
                l == null || l.concurrency() == null ? 0 : l.concurrency(), l == null ? null : l.thinkTime());
    }

    /**
     * What a load step held to, from its figures (the console's live result and the HTML report's {@code run.json}
     * alike).
     *
     * @param open          whether the step was an open loop
     * @param targetRateRps an open loop's target rate, requests/s (ignored for a closed loop)
     * @param streams       a closed loop's concurrency, or 0 (or less) when unknown
     * @param thinkTime     a closed loop's think time, or null (or zero) for none
     * @return {@code open loop: target 40.0 req/s}, {@code closed loop, 64 streams},
     *         {@code closed loop, 2 streams, think time 50.0 ms} or {@code closed loop}
     */
    static String loadShape(boolean open, double targetRateRps, int streams, java.time.Duration thinkTime) {
        if (open) {
            return String.format(Locale.ROOT, "open loop: target %.1f req/s", targetRateRps);
        }
        if (streams > 0) {
            boolean think = thinkTime != null && !thinkTime.isZero();
            return "closed loop, " + streams + (streams == 1 ? " stream" : " streams")
                    + (think ? ", think time " + Units.ms(thinkTime.toNanos() / 1e6) : "");
        }
        return "closed loop";
    }

    /**
     * A load step's line, as the console and the HTML report write it. Achieved rate and goodput count sends in the
     * measured scheduling window ({@link LoadTotals}), not the step's wall span that the {@link #requestsLine}
     * divides by (that one also runs until the last measured response ended).
     *
     * @param shape           what the step held to ({@link #loadShape(boolean, double, int, java.time.Duration)})
     * @param open            whether the step was an open loop (its shape is followed by a comma, a closed loop's
     *                        by a colon)
     * @param achievedRps     achieved send rate in the measured window, requests/s
     * @param goodputRps      goodput, requests/s: per second of the measured window, or of a longer span when the
     *                        schedule stopped early and the window's requests ended after it ({@code LoadTotals})
     * @param goodput         the requests counted in goodput; with {@code goodputRps} it gives the span, which the
     *                        line names when it is not the measured window
     * @param measuredSeconds length of the measured window, seconds
     * @param dropped         arrivals not sent (dropped at a cap)
     * @param excluded        requests of the warmup and cooldown, not in the statistics
     * @param stopReason      why the step stopped, or null (or empty) when not known
     * @return one line without a line break, rates with one decimal
     */
    static String loadLine(String shape, boolean open, double achievedRps, double goodputRps, long goodput,
                           double measuredSeconds, long dropped, long excluded, String stopReason) {
        double goodputSeconds = goodputRps > 0 ? goodput / goodputRps : measuredSeconds;
        String span = Math.abs(goodputSeconds - measuredSeconds) < 0.05 ? ""
                : String.format(Locale.ROOT, " (goodput over %.1f s: until the window's last request ended)",
                        goodputSeconds);
        return String.format(Locale.ROOT, "%s%s achieved %.1f req/s and goodput %.1f req/s in the %.1f s"
                        + " measured window (warmup/cooldown excluded)%s; %d dropped, %d excluded (warmup/cooldown)%s",
                shape, open ? "," : ":", achievedRps, goodputRps, measuredSeconds, span, dropped, excluded,
                stopReason == null || stopReason.isEmpty() ? "" : "; stopped: " + stopReason);
    }

    /**
     * A step's request counts, with their rates when any request succeeded, as the console and the HTML report write
     * them. The rates divide by the wall span of the step's measured requests: the first (intended) start to the
     * last response end.
     *
     * @param sent             measured requests sent
     * @param ok               of them, succeeded
     * @param failed           of them, failed
     * @param cancelled        of them, cancelled (still in flight when the step stopped)
     * @param requestsPerS     requests per second over the wall span
     * @param outputTokensPerS output tokens per second over the wall span
     * @param wallSpanSeconds  the wall span, seconds; when it is not a finite number (a summary that does not
     *                         carry it) the rates are given without it
     * @return e.g. {@code requests: 27 sent, 21 ok, 0 failed, 6 cancelled; 12.1 req/s and 1409 output tokens/s over
     *         2.24 s from the first start to the last response end}; only the counts when none succeeded
     */
    static String requestsLine(long sent, long ok, long failed, long cancelled, double requestsPerS,
                               double outputTokensPerS, double wallSpanSeconds) {
        String counts = countsLine(sent, ok, failed, cancelled);
        if (ok == 0) {
            return counts;
        }
        return counts + String.format(Locale.ROOT, "; %.1f req/s and %.0f output tokens/s", requestsPerS,
                outputTokensPerS) + (Double.isFinite(wallSpanSeconds) ? String.format(Locale.ROOT,
                " over %.2f s from the first start to the last response end", wallSpanSeconds) : "");
    }

    /**
     * A step's request counts alone (a step judged per part, or one where nothing succeeded, shows no pooled rate).
     *
     * @param sent      measured requests sent
     * @param ok        of them, succeeded
     * @param failed    of them, failed
     * @param cancelled of them, cancelled
     * @return e.g. {@code requests: 20 sent, 0 ok, 0 failed, 20 cancelled}
     */
    static String countsLine(long sent, long ok, long failed, long cancelled) {
        return String.format(Locale.ROOT, "requests: %d sent, %d ok, %d failed, %d cancelled", sent, ok, failed,
                cancelled);
    }

    /**
     * The note under a step's percentiles when some of its requests were cancelled, as the console and the HTML
     * report write it.
     *
     * @param cancelled the step's cancelled measured requests
     * @return the note without the console's {@code note: } prefix, or empty when {@code cancelled} is 0 or less
     */
    static String cancelledNote(long cancelled) {
        if (cancelled <= 0) {
            return "";
        }
        return String.format(Locale.ROOT, "%s left out of the percentiles above; %s still in flight when the step"
                        + " stopped (the latest sent and any that had been waiting long), so the tail may be"
                        + " understated", cancelled == 1 ? "the cancelled request is"
                        : "the " + cancelled + " cancelled requests are", cancelled == 1 ? "it was" : "they were");
    }

    /**
     * Prints the percentile table, tier, SLOs and errors of one set of statistics.
     *
     * @param s   statistics
     * @param out where to print
     */
    public static void printStats(StatsReport s, PrintWriter out) {
        printStats(s, Map.of(), true, out);
    }

    private static void printCounts(StatsReport s, Map<ErrorKind, String> examples, PrintWriter out) {
        out.println(countsLine(s.sent(), s.succeeded(), s.failed(), s.cancelled()));
        printErrors(s, examples, out);
    }

    /** What an SLO line says when no request could be judged (every one was cancelled); the HTML report too. */
    static final String NO_REQUEST_TO_JUDGE = "no request to judge (all cancelled)";

    /** One line per SLO: its compliance, or that no request could be judged (every one was cancelled). */
    private static void printSlos(StatsReport s, PrintWriter out) {
        for (SloResult slo : s.sloResults()) {
            String head = String.format(Locale.ROOT, "SLO %s P%s ≤ %s: ", MetricNames.name(slo.slo().metric()),
                    trim(slo.slo().percentile()), Units.threshold(Nanos.toMillis(slo.slo().thresholdNanos())));
            out.println(head + (slo.judged() == 0 ? NO_REQUEST_TO_JUDGE
                    : String.format(Locale.ROOT, "%s of %d requests met it", Units.percent(slo.complianceRate()),
                    slo.judged())) + " → " + (slo.passed() ? "pass" : "FAIL"));
        }
    }

    private static void printErrors(StatsReport s, Map<ErrorKind, String> examples, PrintWriter out) {
        for (var e : s.errorsByKind().entrySet()) {
            String ex = examples.get(e.getKey());
            out.println("errors: " + e.getKey().id() + " " + e.getValue() + " ("
                    + ErrorParty.of(e.getKey(), ex).words() + ")" + (ex == null ? "" : " — e.g. " + ex));
        }
        String resent = resentLine(s);
        if (resent != null) {
            out.println(resent);
        }
        String connects = connectsLine(s.connectedRequests(), s.sent(),
                s.connectedRequests() == 0 ? 0 : Nanos.toMillis(s.connectNanosTotal()) / s.connectedRequests());
        if (connects != null) {
            out.println(connects);
        }
    }

    /**
     * @param connected requests that opened their connection inside their measured time
     * @param sent      requests sent
     * @param meanMs    their mean connect time, ms
     * @return e.g. {@code connects: 200 of 200 requests opened their connection inside their measured time (...)},
     *         or null when none did; the HTML report says the same
     */
    public static String connectsLine(long connected, long sent, double meanMs) {
        if (connected == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "connects: %d of %d requests opened their connection inside their measured"
                + " time (connect %s on average, inside their TTFT and E2E)", connected, sent, Units.ms(meanMs));
    }

    /**
     * The line that counts re-sends ({@link org.latencylab.engine.api.Resend}); the HTML report and the window say
     * the same.
     *
     * @param s statistics
     * @return e.g. {@code re-sent: 12 of 625 requests re-sent after the server closed a pooled connection (...)}, or
     *         null when no request was re-sent
     */
    public static String resentLine(StatsReport s) {
        return resentLine(s.resent(), s.sent(), Nanos.toMillis(s.resendWastedNanos()));
    }

    /**
     * @param resent   requests re-sent
     * @param sent     requests sent
     * @param wastedMs the failed attempts' time, summed, ms
     * @return the line of {@link #resentLine(StatsReport)}, or null when {@code resent} is 0
     */
    public static String resentLine(long resent, long sent, double wastedMs) {
        if (resent == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "re-sent: %d of %d requests re-sent after the server closed a pooled"
                + " connection (not errors: each was sent once more on a new connection, and its TTFT and E2E count"
                + " from that send; %s lost on the closed connections in all)", resent, sent, Units.ms(wastedMs));
    }

    /**
     * Prints the percentile table, tier, SLOs and errors of one set of statistics.
     *
     * @param s        statistics
     * @param examples an example message per error kind (may be empty)
     * @param openLoop whether to show latency from the intended start too (load steps; in a closed loop the
     *                 intended start is the send time up to the client's dispatch cost, shown as dispatch lag)
     * @param out      where to print
     */
    public static void printStats(StatsReport s, Map<ErrorKind, String> examples, boolean openLoop, PrintWriter out) {
        printStats(s, examples, openLoop, false, out);
    }

    private static void printStats(StatsReport s, Map<ErrorKind, String> examples, boolean openLoop,
                                   boolean clientSaturated, PrintWriter out) {
        if (s.succeeded() == 0) {
            printCounts(s, examples, out);
            printSlos(s, out); // an SLO with no successful request is still judged (and fails): say so
            return;
        }
        List<String> shown = METRICS.stream().filter(m -> {
            MetricSummary ms = s.summaries().get(m);
            return ms != null && ms.count() > 0 && (openLoop || !m.endsWith("_from_intended"));
        }).toList();
        // the metric names of the charts and the HTML report (MetricNames), in a column as wide as the longest
        int width = Math.max(16, shown.stream().mapToInt(m -> MetricNames.name(m).length()).max().orElse(0));
        String row = "%-" + width + "s %7s %10s %10s %10s %10s %10s %9s%n";
        out.printf(Locale.ROOT, row, "metric", "n", "P50", "P90", "P95", "P99", "P99.9", "max");
        boolean flagged = false;
        for (String m : shown) {
            MetricSummary ms = s.summaries().get(m);
            String[] cells = new String[5];
            double[] ps = {50, 90, 95, 99, 99.9};
            for (int i = 0; i < ps.length; i++) {
                var p = ms.p(ps[i]);
                boolean thin = p != null && !p.enoughSamples();
                flagged |= thin;
                cells[i] = Units.ms(ms.pMillis(ps[i])) + (thin ? "*" : "");
            }
            out.printf(Locale.ROOT, row, MetricNames.name(m), Long.toString(ms.count()),
                    cells[0], cells[1], cells[2], cells[3], cells[4], Units.ms(ms.maxMillis()));
        }
        if (flagged) {
            out.println("* fewer than 10 samples above this percentile: an estimate near the maximum, not a measured tail");
        }
        MetricSummary tierMetric = s.summaries().get(s.tierMetric());
        if (s.tier() == null || tierMetric == null || tierMetric.count() == 0) {
            out.println("no tier: no " + MetricNames.name(s.tierMetric()) + " samples"
                    + ("ttft".equals(s.tierMetric()) ? " (TTFT is not measured for non-streaming requests; set"
                    + " tierMetric: e2e to judge them)" : ""));
        }
        if (s.tier() != null && tierMetric != null && tierMetric.count() > 0) {
            var p95 = tierMetric.p(95.0);
            String ci = p95.meetsConfidence()
                    ? String.format(Locale.ROOT, "95%% CI %s–%s", Units.ms(p95.lowerMillis()), Units.ms(p95.upperMillis()))
                    : String.format(Locale.ROOT, "interval %s–%s covers only %s %%", Units.ms(p95.lowerMillis()),
                    Units.ms(p95.upperMillis()),
                    org.latencylab.engine.stats.PercentileEstimate.coveragePercent(p95.confidence(), p95.targetConfidence()));
            // the statement of the HTML report and the window (TierStatement), then the P95's interval
            out.println("tier: " + TierStatement.of(s) + (clientSaturated ? " " + TierStatement.SATURATED : "")
                    + "; P95 " + ci);
        }
        printSlos(s, out);
        // StatsReport's rates divide by the wall span: first (intended) start to the last end of these requests
        out.println(requestsLine(s.sent(), s.succeeded(), s.failed(), s.cancelled(), s.requestsPerSecond(),
                s.outputTokensPerSecond(), Nanos.toSeconds(s.wallSpanNanos())));
        if (s.cancelled() > 0) {
            out.println("note: " + cancelledNote(s.cancelled()));
        }
        printErrors(s, examples, out);
        for (String w : s.warnings()) {
            if (!w.contains("samples above it")) { // those are the starred cells above
                out.println("warning: " + w);
            }
        }
    }

    private static void printSweep(SweepRunner.SweepResult sw, PrintWriter out) {
        out.printf(Locale.ROOT, "%-10s %5s %23s %23s%n", "context", "ok", "P50 TTFT (interval)", "P95 TTFT (interval)");
        boolean thin = false;
        for (SweepRunner.SweepPoint p : sw.points()) {
            thin |= !p.p50Measured() || !p.p95Measured();
            out.printf(Locale.ROOT, "%-10s %5s %23s %23s%n", p.contextTokens() + " tok", p.succeeded() + "/" + p.requests(),
                    Units.ms(p.p50TtftMs()) + " (" + Units.ms(p.p50LowerMs()) + "–" + Units.ms(p.p50UpperMs()) + ")"
                            + (p.p50Measured() ? "" : "*"),
                    Units.ms(p.p95TtftMs()) + " (" + Units.ms(p.p95LowerMs()) + "–" + Units.ms(p.p95UpperMs()) + ")"
                            + (p.p95Measured() ? "" : "*"));
        }
        if (thin) {
            out.println("* fewer than 10 samples above this percentile: an estimate near the maximum, and its interval"
                    + " covers less than 95 %");
        }
        out.println("fit: " + sw.fitMessage());
        if (sw.fitP50() != null) {
            out.println("     " + SweepRunner.caveat(sw.fitP50().withOffset()));
        }
        if (sw.fitP95() != null) {
            var f = sw.fitP95();
            boolean quantile = f.estimator() == org.latencylab.engine.fit.PowerLawFit.Estimator.LOG_QUANTILE;
            out.printf(Locale.ROOT, "fit P95%s: P95 %s (α %s95%% CI %.3f–%.3f), %s %.4f%n",
                    quantile ? " (quantile regression over every request)" : " (per-length P95)",
                    f.formula("TTFT", "ms"),
                    quantile ? "bootstrap " : "", f.alphaLower(), f.alphaUpper(), quantile ? "pseudo-R¹" : "R²",
                    f.rSquared());
            if (quantile) {
                out.println("     pseudo-R¹ = 1 − weighted absolute residuals of the fit ÷ those of a constant"
                        + " (Koenker–Machado 1999): 1 is a perfect fit, 0 no better than one P95 for all lengths");
            }
        }
        String centre = sw.fitP50() != null && sw.fitP50().withOffset() ? "mean" : "P50"; // an offset fit is the mean
        for (SweepRunner.Extrapolation e : sw.extrapolations()) {
            out.printf(Locale.ROOT, "extrapolated to %d tokens (a model, not a measurement): %s TTFT %s (95%% confidence"
                            + " band of the fitted curve %s–%s), P95 %s%n", e.contextTokens(), centre,
                    Units.ms(e.p50TtftMs()), Units.ms(e.p50LowerMs()), Units.ms(e.p50UpperMs()), Units.ms(e.p95TtftMs()));
        }
    }

    static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
