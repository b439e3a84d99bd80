package org.latencylab.engine.load;

import com.sun.net.httpserver.HttpServer;

import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Outcome;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;

/**
 * A tiny HTTP server on 127.0.0.1 (JDK HttpServer, a virtual thread per exchange) whose answer delay can be
 * changed while it runs, and a JDK-HttpClient sender that measures like the real client (send, first byte, end).
 */
final class LoopbackServer implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client;
    volatile LongSupplier delayMillis = () -> 0;
    volatile int status = 200;

    LoopbackServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 1024);
        server.createContext("/", exchange -> {
            try (exchange; InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
                long d = delayMillis.getAsLong();
                if (d > 0) {
                    Thread.sleep(d);
                }
                byte[] body = "{\"choices\":[{\"message\":{\"content\":\"ok\"}}]}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, body.length);
                exchange.getResponseBody().write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.setExecutor(executor);
        server.start();
        client = HttpClient.newBuilder().executor(Executors.newVirtualThreadPerTaskExecutor()).build();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Sends like a non-streaming client: first token = body received. Interrupt → CANCELLED record. */
    RequestRecord send(GenerationRequest request, RequestTicket ticket) throws InterruptedException {
        RequestRecord.Builder b = RequestRecord.builder();
        b.id = ticket.id();
        b.label = ticket.label();
        b.protocol = Protocol.OPENAI_CHAT;
        b.contextTokens = ticket.contextTokens();
        b.stream = request.stream();
        b.intendedStartNanos = ticket.intendedStartNanos();
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted before send");
        }
        b.sendNanos = System.nanoTime();
        b.attempts = 1;
        try {
            HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(baseUrl() + "/v1/chat/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString(request.prompt())).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            long now = System.nanoTime();
            b.responseHeadersNanos = now;
            b.firstByteNanos = now;
            b.endNanos = now;
            b.httpStatus = r.statusCode();
            if (r.statusCode() == 200) {
                b.firstTokenNanos = now;
                b.firstContentNanos = now;
                b.outputTokens = 1;
            } else {
                b.error(r.statusCode() == 429 ? ErrorKind.RATE_LIMITED : ErrorKind.HTTP_STATUS, "status " + r.statusCode());
                if (r.statusCode() == 429) {
                    b.rateLimitedAttempts = 1;
                }
            }
        } catch (InterruptedException e) {
            b.outcome = Outcome.CANCELLED;
            b.errorMessage = "interrupted";
            b.endNanos = System.nanoTime();
        } catch (IOException e) {
            b.error(ErrorKind.CONNECTION, e.toString());
            b.endNanos = System.nanoTime();
        }
        return b.build();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        client.shutdownNow();
    }
}
