package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonIgnore;

import org.latencylab.engine.run.StepResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A metric over a grid of load steps: rows (concurrency or rate) × columns (prompt length), e.g. P99 TTFT in ms.
 * Holds what a heatmap needs — axis names, units and values, the matrix, the metric's name and unit — and each
 * cell's totals. Immutable and thread-safe.
 *
 * @param label        step label
 * @param rowAxis      row axis name: {@code concurrency} or {@code rate}
 * @param rowUnit      its unit: {@code requests} (in flight) or {@code req/s}
 * @param rowValues    row values in order (unmodifiable)
 * @param columnAxis   column axis name: {@code context}
 * @param columnUnit   its unit: {@code tokens}
 * @param columnValues column values in order (unmodifiable)
 * @param metric       what each cell holds, e.g. {@code "ttft_from_intended p99"}
 * @param unit         its unit: {@code ms}, {@code req/s} or {@code fraction}
 * @param values       {@code rowValues.size()} rows of {@code columnValues.size()} values; null where the cell has
 *                     no sample (not run, cancelled, or no request produced the metric) (unmodifiable)
 * @param cells        totals of every cell that ran, row-major (unmodifiable)
 * @throws IllegalArgumentException when the matrix shape does not match the axes
 */
public record GridResult(String label, String rowAxis, String rowUnit, List<Double> rowValues, String columnAxis,
                         String columnUnit, List<Double> columnValues, String metric, String unit,
                         List<List<Double>> values, List<Cell> cells) implements StepResult {

    /**
     * One cell's totals.
     *
     * @param row    row index
     * @param column column index
     * @param label  label of the cell's requests
     * @param totals its load totals
     */
    public record Cell(int row, int column, String label, LoadTotals totals) {
    }

    public GridResult {
        rowValues = List.copyOf(rowValues);
        columnValues = List.copyOf(columnValues);
        if (values.size() != rowValues.size()) {
            throw new IllegalArgumentException("grid matrix has " + values.size() + " rows for "
                    + rowValues.size() + " row values");
        }
        List<List<Double>> copy = new ArrayList<>();
        for (List<Double> row : values) {
            if (row.size() != columnValues.size()) {
                throw new IllegalArgumentException("grid matrix row has " + row.size() + " values for "
                        + columnValues.size() + " columns");
            }
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        values = List.copyOf(copy);
        cells = List.copyOf(cells);
    }

    @Override
    public String type() {
        return GridSpec.TYPE;
    }

    /** @return the matrix as {@code double[row][column]}, NaN where a value is null (a fresh copy) */
    @JsonIgnore
    public double[][] matrix() {
        double[][] m = new double[values.size()][];
        for (int r = 0; r < m.length; r++) {
            m[r] = new double[columnValues.size()];
            for (int c = 0; c < m[r].length; c++) {
                Double v = values.get(r).get(c);
                m[r][c] = v == null ? Double.NaN : v;
            }
        }
        return m;
    }
}
