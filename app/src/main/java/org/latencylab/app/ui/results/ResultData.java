package org.latencylab.app.ui.results;

import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.experiment.RunStatistics;
import org.latencylab.engine.experiment.StatsSettings;
import org.latencylab.engine.fit.PowerLawFit;
import org.latencylab.engine.fit.PowerLawFitter;
import org.latencylab.engine.stats.MetricSummary;
import org.latencylab.engine.stats.PercentileEstimate;
import org.latencylab.engine.stats.StatsReport;
import org.latencylab.engine.stats.Summaries;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the results view draws, computed from request records in one pass. Pure and immutable (arrays are
 * not copied on access: treat them as read-only); compute it off the UI thread.
 *
 * @param records      number of records it was computed from
 * @param ttftMs       TTFT of successful requests, ms, ascending
 * @param e2eMs        E2E of successful requests, ms, ascending
 * @param timeSeconds  centre of each one-second bin since the first send, s
 * @param ttftP50Ms    median TTFT of the requests sent in each bin, ms (NaN = no request)
 * @param ttftMaxMs    largest TTFT in each bin, ms (NaN = no request)
 * @param sweepPoints  one per context length of sweep requests (label starting with {@code sweep}), ascending
 * @param fit          power law {@code P50 TTFT [ms] = a·n^α} over the sweep points, or null (fewer than 3 lengths)
 * @param report       the engine's statistics (summaries with intervals, SLOs, tier, errors by kind)
 */
public record ResultData(int records, double[] ttftMs, double[] e2eMs, double[] timeSeconds, double[] ttftP50Ms,
                         double[] ttftMaxMs, List<SweepPoint> sweepPoints, PowerLawFit fit, StatsReport report) {

    /** Nothing measured yet. */
    public static final ResultData EMPTY = compute(List.of(), StatsSettings.DEFAULTS);

    /**
     * @param records request records in any order
     * @param stats   tier table and SLOs to judge with
     * @return the data
     */
    public static ResultData compute(List<RequestRecord> records, StatsSettings stats) {
        List<RequestRecord> ok = records.stream().filter(RequestRecord::succeeded).toList();
        double[] ttft = ok.stream().mapToLong(RequestRecord::ttftNanos).filter(v -> v >= 0).mapToDouble(v -> v / 1e6)
                .sorted().toArray();
        double[] e2e = ok.stream().mapToLong(RequestRecord::e2eNanos).filter(v -> v >= 0).mapToDouble(v -> v / 1e6)
                .sorted().toArray();

        long origin = records.stream().mapToLong(RequestRecord::sendNanos).filter(v -> v != RequestRecord.UNSET)
                .min().orElse(0);
        TreeMap<Integer, List<Double>> bins = new TreeMap<>();
        for (RequestRecord r : ok) {
            if (r.ttftNanos() >= 0 && r.sendNanos() != RequestRecord.UNSET) {
                int bin = (int) ((r.sendNanos() - origin) / 1_000_000_000L);
                bins.computeIfAbsent(bin, k -> new ArrayList<>()).add(r.ttftNanos() / 1e6);
            }
        }
        int nBins = bins.isEmpty() ? 0 : bins.lastKey() + 1;
        double[] t = new double[nBins];
        double[] p50 = new double[nBins];
        double[] max = new double[nBins];
        for (int i = 0; i < nBins; i++) {
            t[i] = i + 0.5;
            List<Double> v = bins.get(i);
            if (v == null) {
                p50[i] = Double.NaN;
                max[i] = Double.NaN;
            } else {
                double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                p50[i] = a[(int) Math.ceil(0.5 * a.length) - 1]; // nearest rank, as the engine's summaries
                max[i] = a[a.length - 1];
            }
        }

        TreeMap<Integer, List<RequestRecord>> byLength = new TreeMap<>();
        for (RequestRecord r : records) {
            if (r.label().startsWith("sweep") && r.contextTokens() > 0) {
                byLength.computeIfAbsent(r.contextTokens(), k -> new ArrayList<>()).add(r);
            }
        }
        List<SweepPoint> points = new ArrayList<>();
        for (Map.Entry<Integer, List<RequestRecord>> e : byLength.entrySet()) {
            long[] v = e.getValue().stream().filter(RequestRecord::succeeded).mapToLong(RequestRecord::ttftNanos)
                    .filter(x -> x >= 0).toArray();
            if (v.length == 0) {
                continue;
            }
            MetricSummary s = Summaries.of("ttft", v);
            PercentileEstimate m = s.p(50.0);
            points.add(new SweepPoint(e.getKey(), v.length, m.valueMillis(), m.lowerMillis(), m.upperMillis(),
                    s.pMillis(95.0)));
        }
        PowerLawFit fit = null;
        if (points.size() >= 3) {
            try {
                fit = PowerLawFitter.fit(points.stream().mapToDouble(SweepPoint::contextTokens).toArray(),
                        points.stream().mapToDouble(SweepPoint::p50Ms).toArray(), false);
            } catch (IllegalArgumentException e) {
                fit = null; // e.g. all points equal: no fit, the points are still drawn
            }
        }
        // like the engine: SLOs are not judged on sweeps, whose context lengths differ by design
        boolean allSweep = !records.isEmpty() && records.stream().allMatch(r -> r.label().startsWith("sweep"));
        StatsReport report = RunStatistics.summarize(records, allSweep ? stats.withoutSlos() : stats);
        return new ResultData(records.size(), ttft, e2e, t, p50, max, List.copyOf(points), fit, report);
    }

    /**
     * One context length of a sweep, over its successful requests.
     *
     * @param contextTokens prompt length, tokens
     * @param succeeded     successful requests
     * @param p50Ms         median TTFT, ms
     * @param p50LowerMs    lower end of its 95 % interval, ms
     * @param p50UpperMs    upper end, ms
     * @param p95Ms         P95 TTFT, ms
     */
    public record SweepPoint(int contextTokens, int succeeded, double p50Ms, double p50LowerMs, double p50UpperMs,
                             double p95Ms) {
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResultData d && d.records == records && Arrays.equals(d.ttftMs, ttftMs)
                && Arrays.equals(d.e2eMs, e2eMs) && d.sweepPoints.equals(sweepPoints);
    }

    @Override
    public int hashCode() {
        return records * 31 + Arrays.hashCode(ttftMs);
    }

    @Override
    public String toString() {
        return "ResultData[records=" + records + ", ttft=" + ttftMs.length + ", sweepPoints=" + sweepPoints.size()
                + ", fit=" + fit + "]";
    }
}
