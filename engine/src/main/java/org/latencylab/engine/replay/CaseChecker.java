package org.latencylab.engine.replay;

import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.trust.HiccupMeter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one {@link ConformanceCase} through the real {@link LlmClient} against a {@link ReplayServer} and
 * compares what the client measured with the case's {@code expect} block.
 *
 * <p>Rules (from the cases README): a time {@code *_ms} must lie in {@code [expected, expected + tolerance]}
 * where the tolerance is {@code expect.tolerance_ms} (default 40 ms), because a client can only measure an event
 * later than the server wrote it; {@code tpot_ms} is a quotient of two such times whose delays partly cancel,
 * so it is checked as {@code expected ± 5 ms}; {@code ttfb_ms_max} is an upper bound (measured to the response
 * headers), {@code e2e_ms_min} a lower bound; counts and texts must match exactly. An expectation key this
 * checker does not know fails the case, so a new key is never silently ignored.
 *
 * <p>A late server is not a late client (cases README): the {@link ReplayServer} records when it actually wrote each
 * part, and a timing miss that the server's own lateness explains is reported as such ("server wrote part 3
 * 42 ms late: not judged on timing"), the case is run again, and only a miss the server does not explain fails it.
 * Likewise a timing miss no larger than the longest stall of this whole process during the case (a
 * {@link HiccupMeter} runs beside it: the machine or the JVM stood still, not the stream handling) is run again,
 * and if it keeps happening the failure says so.
 *
 * <p>Thread-safe: every {@link #check} uses its own server and client.
 */
public final class CaseChecker {
    /** Default tolerance on times, milliseconds (cases README). */
    public static final double DEFAULT_TOLERANCE_MS = 40;
    /** Tolerance on TPOT, milliseconds (cases README), applied on both sides. */
    public static final double TPOT_TOLERANCE_MS = 5;
    /** Runs of a case at most while the replay server is late, or this process stalls, every time. */
    public static final int SERVER_LATE_TRIES = 3;

    private final ClientOptions baseOptions;

    /** A checker using {@link ClientOptions#DEFAULTS} (retries taken from each case). */
    public CaseChecker() {
        this(ClientOptions.DEFAULTS);
    }

    /** @param baseOptions client options for every case; {@code maxRetries} is replaced by the case's */
    public CaseChecker(ClientOptions baseOptions) {
        this.baseOptions = baseOptions;
        warmUpOnce();
    }

    private static final java.util.concurrent.atomic.AtomicBoolean WARMED_UP =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Sends one request through a replay server and the client before the first case, so the first case does
     * not measure the JVM loading the HTTP server and client classes (tens of milliseconds on a cold JVM).
     */
    private static void warmUpOnce() {
        if (!WARMED_UP.compareAndSet(false, true)) {
            return;
        }
        byte[] body = ("data: {\"choices\":[{\"delta\":{\"content\":\"warm\"},\"finish_reason\":\"stop\"}]}\n\n"
                + "data: [DONE]\n\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ConformanceCase warm = new ConformanceCase("warm-up", "warm-up", "", "openai-chat", 0,
                List.of(new ConformanceCase.ScriptedResponse(200, Map.of("Content-Type", "text/event-stream"), null,
                        List.of(new ConformanceCase.Part(0, body)))), Map.of());
        try (LlmClient client = new LlmClient(ClientOptions.DEFAULTS, name -> null);
             ReplayServer server = ReplayServer.start(warm)) {
            client.execute(Endpoint.of("warm-up", Protocol.OPENAI_CHAT, server.baseUrl(), "demo"),
                    GenerationRequest.streaming("warm up", 4), new RequestTicket(0, "warm-up", -1, System.nanoTime()));
        } catch (IOException | RuntimeException e) {
            // a failed warm-up only makes the first case slower
        }
    }

    /**
     * Runs and judges one case. Never throws for a misbehaving client: an unexpected exception becomes a
     * FAILED result naming it. When the replay server itself wrote a part late enough to explain a timing miss
     * (this process was paused, see {@link ReplayServer#served()}), the case is run again, up to
     * {@value #SERVER_LATE_TRIES} times in all; if the server is late every time, the result is
     * {@link CaseResult.Status#SERVER_LATE}: not judged on timing, never a pass.
     *
     * @param c the case
     * @return the verdict; SKIPPED when the case's protocol is unknown or has no adapter
     */
    public CaseResult check(ConformanceCase c) {
        CaseResult r = null;
        for (int i = 0; i < SERVER_LATE_TRIES; i++) {
            HiccupMeter meter = HiccupMeter.start();
            Attempt a = checkOnce(c);
            double stallMs = meter.stop().getMaxValue() / 1e6;
            r = a.result();
            boolean stalled = r.status() == CaseResult.Status.FAILED && a.timingOnlyExcessMs() > 0
                    && stallMs >= a.timingOnlyExcessMs();
            if (stalled) {
                // the whole process stood still at least as long as the client was late: not evidence about the
                // client's code; run again, and say so if it keeps happening
                List<String> m = new ArrayList<>(r.mismatches());
                m.add(String.format(Locale.ROOT, "this process stalled up to %.1f ms during the case (hiccup meter):"
                        + " the machine or the JVM, not the stream handling, held the client back", stallMs));
                r = new CaseResult(r.name(), CaseResult.Status.FAILED, m, null);
            } else if (r.status() != CaseResult.Status.SERVER_LATE) {
                return r;
            }
        }
        return r;
    }

    /**
     * One run of a case.
     *
     * @param result             its verdict
     * @param timingOnlyExcessMs when every mismatch is a timing miss on the late side: the largest miss beyond its
     *                           window, ms; else 0
     */
    private record Attempt(CaseResult result, double timingOnlyExcessMs) {
    }

    private Attempt checkOnce(ConformanceCase c) {
        Optional<Protocol> protocol = c.protocol();
        try (LlmClient client = new LlmClient(baseOptions.withMaxRetries(c.maxRetries()), name -> null)) {
            if (protocol.isEmpty() || !client.supports(protocol.get())) {
                return new Attempt(new CaseResult(c.name(), CaseResult.Status.SKIPPED, List.of(),
                        "no adapter for protocol '" + c.protocolId() + "'"), 0);
            }
            try (ReplayServer server = ReplayServer.start(c)) {
                Endpoint endpoint = Endpoint.of(c.name(), protocol.get(), server.baseUrl(), "demo");
                GenerationRequest request = GenerationRequest.streaming("Say something short.", 64);
                RequestRecord r = client.execute(endpoint, request, new RequestTicket(0, c.name(), -1,
                        System.nanoTime()));
                Judgement j = judge(c.expect(), r, server.served());
                if (!j.clientMismatches().isEmpty()) {
                    List<String> all = new ArrayList<>(j.clientMismatches());
                    all.addAll(j.serverLate());
                    return new Attempt(new CaseResult(c.name(), CaseResult.Status.FAILED, all, null),
                            j.timingOnlyExcessMs());
                }
                return new Attempt(j.serverLate().isEmpty()
                        ? new CaseResult(c.name(), CaseResult.Status.PASSED, List.of(), null)
                        : new CaseResult(c.name(), CaseResult.Status.SERVER_LATE, j.serverLate(), null), 0);
            }
        } catch (IOException | RuntimeException e) {
            return new Attempt(new CaseResult(c.name(), CaseResult.Status.FAILED,
                    List.of("could not run the case: " + e), null), 0);
        }
    }

    /**
     * The verdict on one measured request, with timing misses the server explains kept apart.
     *
     * @param clientMismatches expectations the client missed: the case fails
     * @param serverLate       timing expectations not judged because the replay server wrote a part late enough to
     *                         explain the miss, e.g. {@code "ttft_ms: server wrote part 3 42.0 ms late: not judged on
     *                         timing (measured 448.1, expected 400.0..440.0)"}
     * @param timingOnlyExcessMs when every client mismatch is a timing miss on the late side, the largest miss beyond
     *                         its window widened by the server's own lateness (what the client added), ms; else 0
     */
    record Judgement(List<String> clientMismatches, List<String> serverLate, double timingOnlyExcessMs) {
    }

    /**
     * Compares a measured record with expectations, attributing a timing miss to the server when the replay
     * server wrote a part late by at least the amount of the miss. Only misses on the late side can be the
     * server's: a client cannot see a part before it was written.
     *
     * @param expect expectation key → value (see the cases README)
     * @param r      the measured record (absolute {@code System.nanoTime()} stamps, same process as the server)
     * @param served what the replay server did ({@link ReplayServer#served()}); empty means "on time"
     * @return the judgement
     */
    static Judgement judge(Map<String, Object> expect, RequestRecord r, List<ReplayServer.Served> served) {
        List<String> mismatches = compare(expect, r);
        List<String> client = new ArrayList<>();
        List<String> server = new ArrayList<>();
        double clientExcess = 0;
        boolean onlyLateTiming = true;
        double tol = expect.get("tolerance_ms") instanceof Number n ? n.doubleValue() : DEFAULT_TOLERANCE_MS;
        for (String m : mismatches) {
            String key = m.substring(0, Math.max(0, m.indexOf(':')));
            double measured = switch (key) {
                case "ttft_ms" -> ms(r.ttftNanos());
                case "first_content_ms" -> ms(r.timeToFirstContentNanos());
                case "e2e_ms" -> ms(r.e2eNanos());
                case "tpot_ms" -> ms(r.tpotNanos());
                case "ttfb_ms_max" -> ms(r.ttfbNanos());
                default -> Double.NaN;
            };
            if (Double.isNaN(measured)) {
                client.add(m);
                onlyLateTiming = false;
                continue;
            }
            double want = num(expect.get(key));
            double upper = switch (key) {
                case "tpot_ms" -> want + TPOT_TOLERANCE_MS;
                case "ttfb_ms_max" -> want;
                default -> want + tol;
            };
            // the latest part due by the time the event was due at the latest: the one that carried it or an
            // earlier one (a late earlier part cannot hold back a later one, whose deadline is absolute)
            long dueBy = switch (key) {
                case "tpot_ms" -> Long.MAX_VALUE; // a quotient over the whole stream: any part may move it
                case "ttfb_ms_max" -> r.sendNanos(); // headers go out at once, before any part
                default -> r.sendNanos() + (long) (upper * 1e6);
            };
            Late late = latest(served, dueBy, r);
            double excess = measured - upper;
            if (excess > 0 && late != null && late.lateMs() >= excess) {
                server.add(String.format(Locale.ROOT, "%s: server wrote %s %.1f ms late%s: not judged on timing (%s)",
                        key, late.where(), late.lateMs(), late.note(), m.substring(key.length() + 2)));
            } else {
                if (excess > 0) {
                    // what the client added beyond its tolerance after the server's own lateness
                    clientExcess = Math.max(clientExcess, excess - (late == null ? 0 : late.lateMs()));
                } else {
                    onlyLateTiming = false;
                }
                client.add(late == null || late.lateMs() < 0.05 ? m : String.format(Locale.ROOT,
                        "%s (the server wrote %s %.1f ms late%s, which does not explain it)", m, late.where(),
                        late.lateMs(), late.note()));
            }
        }
        return new Judgement(client, server, onlyLateTiming && !client.isEmpty() ? clientExcess : 0);
    }

    /**
     * The part, among those due by {@code dueBy}, written last relative to its due time (the latest due wins ties).
     * For the request that answered the client's last attempt, the time the server took to read the request after
     * the client had written it ({@code at_ms} counts from the read) is the server's too and is added.
     */
    private static Late latest(List<ReplayServer.Served> served, long dueBy, RequestRecord r) {
        Late worst = null;
        long written = r.requestSentNanos() != RequestRecord.UNSET ? r.requestSentNanos() : r.sendNanos();
        for (int i = 0; i < served.size(); i++) {
            ReplayServer.Served s = served.get(i);
            long readLate = i == served.size() - 1 ? Math.max(0, s.readNanos() - written) : 0;
            for (int k = 0; k < s.dueNanos().length; k++) {
                if (s.dueNanos()[k] - readLate > dueBy) { // when it would have been due after an on-time read
                    break;
                }
                long lateNanos = s.lateNanos(k);
                if (lateNanos < 0) {
                    continue;
                }
                lateNanos += readLate;
                String where = (served.size() > 1 ? "response " + (s.request() + 1) + " " : "") + "part " + (k + 1);
                String note = readLate >= 1_000_000 ? String.format(Locale.ROOT, " (it read the request %.1f ms after"
                        + " the client had sent it)", readLate / 1e6) : "";
                if (worst == null || lateNanos / 1e6 >= worst.lateMs()) {
                    worst = new Late(where, lateNanos / 1e6, note);
                }
            }
        }
        return worst;
    }

    private record Late(String where, double lateMs, String note) {
    }

    /**
     * Compares a measured record with expectations.
     *
     * @param expect expectation key → value (see the cases README)
     * @param r      the measured record
     * @return one line per mismatch; empty when all hold
     */
    static List<String> compare(Map<String, Object> expect, RequestRecord r) {
        List<String> out = new ArrayList<>();
        double tol = expect.get("tolerance_ms") instanceof Number n ? n.doubleValue() : DEFAULT_TOLERANCE_MS;
        for (Map.Entry<String, Object> e : expect.entrySet()) {
            String key = e.getKey();
            Object want = e.getValue();
            switch (key) {
                case "tolerance_ms" -> { }
                case "outcome" -> equal(out, key, want, r.outcome().id());
                case "error_kind" -> equal(out, key, want, r.errorKind() == null ? "none" : r.errorKind().id());
                case "ttft_ms" -> window(out, key, want, ms(r.ttftNanos()), tol);
                case "first_content_ms" -> window(out, key, want, ms(r.timeToFirstContentNanos()), tol);
                case "e2e_ms" -> window(out, key, want, ms(r.e2eNanos()), tol);
                case "tpot_ms" -> {
                    double w = num(want);
                    double m = ms(r.tpotNanos());
                    if (Double.isNaN(m) || m < w - TPOT_TOLERANCE_MS || m > w + TPOT_TOLERANCE_MS) {
                        out.add(key + ": expected " + fmt(w - TPOT_TOLERANCE_MS) + ".." + fmt(w + TPOT_TOLERANCE_MS)
                                + ", measured " + fmt(m));
                    }
                }
                case "ttfb_ms_max" -> {
                    double m = ms(r.ttfbNanos());
                    if (Double.isNaN(m) || m > num(want)) {
                        out.add(key + ": expected <= " + fmt(num(want)) + ", measured " + fmt(m));
                    }
                }
                case "e2e_ms_min" -> {
                    double m = ms(r.e2eNanos());
                    if (Double.isNaN(m) || m < num(want)) {
                        out.add(key + ": expected >= " + fmt(num(want)) + ", measured " + fmt(m));
                    }
                }
                case "output_tokens" -> equal(out, key, want, (long) r.outputTokens());
                case "input_tokens" -> equal(out, key, want, (long) r.inputTokens());
                case "chunks" -> equal(out, key, want, (long) r.tokens().size());
                case "output_text" -> equal(out, key, want, r.outputText());
                case "output_text_length" -> equal(out, key, want,
                        (long) r.outputText().codePointCount(0, r.outputText().length()));
                case "reasoning_text" -> equal(out, key, want, r.reasoningText());
                case "attempts" -> equal(out, key, want, (long) r.attempts());
                case "rate_limited" -> equal(out, key, want, (long) r.rateLimitedAttempts());
                default -> out.add(key + ": unknown expectation key (this checker cannot judge it)");
            }
        }
        if (!out.isEmpty() && r.errorMessage() != null) {
            out.add("client said: " + r.outcome().id() + (r.errorKind() == null ? "" : "/" + r.errorKind().id())
                    + " " + r.errorMessage());
        }
        return out;
    }

    private static void window(List<String> out, String key, Object want, double measured, double tol) {
        double w = num(want);
        if (Double.isNaN(measured) || measured < w || measured > w + tol) {
            out.add(key + ": expected " + fmt(w) + ".." + fmt(w + tol) + ", measured " + fmt(measured));
        }
    }

    private static void equal(List<String> out, String key, Object want, Object measured) {
        boolean same = want instanceof Number n && measured instanceof Long l
                ? n.doubleValue() == l.doubleValue()
                : String.valueOf(want).equals(String.valueOf(measured));
        if (!same) {
            out.add(key + ": expected " + quote(want) + ", measured " + quote(measured));
        }
    }

    private static String quote(Object o) {
        return o instanceof String s ? "\"" + s + "\"" : String.valueOf(o);
    }

    private static double num(Object o) {
        if (o instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException("expected a number, was " + quote(o));
    }

    private static double ms(long nanos) {
        return nanos < 0 ? Double.NaN : Nanos.toMillis(nanos);
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "nothing" : String.format(Locale.ROOT, "%.1f", v);
    }
}
