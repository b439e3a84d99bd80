package org.latencylab.engine.client;

import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.tokens.TokenCounter;

import java.io.IOException;
import java.util.Map;
import java.util.Set;

/**
 * Warms {@link LlmClient} before a measurement: runs its parsing path once on in-memory responses and opens the
 * connections a measurement will use with small unrecorded requests, so that no measured request pays class loading,
 * connect, TLS or DNS time. Thread-safe.
 */
final class ConnectionWarmer {
    /**
     * Set on a thread while it sends the small request of {@link #warm(Endpoint, boolean, int)}: the idle connections
     * below which that request connects anew.
     */
    private static final ThreadLocal<Integer> OPENING = new ThreadLocal<>();
    private static final java.util.concurrent.atomic.AtomicBoolean WARMED_UP =
            new java.util.concurrent.atomic.AtomicBoolean();

    private final LlmClient client;
    private final OkHttpPath okhttp;
    /** The plain-HTTP path; null when off. */
    private final DirectHttp1 direct;

    ConnectionWarmer(LlmClient client, OkHttpPath okhttp, DirectHttp1 direct) {
        this.client = client;
        this.okhttp = okhttp;
        this.direct = direct;
    }

    /** @return the idle connections below which the calling thread's warm-up request connects anew; null outside one */
    static Integer opening() {
        return OPENING.get();
    }

    /**
     * Runs the parsing path (SSE and NDJSON framing, Jackson, the tokenizer) once on in-memory responses, so the
     * class loading and tokenizer loading of the first use do not delay the first measured request.
     */
    static void warmParsingOnce(TokenCounter counter) {
        if (!WARMED_UP.compareAndSet(false, true)) {
            return;
        }
        String sse = "data: {\"choices\":[{\"delta\":{\"content\":\"warm up\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n";
        String anthropic = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":"
                + "{\"type\":\"text_delta\",\"text\":\"warm up\"}}\n\ndata: {\"type\":\"message_stop\"}\n\n";
        String ndjson = "{\"message\":{\"content\":\"warm\"},\"done\":false}\n{\"message\":{\"content\":\" up\"},"
                + "\"done\":true,\"eval_count\":2}\n";
        try {
            warmUp(OpenAiAdapter.CHAT, sse, "text/event-stream", counter);
            warmUp(AnthropicAdapter.INSTANCE, anthropic, "text/event-stream", counter);
            warmUp(OllamaAdapter.CHAT, ndjson, "application/x-ndjson", counter);
        } catch (IOException | RuntimeException e) {
            // a failed warm-up only costs the first request some milliseconds
        }
    }

    private static void warmUp(ProtocolAdapter adapter, String body, String contentType, TokenCounter counter)
            throws IOException {
        Response r = new Response.Builder()
                .request(new Request.Builder().url("http://127.0.0.1/").build())
                .protocol(okhttp3.Protocol.HTTP_1_1).code(200).message("OK")
                .body(ResponseBody.create(body, MediaType.get(contentType))).build();
        ResponseCollector c = new ResponseCollector(counter, true, null);
        adapter.readStream(r, c);
        c.applyTo(RequestRecord.builder(), System.nanoTime(), true);
    }

    /** See {@link LlmClient#openConnections}. */
    int openConnections(Endpoint endpoint, int count, boolean stream) throws InterruptedException {
        int idle = okhttp.idleCount(endpoint);
        HttpUrl base = HttpUrl.parse(endpoint.baseUrl());
        if (direct != null && base != null && direct.handles(base)) {
            idle += direct.idleCount(base);
        }
        int wanted = Math.min(count, 4096) - idle;
        if (wanted <= 0) {
            return 0;
        }
        java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(wanted);
        for (int i = 0; i < wanted; i++) {
            // on the request pool: all run at once, so the pool grows by `wanted` threads that then wait, idle, for
            // the measurement's requests (an open loop's dispatcher never creates a thread)
            RequestThreads.startPooled(() -> {
                try {
                    if (!client.warmConnection(endpoint, stream)) {
                        failed.incrementAndGet();
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        done.await();
        return failed.get();
    }

    /** See {@link LlmClient#warm(Endpoint, boolean, int)}. */
    RequestRecord warm(Endpoint endpoint, boolean stream, int connections) {
        OPENING.set(connections); // read by attemptDirect
        try {
            return client.execute(endpoint, new GenerationRequest("Hi there", 2, 1, stream, Map.of()),
                    new RequestTicket(0, "connect", 2, System.nanoTime()));
        } finally {
            OPENING.remove();
        }
    }
}
