package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the simulator groups a stream's events into writes, seen on the wire: the chunks of a chunked response read
 * from a raw socket. Events due at the same moment share one chunk (one write); events due apart, and every event
 * when stamping is on, have a chunk each.
 */
class SimEventWritesTest {
    private static final String ZERO = """
            name: zero
            model: zero-model
            prefill: {t0: 0, k: 0, alpha: 1}
            decode: {tpot: 0, batchSlowdown: 0}
            """;
    private static final String PACED = """
            name: paced
            model: paced-model
            prefill: {t0: 0.02, k: 0, alpha: 1}
            decode: {tpot: 0.03, batchSlowdown: 0}
            """;

    @Test
    void aStreamWhoseEventsAreAllDueAtOnceIsOneWrite() throws IOException {
        List<String> chunks = chunks(ZERO, false, 8);
        assertThat(chunks).as("role chunk, 8 tokens, usage and [DONE] in one write").hasSize(1);
        String body = chunks.get(0);
        assertThat(count(body, "data: ")).isEqualTo(11);
        assertThat(body).endsWith("data: [DONE]\n\n");
    }

    @Test
    void eventsDueApartAreWrittenApart() throws IOException {
        List<String> chunks = chunks(PACED, false, 8);
        // the role chunk goes out before the prefill wait, each of the first seven tokens before the next wait; the
        // last token, the usage event and [DONE] are due together
        assertThat(chunks).hasSize(9);
        assertThat(chunks.get(0)).contains("\"role\":\"assistant\"");
        for (String c : chunks.subList(0, 8)) {
            assertThat(count(c, "data: ")).isEqualTo(1);
        }
        assertThat(count(chunks.get(8), "data: ")).isEqualTo(3);
        assertThat(chunks.get(8)).contains("\"usage\"").endsWith("data: [DONE]\n\n");
    }

    @Test
    void withStampingEveryEventIsItsOwnWriteSoItsStampIsItsWriteTime() throws IOException {
        List<String> chunks = chunks(ZERO, true, 8);
        assertThat(chunks).hasSize(11);
        for (String c : chunks.subList(0, 10)) {
            assertThat(count(c, "data: ")).isEqualTo(1);
            assertThat(c).contains("\"x_sent_ns\":");
        }
        assertThat(chunks.get(10)).isEqualTo("data: [DONE]\n\n");
    }

    /**
     * Sends two streaming chat requests over raw sockets, the first to load and compile the server's code (a server
     * that falls behind its schedule writes what is due together); returns the second response body's chunks.
     */
    private static List<String> chunks(String profile, boolean stamping, int maxTokens) throws IOException {
        SimOptions options = SimOptions.defaults().newBuilder().stamping(stamping).build();
        try (SimServer server = SimServer.start(Loopback.profile(profile), options)) {
            chunks(server, maxTokens);
            return chunks(server, maxTokens);
        }
    }

    private static List<String> chunks(SimServer server, int maxTokens) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
            s.setSoTimeout(10_000);
            byte[] body = Loopback.chat("Name three rivers.", maxTokens, true, true)
                    .getBytes(StandardCharsets.UTF_8);
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            InputStream in = s.getInputStream();
            assertThat(line(in)).startsWith("HTTP/1.1 200");
            boolean chunked = false;
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                chunked |= h.toLowerCase().startsWith("transfer-encoding:") && h.toLowerCase().contains("chunked");
            }
            assertThat(chunked).as("a streamed response is chunked").isTrue();
            List<String> chunks = new ArrayList<>();
            for (int size = Integer.parseInt(line(in).trim(), 16); size > 0;
                 size = Integer.parseInt(line(in).trim(), 16)) {
                chunks.add(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                assertThat(line(in)).isEmpty();
            }
            return chunks;
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the connection ended inside a line");
            }
            b.write(c);
        }
        String l = b.toString(StandardCharsets.US_ASCII);
        return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
