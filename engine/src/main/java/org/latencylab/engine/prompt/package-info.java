/**
 * Prompts of an exact token count, for context sweeps and load tests.
 *
 * <p>A latency experiment that compares 2k-, 8k- and 32k-token prompts must send exactly that many tokens, or the
 * fitted power law measures the prompt generator instead of the server. {@link org.latencylab.engine.prompt.PromptBuilder}
 * cuts a {@link org.latencylab.engine.prompt.Corpus} (original English or Chinese prose shipped with LatencyLab, or
 * any UTF-8 file) repeated cyclically, re-counts the result with LatencyLab's
 * {@link org.latencylab.engine.tokens.TokenCounter} and adjusts until the count is exact: byte-pair encodings are not
 * prefix-stable, so the text of the first k tokens can re-encode to k − 1 or k + 1 tokens where the cut splits a word
 * or a multi-byte character.
 *
 * <p>Cold mode puts a unique prefix at the start of each prompt so no server-side prefix (KV) cache can reuse earlier
 * work; warm mode sends the same text every time. A random mode draws whole vocabulary words from a seeded generator
 * for prompts that share no structure at all.
 *
 * <p>Counts are exact for LatencyLab's tokenizer (cl100k_base by default); a server with a different tokenizer will
 * count the same text differently, which is why the server-reported prompt tokens are recorded separately.
 */
package org.latencylab.engine.prompt;
