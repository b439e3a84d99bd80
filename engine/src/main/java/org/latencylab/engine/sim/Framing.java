package org.latencylab.engine.sim;

import java.nio.charset.StandardCharsets;

/**
 * How events are framed on the wire. Server-Sent Events follow the WHATWG HTML "server-sent events" format
 * ({@code data: ...} lines, a blank line ends an event); NDJSON is one JSON object per line (Ollama). Writing these
 * few bytes needs no library: the simulator produces only single-line payloads. Thread-safe (an enum).
 */
enum Framing {
    /** {@code data: {...}\n\n}, with {@code event: name} first when the event is named (OpenAI, Anthropic). */
    SSE("text/event-stream; charset=utf-8", "data: "),
    /** {@code data:{...}\n\n} without the space, as TGI writes it. */
    SSE_COMPACT("text/event-stream", "data:"),
    /** {@code {...}\n} (Ollama). */
    NDJSON("application/x-ndjson", "");

    private final String contentType;
    private final String dataPrefix;

    Framing(String contentType, String dataPrefix) {
        this.contentType = contentType;
        this.dataPrefix = dataPrefix;
    }

    /** @return the HTTP {@code Content-Type} of a stream in this framing */
    String contentType() {
        return contentType;
    }

    /**
     * @param eventName SSE event name or null (ignored for NDJSON)
     * @param payload   single-line payload
     * @return the framed bytes (UTF-8)
     */
    byte[] frame(String eventName, String payload) {
        StringBuilder sb = new StringBuilder(payload.length() + 32);
        if (this == NDJSON) {
            sb.append(payload).append('\n');
        } else {
            if (eventName != null) {
                sb.append("event: ").append(eventName).append('\n');
            }
            sb.append(dataPrefix).append(payload).append("\n\n");
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
