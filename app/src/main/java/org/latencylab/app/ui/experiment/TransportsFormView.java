package org.latencylab.app.ui.experiment;

import javafx.scene.control.CheckBox;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import org.latencylab.app.ui.controls.Controls;

/**
 * The transports form: transports, network profiles, warm/cold connections, requests per cell, prompt and output
 * length, first screen. Build and use on the JavaFX thread.
 */
final class TransportsFormView {
    private final Region root;

    /** @param f the transports form's state */
    TransportsFormView(TransportsForm f) {
        Controls c = new Controls();
        HBox transports = new HBox(10);
        for (String t : TransportsForm.TRANSPORTS) {
            CheckBox box = new CheckBox(t);
            box.setId("transport-" + t);
            box.selectedProperty().bindBidirectional(f.transportProperty(t));
            transports.getChildren().add(box);
        }
        HBox networks = new HBox(10);
        for (String n : TransportsForm.NETWORKS) {
            CheckBox box = new CheckBox(n);
            box.setId("network-" + n);
            box.selectedProperty().bindBidirectional(f.networkProperty(n));
            networks.getChildren().add(box);
        }
        CheckBox warm = new CheckBox("warm");
        warm.setId("connectionWarm");
        warm.selectedProperty().bindBidirectional(f.warmProperty());
        warm.setTooltip(Controls.tip("A pooled connection, opened by an unrecorded warm-up request"));
        CheckBox cold = new CheckBox("cold");
        cold.setId("connectionCold");
        cold.selectedProperty().bindBidirectional(f.coldProperty());
        cold.setTooltip(Controls.tip("A new connection per request: DNS, TCP and TLS inside the measured time"));
        FormRows rows = new FormRows()
                .add("Transports", "sse-h1/h2/h2c: SSE over HTTP/1.1, HTTP/2 with TLS, HTTP/2 cleartext; grpc(-tls):"
                        + " KServe v2 streaming; json: no streaming (baseline)", transports, null)
                .add("Networks", "Emulated links between client and server (delay, jitter, bandwidth, loss)",
                        networks, null)
                .add("Connections", null, new HBox(16, warm, cold), null)
                .add("Requests per cell", "Measured requests per transport × network × connection, one at a time",
                        c.intSpinner(f.requestsProperty(), 1, 100_000, 5, "transportsRequests", null), null)
                .add("Prompt tokens", null, c.intSpinner(f.promptTokensProperty(), 1, 1_000_000, 64,
                        "transportsPromptTokens", "The same prompt for every request"), null)
                .add("Max output tokens", null, c.intSpinner(f.maxOutputTokensProperty(), 1, 100_000, 16,
                        "transportsMaxOutputTokens", "Output tokens asked for"), null)
                .add("First screen [characters]", "First-screen latency: from request send (before connect when"
                        + " cold) until the client holds this many characters of answer text",
                        c.intSpinner(f.firstScreenCharsProperty(), 1, 100_000, 50, "transportsFirstScreen", null),
                        null);
        root = rows.grid();
    }

    /** @return the form */
    Region root() {
        return root;
    }
}
