package org.latencylab.engine.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes framed events to one response body, each in a single write followed by a flush (with the JDK server's
 * chunked encoding that is one HTTP chunk, sent at once). With stamping on, each JSON event gets
 * {@code "x_sent_ns"}: {@link System#nanoTime()} read just before the event is serialised and written.
 * Confined to the thread serving the request.
 */
final class EventWriter {
    /** Shared JSON mapper of the simulator (thread-safe once configured). */
    static final ObjectMapper JSON = new ObjectMapper();

    private final OutputStream out;
    private final Framing framing;
    private final boolean stamping;
    /** The event being framed, reused for every event of the response (a few hundred bytes). */
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream(512);

    /**
     * @param out      the response body
     * @param framing  event framing
     * @param stamping whether to add {@code x_sent_ns}
     */
    EventWriter(OutputStream out, Framing framing, boolean stamping) {
        this.out = out;
        this.framing = framing;
        this.stamping = stamping;
    }

    /**
     * @param event the event
     * @return {@link System#nanoTime()} just before the write [ns]
     * @throws IOException when the client has gone away
     */
    long write(WireEvent event) throws IOException {
        long now = System.nanoTime();
        buf.reset();
        framing.open(buf, event.name());
        if (event.json() != null) {
            if (stamping) {
                event.json().put("x_sent_ns", now);
            }
            JSON.writeValue(buf, event.json()); // UTF-8 straight into the event's bytes: no String per event
        } else {
            buf.writeBytes(event.raw().getBytes(StandardCharsets.UTF_8));
        }
        framing.close(buf);
        buf.writeTo(out); // one write
        out.flush();
        return now;
    }

    /** @param node a JSON object @return its compact text */
    static String json(ObjectNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + node, e);
        }
    }
}
