package org.latencylab.engine.sim;

/**
 * Range checks shared by the {@link SimProfile} records and the profile file reader, so that a bad value reads
 * the same way whether it came from a file or from code: {@code field 'prefill.alpha' must be a number in (0, 3],
 * was 5.0}. Stateless.
 */
final class ProfileCheck {
    private ProfileCheck() {
    }

    /**
     * @param field   dotted field name as written in a profile file, e.g. {@code prefill.alpha}
     * @param value   the value
     * @param min     lower bound
     * @param minOpen whether the lower bound itself is excluded
     * @param max     upper bound
     * @return {@code value}
     * @throws IllegalArgumentException when the value is NaN, infinite or out of range
     */
    static double number(String field, double value, double min, boolean minOpen, double max) {
        boolean ok = Double.isFinite(value) && (minOpen ? value > min : value >= min) && value <= max;
        if (!ok) {
            throw new IllegalArgumentException("field '" + field + "' must be " + numberForm(min, minOpen, max)
                    + ", was " + value);
        }
        return value;
    }

    /**
     * @param field dotted field name
     * @param value the value
     * @param min   smallest allowed value (inclusive)
     * @param max   largest allowed value (inclusive)
     * @return {@code value}
     * @throws IllegalArgumentException when out of range
     */
    static int integer(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("field '" + field + "' must be " + integerForm(min, max)
                    + ", was " + value);
        }
        return (int) value;
    }

    /** @return the expected form of a number, e.g. {@code a number in (0, 3]} */
    static String numberForm(double min, boolean minOpen, double max) {
        return "a number in " + (minOpen ? "(" : "[") + plain(min) + ", " + plain(max) + "]";
    }

    /** @return the expected form of an integer, e.g. {@code an integer in [1, 100000]} */
    static String integerForm(long min, long max) {
        return "an integer in [" + min + ", " + max + "]";
    }

    private static String plain(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
