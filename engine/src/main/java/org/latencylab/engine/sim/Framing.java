package org.latencylab.engine.sim;

import java.io.ByteArrayOutputStream;
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

    private static final byte[] EVENT = "event: ".getBytes(StandardCharsets.UTF_8);
    private static final byte[] LINE_END = {'\n'};
    private static final byte[] EVENT_END = {'\n', '\n'};

    private final String contentType;
    private final byte[] dataPrefix;

    Framing(String contentType, String dataPrefix) {
        this.contentType = contentType;
        this.dataPrefix = dataPrefix.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the HTTP {@code Content-Type} of a stream in this framing */
    String contentType() {
        return contentType;
    }

    /**
     * Appends what precedes an event's payload: {@code event: name\n} when named (SSE) and the data prefix.
     *
     * @param buf       the event's bytes so far
     * @param eventName SSE event name or null (ignored for NDJSON)
     */
    void open(ByteArrayOutputStream buf, String eventName) {
        if (this == NDJSON) {
            return;
        }
        if (eventName != null) {
            buf.writeBytes(EVENT);
            buf.writeBytes(eventName.getBytes(StandardCharsets.UTF_8));
            buf.write('\n');
        }
        buf.writeBytes(dataPrefix);
    }

    /** @param buf the event's bytes so far, payload included: appends the line end(s) that end the event */
    void close(ByteArrayOutputStream buf) {
        buf.writeBytes(this == NDJSON ? LINE_END : EVENT_END);
    }
}
