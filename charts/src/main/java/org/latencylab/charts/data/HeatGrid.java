package org.latencylab.charts.data;

import java.util.List;

/**
 * A matrix of values over two categorical axes, e.g. P99 TTFT [ms] over concurrency (x) × context length (y).
 * {@code z[row][column]} is the value at {@code yLabels[row]}, {@code xLabels[column]}; row 0 is drawn at the
 * bottom. NaN marks a cell that was not measured. The matrix is copied, so the grid is immutable.
 *
 * @param xLabels column labels, e.g. {@code ["1", "4", "16"]}; at least one
 * @param yLabels row labels, e.g. {@code ["2k", "8k", "32k"]}; at least one
 * @param z       values, {@code yLabels.size()} rows of {@code xLabels.size()} columns; finite or NaN, at least one
 *                finite
 * @throws IllegalArgumentException when the shape does not match the labels or no cell has a value
 */
public record HeatGrid(List<String> xLabels, List<String> yLabels, double[][] z) {

    public HeatGrid {
        Checks.notNull(xLabels, "xLabels");
        Checks.notNull(yLabels, "yLabels");
        Checks.notNull(z, "z");
        xLabels = List.copyOf(xLabels);
        yLabels = List.copyOf(yLabels);
        if (xLabels.isEmpty() || yLabels.isEmpty()) {
            throw new IllegalArgumentException("heat grid needs at least one column and one row, was "
                    + xLabels.size() + " × " + yLabels.size());
        }
        if (z.length != yLabels.size()) {
            throw new IllegalArgumentException("heat grid has " + yLabels.size() + " row labels but " + z.length
                    + " rows of values");
        }
        double[][] copy = new double[z.length][];
        boolean any = false;
        for (int r = 0; r < z.length; r++) {
            if (z[r] == null || z[r].length != xLabels.size()) {
                throw new IllegalArgumentException("row " + r + " of the heat grid must have " + xLabels.size()
                        + " values, was " + (z[r] == null ? "null" : z[r].length));
            }
            for (double v : z[r]) {
                if (Double.isInfinite(v)) {
                    throw new IllegalArgumentException("heat grid row " + r + " holds an infinite value");
                }
                any |= !Double.isNaN(v);
            }
            copy[r] = z[r].clone();
        }
        if (!any) {
            throw new IllegalArgumentException("heat grid has no measured cell (all NaN)");
        }
        z = copy;
    }

    /** @return a deep copy of the values, {@code [row][column]} */
    @Override
    public double[][] z() {
        double[][] copy = new double[z.length][];
        for (int r = 0; r < z.length; r++) {
            copy[r] = z[r].clone();
        }
        return copy;
    }

    /** @param row row index @param column column index @return the value there, NaN if not measured */
    public double value(int row, int column) {
        return z[row][column];
    }

    /** @return smallest measured value */
    public double min() {
        double m = Double.POSITIVE_INFINITY;
        for (double[] row : z) {
            for (double v : row) {
                if (v < m) {
                    m = v;
                }
            }
        }
        return m;
    }

    /** @return largest measured value */
    public double max() {
        double m = Double.NEGATIVE_INFINITY;
        for (double[] row : z) {
            for (double v : row) {
                if (v > m) {
                    m = v;
                }
            }
        }
        return m;
    }
}
