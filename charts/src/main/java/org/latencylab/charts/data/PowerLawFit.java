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
 * @param c           the offset c of a fit {@code y = c + a · n^α}, in y units; 0 for the pure power law
 * @throws IllegalArgumentException on inconsistent numbers or arrays of different x
 */
public record PowerLawFit(String name, double a, double alpha, double alphaLow, double alphaHigh, double rSquared,
                          double confidence, Series curve, Series lower, Series upper, String intervalKind,
                          String goodnessName, double c) {

    /**
     * A pure power law ({@code c = 0}), parameters as in the canonical constructor.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public PowerLawFit(String name, double a, double alpha, double alphaLow, double alphaHigh, double rSquared,
                       double confidence, Series curve, Series lower, Series upper, String intervalKind,
                       String goodnessName) {
        this(name, a, alpha, alphaLow, alphaHigh, rSquared, confidence, curve, lower, upper, intervalKind,
                goodnessName, 0);
    }

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
        if (!Double.isFinite(a) || !Double.isFinite(alpha) || !Double.isFinite(c)) {
            throw new IllegalArgumentException("fit '" + name + "' needs finite a, α and c, was a=" + a + ", α=" + alpha
                    + ", c=" + c);
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
     * @param y what the chart's y axis shows, e.g. {@code TTFT [ms]}: the fit's y is in that unit
     * @return the legend text, e.g. {@code fit P50: TTFT ≈ 0.02134 ms · n^0.720 (α 95 % CI 0.709–0.731), R² 0.9981}
     *         or {@code fit P95: TTFT ≈ 1.48 ms · n^0.743 (α 95 % bootstrap CI 0.684–0.764), pseudo-R¹ 0.8480}: the
     *         law as the console and the report print it ({@link org.latencylab.engine.fit.PowerLawFit#formula}), α's
     *         interval with three decimals, R² with four (never rounded up to 1 when it is below 1)
     * @throws IllegalArgumentException when y has no name or no unit
     */
    public String legendText(Quantity y) {
        return String.format(Locale.ROOT, "fit %s: %s (α %s %%%s CI %.3f–%.3f), %s %s", name,
                org.latencylab.engine.fit.PowerLawFit.formula(y.name(), y.unit(), c, a, alpha), percent(confidence),
                intervalKind.isEmpty() ? "" : " " + intervalKind, alphaLow, alphaHigh, goodnessName,
                rSquaredText(rSquared));
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

}
