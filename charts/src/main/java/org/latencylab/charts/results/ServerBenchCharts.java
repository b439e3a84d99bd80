package org.latencylab.charts.results;

import org.latencylab.engine.analysis.ParetoSet;
import javafx.scene.layout.Region;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.HeatmapChart;
import org.latencylab.charts.ParetoChart;
import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.LabelledPoint;
import org.latencylab.charts.data.ParetoFront;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.export.ChartExportException;
import org.latencylab.charts.export.ChartImages;
import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.VariantResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Charts of a GPU-server benchmark ({@link ServerBenchResult}): the Pareto front's two-dimensional projections
 * (throughput vs P99 latency, throughput vs peak GPU memory, P99 latency vs peak GPU memory), each point labelled
 * with its variant and a {@code ★} when it is optimal in all objectives at once, and the batching heatmap (output
 * tokens/s over two grid parameters, out-of-memory cells marked {@code OOM}). Build on the JavaFX thread; the
 * {@code write} method renders offscreen from any thread but the FX thread.
 */
public final class ServerBenchCharts {
    private ServerBenchCharts() {
    }

    /** One plotted quantity of a point. */
    private record Axis(String file, Quantity quantity, ParetoSet.Goal goal, ToDoubleFunction<Row> value) {
    }

    /** A point with its variant. */
    private record Row(VariantResult variant, VariantResult.Point point) {
    }

    private static final Axis THROUGHPUT = new Axis("throughput", Quantity.of("output throughput", "tokens/s"),
            ParetoSet.Goal.MAXIMIZE, r -> r.point().outputTokensPerSecond());
    private static final Axis MEMORY = new Axis("memory", Quantity.of("peak GPU memory", "GiB"),
            ParetoSet.Goal.MINIMIZE, r -> r.variant().peakGpuMemoryGiB() == null ? Double.NaN
                    : r.variant().peakGpuMemoryGiB());

    private static Axis latency(ServerBenchResult result) {
        String name = result.objectives().size() > 1 ? result.objectives().get(1).replace(" ms (lower is better)", "")
                : "P99 latency";
        return new Axis("latency", Quantity.of(name, "ms"), ParetoSet.Goal.MINIMIZE,
                r -> r.point().latencyP99Ms() == null ? Double.NaN : r.point().latencyP99Ms());
    }

    private static List<Row> rows(ServerBenchResult result) {
        List<Row> out = new ArrayList<>();
        for (VariantResult v : result.variants()) {
            if (v.status() == VariantResult.Status.OK) {
                v.points().forEach(p -> out.add(new Row(v, p)));
            }
        }
        return out;
    }

    /**
     * @param result the benchmark
     * @param x      x axis
     * @param y      y axis
     * @param title  chart title
     * @param theme  light or dark
     * @return the Pareto chart of one projection
     */
    private static Region pareto(ServerBenchResult result, Axis x, Axis y, String title, ChartTheme theme) {
        ParetoChart c = new ParetoChart(title, x.quantity(), x.goal(), y.quantity(), y.goal(), theme);
        List<LabelledPoint> pts = new ArrayList<>();
        boolean levels = result.variants().stream().anyMatch(v -> v.points().size() > 1);
        List<Row> rows = rows(result);
        // variants of one grid share their base name: label them by their grid values only, to keep labels short
        String common = commonBase(rows);
        for (Row r : rows) {
            double px = x.value().applyAsDouble(r);
            double py = y.value().applyAsDouble(r);
            if (Double.isFinite(px) && Double.isFinite(py)) {
                String name = common != null ? r.variant().name().substring(common.length() + 1) : r.variant().name();
                String label = name + (levels ? " (" + r.point().level() + ")" : "")
                        + (r.point().paretoOptimal() ? " ★" : "");
                pts.add(new LabelledPoint(label, px, py));
            }
        }
        c.update(pts);
        return c.chart();
    }

    /** @return the base name all rows' variant names share before a blank (a grid's variants), or null */
    private static String commonBase(List<Row> rows) {
        if (rows.size() < 2) {
            return null;
        }
        String base = rows.get(0).variant().name().split(" ")[0];
        return rows.stream().allMatch(r -> r.variant().name().startsWith(base + " ")) ? base : null;
    }

    /**
     * @param result a benchmark with a heatmap
     * @param title  chart title
     * @param theme  light or dark
     * @return the batching heatmap: rows and columns are the grid's parameters, colour is output tokens/s
     * @throws IllegalArgumentException when the result has no heatmap or no measured cell
     */
    public static Region batchingHeatmap(ServerBenchResult result, String title, ChartTheme theme) {
        ServerBenchResult.Heatmap h = result.heatmap();
        if (h == null) {
            throw new IllegalArgumentException("the benchmark has no heatmap (no variant with a two-parameter grid)");
        }
        HeatmapChart c = new HeatmapChart(title, Quantity.of(h.columnParameter(), unitOf(h.columnParameter())),
                Quantity.of(h.rowParameter(), unitOf(h.rowParameter())), Quantity.of("output throughput", "tokens/s"), false, theme);
        String[][] marks = new String[h.rowValues().size()][h.columnValues().size()];
        for (int r = 0; r < marks.length; r++) {
            for (int k = 0; k < marks[r].length; k++) {
                marks[r][k] = h.marks().get(r).get(k);
            }
        }
        c.update(new HeatGrid(h.columnValues(), h.rowValues(), h.matrix()), marks);
        return c.chart();
    }

