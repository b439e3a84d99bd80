package org.latencylab.engine.server;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import org.latencylab.engine.run.StepResult;

import java.util.ArrayList;
import java.util.List;

/**
 * The result of a {@code server-bench} step: every variant's outcome and measurements, the Pareto objectives, the
 * batching heatmap (when a variant had a two-parameter grid) and the roofline's inputs. Immutable and thread-safe;
 * Jackson writes it into {@code run.json}.
 *
 * @param label      step label
 * @param variants   the variants in the order they ran
 * @param objectives the Pareto objectives, e.g. {@code [output tokens/s ↑, P99 TTFT ms ↓, peak GPU memory GiB ↓]}
 * @param heatmap    the batching heatmap, or null
 * @param roofline   the roofline's GPU and model, or null
 * @param notes      what the reader should know (missing telemetry, failed variants)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerBenchResult(String label, List<VariantResult> variants, List<String> objectives,
                                Heatmap heatmap, RooflineInfo roofline, List<String> notes) implements StepResult {

    public ServerBenchResult {
        variants = List.copyOf(variants);
        objectives = List.copyOf(objectives);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    @Override
    public String type() {
        return ServerBenchSpec.TYPE;
    }

    /**
     * Output tokens/s over two grid parameters, with the cells that could not be measured marked.
     *
     * @param rowParameter    the rows' parameter, e.g. {@code batch_size}
     * @param columnParameter the columns' parameter, e.g. {@code max_prefill_tokens}
     * @param rowValues       row values as written in the grid
     * @param columnValues    column values as written in the grid
     * @param tokensPerSecond output tokens/s per cell (the variant's best level), null where not measured
     * @param peakMemoryGiB   peak GPU memory per cell, GiB, null where unknown
     * @param marks           per cell null, or why it has no value: {@code OOM}, {@code failed}, {@code not run}
     */
    public record Heatmap(String rowParameter, String columnParameter, List<String> rowValues,
                          List<String> columnValues, List<List<Double>> tokensPerSecond,
                          List<List<Double>> peakMemoryGiB, List<List<String>> marks) {
        public Heatmap {
            rowValues = List.copyOf(rowValues);
            columnValues = List.copyOf(columnValues);
            tokensPerSecond = copy(tokensPerSecond);
            peakMemoryGiB = copy(peakMemoryGiB);
            marks = copy(marks);
        }

        private static <T> List<List<T>> copy(List<List<T>> m) {
            List<List<T>> out = new ArrayList<>();
            for (List<T> r : m) {
                out.add(java.util.Collections.unmodifiableList(new ArrayList<>(r)));
            }
            return java.util.Collections.unmodifiableList(out);
        }

        /** @return tokens/s as {@code double[row][column]}, NaN where not measured (a fresh copy) */
        @JsonIgnore
        public double[][] matrix() {
            double[][] m = new double[rowValues.size()][columnValues.size()];
            for (int r = 0; r < m.length; r++) {
                for (int c = 0; c < m[r].length; c++) {
                    Double v = tokensPerSecond.get(r).get(c);
                    m[r][c] = v == null ? Double.NaN : v;
                }
            }
            return m;
        }
    }

    /**
     * The roofline's inputs.
     *
     * @param gpu             GPU name
     * @param bandwidthGBps   its memory bandwidth, GB/s
     * @param model           model id
     * @param weightBytes     weight bytes
     * @param kvBytesPerToken KV-cache bytes per token
     * @param contextTokens   context assumed per sequence: prompt + half the output tokens
     * @param promptTokens    prompt tokens of the load plan
     * @param prefillBoundMs  compute bound of one prompt's prefill (a lower bound of TTFT): 2 × parameters × prompt
     *                        tokens ÷ the GPUs' dense FP16 FLOP/s, ms
     * @param sources         where the GPU's and model's numbers come from
     */
    public record RooflineInfo(String gpu, double bandwidthGBps, String model, double weightBytes,
                               double kvBytesPerToken, double contextTokens, double promptTokens,
                               double prefillBoundMs, List<String> sources) {
    }
}
