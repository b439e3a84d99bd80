package org.latencylab.app.report;

import org.latencylab.engine.load.GridResult;
import org.latencylab.engine.transport.TransportsResult;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * The console's tables of the step types with a matrix of their own (transports, grid), beside
 * {@link ConsoleReport}, which prints every step's percentiles, tier and SLOs. Stateless.
 */
final class ConsoleSteps {
    private ConsoleSteps() {
    }

    /**
     * The transports table: per network, connection and transport the P50 and P95 of first-screen latency, TTFT
     * and E2E (P50 with its 95 % interval), connection setup, bytes per response and per event, loss stalls.
     */
    static void printTransports(TransportsResult t, PrintWriter out) {
        out.println("first screen = " + t.screen() + " of answer text; P50 [95 % interval] / P95; times in ms");
        for (String p : t.profiles()) {
            out.println("  network " + p);
        }
        out.printf(Locale.ROOT, "%-12s %-5s %-16s %5s %-22s %7s %-22s %7s %-22s %7s %8s %9s %8s %7s%n", "network",
                "conn", "transport", "ok", "first screen P50", "P95", "TTFT P50", "P95", "E2E P50", "P95",
                "setup", "B/resp", "B/event", "stalls");
        for (TransportsResult.Cell c : t.cells()) {
            out.printf(Locale.ROOT, "%-12s %-5s %-16s %5s %-22s %7s %-22s %7s %-22s %7s %8s %9.0f %8.1f %7d%n",
                    c.network(), c.connection(), c.transportLabel(), c.succeeded() + "/" + c.requests(),
                    p50(c.firstScreen()), p95(c.firstScreen()), p50(c.ttft()), p95(c.ttft()), p50(c.e2e()),
                    p95(c.e2e()), num(c.setup().p50Ms()), c.bytesDownPerResponse(), c.bytesPerEvent(), c.stalls());
        }
        out.println("(B/resp: bytes server → client per request through the emulated link, headers, framing and TLS"
                + " included; setup: TCP connect + TLS, P50; P95 marked * rests on fewer than 10 samples above it)");
    }

    private static String p50(TransportsResult.Stat s) {
        if (s.p50Ms() == null) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%s [%s–%s]", num(s.p50Ms()), num(s.p50LowerMs()), num(s.p50UpperMs()));
    }

    private static String p95(TransportsResult.Stat s) {
        return s.p95Ms() == null ? "n/a" : num(s.p95Ms()) + (s.p95Enough() ? "" : "*");
    }

    private static String num(Double ms) {
        if (ms == null) {
            return "n/a";
        }
        return ms >= 100 ? String.format(Locale.ROOT, "%.0f", ms) : String.format(Locale.ROOT, "%.1f", ms);
    }

    /** A grid step: its matrix of the chosen statistic and the successful requests per cell. */
    static void printGrid(GridResult g, PrintWriter out) {
        // metric names as the charts write them (MetricNames: "P99 TTFT from intended start", not the raw id)
        out.printf(Locale.ROOT, "%s %s of %s by %s (rows) × %s (columns)%n",
                org.latencylab.charts.MetricNames.metricWithStatistic(g.metric()), "[" + g.unit() + "]",
                g.label(), org.latencylab.charts.MetricNames.name(g.rowAxis())
                        + (g.rowUnit().isEmpty() ? "" : " [" + g.rowUnit() + "]"),
                org.latencylab.charts.MetricNames.name(g.columnAxis())
                        + (g.columnUnit().isEmpty() ? "" : " [" + g.columnUnit() + "]"));
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%12s", g.rowAxis()));
        for (Double c : g.columnValues()) {
            head.append(String.format(Locale.ROOT, " %12s", ConsoleReport.trim(c)));
        }
        out.println(head);
        double[][] m = g.matrix();
        for (int row = 0; row < m.length; row++) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%12s", ConsoleReport.trim(g.rowValues().get(row))));
            for (double v : m[row]) {
                line.append(String.format(Locale.ROOT, " %12s", Double.isNaN(v) ? "n/a"
                        : "ms".equals(g.unit()) ? Units.ms(v) : String.format(Locale.ROOT, "%.3g", v)));
            }
            out.println(line);
        }
        long[][] n = new long[m.length][m.length == 0 ? 0 : m[0].length];
        for (GridResult.Cell cell : g.cells()) {
            n[cell.row()][cell.column()] = cell.totals().succeeded();
        }
        out.println("successful requests per cell:");
        for (int row = 0; row < n.length; row++) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%12s", ConsoleReport.trim(g.rowValues().get(row))));
            for (long c : n[row]) {
                line.append(String.format(Locale.ROOT, " %12d", c));
            }
            out.println(line);
        }
        out.println("(a high percentile from a cell with few successful requests is an estimate near its maximum)");
    }
}
