package org.latencylab.app.ui.results;

import org.latencylab.engine.compare.CompareEndpointsRunner;
import org.latencylab.engine.compare.CompareEndpointsSpec;
import org.latencylab.engine.experiment.SweepRunner;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.load.GridSpec;
import org.latencylab.engine.load.LoadResult;
import org.latencylab.engine.load.LoadSpec;
import org.latencylab.engine.monitor.MonitorRunner;
import org.latencylab.engine.monitor.MonitorSpec;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.StepResult;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.ServerBenchSpec;
import org.latencylab.engine.transport.TransportsResult;
import org.latencylab.engine.transport.TransportsSpec;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which panels the Results tab shows for a step: each experiment type has its own layout, and a layout names only
 * the panels whose data that experiment can have, so no empty chart is shown (a probe has no load seconds, a sweep
 * no single TTFT-over-time series worth a chart of its own, a transports step only its first-screen bars).
 * Chosen from the step's typed result once it has ended, from its spec type while it runs. Free of JavaFX: the
 * view builds the nodes for the panels named here. Immutable and thread-safe.
 */
public enum ResultsLayout {
    /** A probe: the TTFT/E2E CDF, TTFT over time with its tier bands, the summary table. */
    PROBE(EnumSet.of(Panel.CDF, Panel.TIME, Panel.SUMMARY)),
    /** A context sweep: the power-law fit chart (band, extrapolation), the CDF per length, the per-length table. */
    SWEEP(EnumSet.of(Panel.SWEEP, Panel.CDF, Panel.SUMMARY)),
    /** A load step: per-second latency and rate (the steps panel), TTFT with tiers over time, CDF, summary. */
    LOAD(EnumSet.of(Panel.LOAD_SECONDS, Panel.CDF, Panel.TIME, Panel.SUMMARY)),
    /** A grid: its cells' heatmap and their per-second load charts, CDF, tiers over time, summary. */
    GRID(EnumSet.of(Panel.LOAD_SECONDS, Panel.HEATMAP, Panel.CDF, Panel.TIME, Panel.SUMMARY)),
    /** A transports step: the grouped bars of P50 first-screen latency per network profile, summary. */
    TRANSPORTS(EnumSet.of(Panel.TRANSPORTS, Panel.SUMMARY)),
    /** A server benchmark: its panel of variants with Pareto, heatmap and telemetry charts, summary. */
    SERVER_BENCH(EnumSet.of(Panel.SERVER_BENCH, Panel.SUMMARY)),
    /** A ranking (compare endpoints, monitor): the CDF of the endpoints' requests and the ranking's summary. */
    RANKING(EnumSet.of(Panel.CDF, Panel.SUMMARY)),
    /**
     * No step yet (the window as it opens, or a run before its first request ends): the CDF and TTFT-over-time
     * frames that most runs fill, laid out at the first paint rather than in the middle of the first run.
     */
    EMPTY(EnumSet.of(Panel.CDF, Panel.TIME, Panel.SUMMARY));

    /** A part of the Results tab. */
    public enum Panel {
        /** TTFT/E2E cumulative distribution. */
        CDF,
        /** TTFT per second with the tier bands behind it. */
        TIME,
        /** Sweep: TTFT vs context with the fitted power law, its band and the extrapolated lengths. */
        SWEEP,
        /** Per-second latency from the intended start and target vs achieved rate (the steps panel). */
        LOAD_SECONDS,
        /** A grid's heatmap, one cell per load step. */
        HEATMAP,
        /** Transports: grouped bars of P50 first-screen latency. */
        TRANSPORTS,
        /** Server benchmark: variants, Pareto, heatmap, telemetry. */
        SERVER_BENCH,
        /** The summary table (percentiles with their intervals). */
        SUMMARY
    }

    private final Set<Panel> panels;

    ResultsLayout(EnumSet<Panel> panels) {
        this.panels = java.util.Collections.unmodifiableSet(panels);
    }

    /** @return the panels of this layout (unmodifiable) */
    public Set<Panel> panels() {
        return panels;
    }

    /** @param p a panel @return true when this layout shows it */
    public boolean shows(Panel p) {
        return panels.contains(p);
    }

    /**
     * @param step the step shown, or null before any
     * @return its layout: from its typed result when it has ended, from its spec type while it runs; {@link #PROBE}
     *     for a step type without a layout of its own (a baseline: its requests' CDF, time and summary)
     */
    public static ResultsLayout of(RunResult.StepOutcome step) {
        if (step == null) {
            return EMPTY;
        }
        StepResult r = step.result();
        if (r instanceof SweepRunner.SweepResult) {
            return SWEEP;
        }
        if (r instanceof GridResult) {
            return GRID;
        }
        if (r instanceof LoadResult) {
            return LOAD;
        }
        if (r instanceof TransportsResult) {
            return TRANSPORTS;
        }
        if (r instanceof ServerBenchResult) {
            return SERVER_BENCH;
        }
        if (r instanceof CompareEndpointsRunner.CompareResult || r instanceof MonitorRunner.MonitorResult) {
            return RANKING;
        }
        String type = step.type() == null ? "" : step.type();
        return switch (type) {
            case SweepSpec.TYPE -> SWEEP;
            case GridSpec.TYPE -> GRID;
            case LoadSpec.TYPE -> LOAD;
            case TransportsSpec.TYPE -> TRANSPORTS;
            case ServerBenchSpec.TYPE -> SERVER_BENCH;
            case CompareEndpointsSpec.TYPE, MonitorSpec.TYPE -> RANKING;
            default -> PROBE;
        };
    }
}
