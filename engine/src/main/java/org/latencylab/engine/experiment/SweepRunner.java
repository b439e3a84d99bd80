package org.latencylab.engine.experiment;

import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;
import org.latencylab.engine.step.ClosedLoop;
import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.fit.PowerLawFit;
import org.latencylab.engine.fit.PowerLawBootstrap;
import org.latencylab.engine.fit.SweepFits;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.Summaries;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link SweepSpec}: for each context length (in the order given) a closed loop of
 * {@code requestsPerLength} requests labelled {@code <label>-<tokens>}, then fits {@code TTFT = a·n^α}
 * (or {@code c + a·n^α}) to the TTFT of every successful request, in milliseconds: the median curve and the P95
 * curve with their intervals ({@link SweepFits}).
 * Fewer than 3 lengths (4 with offset) give a notice and no fit. Stateless and thread-safe.
 */
public final class SweepRunner implements StepRunner<SweepSpec> {
    /**
     * What the α intervals of a sweep fit do not cover, shown under every fit (console, report): the intervals are
     * sampling error under the model; a wrong model (a fixed cost the pure law cannot follow) biases α itself.
     */
    private static final String FIT_CAVEAT = "α's intervals cover sampling error only: a fixed per-request cost that"
            + " a·n^α cannot follow (network, client, the server's own overhead) pulls α low; with 4 or more context"
            + " lengths, fitOffset: true (--fit-offset on the command line) fits c + a·n^α and separates it";

    /**
     * @param withOffset whether the fit had the offset c
     * @return for a pure law, that a fixed per-request cost pulls α low and how fitOffset separates it; for an offset
     *         fit, what its intervals still do not cover
     */
    public static String caveat(boolean withOffset) {
        return withOffset ? "α's intervals cover sampling error only; with an offset c fitted, the law's three"
                + " parameters rest on few context lengths, so read a wide interval as 'not pinned down'" : FIT_CAVEAT;
    }

    @Override
    public StepResult run(SweepSpec spec, String label, StepContext ctx) throws InterruptedException {
        List<SweepPoint> points = new ArrayList<>();
        List<RequestRecord> measured = new ArrayList<>();
        if (spec.warmup() > 0) {
            int shortest = spec.contextTokens().stream().mapToInt(Integer::intValue).min().orElse(1);
            ClosedLoop.requests(spec.warmup(), spec.concurrency(), label + "-warmup", shortest,
                    i -> new GenerationRequest(ctx.prompt(shortest, spec.cold()), shortest, spec.maxOutputTokens(),
                            true, Map.of()), false, ctx);
        }
        for (int n : spec.contextTokens()) {
            if (ctx.cancelled()) {
                break;
            }
            String stepLabel = label + "-" + n;
            List<RequestRecord> recs = ClosedLoop.requests(spec.requestsPerLength(), spec.concurrency(), stepLabel, n,
                    i -> new GenerationRequest(ctx.prompt(n, spec.cold()), n, spec.maxOutputTokens(), true, Map.of()),
                    true, ctx);
            points.add(point(n, recs));
            measured.addAll(recs);
        }
        List<SweepPoint> usable = points.stream().filter(p -> p.succeeded() > 0).toList();
        PowerLawFit p50 = null;
        PowerLawFit p95 = null;
        String message;
        int needed = spec.fitOffset() ? 4 : 3;
        if (usable.size() < needed) {
            message = "no power-law fit: it needs at least " + needed + " context lengths with successful requests, got "
                    + usable.size();
            ctx.notice(message);
        } else {
            List<RequestRecord> ok = measured.stream().filter(RequestRecord::succeeded)
                    .filter(r -> r.ttftNanos() > 0 && r.contextTokens() > 0).toList();
            double[] n = ok.stream().mapToDouble(RequestRecord::contextTokens).toArray();
            double[] ttftMs = ok.stream().mapToDouble(r -> r.ttftNanos() / 1e6).toArray();
            try {
                SweepFits.Result fits = SweepFits.fit(n, ttftMs, spec.fitOffset(), PowerLawBootstrap.DEFAULT_SEED);
                p50 = fits.center();
                p95 = fits.upper();
                message = String.format(java.util.Locale.ROOT,
                        "%s %s, n = prompt tokens (α 95%% CI: parametric %.3f–%.3f%s; R² %.4f; %d requests)",
                        spec.fitOffset() ? "mean" : "P50", p50.formula("TTFT", "ms"),
                        p50.alphaLower(), p50.alphaUpper(), p50.bootstrap() == null ? ""
                                : String.format(java.util.Locale.ROOT, ", bootstrap %.3f–%.3f",
                                p50.bootstrap().alphaLower(), p50.bootstrap().alphaUpper()),
                        p50.rSquared(), p50.points());
            } catch (IllegalArgumentException e) {
                message = "no power-law fit: " + e.getMessage();
                ctx.notice(message);
            }
        }
        List<Extrapolation> extra = new ArrayList<>();
        if (p50 != null) {
            for (int n : spec.extrapolateTo()) {
                PowerLawFit.Band band = p50.bandAt(n);
                extra.add(new Extrapolation(n, p50.predict(n), band.lower(), band.upper(), p95.predict(n)));
            }
        }
        return new SweepResult(label, SweepSpec.TYPE, spec.cold(), List.copyOf(points), p50, p95, message,
                List.copyOf(extra));
    }

