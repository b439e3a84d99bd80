package org.latencylab.engine.prompt;

import org.latencylab.engine.tokens.TokenCounter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.regex.Pattern;

/**
 * Builds prompts whose {@link TokenCounter} count is exactly the number asked for.
 *
 * <p>Corpus mode repeats the corpus cyclically (separated by a blank line) and cuts it after the requested number of
 * tokens. The cut is made at a character boundary (a token of a Chinese text can hold part of a character), the
 * result is re-counted, and the cut point is moved until the count is exact; when no cut point gives the exact count
 * (a character spanning several tokens at the cut), a nearby shorter cut is topped up with one to four one-token
 * fillers such as {@code " x"}. Random mode
 * concatenates whole vocabulary words (tokens of the form space + lower-case letters that re-encode to themselves)
 * drawn from a seeded generator.
 *
 * <p>Both modes accept a unique prefix (cold mode): it starts the text and its tokens count within the total.
 *
 * <p>Thread-safe: an instance is immutable after construction; the random-mode vocabulary is computed once per
 * tokenizer and shared. Cost: a few tokenizer passes over the prompt (tens of milliseconds for a long cold prompt); warm prompts of recently used sizes are cached. Load tests that need many cold prompts should build
 * them before the run starts.
 * Encoding and decoding are jtokkit's (through {@link TokenCounter}); only the search for an exact cut is written here.
 */
public final class PromptBuilder {
    /** Largest prompt this builder makes, tokens: {@value}. */
    public static final int MAX_TOKENS = 4_000_000;

    private static final String SEPARATOR = "\n\n";
    // one-token fillers; each repetition is its own pre-token, so r copies add r tokens
    private static final String[] FILLERS = {" x", " the", " a", ".", "\n", ",", "!", "?"};
    private static final int MAX_FILL = 4;
    private static final Pattern WORD = Pattern.compile(" [a-z]{2,}");
    private static final Map<String, int[]> WORD_POOLS = new ConcurrentHashMap<>();

    private static final int WARM_CACHE_SIZE = 64;

    private final Corpus corpus;
    // warm prompts are the same text every time: keep the most recent few (a sweep asks for the same sizes repeatedly)
    private final Map<Integer, String> warmCache = new ConcurrentHashMap<>();
    private final TokenCounter counter;
    private final String unit;
    private final int unitTokens;
    // clean cut points inside one unit: after boundaryTokens[j] tokens the text is unit.substring(0, boundaryChars[j])
    private final int[] boundaryTokens;
    private final int[] boundaryChars;

    /**
     * @param corpus the text to cut prompts from
     * @throws IllegalArgumentException when the corpus encodes to no tokens
     */
    public PromptBuilder(Corpus corpus) {
        this(corpus, TokenCounter.cl100k());
    }

    /**
     * @param corpus  the text to cut prompts from
     * @param counter the tokenizer whose counts must be exact
     * @throws IllegalArgumentException when the corpus encodes to no tokens
     */
    public PromptBuilder(Corpus corpus, TokenCounter counter) {
        this.corpus = Objects.requireNonNull(corpus, "corpus");
        this.counter = Objects.requireNonNull(counter, "counter");
        this.unit = corpus.text() + SEPARATOR;
        int[] ids = counter.encode(unit);
        if (ids.length == 0) {
            throw new IllegalArgumentException("corpus '" + corpus.name() + "' encodes to no tokens");
        }
        this.unitTokens = ids.length;
        // Group tokens until the group decodes without U+FFFD: then the group ends on a character boundary.
        // (TokenCounter exposes decoded strings, not bytes, so this finds the character offsets of clean cuts.)
        List<int[]> cuts = new ArrayList<>();
        cuts.add(new int[]{0, 0});
        int chars = 0;
        int start = 0;
        for (int i = 0; i < ids.length; i++) {
            String s = counter.decode(Arrays.copyOfRange(ids, start, i + 1));
            if (s.indexOf('\uFFFD') < 0) {
                chars += s.length();
                start = i + 1;
                cuts.add(new int[]{i + 1, chars});
            }
        }
        if (chars != unit.length()) {
            throw new IllegalStateException("corpus '" + corpus.name() + "' does not round-trip through "
                    + counter.name() + " (" + chars + " of " + unit.length() + " characters)");
        }
        boundaryTokens = cuts.stream().mapToInt(c -> c[0]).toArray();
        boundaryChars = cuts.stream().mapToInt(c -> c[1]).toArray();
    }

    /** @return the corpus prompts are cut from */
    public Corpus corpus() {
        return corpus;
    }

    /** @return the tokenizer whose counts are exact */
    public TokenCounter counter() {
        return counter;
    }

    /** @return tokens in one pass over the corpus (including the blank line between repetitions) */
    public int corpusTokens() {
        return unitTokens;
    }

    /**
     * Warm-mode prompt: the same text for the same count every time.
     *
     * @param exactTokens the token count wanted, 1..{@value #MAX_TOKENS}
     * @return text with exactly that many tokens
     * @throws IllegalArgumentException when the count is out of range
     */
    public String build(int exactTokens) {
        return build(exactTokens, null);
    }

