package org.latencylab.charts;

import java.math.BigDecimal;
import java.math.MathContext;

import javafx.util.StringConverter;

/**
 * Short, plain tick and value labels ({@code 250}, {@code 1.5}, {@code 2500}, {@code 32k}, {@code 1.2M}) instead of
 * ChartFX's {@code 1E3} on log axes and {@code 2.5E3} on linear ones. Stateless; thread-safe.
 */
final class NumberLabels extends StringConverter<Number> {

    static final NumberLabels INSTANCE = new NumberLabels();

    @Override
    public String toString(Number number) {
        return tick(number.doubleValue());
    }

    @Override
    public Number fromString(String string) {
        throw new UnsupportedOperationException("tick labels are not parsed");
    }

    /**
     * @param v a tick value
     * @return {@code 250}, {@code 2500}, {@code 25k}, {@code 2.5M}: plain below 10 000, then k and M
     */
    static String tick(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        double abs = Math.abs(v);
        if (abs >= 1e6) {
            return significant(v / 1e6, 3) + "M";
        }
        if (abs >= 1e4) {
            return significant(v / 1e3, 3) + "k";
        }
        return significant(v, 4);
    }

    /**
     * @param v a measured value written into a chart (bar top, heat-map cell)
     * @return the value with three significant digits, integers below 10 000 in full ({@code 1210}, {@code 12.5},
     *         {@code 0.75}, {@code 25.4k})
     */
    static String value(double v) {
        if (!Double.isFinite(v)) {
            return "";
        }
        double abs = Math.abs(v);
        if (abs >= 1e4) {
            return tick(v);
        }
        if (abs >= 1000) {
            return Long.toString(Math.round(v));
        }
        return significant(v, 3);
    }

    private static String significant(double v, int digits) {
        if (v == 0) {
            return "0";
        }
        return new BigDecimal(v).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
    }
}