    private static SweepPoint point(int n, List<RequestRecord> recs) {
        long[] ttft = recs.stream().filter(RequestRecord::succeeded).mapToLong(RequestRecord::ttftNanos)
                .filter(v -> v >= 0).toArray();
        if (ttft.length == 0) {
            return new SweepPoint(n, recs.size(), 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, false, false);
        }
        MetricSummary s = Summaries.of("ttft", ttft);
        PercentileEstimate p50 = s.p(50.0);
        PercentileEstimate p95 = s.p(95.0);
        return new SweepPoint(n, recs.size(), ttft.length, ms(p50.valueNanos()), ms(p50.lowerNanos()),
                ms(p50.upperNanos()), ms(p95.valueNanos()), ms(p95.lowerNanos()), ms(p95.upperNanos()),
                p50.enoughSamples(), p95.enoughSamples());
    }

    private static double ms(long nanos) {
        return Nanos.toMillis(nanos);
    }

    /**
     * One context length of a sweep. Times in milliseconds; intervals are distribution-free order-statistic
     * intervals aiming at 95 % coverage (less when the sample is small; see the step's {@code parts} summaries).
     *
     * @param contextTokens prompt length in tokens
     * @param requests      requests sent
     * @param succeeded     successful requests (the statistics use only these)
     * @param p50TtftMs     P50 TTFT, ms
     * @param p50LowerMs    lower bound of its interval, ms
     * @param p50UpperMs    upper bound, ms
     * @param p95TtftMs     P95 TTFT, ms
     * @param p95LowerMs    lower bound, ms
     * @param p95UpperMs    upper bound, ms
     * @param p50Measured   whether at least 10 samples lie above the P50 (else it is an estimate near the maximum)
     * @param p95Measured   the same for the P95 (needs at least 200 successful requests)
     */
    public record SweepPoint(int contextTokens, int requests, int succeeded, double p50TtftMs, double p50LowerMs,
                             double p50UpperMs, double p95TtftMs, double p95LowerMs, double p95UpperMs,
                             boolean p50Measured, boolean p95Measured) {
    }

    /**
     * The fit evaluated beyond the measured lengths.
     *
     * @param contextTokens length in tokens
     * @param p50TtftMs     predicted P50 TTFT, ms
     * @param p50LowerMs    lower 95 % band, ms
     * @param p50UpperMs    upper 95 % band, ms
     * @param p95TtftMs     predicted P95 TTFT, ms
     */
    public record Extrapolation(int contextTokens, double p50TtftMs, double p50LowerMs, double p50UpperMs,
                                double p95TtftMs) {
    }

    /**
     * Result of a sweep step.
     *
     * @param label          step label
     * @param type           {@code "sweep"}
     * @param cold           whether prompts had unique prefixes
     * @param points         one per context length, in the order run
     * @param fitP50         power-law fit of TTFT (ms) against context tokens over every successful request: the
     *                       median curve (log least squares; the mean curve with offset), with parametric and
     *                       bootstrap intervals of α; or null
     * @param fitP95         the P95 TTFT curve (ms): quantile regression over every request (see
     *                       {@link SweepFits}), or null
     * @param fitMessage     the fit in words, or why there is none
     * @param extrapolations the fit at the lengths asked for
     */
    public record SweepResult(String label, String type, boolean cold, List<SweepPoint> points, PowerLawFit fitP50,
                              PowerLawFit fitP95, String fitMessage, List<Extrapolation> extrapolations)
            implements StepResult {
    }
}
