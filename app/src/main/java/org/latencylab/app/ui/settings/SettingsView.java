package org.latencylab.app.ui.settings;

import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.app.ui.results.MetricGlossary;

/**
 * The settings tab: theme, tier table, default SLO, data folder. Build and use on the JavaFX thread.
 */
public final class SettingsView {
    private final VBox root;

    /**
     * @param vm    the settings form
     * @param theme the theme property of the window
     * @param apply applies and saves the form (returns false when invalid)
     */
    public SettingsView(SettingsViewModel vm, javafx.beans.property.ObjectProperty<Theme> theme,
                        java.util.function.BooleanSupplier apply) {
        ToggleButton dark = new ToggleButton("Dark theme");
        dark.setId("darkTheme");
        dark.setSelected(theme.get() == Theme.DARK);
        dark.selectedProperty().addListener((o, a, b) -> theme.set(b ? Theme.DARK : Theme.LIGHT));
        theme.addListener((o, a, b) -> dark.setSelected(b == Theme.DARK));
        ComboBox<String> metric = new ComboBox<>();
        metric.getItems().setAll(SettingsViewModel.METRICS);
        metric.valueProperty().bindBidirectional(vm.tierMetricProperty());
        TextField bounds = new TextField();
        bounds.textProperty().bindBidirectional(vm.tierBoundsProperty());
        TextField slo = new TextField();
        slo.textProperty().bindBidirectional(vm.sloProperty());
        TextField data = new TextField();
        data.textProperty().bindBidirectional(vm.dataDirProperty());
        data.promptTextProperty().bind(vm.defaultDataDirProperty());
        data.setPrefColumnCount(40);
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(6);
        int r = 0;
        g.addRow(r++, Controls.label("Theme", null), dark);
        g.addRow(r++, Controls.label("Tier metric", MetricGlossary.define("tier")), metric);
        g.addRow(r++, Controls.label("Tier bounds [ms]", "Upper bounds of Tier-0, Tier-1, … on the P95; the tier"
                + " after the last bound is unbounded"), bounds);
        g.addRow(r++, Controls.label("Default SLOs", MetricGlossary.define("slo")
                + " Format: metric:percentile:ms, e.g. ttft:95:500"), slo);
        g.addRow(r++, Controls.label("Data folder", "Where run directories are saved (runs/ below it); empty ="
                + " the OS default shown in grey"), data);
        Button save = new Button("Apply");
        save.setOnAction(e -> apply.getAsBoolean());
        Label msg = new Label();
        msg.textProperty().bind(vm.messageProperty());
        root = new VBox(10, g, save, msg);
        root.setPadding(new Insets(12));
    }

    /** @return the root node */
    public Region root() {
        return root;
    }
}
