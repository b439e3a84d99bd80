package org.latencylab.app.report;

import java.util.Locale;

/**
 * Formats durations for people: {@code 0.42 ms}, {@code 12.3 ms}, {@code 412 ms}, {@code 2.67 s}.
 * Always with the unit; dot as decimal separator whatever the locale. Thread-safe.
 */
public final class Units {
    private Units() {
    }

    /** @param ms milliseconds (NaN or negative prints "–") @return text with unit */
    public static String ms(double ms) {
        if (!Double.isFinite(ms) || ms < 0) {
            return "–";
        }
        if (ms >= 10_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000);
        }
        if (ms >= 1_000) {
            return String.format(Locale.ROOT, "%.2f s", ms / 1000);
        }
        if (ms >= 100) {
            return String.format(Locale.ROOT, "%.0f ms", ms);
        }
        if (ms >= 10) {
            return String.format(Locale.ROOT, "%.1f ms", ms);
        }
        return String.format(Locale.ROOT, "%.2f ms", ms);
    }

    /** @param fraction in [0, 1] @return e.g. {@code 99.0 %} */
    public static String percent(double fraction) {
        return Double.isFinite(fraction) ? String.format(Locale.ROOT, "%.1f %%", fraction * 100) : "–";
    }
}
