package org.latencylab.engine.sim;

import org.latencylab.engine.tokens.TokenCounter;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Produces the simulator's output text one token at a time, from a small English word list written for
 * LatencyLab. Every piece is exactly one {@code cl100k_base} token on its own <em>and</em> the pieces do not merge
 * when concatenated: the first piece is a capitalised word without a leading space, then space-prefixed words,
 * with {@code "."} ending a sentence. The cl100k pre-tokeniser splits text before each space-prefixed word and
 * around punctuation, so the count of the whole text is the number of pieces. The lists are filtered against the
 * tokenizer when the class loads, so a word that is not a single token can never be emitted.
 *
 * <p>Thread-safe (immutable lists); each caller supplies its own random generator.
 */
final class WordSource {

    /** One output piece: its text and its cl100k token id. */
    record Piece(String text, int tokenId) {
    }

    private static final String WORDS = """
            the of and to in is was for on with as by at from that this it not are be or an which
            have has had one all their there been more when will would who some out also time into only
            other new can could after first two about over most such these through where much before
            many right way same while each state well long made people world work part between under
            light water river stone field house garden window table letter paper music story night
            morning evening city road market bridge station ship train line point number system model
            value result group level order power sound color small large early late simple common
            clear quiet warm cold green blue white black bright open close fast slow near far high low
            old young good great short round every other whole north south east west summer winter
            spring autumn bread tea coffee fruit apple tree forest hill valley lake sea island coast
            cloud rain snow wind sun moon star sky fire bird horse dog cat fish book page word
            question answer reason idea plan step test check measure wait begin end start stop move
            turn walk run read write speak listen watch learn teach build carry hold keep give take
            """;

    private static final String STARTERS = "The This It We In Our Each One Every A Some Many Most Then After";

    private static final List<Piece> WORD_PIECES;
    private static final List<Piece> STARTER_PIECES;
    private static final List<Piece> SPACED_STARTER_PIECES;
    private static final Piece PERIOD;

    static {
        TokenCounter tc = TokenCounter.cl100k();
        WORD_PIECES = singles(tc, WORDS, " ");
        STARTER_PIECES = singles(tc, STARTERS, "");
        List<Piece> spaced = new ArrayList<>();
        for (Piece p : STARTER_PIECES) {
            int[] ids = tc.encode(" " + p.text());
            if (ids.length == 1) {
                spaced.add(new Piece(" " + p.text(), ids[0]));
            }
        }
        SPACED_STARTER_PIECES = List.copyOf(spaced);
        PERIOD = new Piece(".", tc.encode(".")[0]);
        if (WORD_PIECES.size() < 50 || STARTER_PIECES.isEmpty() || SPACED_STARTER_PIECES.isEmpty()) {
            throw new IllegalStateException("word list has too few single-token words for cl100k_base: "
                    + WORD_PIECES.size());
        }
    }

    private final RandomGenerator random;
    private int inSentence;
    private int sentenceLength;
    private boolean first = true;
    private boolean afterPeriod;

    /** @param random source of word choices; confined to the caller's thread */
    WordSource(RandomGenerator random) {
        this.random = random;
        sentenceLength = nextSentenceLength();
    }

    /** @return the next piece: one cl100k token that never merges with its neighbours */
    Piece next() {
        if (first) {
            first = false;
            return pick(STARTER_PIECES);
        }
        if (afterPeriod) {
            afterPeriod = false;
            inSentence = 0;
            sentenceLength = nextSentenceLength();
            return pick(SPACED_STARTER_PIECES);
        }
        if (++inSentence >= sentenceLength) {
            afterPeriod = true;
            return PERIOD;
        }
        return pick(WORD_PIECES);
    }

    /** @return every word piece (for tests and prompt building), immutable */
    static List<Piece> wordPieces() {
        return WORD_PIECES;
    }

    private int nextSentenceLength() {
        return 6 + random.nextInt(10);
    }

    private Piece pick(List<Piece> pieces) {
        return pieces.get(random.nextInt(pieces.size()));
    }

    private static List<Piece> singles(TokenCounter tc, String words, String prefix) {
        List<Piece> out = new ArrayList<>();
        for (String w : words.strip().split("\\s+")) {
            int[] ids = tc.encode(prefix + w);
            if (ids.length == 1 && out.stream().noneMatch(p -> p.text().equals(prefix + w))) {
                out.add(new Piece(prefix + w, ids[0]));
            }
        }
        return List.copyOf(out);
    }
}
