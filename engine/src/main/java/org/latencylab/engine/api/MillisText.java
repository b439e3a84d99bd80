package org.latencylab.engine.api;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * How LatencyLab writes a duration for people: {@code 0.42 ms}, {@code 12.3 ms}, {@code 412 ms}, {@code 2.67 s},
 * {@code 12.3 s}; always with the unit, a dot as decimal separator whatever the locale. The console summary, the HTML
 * report, the app and step results all write durations, and in particular SLO thresholds, through this class so that
 * one threshold reads the same everywhere. Stateless and thread-safe.
 */
public final class MillisText {
    /** Below this many milliseconds {@link #ms} rounds to {@code 0.00 ms}; {@link #threshold} keeps the digits. */
    private static final double SMALLEST_TWO_DECIMALS_MS = 0.01;

    private MillisText() {
    }

    /**
     * A measured duration, at a precision that suits its size: two decimals below 10 ms, one below 100 ms, none
     * below 1 s, seconds with two decimals below 10 s and one above.
     *
     * @param ms a duration in milliseconds; NaN, infinite or negative prints {@code –}
     * @return the text with its unit, e.g. {@code 3.00 s}
     */
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

    /**
     * A limit a user gave (an SLO threshold): as {@link #ms} from 0.01 ms up, so that a 3,000 ms limit reads
     * {@code 3.00 s} as the measured values next to it; below 0.01 ms with up to three significant digits
     * ({@code 0.001 ms}, {@code 0.00125 ms}) instead of {@code 0.00 ms}, so that the reader sees what was judged.
     *
     * @param ms a threshold in milliseconds; NaN, infinite or negative prints {@code –}, 0 prints {@code 0.00 ms}
     * @return the text with its unit
     */
    public static String threshold(double ms) {
        if (!Double.isFinite(ms) || ms <= 0 || ms >= SMALLEST_TWO_DECIMALS_MS) {
            return ms(ms);
        }
        return BigDecimal.valueOf(ms).round(new MathContext(3)).stripTrailingZeros().toPlainString() + " ms";
    }
}
