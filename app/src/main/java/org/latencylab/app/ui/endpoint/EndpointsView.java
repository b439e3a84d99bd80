package org.latencylab.app.ui.endpoint;

import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.engine.api.Protocol;

/**
 * The endpoint list (for the side bar) and the endpoint editor (a tab). Build and use on the JavaFX thread.
 */
public final class EndpointsView {
    private final EndpointsViewModel vm;
    private final ListView<String> list;
    private final VBox sidebar;
    private final VBox editor;

    /** @param vm the endpoints view model */
    public EndpointsView(EndpointsViewModel vm) {
        this.vm = vm;
        list = new ListView<>(vm.names());
        list.setId("endpointList");
        list.getSelectionModel().select(vm.selectedProperty().get());
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null && !b.equals(vm.selectedProperty().get())) {
                vm.selectedProperty().set(b);
            }
        });
        vm.selectedProperty().addListener((o, a, b) -> list.getSelectionModel().select(b));
        vm.names().addListener((javafx.collections.ListChangeListener<String>) c ->
                list.getSelectionModel().select(vm.selectedProperty().get()));
        Button add = new Button("Add");
        add.setTooltip(Controls.tip("Add a new endpoint (Ctrl+N)"));
        add.setOnAction(e -> vm.addNew());
        Button importCurl = new Button("Import curl…");
        importCurl.setTooltip(Controls.tip("Paste a curl command; URL, headers and model become an endpoint (Ctrl+I)"));
        importCurl.setOnAction(e -> showImportDialog());
        Button remove = new Button("Remove");
        remove.disableProperty().bind(vm.simulatorSelectedProperty());
        remove.setOnAction(e -> vm.removeSelected());
        javafx.scene.layout.FlowPane buttons = new javafx.scene.layout.FlowPane(4, 4, add, importCurl, remove);
        Label head = new Label("Endpoints");
        head.getStyleClass().add("title-4");
        sidebar = new VBox(4, head, list, buttons);
        VBox.setVgrow(list, Priority.ALWAYS);
        sidebar.setPadding(new Insets(6));
        editor = buildEditor();
    }

    private VBox buildEditor() {
        Controls c = new Controls();
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(6);
        TextField name = new TextField();
        name.textProperty().bindBidirectional(vm.nameProperty());
        ComboBox<Protocol> protocol = new ComboBox<>();
        protocol.getItems().setAll(Protocol.values());
        protocol.valueProperty().bindBidirectional(vm.protocolProperty());
        TextField url = new TextField();
        url.setId("baseUrl");
        url.textProperty().bindBidirectional(vm.baseUrlProperty());
        url.setPromptText("https://api.example.com (the protocol's path is appended)");
        TextField model = new TextField();
        model.textProperty().bindBidirectional(vm.modelProperty());
        TextField keyEnv = new TextField();
        keyEnv.textProperty().bindBidirectional(vm.apiKeyEnvProperty());
        keyEnv.setPromptText("e.g. OPENAI_API_KEY (the name, never the key)");
        Label keyPreview = new Label();
        keyPreview.textProperty().bind(vm.apiKeyPreviewProperty());
        TextArea headers = new TextArea();
        headers.setPrefRowCount(3);
        headers.textProperty().bindBidirectional(vm.headersProperty());
        headers.setPromptText("Name: value, one per line");
        CheckBox tls = new CheckBox("Verify TLS certificates");
        tls.selectedProperty().bindBidirectional(vm.verifyTlsProperty());
        ComboBox<String> profile = new ComboBox<>(vm.simProfiles());
        profile.setId("simProfile");
        profile.valueProperty().bindBidirectional(vm.simProfileProperty());
        profile.setTooltip(Controls.tip("Latency profile of the built-in simulator, which starts on 127.0.0.1 when a"
                + " run or test needs it and stops afterwards"));
        int r = 0;
        g.addRow(r++, Controls.label("Simulator profile", null), profile);
        g.addRow(r++, Controls.label("Name", null), name);
        g.addRow(r++, Controls.label("Protocol", "Wire protocol; selects the path appended to the base URL"), protocol);
        g.addRow(r++, Controls.label("Base URL", null), url);
        g.addRow(r++, Controls.label("Model", "Model name sent in the request body"), model);
        g.addRow(r++, Controls.label("API key variable", "Name of the environment variable that holds the key;"
                + " the key itself is read at send time and never stored"), keyEnv);
        g.addRow(r++, new Label(""), keyPreview);
        g.addRow(r++, Controls.label("Extra headers", null), headers);
        g.addRow(r++, new Label(""), tls);
        javafx.scene.layout.ColumnConstraints c0 = new javafx.scene.layout.ColumnConstraints();
        c0.setMinWidth(Region.USE_PREF_SIZE);
        javafx.scene.layout.ColumnConstraints c1 = new javafx.scene.layout.ColumnConstraints();
        c1.setHgrow(Priority.ALWAYS);
        g.getColumnConstraints().addAll(c0, c1);
        for (javafx.scene.Node n : new javafx.scene.Node[]{name, protocol, url, model, keyEnv, headers, tls}) {
            n.disableProperty().bind(vm.simulatorSelectedProperty());
        }
        profile.disableProperty().bind(vm.simulatorSelectedProperty().not());
        Button apply = new Button("Save endpoint");
        apply.disableProperty().bind(vm.simulatorSelectedProperty());
        apply.setDefaultButton(false);
        apply.setOnAction(e -> vm.apply());
        Button test = new Button("Test connection");
        test.setId("testConnection");
        test.setTooltip(Controls.tip("Finds out which API the URL speaks and which models it lists, then sends one short streaming request and shows HTTP status, TTFB and TTFT"));
        test.disableProperty().bind(vm.testingProperty());
        test.setOnAction(e -> vm.testConnection());
        Label testStatus = new Label();
        testStatus.setId("testStatus");
        testStatus.textProperty().bind(vm.testStatusProperty());
        testStatus.setWrapText(true);
        Label message = new Label();
        message.textProperty().bind(vm.messageProperty());
        message.setWrapText(true);
        VBox box = new VBox(10, g, new HBox(8, apply, test), testStatus, message);
        box.setPadding(new Insets(12));
        return box;
    }

    /** Shows the "Import curl" dialog and imports what was pasted. */
    public void showImportDialog() {
        Dialog<String> d = new Dialog<>();
        d.setTitle("Import curl command");
        d.setHeaderText("Paste a curl command (e.g. from an API's documentation)");
        TextArea text = new TextArea();
        text.setPrefSize(560, 180);
        text.setWrapText(true);
        text.setPromptText("curl https://api.openai.com/v1/chat/completions -H \"Authorization: Bearer $OPENAI_API_KEY\" "
                + "-d '{\"model\": \"gpt-4o-mini\", ...}'");
        d.getDialogPane().setContent(text);
        d.getDialogPane().getButtonTypes().setAll(ButtonType.OK, ButtonType.CANCEL);
        d.setResultConverter(b -> b == ButtonType.OK ? text.getText() : null);
        d.showAndWait().ifPresent(vm::importCurl);
    }

    /** @return the side-bar part (list and buttons) */
    public Region sidebar() {
        return sidebar;
    }

    /** @return the editor part */
    public Region editor() {
        return editor;
    }
}
