package org.latencylab.engine.experiment;

import org.latencylab.engine.prompt.Corpus;
import org.latencylab.engine.prompt.PromptBuilder;
import org.latencylab.engine.tokens.TokenCounter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Prompts of exact token counts for one run. Warm prompts (the same text for every request of a length) are
 * built once and cached; cold prompts get a unique prefix per request ({@code [run-id request-n]}) so no prefix
 * cache on the server can help. Thread-safe.
 */
final class Prompts {
    private final PromptBuilder builder;
    private final boolean random;
    private final long seed;
    private final String runTag;
    private final AtomicLong counter = new AtomicLong();
    private final Map<Integer, String> warm = new ConcurrentHashMap<>();

    private Prompts(PromptBuilder builder, boolean random, long seed, String runTag) {
        this.builder = builder;
        this.random = random;
        this.seed = seed;
        this.runTag = runTag;
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
        return new Prompts(b, random, seed, runTag);
    }

    /**
     * @param tokens exact prompt length in tokens, >= 1
     * @param cold   unique prefix per call
     * @return the prompt
     */
    String prompt(int tokens, boolean cold) {
        if (!cold) {
            return warm.computeIfAbsent(tokens, n -> random ? builder.buildRandom(n, seed, null) : builder.build(n, null));
        }
        String prefix = "[" + runTag + " request " + counter.incrementAndGet() + "] ";
        return random ? builder.buildRandom(tokens, seed, prefix) : builder.build(tokens, prefix);
    }
}
