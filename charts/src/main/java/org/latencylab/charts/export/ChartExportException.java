package org.latencylab.charts.export;

import java.io.IOException;

/**
 * A chart could not be rendered or written: the JavaFX toolkit did not start, rendering timed out, the chart
 * factory threw, or the file could not be written. The message names the output file and what went wrong.
 */
public class ChartExportException extends IOException {

    private static final long serialVersionUID = 1L;

    /** @param message what failed and, where known, which file */
    public ChartExportException(String message) {
        super(message);
    }

    /** @param message what failed and, where known, which file @param cause the underlying failure */
    public ChartExportException(String message, Throwable cause) {
        super(message, cause);
    }
}
