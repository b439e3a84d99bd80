package org.latencylab.engine.load;

/**
 * The default latency tier table (DESIGN.md): Tier-0 ≤ 80 ms, Tier-1 ≤ 300 ms, Tier-2 ≤ 1.2 s, Tier-3 ≤ 4.5 s,
 * Tier-4 above, judged on a P95. Thread-safe (stateless).
 */
final class Tiers {
    private static final long[] UPPER_NANOS = {80_000_000L, 300_000_000L, 1_200_000_000L, 4_500_000_000L};

    private Tiers() {
    }

    /** @param p95Nanos a P95, ns @return its tier name, e.g. {@code "Tier-1"} */
    static String tierOf(long p95Nanos) {
        for (int i = 0; i < UPPER_NANOS.length; i++) {
            if (p95Nanos <= UPPER_NANOS[i]) {
                return "Tier-" + i;
            }
        }
        return "Tier-" + UPPER_NANOS.length;
    }
}
