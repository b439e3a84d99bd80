package org.latencylab.engine.experiment;

import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.fit.PowerLawFit;
import org.latencylab.engine.fit.PowerLawFitter;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.Summaries;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link SweepSpec}: for each context length (in the order given) a closed loop of
 * {@code requestsPerLength} requests labelled {@code <label>-<tokens>}, then fits {@code TTFT = a·n^α}
 * (or {@code c + a·n^α}) to the P50 and to the P95 TTFT of the successful requests per length, in milliseconds.
 * Fewer than 3 lengths (4 with offset) give a notice and no fit. Stateless and thread-safe.
 */
public final class SweepRunner implements StepRunner<SweepSpec> {
    @Override
    public StepResult run(SweepSpec spec, String label, StepContext ctx) throws InterruptedException {
        List<SweepPoint> points = new ArrayList<>();
        if (spec.warmup() > 0) {
            int shortest = spec.contextTokens().stream().mapToInt(Integer::intValue).min().orElse(1);
            ClosedLoop.run(spec.warmup(), spec.concurrency(), label + "-warmup", shortest,
                    i -> new GenerationRequest(ctx.prompt(shortest, spec.cold()), shortest, spec.maxOutputTokens(),
                            true, Map.of()), false, ctx);
        }
        for (int n : spec.contextTokens()) {
            if (ctx.cancelled()) {
                break;
            }
            String stepLabel = label + "-" + n;
            List<RequestRecord> recs = ClosedLoop.run(spec.requestsPerLength(), spec.concurrency(), stepLabel, n,
                    i -> new GenerationRequest(ctx.prompt(n, spec.cold()), n, spec.maxOutputTokens(), true, Map.of()),
                    true, ctx);
            points.add(point(n, recs));
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
            double[] n = usable.stream().mapToDouble(SweepPoint::contextTokens).toArray();
            try {
                p50 = PowerLawFitter.fit(n, usable.stream().mapToDouble(SweepPoint::p50TtftMs).toArray(), spec.fitOffset());
                p95 = PowerLawFitter.fit(n, usable.stream().mapToDouble(SweepPoint::p95TtftMs).toArray(), spec.fitOffset());
                message = String.format(java.util.Locale.ROOT,
                        "P50 TTFT ≈ %.4g ms · n^%.3f (α 95%% CI %.3f–%.3f, R² %.4f)",
                        p50.a(), p50.alpha(), p50.alphaLower(), p50.alphaUpper(), p50.rSquared());
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
     * @param fitP50         power-law fit of P50 TTFT (ms) against context tokens, or null
     * @param fitP95         power-law fit of P95 TTFT (ms), or null
     * @param fitMessage     the fit in words, or why there is none
     * @param extrapolations the fit at the lengths asked for
     */
    public record SweepResult(String label, String type, boolean cold, List<SweepPoint> points, PowerLawFit fitP50,
                              PowerLawFit fitP95, String fitMessage, List<Extrapolation> extrapolations)
            implements StepResult {
    }
}