    /**
     * @param exactTokens  the token count wanted (prefix included), 1..{@value #MAX_TOKENS}
     * @param uniquePrefix text that starts the prompt (cold mode, e.g. {@link #coldPrefix}), or null for warm mode
     * @return text that starts with {@code uniquePrefix} and has exactly {@code exactTokens} tokens
     * @throws IllegalArgumentException when the count is out of range or the prefix alone has more tokens
     * @throws IllegalStateException    when no exact cut was found (not seen with the built-in corpora)
     */
    public String build(int exactTokens, String uniquePrefix) {
        if (uniquePrefix != null) {
            return exact(exactTokens, uniquePrefix, this::corpusText);
        }
        String cached = warmCache.get(exactTokens);
        if (cached != null) {
            return cached;
        }
        String text = exact(exactTokens, null, this::corpusText);
        if (warmCache.size() >= WARM_CACHE_SIZE) {
            warmCache.clear();
        }
        warmCache.put(exactTokens, text);
        return text;
    }

    /**
     * Random-token mode: whole vocabulary words drawn with a seeded generator (same seed, same text).
     *
     * @param exactTokens  the token count wanted (prefix included), 1..{@value #MAX_TOKENS}
     * @param seed         seed of the generator
     * @param uniquePrefix text that starts the prompt, or null
     * @return text with exactly {@code exactTokens} tokens
     * @throws IllegalArgumentException when the count is out of range or the prefix alone has more tokens
     */
    public String buildRandom(int exactTokens, long seed, String uniquePrefix) {
        int[] pool = WORD_POOLS.computeIfAbsent(counter.name(), k -> wordPool(counter));
        SplittableRandom rnd = new SplittableRandom(seed);
        // words are drawn lazily in one order, so every k sees a prefix of the same word sequence
        List<String> words = new ArrayList<>();
        IntFunction<String> text = k -> {
            while (words.size() < k) {
                words.add(counter.decode(new int[]{pool[rnd.nextInt(pool.length)]}));
            }
            StringBuilder sb = new StringBuilder(k * 8);
            for (int i = 0; i < k; i++) {
                sb.append(words.get(i));
            }
            return sb.toString();
        };
        return exact(exactTokens, uniquePrefix, text);
    }

    /**
     * A unique first line for cold-mode prompts.
     *
     * @param runId     identifies the run (e.g. a UUID or time stamp), not null
     * @param requestId the request's number within the run
     * @return e.g. {@code "Request 12 of run 7f3a9c.\n"}
     */
    public static String coldPrefix(String runId, long requestId) {
        return "Request " + requestId + " of run " + Objects.requireNonNull(runId, "runId") + ".\n";
    }

    private String corpusText(int tokens) {
        int reps = tokens / unitTokens;
        int rem = tokens % unitTokens;
        int j = Arrays.binarySearch(boundaryTokens, rem);
        if (j < 0) {
            j = -j - 2; // the largest clean cut below rem
        }
        StringBuilder sb = new StringBuilder(reps * unit.length() + boundaryChars[j]);
        for (int r = 0; r < reps; r++) {
            sb.append(unit);
        }
        sb.append(unit, 0, boundaryChars[j]);
        return sb.toString();
    }

    private String exact(int n, String prefix, IntFunction<String> body) {
        if (n < 1 || n > MAX_TOKENS) {
            throw new IllegalArgumentException("prompt length must be in 1.." + MAX_TOKENS + " tokens, was " + n);
        }
        String pre = prefix == null ? "" : prefix;
        int p = counter.count(pre);
        if (p > n) {
            throw new IllegalArgumentException("the unique prefix alone has " + p + " tokens, more than the " + n
                    + " requested");
        }
        // Newton-like steps on the cut point: each step corrects by the observed error
        int k = n - p;
        Set<Integer> seen = new HashSet<>();
        for (int step = 0; step < 16 && seen.add(k); step++) {
            String t = pre + body.apply(k);
            int c = counter.count(t);
            if (c == n) {
                return t;
            }
            k = Math.max(0, k + (n - c));
        }
        // The cut cannot land exactly (merges at the cut, or a character spread over several tokens, which
        // happens in Chinese text): take nearby cut points that fall short and fill the deficit with short
        // fillers of one token each.
        for (int d = 0; d <= 8; d++) {
            for (int sign : d == 0 ? new int[]{1} : new int[]{-1, 1}) {
                int kk = k + sign * d;
                if (kk < 0) {
                    continue;
                }
                String base = pre + body.apply(kk);
                int deficit = n - counter.count(base);
                if (deficit == 0) {
                    return base;
                }
                if (deficit < 0 || deficit > MAX_FILL) {
                    continue;
                }
                for (String f : FILLERS) {
                    String t = base + f.repeat(deficit);
                    if (counter.count(t) == n) {
                        return t;
                    }
                }
            }
        }
        throw new IllegalStateException("could not build a prompt of exactly " + n + " tokens from corpus '"
                + corpus.name() + "' with " + counter.name());
    }

    private static int[] wordPool(TokenCounter counter) {
        List<Integer> ids = new ArrayList<>();
        int misses = 0;
        for (int id = 0; misses < 1000; id++) {
            String s;
            try {
                s = counter.decode(new int[]{id});
            } catch (RuntimeException e) {
                misses++; // past the end of the vocabulary (or a gap in it)
                continue;
            }
            misses = 0;
            if (WORD.matcher(s).matches()) {
                int[] back = counter.encode(s);
                if (back.length == 1 && back[0] == id) {
                    ids.add(id);
                }
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalStateException(counter.name() + " has no word tokens for random mode");
        }
        return ids.stream().mapToInt(Integer::intValue).toArray();
    }
}