    /**
     * @param parameter a grid parameter name, e.g. {@code max_prefill_tokens}
     * @return its unit as far as the name tells: tokens, sequences, or {@code setting}
     */
    static String unitOf(String parameter) {
        String p = parameter.toLowerCase(Locale.ROOT);
        if (p.contains("token")) {
            return "tokens";
        }
        if (p.contains("seq") || p.contains("batch") || p.contains("parallel") || p.contains("concurren")) {
            return "sequences";
        }
        return "setting";
    }

    /**
     * One chart of a benchmark, ready to build (on the JavaFX thread, or offscreen through {@link ChartImages}).
     *
     * @param file  PNG file name the CLI writes it to, e.g. {@code pareto-server-bench-throughput-latency.png}
     * @param title the chart's title
     * @param build builds a new, filled chart each time it is called
     */
    public record BenchChart(String file, String title, Supplier<Region> build) {
    }

    /**
     * The benchmark's charts, in this order: the Pareto projection throughput vs P99 latency; with GPU memory for
     * every measured variant, throughput vs memory and latency vs memory; with a measured heatmap cell, the batching
     * heatmap. Empty when no variant was measured. The same list feeds the CLI's PNGs and the app's Results view.
     *
     * @param result  the benchmark
     * @param runName run name for titles, which then also explain the ★ and name a grid's variant; null for short
     *                titles (a view that says so next to the charts)
     * @param theme   light or dark
     * @return the charts (none built yet)
     */
    public static List<BenchChart> charts(ServerBenchResult result, String runName, ChartTheme theme) {
        List<BenchChart> out = new ArrayList<>();
        List<Row> rows = rows(result);
        if (rows.isEmpty()) {
            return out;
        }
        Axis lat = latency(result);
        boolean memory = rows.stream().allMatch(r -> r.variant().peakGpuMemoryGiB() != null);
        List<Axis[]> pairs = new ArrayList<>();
        pairs.add(new Axis[] {THROUGHPUT, lat});
        if (memory) {
            pairs.add(new Axis[] {THROUGHPUT, MEMORY});
            pairs.add(new Axis[] {lat, MEMORY});
        }
        for (Axis[] p : pairs) {
            String file = "pareto-" + result.label() + "-" + p[0].file() + "-" + p[1].file() + ".png";
            String title = "Pareto: " + p[0].quantity().name() + " vs " + p[1].quantity().name()
                    + (runName == null ? "" : " — " + runName + " (★ optimal in all objectives"
                    + (commonBase(rows) == null ? "" : "; variant " + commonBase(rows)) + ")");
            out.add(new BenchChart(file, title, () -> pareto(result, p[0], p[1], title, theme)));
        }
        ServerBenchResult.Heatmap h = result.heatmap();
        if (h != null && h.tokensPerSecond().stream().flatMap(List::stream).anyMatch(v -> v != null)) {
            String title = String.format(Locale.ROOT, "Output tokens/s by %s × %s", h.rowParameter(),
                    h.columnParameter()) + (runName == null ? "" : " — " + runName);
            out.add(new BenchChart("batching-heatmap-" + result.label() + ".png", title,
                    () -> batchingHeatmap(result, title, theme)));
        }
        return out;
    }

    /**
     * Writes the benchmark's charts ({@link #charts}, light theme) into the run directory:
     * {@code pareto-<label>-throughput-latency.png}, and with GPU memory {@code pareto-<label>-throughput-memory.png}
     * and {@code pareto-<label>-latency-memory.png}; with a heatmap {@code batching-heatmap-<label>.png}. Charts
     * without any point are skipped.
     *
     * @param result  the benchmark
     * @param dir     the run directory
     * @param runName run name for titles
     * @param widthPx width, px
     * @param heightPx height, px
     * @return the files written
     * @throws ChartExportException when rendering or writing fails
     */
    public static List<Path> write(ServerBenchResult result, Path dir, String runName, int widthPx, int heightPx)
            throws ChartExportException {
        List<Path> out = new ArrayList<>();
        for (BenchChart c : charts(result, runName, ChartTheme.LIGHT)) {
            Path f = dir.resolve(c.file());
            ChartImages.writePng(c.build(), widthPx, heightPx, 1.0, f);
            out.add(f);
        }
        return out;
    }
}
