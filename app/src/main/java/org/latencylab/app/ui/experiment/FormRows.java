package org.latencylab.app.ui.experiment;

import javafx.beans.value.ObservableBooleanValue;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;

/**
 * A two-column form (label, control) whose rows can be shown only while a condition holds; a hidden row takes no
 * space (rows are boxes of a {@link VBox}, which leaves unmanaged children and their spacing out). Use on the JavaFX
 * thread.
 */
final class FormRows {
    private static final double LABEL_WIDTH = 150;
    private final VBox rows = new VBox(6);

    /**
     * @param label   label text
     * @param help    tooltip of the label, or null
     * @param control the control
     * @param visible when the row shows, or null for always
     * @return this
     */
    FormRows add(String label, String help, Node control, ObservableBooleanValue visible) {
        Label l = Controls.label(label, help);
        l.setMinWidth(LABEL_WIDTH);
        l.setPrefWidth(LABEL_WIDTH);
        HBox row = new HBox(8, l, control);
        row.setAlignment(Pos.CENTER_LEFT);
        if (visible != null) {
            row.visibleProperty().bind(visible);
            row.managedProperty().bind(visible);
        }
        rows.getChildren().add(row);
        return this;
    }

    /** @return the form */
    VBox grid() {
        return rows;
    }
}
