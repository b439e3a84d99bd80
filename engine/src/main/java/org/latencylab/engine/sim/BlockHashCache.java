package org.latencylab.engine.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The simulator's prefix cache: prompt tokens in blocks of {@code blockTokens}, each block identified by a hash of
 * its tokens chained with the previous block's hash, so a block is reused only when everything before it matches
 * too (the scheme of vLLM's automatic prefix caching). Only full blocks are cached. Least recently used blocks are
 * evicted beyond {@code capacityBlocks}.
 *
 * <p>Thread-safe: every method is synchronized (lookups are short compared with any modelled latency).
 */
final class BlockHashCache {
    private final int blockTokens;
    private final long capacityBlocks;
    private final LinkedHashMap<Long, Boolean> blocks;

    /**
     * @param blockTokens    tokens per block, >= 1
     * @param capacityBlocks blocks held at most, >= 0
     */
    BlockHashCache(int blockTokens, long capacityBlocks) {
        this.blockTokens = blockTokens;
        this.capacityBlocks = capacityBlocks;
        this.blocks = new LinkedHashMap<>(256, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                return size() > BlockHashCache.this.capacityBlocks;
            }
        };
    }

    /**
     * Looks up the prompt's longest cached block prefix, then caches all of its full blocks.
     *
     * @param tokens the prompt's token ids
     * @return prompt tokens served from the cache, in [0, tokens.length − 1] (the last prompt token is always
     *         computed, as in vLLM, so that the first output token has logits)
     */
    synchronized int lookupAndInsert(int[] tokens) {
        int fullBlocks = tokens.length / blockTokens;
        long hash = 0x6a09e667f3bcc909L;
        int hits = 0;
        boolean hitting = true;
        for (int b = 0; b < fullBlocks; b++) {
            hash = blockHash(hash, tokens, b * blockTokens, blockTokens);
            if (hitting && blocks.get(hash) != null) {
                hits++;
            } else {
                hitting = false;
                if (capacityBlocks > 0) {
                    blocks.put(hash, Boolean.TRUE);
                }
            }
        }
        int cached = hits * blockTokens;
        return tokens.length == 0 ? 0 : Math.min(cached, tokens.length - 1);
    }

    /** @return blocks currently cached */
    synchronized int size() {
        return blocks.size();
    }

    // 64-bit FNV-1a over the block's ids, seeded with the parent hash, then the SplitMix64 finaliser.
    private static long blockHash(long parent, int[] tokens, int from, int len) {
        long h = parent ^ 0xcbf29ce484222325L;
        for (int i = from; i < from + len; i++) {
            h ^= tokens[i];
            h *= 0x100000001b3L;
        }
        h ^= h >>> 30;
        h *= 0xbf58476d1ce4e5b9L;
        h ^= h >>> 27;
        h *= 0x94d049bb133111ebL;
        return h ^ h >>> 31;
    }
}
