package org.latencylab.app.ui.experiment;

import javafx.beans.value.ObservableBooleanValue;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import org.latencylab.app.ui.Controls;

/**
 * A two-column form (label, control) whose rows can be shown only while a condition holds; a hidden row takes no
 * space. Use on the JavaFX thread.
 */
final class FormRows {
    private final GridPane grid = new GridPane();
    private int row;

    FormRows() {
        grid.setHgap(8);
        grid.setVgap(6);
        ColumnConstraints c0 = new ColumnConstraints();
        c0.setMinWidth(150);
        grid.getColumnConstraints().add(c0);
    }

    /**
     * @param label   label text
     * @param help    tooltip of the label, or null
     * @param control the control
     * @param visible when the row shows, or null for always
     * @return this
     */
    FormRows add(String label, String help, Node control, ObservableBooleanValue visible) {
        Label l = Controls.label(label, help);
        grid.addRow(row++, l, control);
        if (visible != null) {
            for (Node n : new Node[]{l, control}) {
                n.visibleProperty().bind(visible);
                n.managedProperty().bind(visible);
            }
        }
        return this;
    }

    /** @return the form */
    GridPane grid() {
        return grid;
    }
}
