package org.latencylab.engine.stats;

import java.util.Arrays;

/**
 * A growable column of {@code long} samples (nanoseconds), kept as one primitive array so that a soak's millions of
 * inter-token gaps cost 8 bytes each and no object per value. Not thread-safe: the owner synchronizes.
 */
final class LongColumn {
    private long[] values = new long[64];
    private int size;

    /** @param v a value to append */
    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, Math.max(64, size + (size >> 1))); // 1.5x: bounded slack for big columns
        }
        values[size++] = v;
    }

    /** @param vs values to append */
    void addAll(long[] vs) {
        if (size + vs.length > values.length) {
            values = Arrays.copyOf(values, Math.max(size + vs.length, size + (size >> 1)));
        }
        System.arraycopy(vs, 0, values, size, vs.length);
        size += vs.length;
    }

    /** @return values held */
    int size() {
        return size;
    }

    /** Sorts the column in place (order of appends is not kept) and trims the spare capacity. */
    void sort() {
        if (values.length != size) {
            values = Arrays.copyOf(values, size);
        }
        Arrays.sort(values);
    }

    /** @return the backing array, exactly {@link #size()} long after {@link #sort()}; do not modify */
    long[] sortedView() {
        sort();
        return values;
    }
}
