package org.latencylab.engine.api;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Wire protocols LatencyLab speaks, as client and (in the simulator) as server.
 *
 * <p>{@link #id()} is the stable lower-case name used in configuration files, conformance cases and
 * {@code requests.jsonl}. Thread-safe (an enum).
 */
public enum Protocol {
    /** OpenAI-compatible {@code POST /v1/chat/completions} (SSE when streaming). */
    OPENAI_CHAT("openai-chat"),
    /** OpenAI-compatible legacy {@code POST /v1/completions} (SSE when streaming). */
    OPENAI_COMPLETIONS("openai-completions"),
    /** Anthropic Messages {@code POST /v1/messages} (SSE with typed events). */
    ANTHROPIC_MESSAGES("anthropic-messages"),
    /** Ollama native {@code POST /api/chat} (NDJSON). */
    OLLAMA_CHAT("ollama-chat"),
    /** Ollama native {@code POST /api/generate} (NDJSON). */
    OLLAMA_GENERATE("ollama-generate"),
    /** Hugging Face TGI {@code POST /generate_stream} (SSE of token objects). */
    TGI_GENERATE("tgi-generate"),
    /**
     * KServe v2 / Open Inference Protocol over gRPC with Triton's streaming extension
     * ({@code inference.GRPCInferenceService/ModelStreamInfer}; {@code ModelInfer} when not streaming), text in
     * {@code text_input}, out in {@code text_output} (Triton's vLLM and TensorRT-LLM backends). The base URL is
     * {@code http://HOST:PORT} for plaintext HTTP/2 or {@code https://HOST:PORT} for TLS; its path is ignored.
     */
    KSERVE_GRPC("kserve-grpc");

    private final String id;

    Protocol(String id) {
        this.id = id;
    }

    /** @return the configuration name, e.g. {@code "openai-chat"}; never null */
    public String id() {
        return id;
    }

    /**
     * Looks a protocol up by its configuration name.
     *
     * @param id a name such as {@code "openai-chat"} (case-insensitive; surrounding blanks ignored)
     * @return the protocol
     * @throws IllegalArgumentException when the name is unknown; the message lists the known names
     */
    public static Protocol fromId(String id) {
        if (id != null) {
            String wanted = id.strip().toLowerCase(java.util.Locale.ROOT);
            for (Protocol p : values()) {
                if (p.id.equals(wanted)) {
                    return p;
                }
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + id + "', expected one of "
                + Arrays.stream(values()).map(Protocol::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
