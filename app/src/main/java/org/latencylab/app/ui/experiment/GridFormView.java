package org.latencylab.app.ui.experiment;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.control.CheckBox;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.engine.load.ArrivalProcess;

import java.util.List;

/** The grid form: rows, columns, cell bounds and the cell metric. Build and use on the JavaFX thread. */
final class GridFormView {
    private final Region root;

    /** @param f the grid form's state */
    GridFormView(GridForm f) {
        Controls c = new Controls();
        BooleanBinding rate = Bindings.createBooleanBinding(() -> "rate".equals(f.rowAxisProperty().get()),
                f.rowAxisProperty());
        BooleanBinding latency = Bindings.createBooleanBinding(() -> !f.metricProperty().get().endsWith("_rps")
                && !f.metricProperty().get().equals("error_rate"), f.metricProperty());
        CheckBox stream = new CheckBox("Stream (SSE)");
        stream.selectedProperty().bindBidirectional(f.streamProperty());
        CheckBox cold = new CheckBox("Cold prompts");
        cold.selectedProperty().bindBidirectional(f.coldProperty());
        cold.setTooltip(Controls.tip("Unique prefix per request, so a prefix cache cannot hide prefill"));
        FormRows rows = new FormRows()
                .add("Rows", "concurrency: closed loop with that many workers; rate: open loop at that rate",
                        Controls.choice(f.rowAxisProperty(), GridForm.ROW_AXES, "gridRowAxis", null), null)
                .add("Row values", "Comma-separated: worker counts, or rates in req/s",
                        Controls.text(f.rowValuesProperty(), "gridRowValues", "1, 4, 16", "e.g. 1, 8, 32"), null)
                .add("Arrivals", null, Controls.choice(f.arrivalProperty(),
                        List.of(ArrivalProcess.CONSTANT, ArrivalProcess.POISSON), "gridArrival", null), rate)
                .add("Prompt lengths [tokens]", "Columns, comma-separated; 4k = 4096",
                        Controls.text(f.contextTokensProperty(), "gridContext", "512, 2k, 8k", null), null)
                .add("Cell duration", "How long each cell runs; empty = bounded by requests",
                        Controls.text(f.cellDurationProperty(), "gridCellDuration", "10s", "e.g. 10s"), null)
                .add("Requests per cell", "0 = bounded by the duration only",
                        c.intSpinner(f.cellRequestsProperty(), 0, 10_000_000, 10, "gridCellRequests", "0 = none"),
                        null)
                .add("Cell metric", "What the heatmap shows: a latency (ms) or a rate",
                        Controls.choice(f.metricProperty(), GridForm.METRICS, "gridMetric", null), null)
                .add("Statistic", null, Controls.choice(f.statisticProperty(), GridForm.STATISTICS,
                        "gridStatistic", "of the latency metric per cell"), latency)
                .add("Max output tokens", null, c.intSpinner(f.maxOutputTokensProperty(), 1, 100_000, 8,
                        "gridMaxOutputTokens", "max_tokens of each request"), null)
                .add("", null, new HBox(16, stream, cold), null);
        root = rows.grid();
    }

    /** @return the form */
    Region root() {
        return root;
    }
}
