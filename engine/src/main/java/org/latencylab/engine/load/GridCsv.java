package org.latencylab.engine.load;

import org.latencylab.engine.csv.CsvWriter;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link GridResult} as CSV (RFC 4180): a header {@code <rowAxis> [<rowUnit>] \ <columnAxis> [<columnUnit>]}
 * followed by the column values, then one line per row: the row value and the cells, in the metric's unit with
 * a dot as decimal separator whatever the locale; an empty field where a cell has no value. Stateless and
 * thread-safe.
 */
public final class GridCsv {
    private GridCsv() {
    }

    /**
     * @param grid the result
     * @param out  where to write (not closed)
     * @throws IOException when writing fails
     */
    public static void write(GridResult grid, Writer out) throws IOException {
        CsvWriter w = CsvWriter.to(out, CsvWriter.LineEnd.CRLF);
        List<Object> header = new ArrayList<>();
        header.add(CsvWriter.quoted(grid.metric() + " [" + grid.unit() + "]: " + grid.rowAxis() + " ["
                + grid.rowUnit() + "] \\ " + grid.columnAxis() + " [" + grid.columnUnit() + "]"));
        for (Double c : grid.columnValues()) {
            header.add(number(c));
        }
        w.row(header);
        for (int r = 0; r < grid.rowValues().size(); r++) {
            List<Object> row = new ArrayList<>();
            row.add(number(grid.rowValues().get(r)));
            for (Double v : grid.values().get(r)) {
                row.add(v == null ? null : number(v));
            }
            w.row(row);
        }
        w.flush();
    }

    private static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, "%.6g", v).replaceAll("(\\.\\d*?)0+$", "$1").replaceAll("\\.$", "");
    }
}
