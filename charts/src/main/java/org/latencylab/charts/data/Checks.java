package org.latencylab.charts.data;

/** Argument checks shared by the input records; messages name the input and the bad value. */
final class Checks {

    private Checks() {
    }

    static void name(String name, String what) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException(what + " name must not be blank, was '" + name + "'");
        }
    }

    static void notNull(Object o, String what) {
        if (o == null) {
            throw new IllegalArgumentException(what + " must not be null");
        }
    }

    static void finite(double[] values, String what) {
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(what + " must be finite, was " + values[i] + " at index " + i);
            }
        }
    }
}
