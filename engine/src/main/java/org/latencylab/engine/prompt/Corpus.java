package org.latencylab.engine.prompt;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A body of text that prompts are cut from. Immutable and thread-safe.
 *
 * @param name a short name for reports, e.g. {@code "en"} or a file name
 * @param text the text, with {@code \n} line ends, not blank
 */
public record Corpus(String name, String text) {
    /** Languages of the corpora shipped in the engine jar. */
    public static final List<String> BUILTIN = List.of("en", "zh");

    private static final String RESOURCE_DIR = "/org/latencylab/engine/prompt/corpus/";

    /** Normalises line ends to {@code \n}, drops a byte-order mark, checks the text. */
    public Corpus {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("corpus name must not be blank");
        }
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("corpus '" + name + "' has no text");
        }
        if (text.charAt(0) == '\uFEFF') {
            text = text.substring(1);
        }
        text = text.replace("\r\n", "\n").replace('\r', '\n').strip();
    }

    /**
     * Loads a corpus shipped with LatencyLab: original prose written for the project (see
     * {@code sample-data/corpus/README.md}).
     *
     * @param language {@code "en"} (English, about 4,000 words) or {@code "zh"} (Chinese, about 7,000 characters)
     * @return the corpus
     * @throws IllegalArgumentException for another language; the message lists the available ones
     * @throws IllegalStateException    when the jar lacks the resource (a broken build)
     */
    public static Corpus builtin(String language) {
        String lang = language == null ? "" : language.strip().toLowerCase(java.util.Locale.ROOT);
        if (!BUILTIN.contains(lang)) {
            throw new IllegalArgumentException("no built-in corpus '" + language + "', available: " + BUILTIN
                    + " (or load a UTF-8 text file with Corpus.load)");
        }
        try (InputStream in = Corpus.class.getResourceAsStream(RESOURCE_DIR + lang + ".txt")) {
            if (in == null) {
                throw new IllegalStateException("built-in corpus resource " + RESOURCE_DIR + lang
                        + ".txt is missing from the classpath");
            }
            return new Corpus(lang, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("reading built-in corpus " + lang, e);
        }
    }

    /**
     * Loads a UTF-8 text file.
     *
     * @param file the file
     * @return the corpus, named after the file
     * @throws IOException              when the file cannot be read (the message names it)
     * @throws IllegalArgumentException when the file holds no text
     */
    public static Corpus load(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IOException("corpus file " + file + " is not valid UTF-8", e);
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException("corpus file " + file + " holds no text");
        }
        return new Corpus(String.valueOf(file.getFileName()), text);
    }
}
