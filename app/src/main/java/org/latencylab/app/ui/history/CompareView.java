package org.latencylab.app.ui.history;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.geometry.Orientation;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Region;
import org.latencylab.app.report.Units;
import org.latencylab.app.ui.Controls;
import org.latencylab.charts.CdfChart;
import org.latencylab.charts.ChartTheme;
import org.latencylab.charts.data.Quantity;
import org.latencylab.charts.data.SampleSet;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Two runs side by side: overlaid TTFT and E2E CDFs of both, and a table of differences (A, B, B − A) with each
 * metric's definition on hover. Build and use on the JavaFX thread.
 */
public final class CompareView {
    private final BorderPane root = new BorderPane();
    private final CdfChart cdf;

    /** @param vm compare view model @param theme chart look */
    public CompareView(CompareViewModel vm, ChartTheme theme) {
        cdf = new CdfChart("TTFT and E2E: A vs B", Quantity.of("Latency", "ms"), CdfChart.YScale.PERCENTILE, true,
                theme);
        TableView<CompareViewModel.DiffRow> table = new TableView<>(vm.rows());
        table.setId("compareTable");
        table.setPlaceholder(new Label("Select two runs in History and press Compare (Ctrl+D)"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(col("Statistic", CompareViewModel.DiffRow::statistic));
        table.getColumns().add(col("A", r -> Units.ms(r.aMs())));
        table.getColumns().add(col("B", r -> Units.ms(r.bMs())));
        table.getColumns().add(col("B − A", CompareViewModel.DiffRow::deltaText));
        table.setRowFactory(tv -> {
            TableRow<CompareViewModel.DiffRow> row = new TableRow<>();
            row.itemProperty().addListener((o, a, b) -> row.setTooltip(b == null ? null : Controls.tip(b.definition())));
            return row;
        });
        Label msg = new Label();
        msg.textProperty().bind(vm.messageProperty());
        msg.setPadding(new Insets(6));
        SplitPane split = new SplitPane(cdf.chart(), table);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.6);
        root.setTop(msg);
        root.setCenter(split);
        vm.pairProperty().addListener((o, a, p) -> {
            if (p == null) {
                return;
            }
            List<SampleSet> sets = new ArrayList<>();
            add(sets, "A TTFT", p.dataA().cdfs().get("ttft"));
            add(sets, "B TTFT", p.dataB().cdfs().get("ttft"));
            add(sets, "A E2E", p.dataA().cdfs().get("e2e"));
            add(sets, "B E2E", p.dataB().cdfs().get("e2e"));
            cdf.update(sets);
        });
    }

    private static void add(List<SampleSet> sets, String name, org.latencylab.engine.stats.LatencyCdf cdf) {
        if (cdf != null && cdf.valuesMs().length > 0) {
            sets.add(new SampleSet(name, cdf.valuesMs()));
        }
    }

    private static TableColumn<CompareViewModel.DiffRow, String> col(String name,
                                                                     Function<CompareViewModel.DiffRow, String> f) {
        TableColumn<CompareViewModel.DiffRow, String> c = new TableColumn<>(name);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }

    /** @param t theme for the chart */
    public void setTheme(ChartTheme t) {
        t.apply(cdf.chart());
    }

    /** @return the root node */
    public Region root() {
        return root;
    }
}
