package org.latencylab.engine.tokens;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Counts, encodes and decodes tokens with one jtokkit BPE encoding (default {@code cl100k_base}, the encoding
 * of OpenAI's GPT-3.5/GPT-4 models, published in OpenAI's tiktoken).
 *
 * <p>Counts from this class are LatencyLab's own and are labelled {@code tokenizer} wherever they appear; a
 * server's own tokenizer may count the same text differently. Thread-safe: jtokkit encodings are immutable.
 */
public final class TokenCounter {
    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();
    private static volatile TokenCounter defaultCounter;

    private final Encoding encoding;
    private final String name;

    private TokenCounter(Encoding encoding, String name) {
        this.encoding = encoding;
        this.name = name;
    }

    /** @return the shared {@code cl100k_base} counter */
    public static TokenCounter cl100k() {
        TokenCounter c = defaultCounter;
        if (c == null) {
            c = new TokenCounter(REGISTRY.getEncoding(EncodingType.CL100K_BASE), "cl100k_base");
            defaultCounter = c;
        }
        return c;
    }

    /**
     * @param name an encoding name: {@code cl100k_base}, {@code o200k_base}, {@code p50k_base},
     *             {@code p50k_edit} or {@code r50k_base}
     * @return a counter for it
     * @throws IllegalArgumentException for an unknown name; the message lists the known ones
     */
    public static TokenCounter forName(String name) {
        if (name == null || name.equalsIgnoreCase("cl100k_base")) {
            return cl100k();
        }
        for (EncodingType t : EncodingType.values()) {
            if (t.getName().equalsIgnoreCase(name.strip())) {
                return new TokenCounter(REGISTRY.getEncoding(t), t.getName());
            }
        }
        throw new IllegalArgumentException("unknown tokenizer '" + name + "', expected one of "
                + Arrays.stream(EncodingType.values()).map(EncodingType::getName)
                .map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
    }

    /** @return the encoding's name, e.g. {@code cl100k_base} */
    public String name() {
        return name;
    }

    /** @param text any text, null counts as empty @return its number of tokens, >= 0 */
    public int count(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return encoding.countTokensOrdinary(text);
    }

    /** @param text text to encode @return token ids (a new array) */
    public int[] encode(String text) {
        IntArrayList ids = encoding.encodeOrdinary(text == null ? "" : text);
        return ids.toArray();
    }

    /**
     * @param ids token ids of this encoding
     * @return the decoded text (a token sequence cut inside a multi-byte character decodes with U+FFFD)
     * @throws IllegalArgumentException when an id is not in the encoding's vocabulary
     */
    public String decode(int[] ids) {
        IntArrayList list = new IntArrayList(ids.length);
        for (int id : ids) {
            list.add(id);
        }
        return encoding.decode(list);
    }
}
