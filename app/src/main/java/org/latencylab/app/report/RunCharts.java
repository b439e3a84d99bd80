package org.latencylab.app.report;

import org.latencylab.charts.export.ChartExportException;
import org.latencylab.charts.results.ResultCharts;
import org.latencylab.engine.run.RunResult;
import java.nio.file.Path;
import java.util.List;

/** Renders the PNG charts of a finished run into its directory (headless). Thread-safe; not for the FX thread. */
public final class RunCharts {
    private RunCharts() {
    }

    /**
     * @param run a finished run
     * @return the chart files written
     * @throws IllegalStateException when rendering fails (the message says why)
     */
    public static List<Path> renderAll(RunResult run) {
        try {
            List<Path> files = new java.util.ArrayList<>(ResultCharts.writeRunCharts(run));
            files.addAll(org.latencylab.charts.results.EndpointCharts.writeRunCharts(run));
            return files;
        } catch (ChartExportException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
