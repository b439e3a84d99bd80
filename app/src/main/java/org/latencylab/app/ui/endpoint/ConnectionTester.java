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
import java.util.List;
import java.util.Locale;

/**
 * "Test connection": finds out which API the base URL speaks and which models it lists (endpoint detection), then
 * sends one small streaming request (a short prompt, at most 8 output tokens) and reports status, TTFB and TTFT.
 * Blocking (network): call it off the UI thread. Thread-safe (each call has its own client and detector).
 */
public final class ConnectionTester {
    /** Total timeout of the test request. */
    public static final Duration TIMEOUT = Duration.ofSeconds(20);
    /** Timeout of each detection probe. */
    public static final Duration DETECT_TIMEOUT = Duration.ofSeconds(5);
    /** Models named in the API line at most; the rest are counted. */
    static final int MODELS_SHOWN = 5;

    private ConnectionTester() {
    }

    /**
     * @param endpoint the endpoint to test
     * @return the outcome; never throws for network failures (they are the outcome)
     */
    public static ConnectionResult test(Endpoint endpoint) {
        Detected api = detect(endpoint);
        ClientOptions opts = ClientOptions.DEFAULTS.withTotalTimeout(TIMEOUT).withKeepText(true);
        try (LlmClient client = new LlmClient(opts)) {
            RequestRecord r = client.execute(endpoint,
                    new GenerationRequest("Reply with one short word.", -1, 8, true, java.util.Map.of()),
                    new RequestTicket(0, "connection-test", -1, System.nanoTime()));
            ConnectionResult result = ConnectionResult.of(r).withApi(api.line(), api.models());
            if (r.succeeded()) {
                return result;
            }
            return result.withDetail(result.detail() + " · " + api.hint());
        }
    }

    /**
     * What detection found, in the words the form shows.
     *
     * @param line   e.g. {@code API openai-chat, as set · 2 models: m1, m2}
     * @param hint   after a failed request: e.g. {@code this URL answers as ollama-chat, model llama3 — choose that
     *               protocol}, or what was tried
     * @param models every listed model id
     */
    record Detected(String line, String hint, List<String> models) {
    }

    /**
     * @param endpoint the endpoint to test
     * @return which API the base URL speaks and the models it lists; a gRPC endpoint is not probed (detection speaks
     *         HTTP only)
     */
    static Detected detect(Endpoint endpoint) {
        if (endpoint.protocol() == Protocol.KSERVE_GRPC) {
            return new Detected("API " + endpoint.protocol().id() + ", as set (gRPC endpoints are not probed)", "",
                    List.of());
        }
        try (EndpointDetector d = new EndpointDetector(DETECT_TIMEOUT, System::getenv)) {
            EndpointDetector.Detection found = d.detect(endpoint.baseUrl(), endpoint.apiKeyEnv());
            if (!found.found()) {
                String report = found.report().replace('\n', ' ');
                return new Detected("API not detected: " + report, report, found.models());
            }
            Protocol p = found.protocol().get();
            boolean same = p == endpoint.protocol();
            String line = "API " + p.id() + (same ? ", as set" : ", but the endpoint is set to "
                    + endpoint.protocol().id() + ": choose " + p.id()) + " · " + models(found.models());
            String model = found.proposedModel().isEmpty() ? "" : ", model " + found.proposedModel();
            String hint = same ? "this URL answers as " + p.id() + model + " — check the model name and key"
                    : "this URL answers as " + p.id() + model + " — choose that protocol";
            return new Detected(line, hint, found.models());
        } catch (RuntimeException e) {
            String words = "detection failed: " + e.getMessage();
            return new Detected("API not detected: " + words, words, List.of());
        }
    }

    /** @return e.g. {@code 2 models: m1, m2}, {@code 7 models: m1, …, m5 and 2 more}, {@code no model listed} */
    static String models(List<String> models) {
        if (models.isEmpty()) {
            return "no model listed";
        }
        String shown = String.join(", ", models.subList(0, Math.min(MODELS_SHOWN, models.size())));
        return models.size() + (models.size() == 1 ? " model: " : " models: ") + shown
                + (models.size() > MODELS_SHOWN ? " and " + (models.size() - MODELS_SHOWN) + " more" : "");
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
     * @param api        one line: the API the base URL answered as and the models it lists, or why none was found;
     *                   "" when not probed
     * @param models     every model id the server lists (empty when none or not probed)
     */
    public record ConnectionResult(boolean ok, int httpStatus, double ttfbMs, double ttftMs, String detail,
                                   String api, List<String> models) {
        /** Copies the model list; null api or models count as none. */
        public ConnectionResult {
            api = api == null ? "" : api;
            models = models == null ? List.of() : List.copyOf(models);
        }

        /** @param r a request record @return its connection-test summary, without detection */
        public static ConnectionResult of(RequestRecord r) {
            double ttfb = r.ttfbNanos() < 0 ? Double.NaN : Nanos.toMillis(r.ttfbNanos());
            double ttft = r.ttftNanos() < 0 ? Double.NaN : Nanos.toMillis(r.ttftNanos());
            String detail = r.succeeded() ? "answer: " + abbreviate(r.outputText().strip())
                    : (r.errorKind() == null ? r.outcome().toString() : r.errorKind().id()) + ": " + r.errorMessage();
            return new ConnectionResult(r.succeeded(), r.httpStatus(), ttfb, ttft, detail, "", List.of());
        }

        /** @param newDetail replacement detail @return a copy with that detail */
        public ConnectionResult withDetail(String newDetail) {
            return new ConnectionResult(ok, httpStatus, ttfbMs, ttftMs, newDetail, api, models);
        }

        /** @param apiLine the API line @param listed the listed models @return a copy with both */
        public ConnectionResult withApi(String apiLine, List<String> listed) {
            return new ConnectionResult(ok, httpStatus, ttfbMs, ttftMs, detail, apiLine, listed);
        }

        /** @return e.g. {@code OK · HTTP 200 · TTFB 12.3 ms · TTFT 45.6 ms} */
        public String summary() {
            return String.format(Locale.ROOT, "%s · HTTP %s · TTFB %s · TTFT %s", ok ? "OK" : "FAILED",
                    httpStatus == 0 ? "–" : Integer.toString(httpStatus), org.latencylab.app.report.Units.ms(ttfbMs),
                    org.latencylab.app.report.Units.ms(ttftMs));
        }

        /** @return the summary, the API line (when probed) and the detail, one per line, as the form shows them */
        public String text() {
            return summary() + (api.isEmpty() ? "" : "\n" + api) + "\n" + detail;
        }

        private static String abbreviate(String s) {
            return s.length() > 60 ? s.substring(0, 60) + "…" : s;
        }
    }
}
