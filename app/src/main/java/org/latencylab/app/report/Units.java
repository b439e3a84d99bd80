package org.latencylab.app.report;

import java.util.Locale;

/**
 * Formats durations for people: {@code 0.42 ms}, {@code 12.3 ms}, {@code 412 ms}, {@code 2.67 s}.
 * Always with the unit; dot as decimal separator whatever the locale. Thread-safe.
 */
public final class Units {
    private Units() {
    }

    /**
     * @param ms milliseconds (NaN or negative prints "–")
     * @return text with unit, as {@link org.latencylab.engine.api.MillisText#ms} writes it
     */
    public static String ms(double ms) {
        return org.latencylab.engine.api.MillisText.ms(ms);
    }

    /**
     * The one way an SLO threshold is written (console, summary, HTML report, app): as {@link #ms} from 0.01 ms up,
     * with its significant digits below ({@code 0.001 ms}).
     *
     * @param ms the threshold in milliseconds (NaN or negative prints "–")
     * @return text with unit, as {@link org.latencylab.engine.api.MillisText#threshold} writes it
     */
    public static String threshold(double ms) {
        return org.latencylab.engine.api.MillisText.threshold(ms);
    }

    /** @param fraction in [0, 1] @return e.g. {@code 99.0 %} */
    public static String percent(double fraction) {
        return Double.isFinite(fraction) ? String.format(Locale.ROOT, "%.1f %%", fraction * 100) : "–";
    }
}
