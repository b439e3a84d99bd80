package org.latencylab.charts;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.latencylab.charts.data.SampleSet;

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
}
