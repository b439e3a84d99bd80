package org.latencylab.app.ui.experiment;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import org.latencylab.engine.link.LinkProfiles;
import org.latencylab.engine.transport.Transport;
import org.latencylab.engine.transport.TransportsSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * State of the transports form, as JavaFX properties (no nodes): which transports (SSE over HTTP/1.1, HTTP/2 TLS,
 * h2c, gRPC streaming plain and TLS, non-streaming JSON), which built-in network profiles, warm and/or cold
 * connections, requests per cell, prompt and output length and the first screen in characters.
 * {@link #spec()} turns it into the engine's {@link TransportsSpec}. Defaults follow the spec's: SSE HTTP/1.1 and
 * gRPC, the {@code wired} profile, warm connections, 20 requests per cell, 128 prompt tokens, 64 output tokens,
 * 200 characters. Not thread-safe: use it on the UI thread.
 */
public final class TransportsForm {
    /** Transport ids offered, in the order shown. */
    public static final List<String> TRANSPORTS = Arrays.stream(Transport.values()).map(Transport::id).toList();
    /** Network profiles offered: the built-in ones. */
    public static final List<String> NETWORKS = LinkProfiles.BUILT_IN;

    private final Map<String, BooleanProperty> transports = new LinkedHashMap<>();
    private final Map<String, BooleanProperty> networks = new LinkedHashMap<>();
    private final BooleanProperty warm = new SimpleBooleanProperty(true);
    private final BooleanProperty cold = new SimpleBooleanProperty(false);
    private final IntegerProperty requests = new SimpleIntegerProperty(20);
    private final IntegerProperty promptTokens = new SimpleIntegerProperty(128);
    private final IntegerProperty maxOutputTokens = new SimpleIntegerProperty(64);
    private final IntegerProperty firstScreenChars = new SimpleIntegerProperty(200);

    /** A form with the defaults of {@link TransportsSpec}. */
    public TransportsForm() {
        for (String t : TRANSPORTS) {
            transports.put(t, new SimpleBooleanProperty(t.equals("sse-h1") || t.equals("grpc")));
        }
        for (String n : NETWORKS) {
            networks.put(n, new SimpleBooleanProperty(n.equals("wired")));
        }
    }

    /**
     * @param id a transport id of {@link #TRANSPORTS}
     * @return whether that transport is measured
     * @throws IllegalArgumentException when the id is not offered
     */
    public BooleanProperty transportProperty(String id) {
        return get(transports, "transport", id);
    }

    /**
     * @param name a network profile of {@link #NETWORKS}
     * @return whether that profile is measured
     * @throws IllegalArgumentException when the name is not offered
     */
    public BooleanProperty networkProperty(String name) {
        return get(networks, "network", name);
    }

    /** @return warm connections (pooled, opened by an unrecorded warm-up request) are measured */
    public BooleanProperty warmProperty() {
        return warm;
    }

    /** @return cold connections (DNS, TCP and TLS inside the measured time) are measured */
    public BooleanProperty coldProperty() {
        return cold;
    }

    /** @return measured requests per cell (transport × network × connection), &gt;= 1 */
    public IntegerProperty requestsProperty() {
        return requests;
    }

    /** @return prompt length, tokens, &gt;= 1 (the same prompt for every request) */
    public IntegerProperty promptTokensProperty() {
        return promptTokens;
    }

    /** @return output tokens asked for, &gt;= 1 */
    public IntegerProperty maxOutputTokensProperty() {
        return maxOutputTokens;
    }

    /** @return the first screen, characters of answer text, &gt;= 1 */
    public IntegerProperty firstScreenCharsProperty() {
        return firstScreenChars;
    }

    /**
     * @return the transports step the form describes
     * @throws IllegalArgumentException when a field is invalid; the message names the form field
     */
    public TransportsSpec spec() {
        List<String> t = checked(transports);
        if (t.isEmpty()) {
            throw new IllegalArgumentException("transports: check at least one transport");
        }
        List<String> n = checked(networks);
        if (n.isEmpty()) {
            throw new IllegalArgumentException("networks: check at least one network profile");
        }
        List<String> c = new ArrayList<>();
        if (warm.get()) {
            c.add("warm");
        }
        if (cold.get()) {
            c.add("cold");
        }
        if (c.isEmpty()) {
            throw new IllegalArgumentException("connections: check warm, cold or both");
        }
        positive("requests per cell", requests.get());
        positive("prompt tokens", promptTokens.get());
        positive("max output tokens", maxOutputTokens.get());
        positive("first screen [characters]", firstScreenChars.get());
        return new TransportsSpec(t, n, c, requests.get(), promptTokens.get(), maxOutputTokens.get(),
                firstScreenChars.get(), null, null);
    }

    /** @return a short run name, e.g. {@code transports-2x1} (transports × networks) */
    public String suggestedName() {
        return "transports-" + checked(transports).size() + "x" + checked(networks).size();
    }

    private static void positive(String field, int v) {
        if (v < 1) {
            throw new IllegalArgumentException(field + " must be >= 1, was " + v);
        }
    }

    private static List<String> checked(Map<String, BooleanProperty> m) {
        return m.entrySet().stream().filter(e -> e.getValue().get()).map(Map.Entry::getKey).toList();
    }

    private static BooleanProperty get(Map<String, BooleanProperty> m, String what, String key) {
        BooleanProperty p = m.get(key);
        if (p == null) {
            throw new IllegalArgumentException("unknown " + what + " '" + key + "', expected one of " + m.keySet());
        }
        return p;
    }
}
