package org.latencylab.engine.sla;

import org.latencylab.engine.results.RunDocument;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A multi-metric SLA: a list of cells, each a limit on one number of a run summary, judged for every step of a
 * run (the matrix: steps × cells, pass or fail per cell). It reads the summaries a run wrote into its
 * {@code run.json}, so the verdict rests on the run's own statistics. Immutable and thread-safe.
 *
 * @param cells the limits, at least one
 */
public record SlaMatrix(List<Cell> cells) {
    /** Summary field judged by a throughput cell: output tokens per second of wall time. */
    public static final String TOKENS_PER_S = "output_tokens_per_s";

    /** @throws IllegalArgumentException when there is no cell */
    public SlaMatrix {
        if (cells == null || cells.isEmpty()) {
            throw new IllegalArgumentException("an SLO matrix needs at least one cell, e.g. e2e:p99:2000");
        }
        cells = List.copyOf(cells);
    }

    /**
     * One limit. A latency cell passes when the metric's percentile is at most {@code limit} ms; a throughput
     * cell ({@code percentile} null) passes when {@code output_tokens_per_s} is at least {@code limit}.
     *
     * @param metric     latency metric id (e.g. {@code e2e}, {@code ttft}) or {@value #TOKENS_PER_S}
     * @param percentile percentile in percent for latency cells, null for the throughput cell
     * @param limit      ms for latency cells (a maximum), tokens/s for throughput (a minimum), &gt; 0
     */
    public record Cell(String metric, Double percentile, double limit) {
        /** @throws IllegalArgumentException on a non-positive limit or a latency cell without percentile */
        public Cell {
            if (!(limit > 0)) {
                throw new IllegalArgumentException("SLO cell " + metric + ": the limit must be > 0, was " + limit);
            }
            if (!TOKENS_PER_S.equals(metric) && percentile == null) {
                throw new IllegalArgumentException("SLO cell " + metric + ": a latency cell needs a percentile");
            }
        }

        /**
         * Parses {@code METRIC:pNN:MAX_MS} (e.g. {@code e2e:p99:2000}) or {@code output_tokens_per_s:min:N}.
         *
         * @param text the cell
         * @return the cell
         * @throws IllegalArgumentException when the text does not have that form (the message shows it)
         */
        public static Cell parse(String text) {
            String[] p = text.strip().split(":");
            if (p.length != 3) {
                throw new IllegalArgumentException("SLO cell '" + text + "' must be METRIC:pNN:MAX_MS (e.g."
                        + " e2e:p99:2000) or " + TOKENS_PER_S + ":min:TOKENS_PER_S");
            }
            String metric = p[0].strip().toLowerCase(Locale.ROOT);
            double limit;
            try {
                limit = Double.parseDouble(p[2].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("SLO cell '" + text + "': '" + p[2] + "' is not a number");
            }
            if (TOKENS_PER_S.equals(metric) || "tokens_per_s".equals(metric)) {
                if (!p[1].strip().equalsIgnoreCase("min")) {
                    throw new IllegalArgumentException("SLO cell '" + text + "': throughput takes 'min', e.g. "
                            + TOKENS_PER_S + ":min:20");
                }
                return new Cell(TOKENS_PER_S, null, limit);
            }
            org.latencylab.engine.stats.Metric.fromId(metric);
            String q = p[1].strip().toLowerCase(Locale.ROOT);
            if (!q.startsWith("p")) {
                throw new IllegalArgumentException("SLO cell '" + text + "': the percentile is written pNN, e.g. p99");
            }
            double pct;
            try {
                pct = Double.parseDouble(q.substring(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("SLO cell '" + text + "': '" + p[1] + "' is not a percentile");
            }
            return new Cell(metric, pct, limit);
        }

        /** @return e.g. {@code P99 e2e ≤ 2000 ms} or {@code output tokens/s ≥ 20} */
        public String label() {
            return percentile == null ? String.format(Locale.ROOT, "output tokens/s ≥ %s", num(limit))
                    : String.format(Locale.ROOT, "P%s %s ≤ %s ms", num(percentile), metric, num(limit));
        }
    }

    /**
     * The verdict of one cell for one step.
     *
     * @param cell     the cell
     * @param measured the measured value (ms or tokens/s), NaN when the summary lacks it
     * @param passed   true when within the limit; false when outside or not measured
     */
    public record Verdict(Cell cell, double measured, boolean passed) {
    }

    /**
     * One step's row of the matrix.
     *
     * @param step     step label ({@code all} for the run's pooled summary when it has no step)
     * @param verdicts one verdict per cell, in cell order
     */
    public record Row(String step, List<Verdict> verdicts) {
        /** @return true when every cell passed */
        public boolean passed() {
            return verdicts.stream().allMatch(Verdict::passed);
        }
    }

    /**
     * Judges every step of a run.
     *
     * @param run a run as its {@code run.json} describes it (format checked when it was read)
     * @return one row per step with a summary (or one row {@code all} when no step has one)
     */
    public List<Row> judge(RunDocument run) {
        List<Row> rows = new ArrayList<>();
        for (RunDocument.Step st : run.steps()) {
            if (st.summary() != null) {
                rows.add(row(st.label(), st.summary()));
            }
        }
        if (rows.isEmpty() && run.summary() != null) {
            rows.add(row("all", run.summary()));
        }
        return rows;
    }

    private Row row(String step, RunDocument.Summary summary) {
        List<Verdict> vs = new ArrayList<>();
        for (Cell c : cells) {
            double v = c.percentile() == null ? summary.outputTokensPerS()
                    : summary.percentile(c.metric(), c.percentile()).map(RunDocument.Percentile::valueMs)
                    .orElse(Double.NaN);
            boolean ok = !Double.isNaN(v) && (c.percentile() == null ? v >= c.limit() : v <= c.limit());
            vs.add(new Verdict(c, v, ok));
        }
        return new Row(step, vs);
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
