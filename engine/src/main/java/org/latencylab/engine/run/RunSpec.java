package org.latencylab.engine.run;

import org.latencylab.engine.api.ClientOptions;

import java.util.List;
import java.util.Objects;

/**
 * A whole run: what to measure, how, and how to judge it. Usually read from a scenario file
 * ({@code org.latencylab.engine.scenario.ScenarioLoader}). Immutable and thread-safe.
 *
 * @param name        run name (used in the run directory's name); not blank
 * @param target      endpoint or built-in simulator
 * @param client      client options (timeouts, retries)
 * @param stats       tier table and SLOs
 * @param experiments steps, run in order; at least one
 * @param tokenizer   jtokkit encoding for prompts and token counts (default {@code cl100k_base})
 * @param corpus      prompt corpus: {@code en} (default), {@code zh}, {@code random} (random token ids) or a file path
 * @param seed        seed for everything random in the run (jitter of schedules, random prompts)
 * @throws IllegalArgumentException when a field is missing
 */
public record RunSpec(String name, TargetSpec target, ClientOptions client, StatsSettings stats,
                      List<ExperimentSpec> experiments, String tokenizer, String corpus, long seed) {
    public RunSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("run name must not be blank");
        }
        Objects.requireNonNull(target, "target");
        client = client == null ? ClientOptions.DEFAULTS : client;
        stats = stats == null ? StatsSettings.DEFAULTS : stats;
        if (experiments == null || experiments.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one experiment");
        }
        experiments = List.copyOf(experiments);
        for (int i = 0; i < experiments.size(); i++) {
            ExperimentSpec e = experiments.get(i);
            if (e.streaming()) {
                continue;
            }
            for (org.latencylab.engine.stats.Slo slo : stats.slos()) {
                if (slo.metricKind().streamOnly()) {
                    throw new IllegalArgumentException("experiments[" + i + "] does not stream, so the SLO on '"
                            + slo.metric() + "' cannot be judged (no tokens are timed); use e2e or ttfb, or stream: true");
                }
            }
            List<org.latencylab.engine.stats.Slo> own = e.judgedSlos();
            for (int k = 0; k < own.size(); k++) {
                if (own.get(k).metricKind().streamOnly()) {
                    throw new IllegalArgumentException("experiments[" + i + "].slos[" + k + "]: the step does not"
                            + " stream, so the SLO on '" + own.get(k).metric() + "' cannot be judged (no tokens are"
                            + " timed); use e2e or ttfb, or stream: true");
                }
            }
        }
        tokenizer = tokenizer == null || tokenizer.isBlank() ? "cl100k_base" : tokenizer;
        corpus = corpus == null || corpus.isBlank() ? "en" : corpus;
    }


    /**
     * The label of each step, in order: its type, numbered from the second step of the same type on
     * ({@code probe}, {@code sweep}, {@code probe2}). Requests carry it as {@code step}.
     *
     * @return one label per experiment
     */
    public List<String> stepLabels() {
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        List<String> out = new java.util.ArrayList<>();
        for (ExperimentSpec e : experiments) {
            out.add(stepLabel(e.type(), seen.merge(e.type(), 1, Integer::sum)));
        }
        return List.copyOf(out);
    }

    /**
     * The label a step gets ({@link #stepLabels}): its type, numbered from the second step of that type on. A scenario
     * cannot choose it (the scenario reader refuses a {@code label} field with this name).
     *
     * @param type the step's scenario {@code type}, e.g. {@code load}
     * @param nth  which step of that type it is, from 1
     * @return {@code type} for the first, else {@code type} followed by {@code nth} ({@code load2})
     * @throws IllegalArgumentException when {@code nth} is below 1
     */
    public static String stepLabel(String type, int nth) {
        if (nth < 1) {
            throw new IllegalArgumentException("nth must be >= 1, was " + nth);
        }
        return nth == 1 ? type : type + nth;
    }

    /** @return total requests planned, or -1 when a step is time-bounded */
    public long plannedRequests() {
        long sum = 0;
        for (ExperimentSpec e : experiments) {
            if (e.plannedRequests() < 0) {
                return -1;
            }
            sum += e.plannedRequests();
        }
        return sum;
    }
}
