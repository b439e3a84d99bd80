package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class BlockHashCacheTest {

    private static int[] ids(int from, int n) {
        return IntStream.range(from, from + n).toArray();
    }

    @Test
    void repeatedPromptHitsAllButTheLastToken() {
        BlockHashCache c = new BlockHashCache(16, 100);
        int[] p = ids(0, 64);
        assertThat(c.lookupAndInsert(p)).isZero();
        assertThat(c.lookupAndInsert(p)).isEqualTo(63);
        int[] longer = ids(0, 70);
        assertThat(c.lookupAndInsert(longer)).isEqualTo(64);
    }

    @Test
    void onlyAMatchingChainCounts() {
        BlockHashCache c = new BlockHashCache(16, 100);
        c.lookupAndInsert(ids(0, 64));
        int[] changedFirstBlock = ids(0, 64);
        changedFirstBlock[3] = -1;
        assertThat(c.lookupAndInsert(changedFirstBlock)).as("later blocks equal, prefix differs").isZero();
        int[] changedThirdBlock = ids(0, 64);
        changedThirdBlock[40] = -1;
        assertThat(c.lookupAndInsert(changedThirdBlock)).isEqualTo(32);
    }

    @Test
    void leastRecentlyUsedBlocksAreEvicted() {
        BlockHashCache c = new BlockHashCache(4, 4);
        c.lookupAndInsert(ids(0, 16));
        assertThat(c.size()).isEqualTo(4);
        c.lookupAndInsert(ids(100, 8));
        assertThat(c.size()).isEqualTo(4);
        assertThat(c.lookupAndInsert(ids(0, 17))).as("first blocks evicted").isZero();
        BlockHashCache none = new BlockHashCache(4, 0);
        none.lookupAndInsert(ids(0, 16));
        assertThat(none.lookupAndInsert(ids(0, 16))).isZero();
    }
}
