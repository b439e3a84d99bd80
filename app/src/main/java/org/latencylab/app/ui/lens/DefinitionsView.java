package org.latencylab.app.ui.lens;

import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.app.ui.results.MetricGlossary;

import java.util.function.Function;

/**
 * The Definitions panel: a table with one row per tool's definitions (TTFT, ITL and TPOT as P50 / P95 in ms) and
 * below it one line per definition with its rules and source. Build and use on the JavaFX thread.
 */
public final class DefinitionsView {
    private final VBox root;

    /** @param vm the panel's view model */
    public DefinitionsView(DefinitionsViewModel vm) {
        Label msg = new Label();
        msg.setId("definitionsMessage");
        msg.textProperty().bind(vm.messageProperty());
        msg.setWrapText(true);
        TableView<DefinitionsViewModel.Row> table = new TableView<>(vm.rows());
        table.setId("definitionsTable");
        table.setPlaceholder(new Label("No streamed requests to re-time"));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getColumns().add(col("Definitions of", r -> r.definition().displayName(), null));
        table.getColumns().add(col("TTFT P50 / P95", r -> DefinitionsViewModel.Row.p50p95(r.ttft()), "ttft"));
        table.getColumns().add(col("ITL P50 / P95", r -> DefinitionsViewModel.Row.p50p95(r.itl()), "itl"));
        table.getColumns().add(col("TPOT P50 / P95", r -> DefinitionsViewModel.Row.p50p95(r.tpot()), "tpot"));
        table.setFixedCellSize(26);
        table.setPrefHeight(26 * vm.sources().size() + 36);
        table.setMinHeight(Region.USE_PREF_SIZE);
        VBox sources = new VBox(6);
        sources.setId("definitionsSources");
        for (String line : vm.sources()) { // one wrapped line per definition: its rules and where they were read
            Label l = new Label(line);
            l.setWrapText(true);
            sources.getChildren().add(l);
        }
        ScrollPane scroll = new ScrollPane(sources);
        scroll.setFitToWidth(true);
        Label head = new Label("What each tool measures");
        head.getStyleClass().add("text-bold");
        root = new VBox(6, msg, table, head, scroll);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        root.setPadding(new Insets(6, 8, 6, 8));
    }

    private static TableColumn<DefinitionsViewModel.Row, String> col(String name,
                                                                    Function<DefinitionsViewModel.Row, String> f,
                                                                    String metric) {
        TableColumn<DefinitionsViewModel.Row, String> c = new TableColumn<>();
        Label header = new Label(name);
        if (metric != null) {
            header.setTooltip(Controls.tip("LatencyLab's definition: " + MetricGlossary.define(metric)));
        }
        c.setGraphic(header);
        c.setCellValueFactory(cd -> new ReadOnlyObjectWrapper<>(f.apply(cd.getValue())));
        return c;
    }

    /** @return the root node */
    public Region root() {
        return root;
    }
}
