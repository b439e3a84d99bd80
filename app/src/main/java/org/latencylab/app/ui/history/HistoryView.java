package org.latencylab.app.ui.history;

import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.TextInputDialog;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * The history list in the side bar: open (double-click or Enter), rename, delete, compare the selected runs (two or
 * more).
 * Build and use on the JavaFX thread.
 */
public final class HistoryView {
    private final VBox root;
    private final ListView<RunEntry> list;

    /**
     * @param vm        history view model
     * @param onCompare called with the selected runs (two or more; oldest first, which is the default baseline)
     * @param onRejudge called with the selected run to judge it with the current settings instead of its own
     */
    public HistoryView(HistoryViewModel vm, Consumer<List<RunEntry>> onCompare,
                       java.util.function.Consumer<RunEntry> onRejudge) {
        list = new ListView<>(vm.runs());
        list.setId("historyList");
        list.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        list.setPlaceholder(new Label("No saved runs yet"));
        list.setCellFactory(v -> new EntryCell());
        list.setOnMouseClicked(e -> {
            if (e.getClickCount() == 2 && list.getSelectionModel().getSelectedItem() != null) {
                vm.open(list.getSelectionModel().getSelectedItem());
            }
        });
        list.setOnKeyPressed(e -> {
            RunEntry sel = list.getSelectionModel().getSelectedItem();
            if (sel == null) {
                return;
            }
            switch (e.getCode()) {
                case ENTER -> vm.open(sel);
                case DELETE -> vm.delete(sel);
                case F2 -> rename(vm, sel);
                default -> { }
            }
        });
        Button open = new Button("Open");
        open.setTooltip(Controls.tip("Reopen the selected run in Results (Enter, or double-click)"));
        open.setOnAction(e -> {
            RunEntry sel = list.getSelectionModel().getSelectedItem();
            if (sel != null) {
                vm.open(sel);
            }
        });
        Button rename = new Button("Rename");
        rename.setTooltip(Controls.tip("Give the selected run a title (F2)"));
        rename.setOnAction(e -> {
            RunEntry sel = list.getSelectionModel().getSelectedItem();
            if (sel != null) {
                rename(vm, sel);
            }
        });
        Button delete = new Button("Delete");
        delete.setTooltip(Controls.tip("Delete the selected run and its files (Delete)"));
        delete.setOnAction(e -> {
            RunEntry sel = list.getSelectionModel().getSelectedItem();
            if (sel != null) {
                vm.delete(sel);
            }
        });
        Button compare = new Button("Compare");
        compare.setId("compareButton");
        compare.setTooltip(Controls.tip("Select two or more runs (Ctrl+click), then compare them side by side"
                + " (Ctrl+D)"));
        compare.setOnAction(e -> compareSelected(onCompare));
        Button rejudge = new Button("Re-judge");
        rejudge.setId("rejudgeButton");
        rejudge.setTooltip(Controls.tip("Open the selected run judged with the current tier table and SLOs instead of"
                + " those it ran with (Open shows the run's own verdicts)"));
        rejudge.setOnAction(e -> {
            RunEntry sel = list.getSelectionModel().getSelectedItem();
            if (sel != null) {
                onRejudge.accept(sel);
            }
        });
        Label head = new Label("History");
        head.getStyleClass().add("title-4");
        Label msg = new Label();
        msg.textProperty().bind(vm.messageProperty());
        msg.setWrapText(true);
        javafx.scene.layout.FlowPane buttons = new javafx.scene.layout.FlowPane(4, 4, open, rename, delete, compare,
                rejudge);
        root = new VBox(4, head, list, buttons, msg);
        VBox.setVgrow(list, Priority.ALWAYS);
        root.setPadding(new Insets(6));
    }

    /**
     * @param onCompare receives the selected runs in history order reversed (oldest first), also when fewer than
     *                  two are selected (the receiver says what is missing)
     */
    public void compareSelected(Consumer<List<RunEntry>> onCompare) {
        List<RunEntry> sel = new ArrayList<>();
        for (RunEntry e : list.getItems()) { // list order (newest first), whatever order they were clicked in
            if (list.getSelectionModel().getSelectedItems().contains(e)) {
                sel.add(e);
            }
        }
        Collections.reverse(sel);
        onCompare.accept(sel);
    }

    private static void rename(HistoryViewModel vm, RunEntry e) {
        TextInputDialog d = new TextInputDialog(e.title());
        d.setTitle("Rename run");
        d.setHeaderText("New title for " + e.directory().getFileName());
        d.showAndWait().filter(t -> !t.isBlank()).ifPresent(t -> vm.rename(e, t));
    }

    /**
     * A history entry on two lines: the title with the status as a badge that is never cut (it keeps its full
     * width; the title gives way), then start time, steps, requests and endpoint.
     */
    private static final class EntryCell extends javafx.scene.control.ListCell<RunEntry> {
        private final Label title = new Label();
        private final Label status = new Label();
        private final Label detail = new Label();
        private final VBox box;

        EntryCell() {
            title.getStyleClass().add("text-bold");
            status.getStyleClass().add("run-status");
            status.setMinWidth(Region.USE_PREF_SIZE);
            detail.getStyleClass().add("text-muted");
            javafx.scene.layout.HBox top = new javafx.scene.layout.HBox(6, title, status);
            javafx.scene.layout.HBox.setHgrow(title, Priority.SOMETIMES);
            title.setMinWidth(40);
            // both lines wrap inside the list's width instead of running out of it (the endpoint's address made
            // the detail line wider than the sidebar); the tooltip gives the entry whole
            title.setWrapText(true);
            detail.setWrapText(true);
            detail.setMinHeight(Region.USE_PREF_SIZE);
            title.setMinHeight(Region.USE_PREF_SIZE);
            box = new VBox(1, top, detail);
            // the cell asks for no more width than the list has, so its labels wrap rather than scroll sideways
            setPrefWidth(0);
            // a wrapping label's height is computed from its preferred width: give it the cell's, which the list
            // sets to its own width, so the cell is as tall as the wrapped lines
            widthProperty().addListener((o, was, w) -> {
                double inner = Math.max(40, w.doubleValue() - snappedLeftInset() - snappedRightInset());
                detail.setPrefWidth(inner);
                top.setPrefWidth(inner);
                requestLayout();
            });
        }

        @Override
        protected void updateItem(RunEntry e, boolean empty) {
            super.updateItem(e, empty);
            setText(null);
            if (empty || e == null) {
                setGraphic(null);
                setTooltip(null);
                return;
            }
            title.setText(e.title());
            status.setText(e.status().equals("completed") ? "" : e.status());
            status.setVisible(!e.status().equals("completed"));
            status.setManaged(status.isVisible());
            detail.setText(e.detail());
            setGraphic(box);
            String whole = e.title() + "\n" + e.detail();
            if (getTooltip() == null || !whole.equals(getTooltip().getText())) {
                setTooltip(Controls.tip(whole));
            }
        }
    }

    /** @return the list */
    public ListView<RunEntry> list() {
        return list;
    }

    /** @return the root node */
    public Region root() {
        return root;
    }
}
