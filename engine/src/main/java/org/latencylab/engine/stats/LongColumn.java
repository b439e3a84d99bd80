package org.latencylab.engine.stats;

import java.util.Arrays;

/**
 * A growable column of {@code long} samples (nanoseconds) with no object per value, stored compactly: a value in
 * [0, {@link Integer#MAX_VALUE}] ns (up to about 2.147 s, which holds nearly every TTFT, TPOT and inter-token gap)
 * takes 4 bytes in an {@code int} array, any other value (longer, or negative) 8 bytes in a separate {@code long}
 * array. A soak's inter-token gaps thus cost half the memory of a {@code long} array, and sorting them makes no copy of the column (both arrays are sorted in place over their used range;
 * the spare capacity is not trimmed). Values are exact: nothing is rounded or bucketed.
 *
 * <p>Not thread-safe: the owner synchronizes.
 */
final class LongColumn {
    private int[] small = new int[64];
    private int smallSize;
    private long[] wide = new long[0];
    private int wideSize;
    /** Values in {@link #wide} below 0, counted when sorted (they precede every value of {@link #small}). */
    private int negatives;
    private boolean sorted = true;

    /** @param v a value to append */
    void add(long v) {
        if (v >= 0 && v <= Integer.MAX_VALUE) {
            if (smallSize == small.length) {
                small = Arrays.copyOf(small, grown(smallSize, 1));
            }
            small[smallSize++] = (int) v;
        } else {
            if (wideSize == wide.length) {
                wide = Arrays.copyOf(wide, grown(wideSize, 1));
            }
            wide[wideSize++] = v;
        }
        sorted = false;
    }

    /** @param vs values to append */
    void addAll(long[] vs) {
        if (smallSize + vs.length > small.length) {
            small = Arrays.copyOf(small, grown(smallSize, vs.length));
        }
        for (long v : vs) {
            add(v);
        }
    }

    /** @param other a column whose values to append (not modified; any order) */
    void addAll(LongColumn other) {
        if (smallSize + other.smallSize > small.length) {
            small = Arrays.copyOf(small, grown(smallSize, other.smallSize));
        }
        System.arraycopy(other.small, 0, small, smallSize, other.smallSize);
        smallSize += other.smallSize;
        for (int i = 0; i < other.wideSize; i++) {
            add(other.wide[i]);
        }
        sorted = false;
    }

    /** 1.5x (bounded slack for big columns), at least 64 and at least what is needed. */
    private static int grown(int size, int more) {
        long want = Math.max(64, Math.max((long) size + more, size + (long) (size >> 1)));
        if (want > Integer.MAX_VALUE - 8) {
            if ((long) size + more > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("a column holds at most " + (Integer.MAX_VALUE - 8) + " values");
            }
            want = Integer.MAX_VALUE - 8;
        }
        return (int) want;
    }

    /** @return values held */
    int size() {
        return smallSize + wideSize;
    }

    /** Sorts the column in place (order of appends is not kept); a sorted column is left as it is. */
    void sort() {
        if (sorted) {
            return;
        }
        Arrays.sort(small, 0, smallSize);
        Arrays.sort(wide, 0, wideSize);
        int neg = 0;
        while (neg < wideSize && wide[neg] < 0) {
            neg++;
        }
        negatives = neg;
        sorted = true;
    }

    /**
     * @param rank 0-based rank, in [0, {@link #size()})
     * @return the value of that rank (the smallest at 0), after {@link #sort()}
     * @throws IllegalStateException     when values were added after the last sort
     * @throws IndexOutOfBoundsException when the rank is out of range
     */
    long sortedAt(int rank) {
        if (!sorted) {
            throw new IllegalStateException("column not sorted since the last add");
        }
        if (rank < 0 || rank >= size()) {
            throw new IndexOutOfBoundsException("rank " + rank + " of " + size() + " values");
        }
        if (rank < negatives) {
            return wide[rank];
        }
        int r = rank - negatives;
        return r < smallSize ? small[r] : wide[negatives + (r - smallSize)];
    }
}
