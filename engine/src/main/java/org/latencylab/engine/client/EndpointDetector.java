package org.latencylab.engine.client;

import com.fasterxml.jackson.databind.JsonNode;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.latencylab.engine.api.Protocol;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Finds out which protocol a server speaks from its base URL alone, and proposes a model.
 *
 * <p>Probes, in this order, with {@code GET}, stopping at the first that answers as expected:
 * <ol>
 *   <li>{@code /v1/models} — OpenAI-compatible servers (vLLM, SGLang, llama.cpp, LiteLLM, Ollama's {@code /v1},
 *       TGI's Messages API) list {@code {"data":[{"id":...}]}}; the protocol is {@code openai-chat} and the
 *       first id is proposed;</li>
 *   <li>{@code /api/tags} — Ollama lists {@code {"models":[{"name":...}]}}; protocol {@code ollama-chat};</li>
 *   <li>{@code /info} — TGI answers {@code {"model_id":...}}; protocol {@code tgi-generate};</li>
 *   <li>gRPC {@code inference.GRPCInferenceService/ServerLive} — a KServe v2 / Triton gRPC server answers
 *       {@code live}; protocol {@code kserve-grpc} (the API lists no models: give the model name yourself).</li>
 * </ol>
 * When none answers, the result lists every URL tried and what it answered. A known API path at the end of the URL
 * ({@link EndpointChecks#API_PATHS}) is taken off first. Probing stops after the first probe when its answer shows
 * that the others, which go to the same host and port, cannot fare better ({@link Detection#stopReason()}): the host
 * name does not resolve, the TLS handshake got no TLS answer, or the server wants an API key (HTTP 401 or 403).
 * Thread-safe; close it to release its connections.
 */
public final class EndpointDetector implements AutoCloseable {
    private final OkHttpClient http;
    private final Function<String, String> env;
    private final Duration timeout;

    /**
     * @param timeout limit for each probe (connect + whole answer); > 0
     * @param env     environment lookup for the API key variable (null result = unset); not null
     * @throws IllegalArgumentException when the timeout is not positive
     */
    public EndpointDetector(Duration timeout, Function<String, String> env) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("probe timeout must be > 0, was " + timeout);
        }
        this.env = Objects.requireNonNull(env, "env");
        this.timeout = timeout;
        this.http = new OkHttpClient.Builder().connectTimeout(timeout).callTimeout(timeout)
                .retryOnConnectionFailure(false).build();
    }

    /**
     * One probe and its answer.
     *
     * @param url    the URL probed
     * @param status HTTP status, or 0 when there was no answer
     * @param answer a short description: the error, or why the answer did not fit
     */
    public record Probe(String url, int status, String answer) {
    }

    /**
     * The result of a detection.
     *
     * @param protocol      the protocol found, or empty when none fitted
     * @param proposedModel a model id the server listed, or "" when none was listed
     * @param models        every model id the matching probe listed (may be empty)
     * @param probes        every probe made, in order
     * @param stopReason    why probing stopped after the first probe, in words (e.g. {@code the host name H does
     *                      not resolve (unknown host); check the URL's host name}); "" when every probe was made or
     *                      a protocol was found
     */
    public record Detection(Optional<Protocol> protocol, String proposedModel, List<String> models,
                            List<Probe> probes, String stopReason) {
        public Detection {
            models = List.copyOf(models);
            probes = List.copyOf(probes);
            stopReason = stopReason == null ? "" : stopReason;
        }

        /**
         * A detection that made every probe it needed.
         *
         * @param protocol      the protocol found, or empty
         * @param proposedModel a listed model id, or ""
         * @param models        every listed model id
         * @param probes        every probe made
         */
        public Detection(Optional<Protocol> protocol, String proposedModel, List<String> models, List<Probe> probes) {
            this(protocol, proposedModel, models, probes, "");
        }

        /** @return true when probing stopped early ({@link #stopReason()} says why) */
        public boolean stopped() {
            return !stopReason.isEmpty();
        }

        /** @return true when a protocol was found */
        public boolean found() {
            return protocol.isPresent();
        }

        /** @return one line when found, else a message listing each URL tried and its answer */
        public String report() {
            if (protocol.isPresent()) {
                return "detected " + protocol.get().id() + (proposedModel.isEmpty() ? "" : ", model " + proposedModel);
            }
            if (stopped()) {
                return "no known LLM API found: " + stopReason + " (GET " + probes.get(0).url()
                        + "; the other probes go to the same host and port and were not made)";
            }
            StringBuilder sb = new StringBuilder("no known LLM API found; tried:");
            for (Probe p : probes) {
                sb.append(p.url().startsWith("gRPC ") ? "\n  " : "\n  GET ").append(p.url()).append(" -> ")
                        .append(p.status() == 0 ? "" : "HTTP " + p.status() + ": ").append(p.answer());
            }
            return sb.toString();
        }
    }

    /**
     * Probes a server.
     *
     * @param baseUrl   base URL, e.g. {@code http://127.0.0.1:8000} (a trailing {@code /v1} is allowed, and a known
     *                  API path such as {@code /v1/chat/completions} is taken off: {@link EndpointChecks#baseUrl})
     * @param apiKeyEnv name of the environment variable holding a key to send as a bearer token, or null
     * @return the detection; never throws for network failures (they are listed in the probes)
     * @throws IllegalArgumentException when {@code baseUrl} is not an http(s) URL
     */
    public Detection detect(String baseUrl, String apiKeyEnv) {
        String base = EndpointChecks.baseUrl(baseUrl).url();
        if (HttpUrl.parse(base) == null) {
            throw new IllegalArgumentException("base URL '" + baseUrl + "' is not an http:// or https:// URL");
        }
        String key = apiKeyEnv == null ? null : env.apply(apiKeyEnv);
        List<Probe> probes = new ArrayList<>();
        String root = base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base;

        String[] stop = {""};
        JsonNode models = get(LlmClient.joinUrl(base, "/v1/models"), key, apiKeyEnv, probes, stop);
        if (!stop[0].isEmpty()) {
            return new Detection(Optional.empty(), "", List.of(), probes, stop[0]);
        }
        if (models != null && models.path("data").isArray()) {
            List<String> ids = new ArrayList<>();
            models.path("data").forEach(m -> {
                if (m.path("id").isTextual()) {
                    ids.add(m.path("id").asText());
                }
            });
            return new Detection(Optional.of(Protocol.OPENAI_CHAT), ids.isEmpty() ? "" : ids.get(0), ids, probes);
        }
        mismatch(models, probes, "no \"data\" list of models");

        JsonNode tags = get(root + "/api/tags", key, apiKeyEnv, probes, stop);
        if (tags != null && tags.path("models").isArray()) {
            List<String> names = new ArrayList<>();
            tags.path("models").forEach(m -> {
                String n = m.path("name").isTextual() ? m.path("name").asText() : m.path("model").asText("");
                if (!n.isEmpty()) {
                    names.add(n);
                }
            });
            return new Detection(Optional.of(Protocol.OLLAMA_CHAT), names.isEmpty() ? "" : names.get(0), names,
                    probes);
        }
        mismatch(tags, probes, "no \"models\" list");

        JsonNode info = get(root + "/info", key, apiKeyEnv, probes, stop);
        if (info != null && info.path("model_id").isTextual()) {
            String id = info.path("model_id").asText();
            return new Detection(Optional.of(Protocol.TGI_GENERATE), id, List.of(id), probes);
        }
        mismatch(info, probes, "no \"model_id\"");

        String grpc = KserveGrpcClient.probeLive(base, timeout);
        probes.add(new Probe("gRPC " + base + " inference.GRPCInferenceService/ServerLive", 0,
                grpc == null ? "ok (live)" : redact(grpc, key)));
        if (grpc == null) {
            return new Detection(Optional.of(Protocol.KSERVE_GRPC), "", List.of(), probes);
        }
        return new Detection(Optional.empty(), "", List.of(), probes);
    }

    /** Replaces the last probe's answer when a JSON object came back but did not have the expected shape. */
    private static void mismatch(JsonNode answer, List<Probe> probes, String why) {
        if (answer != null) {
            Probe last = probes.remove(probes.size() - 1);
            probes.add(new Probe(last.url(), last.status(), "JSON without the expected shape (" + why + "): "
                    + ProtocolAdapter.excerpt(answer.toString())));
        }
    }

    /**
     * GETs a URL; returns its JSON object on a 2xx JSON answer, else null; records the probe either way, and in
     * {@code stop[0]} the words why no further probe can fare better (else leaves it "").
     */
    private JsonNode get(String url, String key, String apiKeyEnv, List<Probe> probes, String[] stop) {
        Request.Builder rb = new Request.Builder().url(url).get().header("Accept", "application/json");
        boolean keySent = key != null && !key.isEmpty();
        if (keySent) {
            rb.header("Authorization", "Bearer " + key);
        }
        TlsWatch tls = new TlsWatch();
        try (Response r = http.newBuilder().eventListener(tls).build().newCall(rb.build()).execute()) {
            String body = r.peekBody(64 * 1024).string();
            if (!r.isSuccessful()) {
                probes.add(new Probe(url, r.code(), redact(ProtocolAdapter.excerpt(body), key)));
                if (r.code() == 401 || r.code() == 403) {
                    stop[0] = EndpointChecks.keyRefused(r.code(), keySent ? apiKeyEnv : null);
                }
                return null;
            }
            JsonNode node = ProtocolAdapter.parseObject(body);
            probes.add(new Probe(url, r.code(), node == null
                    ? "not a JSON object: " + redact(ProtocolAdapter.excerpt(body), key) : "ok"));
            return node;
        } catch (IOException | RuntimeException e) {
            String words = IoErrors.describe(e);
            HttpUrl u = HttpUrl.parse(url);
            if (tls.handshakeUnfinished() && !words.contains("TLS") && u != null) {
                // a timeout inside the handshake: nothing that reads as TLS came back
                words = IoErrors.tlsNoAnswer(u.host() + ":" + u.port());
            }
            probes.add(new Probe(url, 0, redact(words, key)));
            if (IoErrors.unknownHost(e) || tls.handshakeUnfinished()) {
                stop[0] = words;
            }
            return null;
        }
    }

    /** Sees whether a call's TLS handshake began and did not end (one listener per call). */
    private static final class TlsWatch extends okhttp3.EventListener {
        private volatile boolean started;
        private volatile boolean ended;

        @Override
        public void secureConnectStart(okhttp3.Call call) {
            started = true;
        }

        @Override
        public void secureConnectEnd(okhttp3.Call call, okhttp3.Handshake handshake) {
            ended = true;
        }

        boolean handshakeUnfinished() {
            return started && !ended;
        }
    }

    private static String redact(String s, String key) {
        return key == null || key.isEmpty() || s == null ? s : s.replace(key, "***");
    }

    /** Releases the probe client's connections. */
    @Override
    public void close() {
        http.connectionPool().evictAll();
        http.dispatcher().executorService().shutdown();
    }
}
