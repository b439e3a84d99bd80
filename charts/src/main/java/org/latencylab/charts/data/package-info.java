/**
 * Inputs of the LatencyLab charts: small immutable records (series, sample sets, fits, tier bands, heat grids,
 * bar series, labelled points) and the plain math the charts need to turn them into points (empirical CDF,
 * nines scale, Pareto front).
 *
 * <p>Design: this package has no JavaFX in it, so the engine or a test can build chart inputs without a toolkit,
 * and the charts do not depend on the engine's statistics classes; a caller converts its results into these
 * records. Every record checks its arguments in its compact constructor and copies arrays, so a value handed to
 * a chart cannot change under it. Values carry no unit themselves: the unit belongs to the axis ({@link
 * org.latencylab.charts.data.Quantity}), and a record's values are in that axis's unit.
 */
package org.latencylab.charts.data;
