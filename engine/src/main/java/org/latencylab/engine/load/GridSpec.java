package org.latencylab.engine.load;

import org.latencylab.engine.api.InvalidFieldException;
import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import org.latencylab.engine.run.ExperimentSpec;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A grid of load steps ({@code type: grid}): every combination of a row axis (closed-loop concurrency or
 * open-loop rate) and prompt lengths, each cell a load step, summarised as one metric per cell — the data of a
 * heatmap such as "P99 TTFT over context length × concurrency". Immutable and thread-safe.
 *
 * @param rowAxis         {@code concurrency} (closed loop, default) or {@code rate} (open loop, requests/s)
 * @param rowValues       values of the row axis: worker counts (integers &gt;= 1) or rates (&gt; 0 req/s); at least one
 * @param contextTokens   prompt lengths of the columns, tokens, each 1..{@link org.latencylab.engine.prompt.PromptBuilder#MAX_TOKENS}; at least one
 * @param cellDuration    how long each cell runs; or null when bounded by {@code cellRequests}
 * @param cellRequests    requests per cell, &gt;= 1; or null when bounded by {@code cellDuration}
 * @param warmup          per-cell warmup excluded from the cell's statistics; default 0
 * @param arrival         open loop ({@code rate} rows): arrival process; default poisson
 * @param maxOutputTokens {@code max_tokens} of every request; default 16
 * @param stream          streaming requests; default true
 * @param coldPrompts     scenario field {@code cold} ({@code coldPrompts} accepted too): unique prompt prefix per
 *                        request; default true (a grid over context length measures
 *                        prefill, which a prefix cache would hide)
 * @param metric          per-request metric id of the cells ({@link org.latencylab.engine.stats.Metric}:
 *                        ttft_from_intended, e2e_from_intended, ttft, e2e, dispatch_lag, tpot, ttfb), or one of
 *                        {@code achieved_rps}, {@code goodput_rps}, {@code error_rate}; default ttft_from_intended
 * @param statistic       for latency metrics: {@code p50}, {@code p90}, {@code p95}, {@code p99} (default),
 *                        {@code p999}, {@code mean}, {@code max}; ignored for the rate metrics
 * @param seed            seed of the arrival randomness; default 42
 * @throws IllegalArgumentException when a field is missing or out of range; the message names it
 */
@JsonIgnoreProperties(value = "type", allowGetters = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GridSpec(String rowAxis, List<Double> rowValues, List<Integer> contextTokens, Duration cellDuration,
                       Long cellRequests, Duration warmup, ArrivalProcess arrival, Integer maxOutputTokens,
                       Boolean stream, @JsonProperty("cold") @JsonAlias("coldPrompts") Boolean coldPrompts, String metric, String statistic, Long seed)
        implements ExperimentSpec {

    /** Scenario type name of this spec. */
    public static final String TYPE = "grid";

    private static final List<String> RATE_METRICS = List.of("achieved_rps", "goodput_rps", "error_rate");
    private static final List<String> LATENCY_METRICS = List.of("ttft_from_intended", "e2e_from_intended", "ttft",
            "e2e", "dispatch_lag", "tpot", "ttfb");
    private static final List<String> STATISTICS = List.of("p50", "p90", "p95", "p99", "p999", "mean", "max");

    public GridSpec {
        rowAxis = rowAxis == null ? "concurrency" : rowAxis.strip().toLowerCase(Locale.ROOT);
        if (!rowAxis.equals("concurrency") && !rowAxis.equals("rate")) {
            throw new InvalidFieldException("rowAxis", "grid: rowAxis must be concurrency or rate, was '" + rowAxis
                    + "'");
        }
        if (rowValues == null || rowValues.isEmpty()) {
            throw new InvalidFieldException("rowValues", "grid: rowValues needs at least one " + rowAxis + " value");
        }
        for (Double v : rowValues) {
            if (v == null || !(v > 0) || v.isInfinite()) {
                throw new InvalidFieldException("rowValues", "grid: rowValues must be > 0, was " + v);
            }
            if (rowAxis.equals("concurrency") && v != Math.rint(v)) {
                throw new InvalidFieldException("rowValues", "grid: concurrency values must be whole numbers, was "
                        + v);
            }
        }
        rowValues = List.copyOf(rowValues);
        if (contextTokens == null || contextTokens.isEmpty()) {
            throw new InvalidFieldException("contextTokens", "grid: contextTokens needs at least one prompt length");
        }
        for (Integer c : contextTokens) {
            if (c == null || c < 1) {
                throw new InvalidFieldException("contextTokens", "grid: contextTokens must be >= 1, was " + c);
            }
            if (c > org.latencylab.engine.prompt.PromptBuilder.MAX_TOKENS) {
                throw new InvalidFieldException("contextTokens", "grid: contextTokens must be at most "
                        + org.latencylab.engine.prompt.PromptBuilder.MAX_TOKENS + " tokens (the longest prompt LatencyLab builds), was " + c);
            }
        }
        contextTokens = List.copyOf(contextTokens);
        if (cellDuration == null && cellRequests == null) {
            throw new IllegalArgumentException("grid: bound each cell with cellDuration (e.g. \"10s\") or cellRequests");
        }
        if (cellRequests != null && cellRequests < 1) {
            throw new InvalidFieldException("cellRequests", "grid: cellRequests must be >= 1, was " + cellRequests);
        }
        warmup = warmup == null ? Duration.ZERO : warmup;
        if (rowAxis.equals("concurrency") && arrival != null) {
            throw new IllegalArgumentException("grid: arrival applies to rowAxis: rate only");
        }
        arrival = rowAxis.equals("rate") && arrival == null ? ArrivalProcess.POISSON : arrival;
        maxOutputTokens = maxOutputTokens == null ? 16 : maxOutputTokens;
        stream = stream == null || stream;
        coldPrompts = coldPrompts == null || coldPrompts;
        metric = metric == null ? "ttft_from_intended" : metric.strip().toLowerCase(Locale.ROOT);
        if (!LATENCY_METRICS.contains(metric) && !RATE_METRICS.contains(metric)) {
            throw new InvalidFieldException("metric", "grid: metric must be one of " + LATENCY_METRICS + " or "
                    + RATE_METRICS + ", was '" + metric + "'");
        }
        statistic = statistic == null ? "p99" : statistic.strip().toLowerCase(Locale.ROOT);
        if (!STATISTICS.contains(statistic)) {
            throw new InvalidFieldException("statistic", "grid: statistic must be one of " + STATISTICS + ", was '"
                    + statistic + "'");
        }
        seed = seed == null ? 42L : seed;
    }

    @Override
    public String type() {
        return TYPE;
    }

    /** @return rows × columns × cellRequests when bounded by requests, else -1 */
    @Override
    public long plannedRequests() {
        return cellRequests == null ? -1 : cellRequests * rowValues.size() * contextTokens.size();
    }

    /**
     * The load step of one cell.
     *
     * @param row    row index
     * @param column column index
     * @return its spec
     * @throws IndexOutOfBoundsException on a bad index
     */
    public LoadSpec cell(int row, int column) {
        LoadSpec.Builder b = LoadSpec.builder().duration(cellDuration).requests(cellRequests).warmup(warmup)
                .contextTokens(contextTokens.get(column)).maxOutputTokens(maxOutputTokens).stream(stream)
                .coldPrompts(coldPrompts).seed(seed + 1000L * row + column);
        if (rowAxis.equals("concurrency")) {
            b.concurrency((int) Math.round(rowValues.get(row)));
        } else {
            b.rate(rowValues.get(row)).arrival(arrival);
        }
        return b.build();
    }

    /**
     * The name of a cell by its parameters, as used in request labels, {@code summary.csv} and interval-log file
     * names: {@code <rowAxis>=<value>,contextTokens=<tokens>}, e.g. {@code concurrency=8,contextTokens=2048} or
     * {@code rate=12.5,contextTokens=512} (whole numbers without a decimal point; only characters allowed in file
     * names on Linux, macOS and Windows).
     *
     * @param row    row index
     * @param column column index
     * @return the cell's name
     * @throws IndexOutOfBoundsException on a bad index
     */
    public String cellName(int row, int column) {
        double v = rowValues.get(row);
        String value = v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
                : java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
        return rowAxis + "=" + value + ",contextTokens=" + contextTokens.get(column);
    }

    /** @return true when {@link #metric} is a latency (in ms), false for a rate or fraction */
    public boolean latencyMetric() {
        return LATENCY_METRICS.contains(metric);
    }
}
