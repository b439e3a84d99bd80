package org.latencylab.charts.data;

import java.util.Locale;

/**
 * A fitted power law {@code y = a · n^α} with its confidence band, as drawn by the power-law chart. The fitting
 * itself happens elsewhere (the engine's fit package); this record only carries the numbers and the curve points.
 * Arrays are copied, so the record is immutable.
 *
 * @param name        what was fitted, e.g. {@code "P50"}; not blank
 * @param a           coefficient a, in y units per n^α; finite
 * @param alpha       exponent α; finite
 * @param alphaLow    lower end of α's confidence interval; <= alpha
 * @param alphaHigh   upper end of α's confidence interval; >= alpha
 * @param rSquared    coefficient of determination of the fit (in log space or linear, as the fitter reports)
 * @param confidence  confidence level of interval and band, in (0, 1), usually 0.95
 * @param curve       the fitted curve at chosen x values (x > 0, y > 0 for log axes)
 * @param lower       lower edge of the band, same x as {@code curve}
 * @param upper       upper edge of the band, same x as {@code curve}
 * @param intervalKind how α's interval was made, shown before "CI" in the legend, e.g. {@code "bootstrap"}; empty
 *                    for the parametric (Student-t) interval; never null
 * @param goodnessName the name of {@code rSquared} in the legend: {@code "R²"}, or e.g. {@code "pseudo-R¹"} for a
 *                    quantile-regression fit; not blank
 * @throws IllegalArgumentException on inconsistent numbers or arrays of different x
 */
public record PowerLawFit(String name, double a, double alpha, double alphaLow, double alphaHigh, double rSquared,
                          double confidence, Series curve, Series lower, Series upper, String intervalKind,
                          String goodnessName) {

    /**
     * A fit with a parametric interval and R², parameters as in the canonical constructor.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public PowerLawFit(String name, double a, double alpha, double alphaLow, double alphaHigh, double rSquared,
                       double confidence, Series curve, Series lower, Series upper) {
        this(name, a, alpha, alphaLow, alphaHigh, rSquared, confidence, curve, lower, upper, "", "R²");
    }

    public PowerLawFit {
        intervalKind = intervalKind == null ? "" : intervalKind.strip();
        if (goodnessName == null || goodnessName.isBlank()) {
            throw new IllegalArgumentException("fit '" + name + "': goodnessName must not be blank");
        }
        Checks.name(name, "fit");
        if (!Double.isFinite(a) || !Double.isFinite(alpha)) {
            throw new IllegalArgumentException("fit '" + name + "' needs finite a and α, was a=" + a + ", α=" + alpha);
        }
        if (!(alphaLow <= alpha && alpha <= alphaHigh)) {
            throw new IllegalArgumentException("fit '" + name + "': α's interval must contain α, was " + alphaLow
                    + " .. " + alphaHigh + " around " + alpha);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("fit '" + name + "': confidence must be in (0, 1), was " + confidence);
        }
        Checks.notNull(curve, "curve of fit '" + name + "'");
        Checks.notNull(lower, "lower band of fit '" + name + "'");
        Checks.notNull(upper, "upper band of fit '" + name + "'");
        if (!java.util.Arrays.equals(curve.x(), lower.x()) || !java.util.Arrays.equals(curve.x(), upper.x())) {
            throw new IllegalArgumentException("fit '" + name + "': curve, lower and upper band need the same x values");
        }
    }

    /**
     * @return the legend text, e.g. {@code fit P50: 0.0213·n^0.720 (α 95 % CI 0.709–0.731), R² 0.9981} or
     *         {@code fit P95: 1.48·n^0.743 (α 95 % bootstrap CI 0.684–0.764), pseudo-R¹ 0.8480}: α and its interval
     *         with three decimals, R² with four (never rounded up to 1 when it is below 1)
     */
    public String legendText() {
        return String.format(Locale.ROOT, "fit %s: %s·n^%.3f (α %s %%%s CI %.3f–%.3f), %s %s", name,
                significant(a), alpha, percent(confidence), intervalKind.isEmpty() ? "" : " " + intervalKind,
                alphaLow, alphaHigh, goodnessName, rSquaredText(rSquared));
    }

    /** @return the legend text of the band, e.g. {@code 95 % confidence band of the P50 fit} */
    public String bandLegendText() {
        return percent(confidence) + " % confidence band of the " + name + " fit";
    }

    /**
     * @param r2 a coefficient of determination
     * @return four decimals ({@code 0.9981}); {@code > 0.9999} for values below 1 that would print as 1.0000
     */
    static String rSquaredText(double r2) {
        String s = String.format(Locale.ROOT, "%.4f", r2);
        return r2 < 1 && s.equals("1.0000") ? "> 0.9999" : s;
    }

    private static String percent(double confidence) {
        double p = confidence * 100;
        return p == Math.rint(p) ? Long.toString(Math.round(p)) : String.format(Locale.ROOT, "%.1f", p);
    }

    private static String significant(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros()
                .toPlainString();
    }
}
