package org.latencylab.engine.server;

import com.fasterxml.jackson.annotation.JsonInclude;

import org.latencylab.engine.load.LoadTotals;
import org.latencylab.engine.telemetry.TelemetrySummary;

import java.util.List;
import java.util.Map;

/**
 * What became of one server variant: how it started (or why not), each load level's measurements and the
 * telemetry. Immutable and thread-safe; Jackson writes it into {@code run.json}.
 *
 * @param index          1-based position among the expanded variants
 * @param name           display name, with grid values, e.g. {@code tgi-like batch_size=8 max_prefill_tokens=2048}
 * @param label          request label prefix and file prefix of this variant, e.g. {@code server-bench-v3}
 * @param params         placeholder values of this variant (template defaults, params and grid combination)
 * @param command        the launch command with secrets masked, or null when attached
 * @param url            the server's base URL
 * @param status         how it went
 * @param message        why it failed (with the server's last log lines), or null
 * @param exitCode       the launched process's exit status once stopped, or null
 * @param startupSeconds launch → ready, s; null when attached or never ready
 * @param logFile        server log in the run directory, or null when attached
 * @param metricsFile    {@code /metrics} time series (CSV) in the run directory, or null
 * @param gpuFile        GPU time series (CSV) in the run directory, or null
 * @param points         one entry per load level that ran
 * @param telemetry      telemetry summary over the variant's load, or null when it never ran
 * @param pricePerGpuHour price of one GPU-hour, or null when none was given
 * @param gpus           GPUs the variant uses
 * @param instanceType   instance type for the cost table, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VariantResult(int index, String name, String label, Map<String, String> params, String command,
                            String url, Status status, String message, Integer exitCode, Double startupSeconds,
                            String logFile, String metricsFile, String gpuFile, List<Point> points,
                            TelemetrySummary telemetry, Double pricePerGpuHour, int gpus, String instanceType) {

    /** How a variant went. */
    public enum Status {
        /** started (or attached), loaded and stopped */
        OK,
        /** ran out of GPU memory, at start or under load (the server's log or exit status says so) */
        OOM,
        /** could not be started: the command failed, exited before ready, or its port was in use */
        START_FAILED,
        /** did not answer its readiness path within the ready timeout */
        NOT_READY,
        /** exited while under load, for another reason than memory */
        CRASHED,
        /** the run was cancelled before or during this variant */
        CANCELLED
    }

    public VariantResult {
        params = params == null ? Map.of() : Map.copyOf(params);
        points = points == null ? List.of() : List.copyOf(points);
    }

    /**
     * One load level's measurements on this variant. Percentiles are from the load step's totals (HdrHistogram,
     * measured requests only); the run's {@code steps[].parts} hold the same requests' full summaries with
     * confidence intervals, ITL included, under this point's label.
     *
     * @param label                 request label of the level
     * @param level                 the level, e.g. {@code concurrency 8} or {@code rate 20 req/s}
     * @param outputTokensPerSecond steady-state output throughput, tokens/s: tokens (of any request of the level,
     *                              warmup included) that arrived between the first and the last send of the level's
     *                              measured requests ÷ that time (the drain after the last send left out); when that span is under 0.5 s, output tokens of measured
     *                              successful requests ÷ (elapsed − warmup)
     * @param requestsPerSecond     achieved rate of measured requests, req/s
     * @param goodputRps            measured requests meeting every SLO of the load plan per second, req/s
     * @param latencyP99Ms          P99 of the benchmark's latency objective (TTFT, E2E or TPOT from the send), ms
     * @param tpotP50Ms             median TPOT, ms
     * @param clientTtftMeanMs      mean client-side TTFT (from the send), ms
     * @param serverTtftMeanMs      mean server-side TTFT from its {@code /metrics} histogram over the same time, ms
     * @param tier                  tier of the load plan's tier metric at P95, or null
     * @param costPerMillionTokens  cost per 10^6 output tokens in the price's currency, or null without a price
     * @param tpotBoundMs           roofline bound on TPOT at this point's batch and context, ms, or null
     * @param tpotOfBoundPct        measured median TPOT as a percentage of the bound (&gt;= 100 % in practice), or
     *                              null
     * @param batchForBound         batch size the bound assumed (server's mean running requests, else concurrency)
     * @param paretoOptimal         whether no other point beats it in every objective
     * @param totals                the load step's totals
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Point(String label, String level, double outputTokensPerSecond, double requestsPerSecond,
                        double goodputRps, Double latencyP99Ms, Double tpotP50Ms, Double clientTtftMeanMs,
                        Double serverTtftMeanMs, String tier, Double costPerMillionTokens, Double tpotBoundMs,
                        Double tpotOfBoundPct, Double batchForBound, boolean paretoOptimal, LoadTotals totals) {

        /** @param optimal whether Pareto-optimal @return a copy with that flag */
        public Point withParetoOptimal(boolean optimal) {
            return new Point(label, level, outputTokensPerSecond, requestsPerSecond, goodputRps, latencyP99Ms,
                    tpotP50Ms, clientTtftMeanMs, serverTtftMeanMs, tier, costPerMillionTokens, tpotBoundMs,
                    tpotOfBoundPct, batchForBound, optimal, totals);
        }
    }

    /** @param newPoints points @return a copy with these points */
    public VariantResult withPoints(List<Point> newPoints) {
        return new VariantResult(index, name, label, params, command, url, status, message, exitCode,
                startupSeconds, logFile, metricsFile, gpuFile, newPoints, telemetry, pricePerGpuHour, gpus,
                instanceType);
    }

    /** @return the peak GPU memory of this variant, GiB, or null without GPU telemetry */
    public Double peakGpuMemoryGiB() {
        return telemetry == null ? null : telemetry.peakGpuMemoryGiB();
    }
}
