package org.latencylab.engine.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.latencylab.engine.tokens.TokenCounter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/** Test-side HTTP over real loopback with the JDK's HttpClient: every received line is time-stamped. */
final class Loopback implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    /** A received line and {@link System#nanoTime()} when the client saw it. */
    record Line(long atNanos, String text) {
    }

    /** A finished exchange. {@code error} is set when the body broke off. */
    record Result(int status, HttpHeaders headers, long sentNanos, long headersNanos, List<Line> lines,
                  Throwable error) {

        /** @return payloads of SSE {@code data:} lines, prefix removed */
        List<Line> data() {
            List<Line> out = new ArrayList<>();
            for (Line l : lines) {
                if (l.text().startsWith("data:")) {
                    String p = l.text().substring(5);
                    out.add(new Line(l.atNanos(), p.startsWith(" ") ? p.substring(1) : p));
                }
            }
            return out;
        }

        /** @return data payloads parsed as JSON, [DONE] left out */
        List<JsonNode> dataJson() {
            return data().stream().filter(l -> !l.text().equals("[DONE]")).map(l -> parse(l.text())).toList();
        }

        /** @return non-empty lines parsed as JSON (NDJSON) */
        List<JsonNode> ndjson() {
            return lines.stream().filter(l -> !l.text().isEmpty()).map(l -> parse(l.text())).toList();
        }

        /** @return the whole body (lines joined) as JSON */
        JsonNode body() {
            return parse(String.join("\n", lines.stream().map(Line::text).toList()));
        }

        /** @return the body text */
        String text() {
            return String.join("\n", lines.stream().map(Line::text).toList());
        }
    }

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final String baseUrl;

    Loopback(SimServer server) {
        this.baseUrl = server.baseUrl();
    }

    /** POSTs JSON and reads the response line by line as it arrives. */
    Result post(String path, String json) {
        HttpRequest req = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").header("Accept-Encoding", "identity")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
        return send(req);
    }

    /** GETs a path. */
    Result get(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30)).GET().build());
    }

    private Result send(HttpRequest req) {
        long sent = System.nanoTime();
        HttpResponse<Stream<String>> resp;
        try {
            resp = client.send(req, HttpResponse.BodyHandlers.ofLines());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        long headers = System.nanoTime();
        List<Line> lines = new ArrayList<>();
        Throwable error = null;
        try (Stream<String> body = resp.body()) {
            Iterator<String> it = body.iterator();
            while (it.hasNext()) {
                String s = it.next();
                lines.add(new Line(System.nanoTime(), s));
            }
        } catch (RuntimeException e) {
            error = e;
        }
        return new Result(resp.statusCode(), resp.headers(), sent, headers, lines, error);
    }

    @Override
    public void close() {
        client.close();
    }

    static JsonNode parse(String s) {
        try {
            return JSON.readTree(s);
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + s, e);
        }
    }

    /** @return text of exactly {@code tokens} cl100k tokens made of random simulator words */
    static String prompt(int tokens, long seed) {
        Random r = new Random(seed);
        List<WordSource.Piece> words = WordSource.wordPieces();
        StringBuilder sb = new StringBuilder(tokens * 6);
        for (int i = 0; i < tokens; i++) {
            sb.append(words.get(r.nextInt(words.size())).text());
        }
        String s = sb.toString();
        int n = TokenCounter.cl100k().count(s);
        if (n != tokens) {
            throw new IllegalStateException("prompt has " + n + " tokens, wanted " + tokens);
        }
        return s;
    }

    /** @return a chat request body */
    static String chat(String prompt, int maxTokens, boolean stream, boolean usage) {
        var root = JSON.createObjectNode().put("model", "any").put("max_tokens", maxTokens).put("stream", stream);
        root.putArray("messages").addObject().put("role", "user").put("content", prompt);
        if (usage) {
            root.putObject("stream_options").put("include_usage", true);
        }
        return root.toString();
    }

    /** A quick profile from YAML text. */
    static SimProfile profile(String yaml) {
        return SimProfile.parse("test profile", "test", yaml);
    }
}
