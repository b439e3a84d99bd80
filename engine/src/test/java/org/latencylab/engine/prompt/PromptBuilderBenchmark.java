package org.latencylab.engine.prompt;

import org.latencylab.engine.tokens.TokenCounter;

/**
 * Measures how long building a prompt takes (not run by the unit tests). Run with the test classpath:
 * {@code java -cp ... org.latencylab.engine.prompt.PromptBuilderBenchmark}.
 */
public final class PromptBuilderBenchmark {
    private PromptBuilderBenchmark() {
    }

    /** @param args ignored */
    public static void main(String[] args) {
        TokenCounter tokens = TokenCounter.cl100k();
        for (String lang : Corpus.BUILTIN) {
            long t0 = System.nanoTime();
            PromptBuilder b = new PromptBuilder(Corpus.builtin(lang));
            System.out.printf("%s: builder setup %.1f ms (%d tokens per corpus pass)%n", lang,
                    (System.nanoTime() - t0) / 1e6, b.corpusTokens());
            for (int n : new int[]{2048, 8192, 32768}) {
                for (int i = 0; i < 5; i++) { // warm-up
                    b.build(n, PromptBuilder.coldPrefix("warm", i));
                }
                int reps = 20;
                long start = System.nanoTime();
                int total = 0;
                for (int i = 0; i < reps; i++) {
                    total += tokens.count(b.build(n, PromptBuilder.coldPrefix("bench", i)));
                }
                double ms = (System.nanoTime() - start) / 1e6 / reps;
                System.out.printf("%s: %d tokens cold: %.1f ms per prompt (checked %d tokens)%n", lang, n, ms,
                        total / reps);
            }
        }
        PromptBuilder b = new PromptBuilder(Corpus.builtin("en"));
        long t0 = System.nanoTime();
        b.buildRandom(10, 1, null);
        System.out.printf("random: vocabulary scan %.1f ms%n", (System.nanoTime() - t0) / 1e6);
        long start = System.nanoTime();
        for (int i = 0; i < 10; i++) {
            b.buildRandom(32768, i, null);
        }
        System.out.printf("random: 32768 tokens: %.1f ms per prompt%n", (System.nanoTime() - start) / 1e6 / 10);
    }
}
