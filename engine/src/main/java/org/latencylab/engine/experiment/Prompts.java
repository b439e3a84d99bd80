package org.latencylab.engine.experiment;

import org.latencylab.engine.prompt.Corpus;
import org.latencylab.engine.prompt.PromptBuilder;
import org.latencylab.engine.tokens.TokenCounter;

import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.tokens.ServerTokenizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prompts of exact token counts for one run. Warm prompts (the same text for every request of a length) are
 * built once and cached; cold prompts get a unique prefix per request ({@code [run-id request-n]}) so no prefix
 * cache on the server can help.
 *
 * <p>Who counts a prompt's tokens is the run's {@code tokenizer}: a jtokkit encoding (LatencyLab's own count), or
 * {@value #SERVER}: the server's own tokenize endpoint ({@link ServerTokenizer}). With the server's count, a prompt
 * of {@code n} tokens is built with LatencyLab's tokenizer at a length {@code k} that is corrected until the server
 * counts {@code n} (secant steps on the ratio of the two counts, at most {@value #MAX_STEPS}), and the chat
 * template's own tokens (the server's {@code usage.prompt_tokens} minus the text's count, learned from the first
 * response that reports usage) are taken off the text, so that the whole prompt the server prefills is {@code n}.
 * When the server has no tokenize endpoint, the first response's {@code usage.prompt_tokens} corrects the length
 * instead ({@code usage}: one ratio for every length, so the template's fixed tokens are spread over it).
 * Thread-safe.
 */
final class Prompts {
    private final PromptBuilder builder;
    private final boolean random;
    private final long seed;
    private final String runTag;
    private final AtomicLong counter = new AtomicLong();
    private final Map<Integer, String> warm = new ConcurrentHashMap<>();
    /** The tokenizer value that asks for the server's count. */
    static final String SERVER = "server";
    private static final int MAX_STEPS = 6;
    private final ServerTokenizer server;
    private final String source;
    private final boolean usage;
    private final Map<Integer, Integer> ownLength = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger templateTokens = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicBoolean learned = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile double usageRatio = 1.0;

    private Prompts(PromptBuilder builder, boolean random, long seed, String runTag, ServerTokenizer server,
                    String source, boolean usage) {
        this.builder = builder;
        this.random = random;
        this.seed = seed;
        this.runTag = runTag;
        this.server = server;
        this.source = source;
        this.usage = usage;
    }

    /**
     * @param tokenizer jtokkit encoding name, or {@value #SERVER}
     * @param corpus    as {@link #create(String, String, long, String)}
     * @param seed      seed for the random corpus
     * @param runTag    short text unique to the run
     * @param baseUrl   the endpoint's base URL, asked for {@code /tokenize} when the tokenizer is {@value #SERVER}
     * @return prompts for the run; with {@value #SERVER} and no tokenize endpoint, prompts corrected from usage
     * @throws IllegalArgumentException when the tokenizer or corpus is unknown
     */
    static Prompts create(String tokenizer, String corpus, long seed, String runTag, String baseUrl) {
        if (!SERVER.equalsIgnoreCase(tokenizer == null ? "" : tokenizer.strip())) {
            return create(tokenizer, corpus, seed, runTag);
        }
        Prompts own = create("cl100k_base", corpus, seed, runTag);
        ServerTokenizer t = new ServerTokenizer(baseUrl);
        try {
            t.count("probe");
            return new Prompts(own.builder, own.random, seed, runTag, t, "server " + t.url(), false);
        } catch (IOException e) {
            return new Prompts(own.builder, own.random, seed, runTag, null,
                    "usage (no tokenize endpoint: " + e.getMessage() + ")", true);
        }
    }

    /** @return who counted the prompt tokens: a jtokkit encoding name, {@code server URL} or {@code usage (...)} */
    String source() {
        return source;
    }

    /**
     * Learns the chat template's tokens (server count) or the usage ratio from the first finished request that
     * reports the server's prompt tokens; later ones are ignored.
     *
     * @param r a finished request
     */
    void observe(RequestRecord r) {
        if ((server == null && !usage) || r.inputTokens() <= 0 || r.contextTokens() <= 0 || learned.get()) {
            return;
        }
        if (learned.compareAndSet(false, true)) {
            if (usage) {
                usageRatio = (double) r.inputTokens() / r.contextTokens();
            } else {
                templateTokens.set(Math.max(0, r.inputTokens() - r.contextTokens()));
                warm.clear();
            }
        }
    }

    private String sized(int n, String prefix) {
        if (usage) {
            int k = Math.max(1, (int) Math.round(n / usageRatio));
            return build(k, prefix);
        }
        int target = Math.max(1, n - templateTokens.get());
        int k = ownLength.getOrDefault(target, target);
        String text = build(k, prefix);
        try {
            for (int step = 0; step < MAX_STEPS; step++) {
                int counted = server.count(text);
                if (Math.abs(counted - target) <= target / 1000) {
                    break;
                }
                k = Math.max(1, (int) Math.round((double) k * target / Math.max(1, counted)));
                text = build(k, prefix);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("prompt tokens could not be counted by the server: " + e.getMessage(), e);
        }
        ownLength.put(target, k);
        return text;
    }

    private String build(int k, String prefix) {
        return random ? builder.buildRandom(k, seed, prefix) : builder.build(k, prefix);
    }

    /**
     * @param tokenizer jtokkit encoding name
     * @param corpus    {@code en}, {@code zh}, {@code random} or a file path
     * @param seed      seed for the random corpus
     * @param runTag    short text unique to the run, used in cold prefixes
     * @return prompts for the run
     * @throws IllegalArgumentException when the tokenizer or corpus is unknown
     */
    static Prompts create(String tokenizer, String corpus, long seed, String runTag) {
        TokenCounter counter = TokenCounter.forName(tokenizer);
        PromptBuilder b;
        boolean random = "random".equals(corpus);
        if (random) {
            b = new PromptBuilder(Corpus.builtin("en"), counter);
        } else if ("en".equals(corpus) || "zh".equals(corpus)) {
            b = new PromptBuilder(Corpus.builtin(corpus), counter);
        } else {
            Path p = Path.of(corpus);
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("corpus must be en, zh, random or a text file; '" + corpus
                        + "' is none of them");
            }
            try {
                b = new PromptBuilder(Corpus.load(p), counter);
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("corpus file " + p + " cannot be read: " + e.getMessage(), e);
            }
        }
        return new Prompts(b, random, seed, runTag, null, counter.name(), false);
    }

    /**
     * @param tokens exact prompt length in tokens, >= 1
     * @param cold   unique prefix per call
     * @return the prompt
     */
    String prompt(int tokens, boolean cold) {
        if (server != null || usage) {
            if (!cold) {
                return warm.computeIfAbsent(tokens, n -> sized(n, null));
            }
            return sized(tokens, "[" + runTag + " request " + counter.incrementAndGet() + "] ");
        }
        if (!cold) {
            return warm.computeIfAbsent(tokens, n -> random ? builder.buildRandom(n, seed, null) : builder.build(n, null));
        }
        String prefix = "[" + runTag + " request " + counter.incrementAndGet() + "] ";
        return random ? builder.buildRandom(tokens, seed, prefix) : builder.build(tokens, prefix);
    }
}
