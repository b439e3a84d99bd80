package org.latencylab.app.report;

import org.latencylab.engine.server.ServerBenchResult;
import org.latencylab.engine.server.VariantResult;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints a GPU-server benchmark on the console: the variants table (status, throughput, latency, memory, tier,
 * Pareto mark), the Pareto front, server-side vs client-side TTFT, the roofline line per variant, the cost-vs-latency
 * table and the batching heatmap as a text matrix. Stateless; thread-safe.
 */
public final class ServerBenchReport {
    private ServerBenchReport() {
    }

    /**
     * @param r   the benchmark
     * @param out where to print
     */
    public static void print(ServerBenchResult r, PrintWriter out) {
        String lat = r.objectives().size() > 1 ? r.objectives().get(1).replace(" ms (lower is better)", "") : "P99";
        out.printf(Locale.ROOT, "%-3s %-48s %-12s %-15s %10s %7s %9s %10s %9s %10s %-7s %s%n", "#", "variant",
                "status", "level", "tokens/s", "req/s", "goodput", lat, "TPOT p50", "peak GPU", "tier", "Pareto");
        for (VariantResult v : r.variants()) {
            if (v.points().isEmpty()) {
                out.printf(Locale.ROOT, "%-3d %-48s %-12s %-15s %10s %7s %9s %10s %9s %10s %-7s%n", v.index(),
                        cut(v.name(), 48), status(v), "-", "-", "-", "-", "-", "-", gib(v.peakGpuMemoryGiB()), "-");
                continue;
            }
            for (VariantResult.Point p : v.points()) {
                out.printf(Locale.ROOT, "%-3d %-48s %-12s %-15s %10.1f %7.2f %9.2f %10s %9s %10s %-7s %s%n",
                        v.index(), cut(v.name(), 48), status(v), cut(p.level(), 15), p.outputTokensPerSecond(),
                        p.requestsPerSecond(), p.goodputRps(), ms(p.latencyP99Ms()), ms(p.tpotP50Ms()),
                        gib(v.peakGpuMemoryGiB()), p.tier() == null ? "-" : p.tier(), p.paretoOptimal() ? "★" : "");
            }
        }
        List<String> front = new ArrayList<>();
        for (VariantResult v : r.variants()) {
            for (VariantResult.Point p : v.points()) {
                if (p.paretoOptimal()) {
                    front.add(v.name() + (v.points().size() > 1 ? " (" + p.level() + ")" : ""));
                }
            }
        }
        out.println("Pareto front over [" + String.join("; ", r.objectives()) + "]: "
                + (front.isEmpty() ? "no measured variant" : String.join(", ", front)));
        for (VariantResult v : r.variants()) {
            for (VariantResult.Point p : v.points()) {
                if (p.serverTtftMeanMs() != null && p.clientTtftMeanMs() != null) {
                    out.printf(Locale.ROOT, "TTFT %s: client mean %s, server mean %s: %s outside the engine "
                                    + "(network, HTTP and queueing before the engine counts the request)%n", v.name(),
                            ms(p.clientTtftMeanMs()), ms(p.serverTtftMeanMs()),
                            ms(p.clientTtftMeanMs() - p.serverTtftMeanMs()));
                }
            }
        }
        if (r.roofline() != null) {
            ServerBenchResult.RooflineInfo rf = r.roofline();
            out.printf(Locale.ROOT, "Roofline: %s, %.0f GB/s; %s, %.1f GB of weights, %.0f KiB of KV per token; "
                            + "context %.0f tokens (prompt + half the output)%n", rf.gpu(), rf.bandwidthGBps(),
                    rf.model(), rf.weightBytes() / 1e9, rf.kvBytesPerToken() / 1024, rf.contextTokens());
            out.printf(Locale.ROOT, "  prefill of a %.0f-token prompt: TTFT ≥ %s (compute bound, 2 × parameters × "
                    + "tokens ÷ FP16 FLOP/s)%n", rf.promptTokens(), ms(rf.prefillBoundMs()));
            for (VariantResult v : r.variants()) {
                for (VariantResult.Point p : v.points()) {
                    if (p.tpotBoundMs() != null && (p.tpotP50Ms() == null || p.tpotOfBoundPct() == null)) {
                        // no successful request measured a TPOT here (e.g. the variant ran out of memory)
                        out.printf(Locale.ROOT, "  %s (%s): TPOT ≥ %s at batch %.1f; no TPOT measured%n", v.name(),
                                p.level(), ms(p.tpotBoundMs()), p.batchForBound());
                    } else if (p.tpotBoundMs() != null) {
                        out.printf(Locale.ROOT, "  %s (%s): TPOT ≥ %s at batch %.1f; measured TPOT (P50) %s is %s of "
                                        + "the bandwidth limit%n", v.name(), p.level(), ms(p.tpotBoundMs()),
                                p.batchForBound(), ms(p.tpotP50Ms()),
                                p.tpotOfBoundPct() == null ? "-" : String.format(Locale.ROOT, "%.0f %%",
                                        p.tpotOfBoundPct()));
                    }
                }
            }
        }
        boolean priced = r.variants().stream().anyMatch(v -> v.pricePerGpuHour() != null);
        if (priced) {
            out.println("Cost vs latency (price per GPU-hour × GPUs ÷ output tokens per hour):");
            out.printf(Locale.ROOT, "  %-48s %-14s %9s %4s %10s %13s %10s %-7s%n", "variant", "instance", "$/GPU-h",
                    "GPUs", "tokens/s", "$/1M tokens", lat, "tier");
            for (VariantResult v : r.variants()) {
                for (VariantResult.Point p : v.points()) {
                    out.printf(Locale.ROOT, "  %-48s %-14s %9s %4d %10.1f %13s %10s %-7s%n", cut(v.name(), 48),
                            v.instanceType() == null ? "-" : v.instanceType(),
                            v.pricePerGpuHour() == null ? "-" : String.format(Locale.ROOT, "%.2f",
                                    v.pricePerGpuHour()), v.gpus(), p.outputTokensPerSecond(),
                            p.costPerMillionTokens() == null ? "-" : String.format(Locale.ROOT, "%.2f",
                                    p.costPerMillionTokens()), ms(p.latencyP99Ms()), p.tier() == null ? "-" : p.tier());
                }
            }
        }
        ServerBenchResult.Heatmap h = r.heatmap();
        if (h != null) {
            out.printf(Locale.ROOT, "Output tokens/s by %s (rows) × %s (columns):%n", h.rowParameter(),
                    h.columnParameter());
            StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %12s", ""));
            h.columnValues().forEach(c -> head.append(String.format(Locale.ROOT, " %10s", c)));
            out.println(head);
            for (int i = 0; i < h.rowValues().size(); i++) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  %12s", h.rowValues().get(i)));
                for (int c = 0; c < h.columnValues().size(); c++) {
                    Double v = h.tokensPerSecond().get(i).get(c);
                    String mark = h.marks().get(i).get(c);
                    row.append(String.format(Locale.ROOT, " %10s", v != null ? String.format(Locale.ROOT, "%.1f", v)
                            : mark == null ? "-" : mark));
                }
                out.println(row);
            }
        }
        for (String n : r.notes()) {
            out.println("note: " + n);
        }
    }

    private static String status(VariantResult v) {
        return v.status().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String cut(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    private static String ms(Double v) {
        if (v == null || v.isNaN()) {
            return "-";
        }
        return Math.abs(v) >= 1000 ? String.format(Locale.ROOT, "%.2f s", v / 1000)
                : String.format(Locale.ROOT, "%.1f ms", v);
    }

    private static String gib(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.1f GiB", v);
    }
}
