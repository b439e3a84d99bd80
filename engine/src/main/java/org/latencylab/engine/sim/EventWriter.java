package org.latencylab.engine.sim;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes framed events to one response body.
 *
 * <p>Without stamping, events due at the same moment share one write: {@link #write} frames an event into a
 * pending buffer and {@link #send} writes everything pending in a single write followed by a flush (with the JDK
 * server's chunked encoding, one HTTP chunk). The serving thread calls {@code send} before it waits for the next
 * event's time and at the end of the response, so nothing due is held back, and a stream whose events are all due
 * at once (the {@code zero-latency} profile, or a burst after a stall) costs one system call instead of one per
 * event, on both ends of the connection.
 *
 * <p>With stamping on, each event is written and flushed on its own, and each JSON event gets {@code "x_sent_ns"}:
 * {@link System#nanoTime()} read just before the event is serialised and written, so every stamp is its own
 * write's time.
 *
 * <p>Confined to the thread serving the request.
 */
final class EventWriter {
    /**
     * Shared JSON mapper of the simulator (thread-safe once configured). Its buffers come from one shared pool:
     * Jackson's default pool is per thread, and every exchange runs on a new virtual thread, so each response would
     * allocate (and the kernel zero) fresh buffers of several kilobytes.
     */
    static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool()).build());

    private final OutputStream out;
    private final Framing framing;
    private final boolean stamping;
    /** The events framed but not yet written, reused for the whole response (a few hundred bytes per event). */
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
     * Frames an event; with stamping it is written at once, without it stays pending until {@link #send}.
     *
     * @param event the event
     * @return {@link System#nanoTime()} just before the event was serialised [ns]
     * @throws IOException when the client has gone away
     */
    long write(WireEvent event) throws IOException {
        long now = System.nanoTime();
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
        if (stamping) {
            send();
        }
        return now;
    }

    /**
     * Writes the pending events, if any, in one write and flushes them.
     *
     * @throws IOException when the client has gone away
     */
    void send() throws IOException {
        if (buf.size() == 0) {
            return;
        }
        buf.writeTo(out); // one write
        buf.reset();
        out.flush();
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
