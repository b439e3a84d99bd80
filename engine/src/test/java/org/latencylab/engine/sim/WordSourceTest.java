package org.latencylab.engine.sim;

import org.junit.jupiter.api.Test;
import org.latencylab.engine.tokens.TokenCounter;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class WordSourceTest {

    @Test
    void everyPieceIsOneTokenAndTheTextCountsOnePerPiece() {
        TokenCounter tc = TokenCounter.cl100k();
        for (long seed = 0; seed < 40; seed++) {
            WordSource words = new WordSource(new SplittableRandom(seed));
            StringBuilder text = new StringBuilder();
            int n = 1 + (int) (seed * 37 % 400);
            for (int i = 0; i < n; i++) {
                WordSource.Piece p = words.next();
                assertThat(tc.encode(p.text())).containsExactly(p.tokenId());
                text.append(p.text());
            }
            assertThat(tc.count(text.toString())).as("seed %d, %d pieces: %s", seed, n, text).isEqualTo(n);
        }
    }

    @Test
    void textStartsWithACapitalAndHasSentences() {
        WordSource words = new WordSource(new SplittableRandom(7));
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            text.append(words.next().text());
        }
        assertThat(text.charAt(0)).isUpperCase();
        assertThat(text.toString()).contains(". ");
    }
}
