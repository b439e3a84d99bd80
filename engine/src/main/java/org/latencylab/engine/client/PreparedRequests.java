package org.latencylab.engine.client;

import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;

import java.io.IOException;
import java.util.Objects;

/**
 * {@link LlmClient}'s built requests: URL, JSON body and headers (and the HTTP/1.1 bytes where {@link DirectHttp1}
 * sends them), built before the send stamp. Holds the requests prepared ahead of a closed loop's clock and the one
 * built last, so that a send does no building between its worker being ready and its send stamp. Thread-safe.
 */
final class PreparedRequests {
    private static final MediaType JSON_TYPE = MediaType.get("application/json; charset=utf-8");
    private final ClientOptions options;
    /** The plain-HTTP path whose requests carry their wire bytes; null when off. */
    private final DirectHttp1 direct;
    /** The HTTP request built last, reused while the same request object is sent again; immutable. */
    private volatile Built lastBuilt;

    /**
     * Requests built by {@link #prepare} and not sent yet, by request value. Taken out by the send that uses them, so
     * the map only holds what a closed loop prepared ahead of its clock.
     */
    private final java.util.concurrent.ConcurrentHashMap<GenerationRequest, Ahead> prepared =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.concurrent.atomic.LongAdder builds = new java.util.concurrent.atomic.LongAdder();

    /**
     * A prepared request and how many sends of an equal request it still serves. Sends take a use without a lock
     * ({@link #takePrepared}): a warm probe's requests are all equal, so every send of a 1,024-way closed loop looked
     * up the same map entry, and with the map's bin lock around the count the 1,024 workers whose streams had just
     * ended queued on that one monitor before their next sends.
     */
    private static final class Ahead {
        final Built built;
        final java.util.concurrent.atomic.AtomicInteger uses = new java.util.concurrent.atomic.AtomicInteger(1);

        Ahead(Built built) {
            this.built = built;
        }
    }

    /** {@code wire}: the request's HTTP/1.1 bytes when {@link DirectHttp1} serves its URL, else null. */
    record Built(Endpoint endpoint, GenerationRequest request, String key, Request http, byte[] wire) {
    }

    /**
     * @param options the client's options (the adapters read them when writing bodies); not null
     * @param direct  the plain-HTTP path, or null when off
     */
    PreparedRequests(ClientOptions options, DirectHttp1 direct) {
        this.options = options;
        this.direct = direct;
    }

    /**
     * @return the request's HTTP form for a send: the one {@link #prepare} built, else the one built last when the same
     *         request object is sent again, else a new build
     * @throws IOException when the body cannot be written
     * @throws IllegalArgumentException when the URL is invalid
     */
    Built forSend(Endpoint endpoint, GenerationRequest request, ProtocolAdapter adapter, String key)
            throws IOException {
        Built built;
        Built last = lastBuilt;
        Built ahead = prepared.isEmpty() ? null : takePrepared(request);
        if (ahead != null && ahead.endpoint.equals(endpoint) && Objects.equals(ahead.key, key)) {
            // built before the clock by prepare()
            built = ahead;
        } else if (last != null && last.request == request && last.endpoint.equals(endpoint)
                && Objects.equals(last.key, key)) {
            // a load step sends one request object many times: build it once
            built = last;
        } else {
            built = build(endpoint, request, adapter, key);
            lastBuilt = built;
        }
        return built;
    }

    /** @return how many requests this client has built (URL, body, headers) so far */
    long builds() {
        return builds.sum();
    }

    Built build(Endpoint endpoint, GenerationRequest request, ProtocolAdapter adapter, String key)
            throws IOException {
        builds.increment();
        Request httpRequest = buildRequest(endpoint, request, adapter, key);
        byte[] wire = direct != null && direct.handles(httpRequest.url()) ? Http1Codec.encode(httpRequest) : null;
        return new Built(endpoint, request, key, httpRequest, wire);
    }

    /**
     * Builds a request's HTTP form (URL, JSON body, headers, and its HTTP/1.1 bytes where those are sent directly)
     * now, so that the {@link LlmClient#execute} that later sends an equal request to the same endpoint does no building
     * between the moment its worker is ready and its send stamp. A closed loop prepares its prompts before the
     * measurement starts; at high concurrency, building a thousand bodies at the moment a thousand streams end
     * took CPU from the streams still being stamped and from the server. Optional: an unprepared request is built
     * when sent. Equal requests prepared n times serve n sends. A prepared request that is never sent is held until
     * {@link #close}. Thread-safe.
     *
     * @param endpoint the endpoint it will be sent to; not null
     * @param request  the request; not null
     * @return true when it was prepared; false when it cannot be built (its send will then record the error) or the
     *         protocol has no HTTP form (gRPC)
     */
    boolean prepare(Endpoint endpoint, GenerationRequest request, ProtocolAdapter adapter, String key) {
        Built built;
        try {
            built = build(endpoint, request, adapter, key);
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
        prepared.compute(request, (k, v) -> {
            if (v == null || !v.built.endpoint.equals(endpoint) || !Objects.equals(v.built.key, key)
                    || v.uses.getAndUpdate(n -> n > 0 ? n + 1 : n) <= 0) {
                return new Ahead(built); // none yet, another endpoint or key, or one that sends just used up
            }
            return v; // equal requests (a warm prompt sent many times) share one build
        });
        return true;
    }

    /**
     * Takes one use of the build prepared for an equal request, without a lock. A use lost to a race with
     * {@link #prepare} only means that one send builds its request itself; a build is never used for another request.
     */
    private Built takePrepared(GenerationRequest request) {
        Ahead a = prepared.get(request);
        if (a == null) {
            return null;
        }
        int left = a.uses.decrementAndGet();
        if (left == 0) {
            prepared.remove(request, a);
        }
        return left >= 0 ? a.built : null;
    }

    private Request buildRequest(Endpoint endpoint, GenerationRequest request, ProtocolAdapter adapter,
                                 String key) throws IOException {
        HttpUrl url = HttpUrl.parse(joinUrl(endpoint.baseUrl(), adapter.path(request)));
        if (url == null) {
            throw new IllegalArgumentException("URL '" + endpoint.baseUrl() + adapter.path(request) + "' is invalid");
        }
        byte[] json = ProtocolAdapter.JSON.writeValueAsBytes(adapter.body(endpoint, request, options));
        Request.Builder rb = new Request.Builder().url(url).post(RequestBody.create(json, JSON_TYPE));
        adapter.headers(rb, key);
        if (request.stream()) {
            // OkHttp adds gzip by itself; compressed streams are buffered by the decoder and distort timing
            rb.header("Accept-Encoding", "identity");
        }
        endpoint.headers().forEach(rb::header);
        return rb.build();
    }

    /**
     * Appends a protocol path to a base URL, avoiding a doubled {@code /v1} when the base already ends in it
     * (as in {@code https://api.openai.com/v1}).
     *
     * @param baseUrl base URL without trailing slash
     * @param path    protocol path starting with {@code /}
     * @return the joined URL
     */
    static String joinUrl(String baseUrl, String path) {
        if (baseUrl.endsWith("/v1") && path.startsWith("/v1/")) {
            return baseUrl + path.substring(3);
        }
        return baseUrl + path;
    }

    /** Drops every prepared request. */
    void clear() {
        prepared.clear();
    }
}
