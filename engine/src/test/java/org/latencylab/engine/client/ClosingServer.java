package org.latencylab.engine.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback OpenAI-compatible server that answers every request correctly but handles its connections the ways
 * real servers do, so that tests can tell a client's false errors from the server's real ones. Each
 * {@link Behaviour} is one connection habit: llama.cpp's {@code llama-server} closes the connection right after
 * every streamed response while announcing keep-alive; an Apache-style server closes after {@code max} responses;
 * idle connections are closed after a timeout; a proxy resets a connection it no longer wants. {@link
 * Behaviour#TRUNCATE} is a real failure: the stream is cut after three events.
 *
 * <p>Streamed answers are {@value #EVENTS} SSE events with chunked transfer coding and a usage chunk; non-streamed
 * answers are one JSON body with {@code Content-Length}. {@code GET /v1/models} lists model {@code m}.
 *
 * <p>Also runnable on its own, for measuring LatencyLab's command line against it:
 * {@code java -cp engine/target/test-classes org.latencylab.engine.client.ClosingServer BEHAVIOUR PORT [N]}.
 *
 * <p>Thread-safe: one platform thread per connection; counters are atomic.
 */
public final class ClosingServer implements AutoCloseable {
    /** Token-bearing events per streamed answer. */
    static final int EVENTS = 4;

    /** How the server treats its connections. */
    public enum Behaviour {
        /** Keeps every connection; the control case. */
        KEEP,
        /** Announces {@code Keep-Alive: timeout=5, max=100} but closes 0-5 ms after each streamed response ends. */
        CLOSE_AFTER_STREAM,
        /** Announces {@code Keep-Alive: timeout=5, max=N} and closes 0-5 ms after the N-th response. */
        MAX_SAID,
        /** Closes 0-5 ms after the N-th response of a connection, announcing nothing. */
        MAX_UNSAID,
        /** Announces {@code Keep-Alive: timeout=1} and closes a connection idle for 1 s. */
        IDLE_SAID,
        /** Closes a connection idle for 1 s, announcing nothing. */
        IDLE_UNSAID,
        /** Resets (TCP RST) a connection when a second request arrives on it. */
        RESET_ON_REUSE,
        /** A real failure: cuts every stream after three events, without the end marker. */
        TRUNCATE;

        /** @return the name used on the command line, e.g. {@code close-after-stream} */
        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private final ServerSocket socket;
    private final Behaviour behaviour;
    private final int max;
    /** Connections accepted. */
    final AtomicInteger connections = new AtomicInteger();
    /** Requests read (each answered, or reset for {@link Behaviour#RESET_ON_REUSE}). */
    final AtomicInteger requests = new AtomicInteger();
    /** Generation requests read and answered (counted before the answer is written). */
    final AtomicInteger generations = new AtomicInteger();

    /**
     * Starts serving on 127.0.0.1.
     *
     * @param behaviour how connections are treated
     * @param port      TCP port, 0 for any free one
     * @param max       responses per connection for {@link Behaviour#MAX_SAID} and {@link Behaviour#MAX_UNSAID}, >= 1
     * @throws IOException when the port cannot be bound
     */
    public ClosingServer(Behaviour behaviour, int port, int max) throws IOException {
        this.behaviour = behaviour;
        this.max = max;
        this.socket = new ServerSocket(port, 1024, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("closing-server-accept").start(this::acceptLoop);
    }

    /** @return {@code http://127.0.0.1:PORT} */
    public String baseUrl() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    private void acceptLoop() {
        while (!socket.isClosed()) {
            try {
                Socket s = socket.accept();
                s.setTcpNoDelay(true);
                connections.incrementAndGet();
                Thread.ofPlatform().daemon().name("closing-server-conn").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            for (int n = 1; ; n++) {
                boolean idleRule = behaviour == Behaviour.IDLE_SAID || behaviour == Behaviour.IDLE_UNSAID;
                s.setSoTimeout(idleRule && n > 1 ? 1_000 : 0);
                String request;
                try {
                    request = readRequest(in);
                } catch (SocketTimeoutException idle) {
                    return; // idle for 1 s: close
                }
                if (request == null) {
                    return;
                }
                requests.incrementAndGet();
                if (behaviour == Behaviour.RESET_ON_REUSE && n > 1) {
                    s.setSoLinger(true, 0);
                    return; // close with linger 0: an RST instead of a FIN
                }
                boolean stream = request.contains("\"stream\":true");
                boolean generation = request.startsWith("POST ");
                if (generation) {
                    generations.incrementAndGet();
                }
                out.write(answer(request, stream, n).getBytes(StandardCharsets.UTF_8));
                out.flush();
                boolean close = switch (behaviour) {
                    case CLOSE_AFTER_STREAM -> stream && generation;
                    case MAX_SAID, MAX_UNSAID -> n >= max;
                    case TRUNCATE -> stream && generation;
                    default -> false;
                };
                if (close) {
                    Thread.sleep(ThreadLocalRandom.current().nextInt(6)); // the close races the next request
                    return;
                }
            }
        } catch (IOException | InterruptedException e) {
            // the client went away
        }
    }

    private String answer(String request, boolean stream, int n) {
        String keepAlive = switch (behaviour) {
            case CLOSE_AFTER_STREAM -> "Keep-Alive: timeout=5, max=100\r\n";
            case MAX_SAID -> "Keep-Alive: timeout=5, max=" + max + "\r\n";
            case IDLE_SAID -> "Keep-Alive: timeout=1\r\n";
            default -> "";
        };
        if (request.startsWith("GET ")) {
            return body("{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}", keepAlive);
        }
        if (!stream) {
            return body("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"a b c d\"},"
                    + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":4}}", keepAlive);
        }
        StringBuilder sb = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n")
                .append("Transfer-Encoding: chunked\r\n").append(keepAlive).append("\r\n");
        sb.append(chunk("data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n"));
        int events = behaviour == Behaviour.TRUNCATE ? 3 : EVENTS;
        for (int e = 0; e < events; e++) {
            sb.append(chunk("data: {\"choices\":[{\"delta\":{\"content\":\"w" + e + " \"}}]}\n\n"));
        }
        if (behaviour == Behaviour.TRUNCATE) {
            return sb.toString(); // no end marker, no last chunk: the close cuts the stream
        }
        sb.append(chunk("data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":" + EVENTS + "}}\n\n"));
        sb.append(chunk("data: [DONE]\n\n")).append("0\r\n\r\n");
        return sb.toString();
    }

    private static String body(String json, String keepAlive) {
        int length = json.getBytes(StandardCharsets.UTF_8).length;
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n"
                + keepAlive + "\r\n" + json;
    }

    private static String chunk(String data) {
        return Integer.toHexString(data.getBytes(StandardCharsets.UTF_8).length) + "\r\n" + data + "\r\n";
    }

    /** @return the request's head and body, or null at end of stream before a request began */
    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                String text = head.toString(StandardCharsets.ISO_8859_1);
                int length = 0;
                for (String line : text.split("\r\n")) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).trim());
                    }
                }
                return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /**
     * Serves until killed.
     *
     * @param args behaviour id (e.g. {@code close-after-stream}), port, and optionally N for the max behaviours
     * @throws IOException when the port cannot be bound
     */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2) {
            System.err.println("usage: ClosingServer BEHAVIOUR PORT [N]   (behaviours: keep, close-after-stream,"
                    + " max-said, max-unsaid, idle-said, idle-unsaid, reset-on-reuse, truncate)");
            System.exit(2);
        }
        Behaviour b = Behaviour.valueOf(args[0].toUpperCase(Locale.ROOT).replace('-', '_'));
        try (ClosingServer server = new ClosingServer(b, Integer.parseInt(args[1]),
                args.length > 2 ? Integer.parseInt(args[2]) : 3)) {
            System.out.println(b.id() + " serving on " + server.baseUrl());
            Thread.currentThread().join();
        }
    }
}
