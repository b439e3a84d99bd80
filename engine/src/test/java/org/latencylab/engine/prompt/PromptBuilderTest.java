package org.latencylab.engine.prompt;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencylab.engine.tokens.TokenCounter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PromptBuilderTest {
    private static final TokenCounter TOKENS = TokenCounter.cl100k();
    private static PromptBuilder en;
    private static PromptBuilder zh;

    @BeforeAll
    static void builders() {
        en = new PromptBuilder(Corpus.builtin("en"));
        zh = new PromptBuilder(Corpus.builtin("zh"));
    }

    /** 1..80 every value, the sweep sizes, and 60 seeded random sizes up to 32,768. */
    private static int[] sizes() {
        SplittableRandom rnd = new SplittableRandom(99);
        return IntStream.concat(IntStream.concat(IntStream.rangeClosed(1, 80),
                        IntStream.of(127, 128, 129, 1000, 2048, 4095, 4096, 8192, 16384, 32767, 32768)),
                IntStream.generate(() -> 1 + rnd.nextInt(32768)).limit(60)).toArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"en", "zh"})
    void corpusPromptsHaveExactCounts(String lang) {
        PromptBuilder b = lang.equals("en") ? en : zh;
        for (int n : sizes()) {
            String text = b.build(n);
            assertThat(TOKENS.count(text)).as("%s n=%d", lang, n).isEqualTo(n);
            assertThat(text).doesNotContain("\uFFFD");
        }
    }

    @Test
    void longPromptsRepeatTheCorpusAndStartWithIt() {
        String text = en.build(3 * en.corpusTokens() + 17);
        assertThat(text).startsWith("The Morning Train");
        // three full passes and the first 17 tokens of a fourth, title included
        assertThat(text.split("The Morning Train", -1)).hasSize(4 + 1);
        String zhText = zh.build(20);
        assertThat(zhText).startsWith("清晨");
    }

    @ParameterizedTest
    @ValueSource(strings = {"en", "zh"})
    void coldPrefixesDifferAndCountsStayExact(String lang) {
        PromptBuilder b = lang.equals("en") ? en : zh;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            String prefix = PromptBuilder.coldPrefix("run-" + lang, i);
            int n = 100 + i * 37;
            String text = b.build(n, prefix);
            assertThat(text).startsWith(prefix);
            assertThat(TOKENS.count(text)).as("n=%d", n).isEqualTo(n);
            assertThat(seen.add(text.substring(0, 40))).isTrue();
        }
        String prefix = PromptBuilder.coldPrefix("x", 1);
        int p = TOKENS.count(prefix);
        assertThat(b.build(p, prefix)).isEqualTo(prefix);
        assertThat(TOKENS.count(b.build(p + 1, prefix))).isEqualTo(p + 1);
        assertThatThrownBy(() -> b.build(p - 1, prefix))
                .hasMessage("the unique prefix alone has " + p + " tokens, more than the " + (p - 1) + " requested");
    }

    @Test
    void randomModeIsExactAndSeeded() {
        for (int n : sizes()) {
            String text = en.buildRandom(n, n * 31L, null);
            assertThat(TOKENS.count(text)).as("n=%d", n).isEqualTo(n);
        }
        assertThat(en.buildRandom(500, 1, null)).isEqualTo(zh.buildRandom(500, 1, null));
        assertThat(en.buildRandom(500, 1, null)).isNotEqualTo(en.buildRandom(500, 2, null));
        String cold = en.buildRandom(300, 5, "Request 3 of run r.\n");
        assertThat(cold).startsWith("Request 3 of run r.\n");
        assertThat(TOKENS.count(cold)).isEqualTo(300);
        // random words share far fewer tokens with each other than the corpus does
        int[] ids = TOKENS.encode(en.buildRandom(2000, 9, null));
        assertThat(IntStream.of(ids).distinct().count()).isGreaterThan(1000);
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() -> en.build(0)).hasMessage("prompt length must be in 1..4000000 tokens, was 0");
        assertThatThrownBy(() -> Corpus.builtin("fr")).hasMessageContaining("available: [en, zh]");
        assertThatThrownBy(() -> new Corpus("empty", "  \n")).hasMessage("corpus 'empty' has no text");
    }

    @Test
    void loadsCorpusFromFile(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("mine.txt");
        Files.writeString(f, "\uFEFFLine one of my own text.\r\nLine two, with numbers 12345 and émigré.\r\n",
                StandardCharsets.UTF_8);
        Corpus c = Corpus.load(f);
        assertThat(c.name()).isEqualTo("mine.txt");
        assertThat(c.text()).isEqualTo("Line one of my own text.\nLine two, with numbers 12345 and émigré.");
        PromptBuilder b = new PromptBuilder(c);
        for (int n : new int[]{1, 2, 3, 7, 19, 20, 21, 500, 1234}) {
            assertThat(TOKENS.count(b.build(n))).isEqualTo(n);
        }
        Path bad = dir.resolve("bad.txt");
        Files.write(bad, new byte[]{(byte) 0xC3, (byte) 0x28});
        assertThatThrownBy(() -> Corpus.load(bad)).hasMessageContaining("is not valid UTF-8");
    }
}
