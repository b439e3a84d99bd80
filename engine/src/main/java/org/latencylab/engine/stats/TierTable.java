package org.latencylab.engine.stats;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An ordered table of latency tiers: a value belongs to the first tier whose inclusive upper bound it does not
 * exceed. Tiers are judged on the P95 of a chosen metric (DESIGN.md, "Tier"). Immutable and thread-safe.
 *
 * <p>The default table (LatencyLab's design, editable by users): Tier-0 ≤ 80 ms, Tier-1 ≤ 300 ms, Tier-2 ≤ 1.2 s,
 * Tier-3 ≤ 4.5 s, Tier-4 above.
 */
public final class TierTable {
    /** The default table: Tier-0 ≤ 80 ms, Tier-1 ≤ 300 ms, Tier-2 ≤ 1.2 s, Tier-3 ≤ 4.5 s, Tier-4 above. */
    public static final TierTable DEFAULT = new TierTable(List.of(
            Tier.of("Tier-0", Duration.ofMillis(80)),
            Tier.of("Tier-1", Duration.ofMillis(300)),
            Tier.of("Tier-2", Duration.ofMillis(1200)),
            Tier.of("Tier-3", Duration.ofMillis(4500)),
            Tier.of("Tier-4", null)));

    private final List<Tier> tiers;

    /**
     * @param tiers tiers in order: at least one, unique names, strictly ascending bounds, only the last unbounded
     * @throws IllegalArgumentException naming the offending tier when a rule is broken
     */
    public TierTable(List<Tier> tiers) {
        if (tiers == null || tiers.isEmpty()) {
            throw new IllegalArgumentException("a tier table needs at least one tier");
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < tiers.size(); i++) {
            Tier t = tiers.get(i);
            if (!names.add(t.name())) {
                throw new IllegalArgumentException("tier names must be unique, '" + t.name() + "' appears twice");
            }
            boolean last = i == tiers.size() - 1;
            if (last && !t.unbounded()) {
                throw new IllegalArgumentException("the last tier must be unbounded, " + t.name() + " ends at "
                        + t.upperMillis() + " ms");
            }
            if (!last && t.unbounded()) {
                throw new IllegalArgumentException("only the last tier may be unbounded, " + t.name() + " is tier "
                        + i + " of " + tiers.size());
            }
            if (i > 0 && t.upperNanos() <= tiers.get(i - 1).upperNanos()) {
                throw new IllegalArgumentException("tier bounds must ascend: " + t.name() + " (" + t.upperMillis()
                        + " ms) is not above " + tiers.get(i - 1).name() + " (" + tiers.get(i - 1).upperMillis() + " ms)");
            }
        }
        this.tiers = List.copyOf(tiers);
    }

    /** @return the tiers in order (unmodifiable) */
    public List<Tier> tiers() {
        return tiers;
    }

    /**
     * @param p95Nanos the judged value (P95 of the chosen metric), nanoseconds, &gt;= 0
     * @return the first tier whose upper bound is &gt;= the value
     * @throws IllegalArgumentException when the value is negative
     */
    public Tier classify(long p95Nanos) {
        if (p95Nanos < 0) {
            throw new IllegalArgumentException("P95 must be >= 0 ns, was " + p95Nanos);
        }
        for (Tier t : tiers) {
            if (p95Nanos <= t.upperNanos()) {
                return t;
            }
        }
        throw new AssertionError("last tier is unbounded");
    }

    /** @param p95 judged value, not negative @return its tier @throws IllegalArgumentException when negative */
    public Tier classify(Duration p95) {
        return classify(p95.toNanos());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TierTable t && t.tiers.equals(tiers);
    }

    @Override
    public int hashCode() {
        return tiers.hashCode();
    }

    @Override
    public String toString() {
        return "TierTable" + tiers;
    }
}
