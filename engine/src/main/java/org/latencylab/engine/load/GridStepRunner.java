package org.latencylab.engine.load;

import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.step.StepRunner;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs a {@link GridSpec}: one load step per cell, rows outer and columns inner, each labelled by its parameters
 * {@code <label>-<cellName>} (e.g. {@code grid-concurrency=8,contextTokens=2048}, see {@link GridSpec#cellName}),
 * and collects the chosen metric into a
 * {@link GridResult}; after each cell the matrix so far is published as a {@link GridProgress}. Stops after the current cell when the run is cancelled (later cells stay null). Stateless
 * and thread-safe.
 */
public final class GridStepRunner implements StepRunner<GridSpec> {
    private final LoadStepRunner cells;

    /** A grid runner whose cells run on a default {@link LoadStepRunner}. */
    public GridStepRunner() {
        this(new LoadStepRunner());
    }

    /** @param cells runs each cell */
    public GridStepRunner(LoadStepRunner cells) {
        this.cells = Objects.requireNonNull(cells, "cells");
    }

    /**
     * Warms the cells' runner ({@link LoadStepRunner#warmUp}).
     *
     * @param scratch the warm-up's context
     * @throws InterruptedException when interrupted
     */
    @Override
    public void warmUp(StepContext scratch) throws InterruptedException {
        cells.warmUp(scratch);
    }

    /**
     * @param spec    the grid
     * @param label   step label, prefix of the cells' labels
     * @param context the run's services
     * @return the {@link GridResult}
     * @throws InterruptedException when the calling thread is interrupted
     */
    @Override
    public GridResult run(GridSpec spec, String label, StepContext context) throws InterruptedException {
        String base = label == null ? GridSpec.TYPE : label;
        int rows = spec.rowValues().size();
        int columns = spec.contextTokens().size();
        List<List<Double>> values = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            List<Double> row = new ArrayList<>();
            for (int c = 0; c < columns; c++) {
                row.add(null);
            }
            values.add(row);
        }
        List<GridResult.Cell> done = new ArrayList<>();
        outer:
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                if (context.cancelled()) {
                    break outer;
                }
                String cellLabel = base + "-" + spec.cellName(r, c);
                LoadResult result = cells.run(spec.cell(r, c), cellLabel, context);
                done.add(new GridResult.Cell(r, c, cellLabel, result.totals()));
                values.get(r).set(c, valueOf(spec, result.totals()));
                context.progress(new GridProgress(base, result(spec, base, values, done)));
            }
        }
        return result(spec, base, values, done);
    }

    private static GridResult result(GridSpec spec, String base, List<List<Double>> values,
                                     List<GridResult.Cell> done) {
        boolean rate = spec.rowAxis().equals("rate");
        List<Double> columnValues = spec.contextTokens().stream().map(Integer::doubleValue).toList();
        String unit = spec.latencyMetric() ? "ms" : spec.metric().equals("error_rate") ? "fraction" : "req/s";
        String metric = spec.latencyMetric() ? spec.metric() + " " + spec.statistic() : spec.metric();
        return new GridResult(base, spec.rowAxis(), rate ? "req/s" : "requests", spec.rowValues(), "context", "tokens",
                columnValues, metric, unit, values, done);
    }

    /**
     * @param spec   the grid (metric and statistic)
     * @param totals one cell's totals
     * @return the cell's value in the grid's unit, or null when it has no sample
     */
    static Double valueOf(GridSpec spec, LoadTotals totals) {
        switch (spec.metric()) {
            case "achieved_rps":
                return totals.achievedRateRps();
            case "goodput_rps":
                return totals.goodputRps();
            case "error_rate":
                return totals.succeeded() + totals.failed() == 0 ? null : totals.errorRate();
            default:
                break;
        }
        LatencyPercentiles p = totals.percentiles(org.latencylab.engine.stats.Metric.fromId(spec.metric()));
        return switch (spec.statistic()) {
            case "p50" -> p.p50Ms();
            case "p90" -> p.p90Ms();
            case "p95" -> p.p95Ms();
            case "p99" -> p.p99Ms();
            case "p999" -> p.p999Ms();
            case "mean" -> p.meanMs();
            case "max" -> p.maxMs();
            default -> throw new IllegalStateException("unchecked statistic " + spec.statistic());
        };
    }
}
