package org.latencylab.engine.tokens;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

import java.io.IOException;
import java.time.Duration;

/**
 * Counts tokens with a server's own tokenize endpoint, so that a prompt of "2k tokens" is 2k tokens as the server
 * counts them. Speaks llama.cpp's {@code POST /tokenize} ({@code {"content": text}} answered with
 * {@code {"tokens": [...]}}, see llama.cpp's {@code tools/server/README.md}) and vLLM's {@code POST /tokenize}
 * ({@code {"prompt": text}} answered with {@code {"count": n, "tokens": [...]}}); both fields are sent, each server
 * reads its own. The count is of the text alone, without the chat template's tokens or the begin-of-sequence token
 * ({@code add_special: false}). Thread-safe (OkHttp's client is).
 */
public final class ServerTokenizer {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final MediaType JSON_TYPE = MediaType.get("application/json");

    private final OkHttpClient http;
    private final String url;

    /**
     * @param baseUrl the server's base URL, e.g. {@code http://127.0.0.1:8080}; a trailing {@code /v1} is dropped
     *                (the tokenize endpoints live at the root)
     * @throws IllegalArgumentException when the URL is blank
     */
    public ServerTokenizer(String baseUrl) {
        if (baseUrl == null || baseUrl.isBlank()) {
            throw new IllegalArgumentException("baseUrl must not be blank, e.g. http://127.0.0.1:8080");
        }
        String b = baseUrl.strip().replaceAll("/+$", "").replaceAll("/v1$", "");
        this.url = b + "/tokenize";
        this.http = new OkHttpClient.Builder().callTimeout(Duration.ofSeconds(60)).build();
    }

    /** @return the endpoint's URL, e.g. {@code http://127.0.0.1:8080/tokenize} */
    public String url() {
        return url;
    }

    /**
     * @param text text to count, null counts as empty
     * @return the number of tokens the server counts for it, >= 0
     * @throws IOException when the server cannot be reached, answers with a status other than 2xx (it has no such
     *                     endpoint), or answers with neither {@code tokens} nor {@code count}; the message says which
     */
    public int count(String text) throws IOException {
        String body = JSON.createObjectNode().put("content", text == null ? "" : text)
                .put("prompt", text == null ? "" : text).put("add_special", false).toString();
        Request req = new Request.Builder().url(url).post(RequestBody.create(body, JSON_TYPE)).build();
        try (Response resp = http.newCall(req).execute()) {
            if (!resp.isSuccessful()) {
                throw new IOException(url + " answered HTTP " + resp.code() + ": the server has no tokenize endpoint");
            }
            JsonNode n = JSON.readTree(resp.body().string());
            if (n.has("count") && n.get("count").canConvertToInt()) {
                return n.get("count").asInt();
            }
            if (n.has("tokens") && n.get("tokens").isArray()) {
                return n.get("tokens").size();
            }
            throw new IOException(url + " answered without 'tokens' or 'count': " + n.toString()
                    .substring(0, Math.min(120, n.toString().length())));
        }
    }
}
