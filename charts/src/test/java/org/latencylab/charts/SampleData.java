package org.latencylab.charts;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.regression.SimpleRegression;

import org.latencylab.charts.data.BarSeries;
import org.latencylab.charts.data.HeatGrid;
import org.latencylab.charts.data.LabelledPoint;
import org.latencylab.charts.data.PowerLawFit;
import org.latencylab.charts.data.SampleSet;
import org.latencylab.charts.data.Series;
import org.latencylab.charts.data.TierBand;

/** Realistic, seeded chart inputs for samples and tests (lognormal latencies, power-law prefill). */
final class SampleData {

    private SampleData() {
    }

    /** Lognormal samples with the given median [ms] and log-space sigma, plus a share of slow outliers. */
    static SampleSet lognormal(String name, int n, double medianMs, double sigma, double outlierShare, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            double z = gaussian(rnd);
            double x = medianMs * Math.exp(sigma * z);
            if (rnd.nextDouble() < outlierShare) {
                x *= 3 + 4 * rnd.nextDouble();
            }
            v[i] = x;
        }
        return new SampleSet(name, v);
    }

    static double gaussian(SplittableRandom rnd) {
        // Box-Muller
        double u1 = 1 - rnd.nextDouble();
        double u2 = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }

    static List<SampleSet> ttftSets() {
        List<SampleSet> sets = new ArrayList<>();
        sets.add(lognormal("vLLM 8k", 2000, 180, 0.25, 0.01, 1));
        sets.add(lognormal("SGLang 8k", 2000, 150, 0.35, 0.02, 2));
        sets.add(lognormal("cloud API", 500, 420, 0.45, 0.03, 3));
        return sets;
    }

    static final double[] CONTEXTS = {1024, 2048, 4096, 8192, 16384, 32768, 65536};

    /** Measured P50/P95 TTFT [ms] against context tokens: prefill ~ a·n^0.72 with noise. */
    static List<Series> contextSweep() {
        SplittableRandom rnd = new SplittableRandom(7);
        double[] p50 = new double[CONTEXTS.length];
        double[] p95 = new double[CONTEXTS.length];
        for (int i = 0; i < CONTEXTS.length; i++) {
            double base = 0.21 * Math.pow(CONTEXTS[i], 0.72);
            p50[i] = base * Math.exp(0.04 * gaussian(rnd));
            p95[i] = 1.45 * base * Math.pow(CONTEXTS[i] / 1024.0, 0.05) * Math.exp(0.05 * gaussian(rnd));
        }
        return List.of(new Series("P50 TTFT", CONTEXTS, p50), new Series("P95 TTFT", CONTEXTS, p95));
    }

    /**
     * Least-squares fit of log y = log a + α log n with a 95 % interval on α and a 95 % confidence band of the
     * mean, as the engine's fitter would report it (test stand-in).
     */
    static PowerLawFit fit(Series s, String name) {
        SimpleRegression r = new SimpleRegression();
        double[] x = s.x();
        double[] y = s.y();
        for (int i = 0; i < x.length; i++) {
            r.addData(Math.log(x[i]), Math.log(y[i]));
        }
        double half = r.getSlopeConfidenceInterval(0.05);
        double t = new TDistribution(r.getN() - 2).inverseCumulativeProbability(0.975);
        double meanLx = 0;
        for (double v : x) {
            meanLx += Math.log(v) / x.length;
        }
        int k = 40;
        double[] cx = new double[k];
        double[] cy = new double[k];
        double[] lo = new double[k];
        double[] hi = new double[k];
        double l0 = Math.log(x[0]);
        double l1 = Math.log(x[x.length - 1]);
        for (int i = 0; i < k; i++) {
            double lx = l0 + (l1 - l0) * i / (k - 1);
            double ly = r.getIntercept() + r.getSlope() * lx;
            double se = Math.sqrt(r.getMeanSquareError() * (1.0 / r.getN()
                    + (lx - meanLx) * (lx - meanLx) / r.getXSumSquares()));
            cx[i] = Math.exp(lx);
            cy[i] = Math.exp(ly);
            lo[i] = Math.exp(ly - t * se);
            hi[i] = Math.exp(ly + t * se);
        }
        return new PowerLawFit(name, Math.exp(r.getIntercept()), r.getSlope(), r.getSlope() - half,
                r.getSlope() + half, r.getRSquare(), 0.95, new Series(name, cx, cy), new Series(name, cx, lo),
                new Series(name, cx, hi));
    }

    /** P50/P95/P99 TTFT [ms] per second over a 120 s load test with a burst at 60..75 s. */
    static List<Series> latencyOverTime() {
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 120;
        double[] t = new double[n];
        double[] p50 = new double[n];
        double[] p95 = new double[n];
        double[] p99 = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = i + 1;
            double load = i >= 60 && i < 75 ? 2.6 : 1.0;
            double wobble = Math.exp(0.06 * gaussian(rnd));
            p50[i] = 140 * load * wobble;
            p95[i] = 230 * load * load * wobble * Math.exp(0.08 * gaussian(rnd));
            p99[i] = 320 * load * load * wobble * Math.exp(0.15 * gaussian(rnd));
        }
        p99[30] = Double.NaN; // an interval without enough samples for a P99
        return List.of(new Series("P50", t, p50), new Series("P95", t, p95), new Series("P99", t, p99));
    }

    static List<TierBand> defaultTiers() {
        return List.of(new TierBand("Tier-0 ≤ 80 ms", 0, 80), new TierBand("Tier-1 ≤ 300 ms", 80, 300),
                new TierBand("Tier-2 ≤ 1.2 s", 300, 1200), new TierBand("Tier-3 ≤ 4.5 s", 1200, 4500));
    }

    /** P99 TTFT [ms] over concurrency × context; one cell not measured. */
    static HeatGrid heat() {
        List<String> conc = List.of("1", "2", "4", "8", "16", "32", "64");
        List<String> ctx = List.of("2k", "4k", "8k", "16k", "32k");
        double[] tokens = {2048, 4096, 8192, 16384, 32768};
        int[] c = {1, 2, 4, 8, 16, 32, 64};
        double[][] z = new double[ctx.size()][conc.size()];
        for (int j = 0; j < ctx.size(); j++) {
            for (int i = 0; i < conc.size(); i++) {
                double prefill = 0.21 * Math.pow(tokens[j], 0.72);
                double queue = Math.max(0, c[i] - 8) * prefill * 0.35;
                z[j][i] = Math.round(prefill * (1 + 0.05 * c[i]) + queue);
            }
        }
        z[4][6] = Double.NaN; // 64 × 32k ran out of KV cache
        return new HeatGrid(conc, ctx, z);
    }

    static List<String> networkProfiles() {
        return List.of("loopback", "stable 4G", "weak 3G", "high jitter");
    }

    /** First-screen latency [ms] (time until 400 characters arrived), SSE vs gRPC, per profile. */
    static List<BarSeries> firstScreen() {
        return List.of(new BarSeries("SSE", new double[] {212, 348, 1184, 603}),
                new BarSeries("gRPC stream", new double[] {205, 331, 1012, 571}),
                new BarSeries("non-stream", new double[] {1830, 1975, 3420, 2288}));
    }

    /** vLLM configuration grid: (throughput [tokens/s], P99 TTFT [ms]) per max batch × max prefill. */
    static List<LabelledPoint> configGrid() {
        List<LabelledPoint> pts = new ArrayList<>();
        int[] batch = {16, 32, 64, 128};
        int[] prefill = {2048, 8192};
        for (int b : batch) {
            for (int p : prefill) {
                double thr = 420 * Math.pow(b, 0.62) * (p == 8192 ? 1.12 : 1.0);
                double p99 = 180 + 2.4 * b * (p == 8192 ? 1.35 : 1.0) + (p == 2048 ? 60 : 0);
                pts.add(new LabelledPoint("b" + b + "/p" + (p / 1024) + "k", Math.round(thr), Math.round(p99)));
            }
        }
        return pts;
    }
}
