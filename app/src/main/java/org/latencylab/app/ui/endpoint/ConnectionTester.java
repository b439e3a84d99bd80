package org.latencylab.app.ui.endpoint;

import org.latencylab.engine.api.Nanos;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.EndpointDetector;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.sim.SimOptions;
import org.latencylab.engine.sim.SimProfile;
import org.latencylab.engine.sim.SimServer;

import java.time.Duration;
import java.util.Locale;

/**
 * "Test connection": sends one small streaming request (a short prompt, at most 8 output tokens) and reports
 * status, TTFB and TTFT. Blocking (network): call it off the UI thread. Thread-safe (each call has its own client).
 */
public final class ConnectionTester {
    /** Total timeout of the test request. */
    public static final Duration TIMEOUT = Duration.ofSeconds(20);

    private ConnectionTester() {
    }

    /**
     * @param endpoint the endpoint to test
     * @return the outcome; never throws for network failures (they are the outcome)
     */
    public static ConnectionResult test(Endpoint endpoint) {
        ClientOptions opts = ClientOptions.DEFAULTS.withTotalTimeout(TIMEOUT).withKeepText(true);
        try (LlmClient client = new LlmClient(opts)) {
            RequestRecord r = client.execute(endpoint,
                    new GenerationRequest("Reply with one short word.", -1, 8, true, java.util.Map.of()),
                    new RequestTicket(0, "connection-test", -1, System.nanoTime()));
            ConnectionResult result = ConnectionResult.of(r);
            if (r.succeeded()) {
                return result;
            }
            return result.withDetail(result.detail() + " · " + detect(endpoint));
        }
    }

    /**
     * After a failed test: which API the base URL does speak, as a hint for the user (endpoint detection).
     *
     * @param endpoint the endpoint that failed
     * @return e.g. {@code this URL answers as ollama-chat, model llama3 — choose that protocol}, or what was tried
     */
    static String detect(Endpoint endpoint) {
        try (EndpointDetector d = new EndpointDetector(Duration.ofSeconds(5), System::getenv)) {
            EndpointDetector.Detection found = d.detect(endpoint.baseUrl(), endpoint.apiKeyEnv());
            if (!found.found()) {
                return found.report().replace('\n', ' ');
            }
            Protocol p = found.protocol().get();
            String model = found.proposedModel().isEmpty() ? "" : ", model " + found.proposedModel();
            return p == endpoint.protocol() ? "this URL answers as " + p.id() + model + " — check the model name and key"
                    : "this URL answers as " + p.id() + model + " — choose that protocol";
        } catch (RuntimeException e) {
            return "detection failed: " + e.getMessage();
        }
    }

    /**
     * Starts the built-in simulator on 127.0.0.1 with the given profile, tests it and stops it.
     *
     * @param profile built-in profile name, e.g. {@code small-fast}
     * @return the outcome
     * @throws IllegalArgumentException when the profile is unknown
     */
    public static ConnectionResult testSimulator(String profile) {
        SimProfile p = SimProfile.builtin(profile);
        try (SimServer server = SimServer.start(p, SimOptions.builder().build())) {
            return test(server.endpoint(Protocol.OPENAI_CHAT));
        }
    }

    /**
     * What a connection test found.
     *
     * @param ok         true when the request succeeded
     * @param httpStatus HTTP status, or 0 when no response arrived
     * @param ttfbMs     send to response headers, ms, or NaN
     * @param ttftMs     send to first token, ms, or NaN
     * @param detail     one line: what went wrong, or the first words of the answer
     */
    public record ConnectionResult(boolean ok, int httpStatus, double ttfbMs, double ttftMs, String detail) {
        /** @param r a request record @return its connection-test summary */
        public static ConnectionResult of(RequestRecord r) {
            double ttfb = r.ttfbNanos() < 0 ? Double.NaN : Nanos.toMillis(r.ttfbNanos());
            double ttft = r.ttftNanos() < 0 ? Double.NaN : Nanos.toMillis(r.ttftNanos());
            String detail = r.succeeded() ? "answer: " + abbreviate(r.outputText().strip())
                    : (r.errorKind() == null ? r.outcome().toString() : r.errorKind().id()) + ": " + r.errorMessage();
            return new ConnectionResult(r.succeeded(), r.httpStatus(), ttfb, ttft, detail);
        }

        /** @param newDetail replacement detail @return a copy with that detail */
        public ConnectionResult withDetail(String newDetail) {
            return new ConnectionResult(ok, httpStatus, ttfbMs, ttftMs, newDetail);
        }

        /** @return e.g. {@code OK · HTTP 200 · TTFB 12.3 ms · TTFT 45.6 ms} */
        public String summary() {
            return String.format(Locale.ROOT, "%s · HTTP %s · TTFB %s · TTFT %s", ok ? "OK" : "FAILED",
                    httpStatus == 0 ? "–" : Integer.toString(httpStatus), org.latencylab.app.report.Units.ms(ttfbMs),
                    org.latencylab.app.report.Units.ms(ttftMs));
        }

        private static String abbreviate(String s) {
            return s.length() > 60 ? s.substring(0, 60) + "…" : s;
        }
    }
}
