package org.latencylab.engine.importer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The benchmark tools whose results can be imported. Thread-safe (an enum). */
public enum SourceTool {
    /** {@code vllm bench serve --save-result --save-detailed} (one JSON object). */
    VLLM_BENCH("vllm-bench", "vLLM bench serve"),
    /** GuideLLM's benchmark report ({@code benchmarks.json}). */
    GUIDELLM("guidellm", "GuideLLM"),
    /** AIPerf / GenAI-Perf per-request export ({@code profile_export.jsonl}). */
    AIPERF("aiperf", "AIPerf");

    private final String id;
    private final String displayName;

    SourceTool(String id, String displayName) {
        this.id = id;
        this.displayName = displayName;
    }

    /** @return the id used on the command line and in {@code run.json}, e.g. {@code vllm-bench} */
    public String id() {
        return id;
    }

    /** @return the tool's name, e.g. {@code vLLM bench serve} */
    public String displayName() {
        return displayName;
    }

    /**
     * @param id an id (case-insensitive)
     * @return the tool
     * @throws IllegalArgumentException for an unknown id; the message lists the known ones
     */
    public static SourceTool fromId(String id) {
        for (SourceTool t : values()) {
            if (t.id.equalsIgnoreCase(id == null ? "" : id.strip())) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown tool '" + id + "', expected one of "
                + Arrays.stream(values()).map(SourceTool::id).collect(Collectors.joining(", ")));
    }

    /**
     * Guesses the tool from a file: {@code .jsonl} is AIPerf; a JSON object with {@code benchmarks} is GuideLLM;
     * one with {@code ttfts} is vLLM.
     *
     * @param file the result file
     * @return the tool
     * @throws IllegalArgumentException when the file fits none (the message says to name the tool)
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static SourceTool detect(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".jsonl")) {
            return AIPERF;
        }
        try {
            JsonNode n = new ObjectMapper().readTree(Files.readAllBytes(file));
            if (n != null && n.has("benchmarks")) {
                return GUIDELLM;
            }
            if (n != null && n.has("ttfts")) {
                return VLLM_BENCH;
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw ResultImporter.notJson(file, e);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(file + ": cannot tell which tool wrote it (no 'benchmarks' for GuideLLM,"
                + " no 'ttfts' for vLLM, not .jsonl for AIPerf); name the tool with --tool");
    }
}
