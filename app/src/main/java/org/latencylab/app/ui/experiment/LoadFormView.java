package org.latencylab.app.ui.experiment;

import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.control.CheckBox;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import org.latencylab.app.ui.controls.Controls;
import org.latencylab.engine.load.ArrivalProcess;
import org.latencylab.engine.load.CapPolicy;
import org.latencylab.engine.load.LoadMode;

import java.util.List;

/**
 * The load-test form: loop, rate shape, bounds, caps, deadline, request and SLO, each field with its unit and a
 * tooltip; fields that do not apply to the chosen loop or shape are hidden. Build and use on the JavaFX thread.
 */
final class LoadFormView {
    private final Region root;

    /** @param f the load form's state */
    LoadFormView(LoadForm f) {
        Controls c = new Controls();
        ToggleGroup loop = new ToggleGroup();
        RadioButton open = new RadioButton("Open loop (arrival rate)");
        open.setId("loadOpen");
        open.setToggleGroup(loop);
        open.setTooltip(Controls.tip("Requests are sent on a schedule whatever the server does; latency counts from"
                + " each request's intended start, so queueing in the client is never hidden (coordinated omission)"));
        RadioButton closed = new RadioButton("Closed loop (fixed concurrency)");
        closed.setId("loadClosed");
        closed.setToggleGroup(loop);
        closed.setTooltip(Controls.tip("N workers, each sending its next request when the previous one ended"));
        loop.selectToggle(f.modeProperty().get() == LoadMode.CLOSED ? closed : open);
        loop.selectedToggleProperty().addListener((o, a, b) -> f.modeProperty().set(b == closed ? LoadMode.CLOSED
                : LoadMode.OPEN));
        f.modeProperty().addListener((o, a, m) -> loop.selectToggle(m == LoadMode.CLOSED ? closed : open));
        BooleanBinding isOpen = Bindings.createBooleanBinding(() -> f.modeProperty().get() == LoadMode.OPEN,
                f.modeProperty());
        BooleanBinding isClosed = isOpen.not();
        BooleanBinding gamma = isOpen.and(Bindings.createBooleanBinding(
                () -> f.arrivalProperty().get() == ArrivalProcess.GAMMA, f.arrivalProperty()));
        BooleanBinding constant = isOpen.and(shape(f, LoadForm.Shape.CONSTANT));
        BooleanBinding ramp = isOpen.and(shape(f, LoadForm.Shape.RAMP));
        BooleanBinding burst = isOpen.and(shape(f, LoadForm.Shape.BURST));
        CheckBox stream = new CheckBox("Stream (SSE)");
        stream.selectedProperty().bindBidirectional(f.streamProperty());
        CheckBox cold = new CheckBox("Cold prompts (unique prefix per request)");
        cold.selectedProperty().bindBidirectional(f.coldProperty());
        cold.setTooltip(Controls.tip("No prefix (KV) cache can help; building a unique prompt costs client CPU on"
                + " every request at high rates"));

        FormRows rows = new FormRows()
                .add("Loop", null, new HBox(16, open, closed), null)
                .add("Concurrency", "Workers, each with one request in flight",
                        c.intSpinner(f.concurrencyProperty(), 1, 100_000, 1, "loadConcurrency",
                                "Requests in flight at once"), isClosed)
                .add("Think time", "Pause of a worker between its requests",
                        Controls.text(f.thinkTimeProperty(), "loadThinkTime", "0s", "e.g. 100ms, 2s"), isClosed)
                .add("Arrivals", "How the gaps between arrivals are drawn around the target rate",
                        Controls.choice(f.arrivalProperty(), List.of(ArrivalProcess.values()), "loadArrival",
                                "constant: even gaps; poisson: exponential gaps (CV 1); gamma: CV = 1/√shape"), isOpen)
                .add("Gamma shape", "k < 1 burstier than Poisson, k = 1 Poisson, k > 1 smoother",
                        c.doubleSpinner(f.gammaShapeProperty(), 0.01, 100, 0.1, "loadGammaShape", "shape k > 0"), gamma)
                .add("Rate shape", null, Controls.choice(f.shapeProperty(), List.of(LoadForm.Shape.values()),
                        "loadShape", "constant rate, a linear ramp, or a burst from a base rate to a peak"), isOpen)
                .add("Rate [req/s]", "Target arrival rate, requests per second",
                        c.doubleSpinner(f.rateProperty(), 0.1, 100_000, 10, "loadRate", "requests/s"), constant)
                .add("Ramp from [req/s]", null,
                        c.doubleSpinner(f.rampFromProperty(), 0, 100_000, 10, "loadRampFrom", "start rate"), ramp)
                .add("Ramp to [req/s]", null,
                        c.doubleSpinner(f.rampToProperty(), 0, 100_000, 10, "loadRampTo", "end rate, then held"), ramp)
                .add("Ramp over", null, Controls.text(f.rampOverProperty(), "loadRampOver", "20s", "ramp length"), ramp)
                .add("Burst base [req/s]", null,
                        c.doubleSpinner(f.burstBaseProperty(), 0, 100_000, 10, "loadBurstBase", "rate before/after"), burst)
                .add("Burst peak [req/s]", null,
                        c.doubleSpinner(f.burstPeakProperty(), 0, 100_000, 10, "loadBurstPeak", "rate in the burst"), burst)
                .add("Burst at", null, Controls.text(f.burstAtProperty(), "loadBurstAt", "10s", "start of the burst"
                        + " from the step's start"), burst)
                .add("Burst for", null, Controls.text(f.burstForProperty(), "loadBurstFor", "10s", "burst length"), burst)
                .add("Duration", "How long requests are scheduled; the step also stops at the request cap",
                        Controls.text(f.durationProperty(), "loadDuration", "30s", "e.g. 30s, 10m; empty = until"
                                + " the request cap"), null)
                .add("Request cap", "Stop after this many requests; 0 = no cap",
                        c.intSpinner(f.maxRequestsProperty(), 0, 100_000_000, 100, "loadMaxRequests", "0 = none"), null)
                .add("Warmup", "Requests intended in the first part are sent but left out of the statistics",
                        Controls.text(f.warmupProperty(), "loadWarmup", "0s", "e.g. 5s"), null)
                .add("Max in flight", "Open-loop cap on requests in flight; 0 = none",
                        c.intSpinner(f.maxInFlightProperty(), 0, 1_000_000, 10, "loadMaxInFlight", "0 = none"), isOpen)
                .add("Max rate [req/s]", "Cap on the send rate; 0 = none",
                        c.doubleSpinner(f.maxRateRpsProperty(), 0, 1_000_000, 10, "loadMaxRate", "0 = none"), null)
                .add("At a cap", "queue: the wait shows in latency from the intended start; drop: not sent, counted",
                        Controls.choice(f.atCapProperty(), List.of(CapPolicy.values()), "loadAtCap", null), isOpen)
                .add("First-token deadline", "A stream without a first token by then (from the intended start) is"
                        + " cancelled and counted as a miss", Controls.text(f.firstTokenDeadlineProperty(),
                        "loadDeadline", "none", "e.g. 500ms; empty = none"), null)
                .add("Prompt tokens", null, c.intSpinner(f.contextTokensProperty(), 1, 1_000_000, 64,
                        "loadContextTokens", "prompt length in tokens"), null)
                .add("Max output tokens", null, c.intSpinner(f.maxOutputTokensProperty(), 1, 100_000, 8,
                        "loadMaxOutputTokens", "max_tokens of each request"), null)
                .add("", null, new HBox(16, stream, cold), null)
                .add("Goodput SLO [ms]", "A request counts in goodput when it succeeded and its metric is at most"
                        + " this; the step is also judged on it as an SLO on every request (it passes when all"
                        + " met it); 0 = no SLO (goodput = successful requests)", new HBox(8,
                        Controls.choice(f.sloMetricProperty(), LoadForm.METRICS, "loadSloMetric", "per-request metric"),
                        c.doubleSpinner(f.sloMaxMsProperty(), 0, 1_000_000, 50, "loadSloMs", "threshold, ms; 0 = none")),
                        null)
                .add("Tier metric", "Metric whose P95 decides the tier, per second and overall",
                        Controls.choice(f.tierMetricProperty(), LoadForm.METRICS, "loadTierMetric", null), null);
        root = rows.grid();
    }

    private static BooleanBinding shape(LoadForm f, LoadForm.Shape s) {
        return Bindings.createBooleanBinding(() -> f.shapeProperty().get() == s, f.shapeProperty());
    }

    /** @return the form */
    Region root() {
        return root;
    }
}
