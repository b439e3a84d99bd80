package org.latencylab.engine.client;

import okhttp3.Response;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;

import java.io.IOException;

/**
 * Reads a Server-Sent Events body on the calling thread with okhttp-sse's parser
 * ({@link EventSources#processResponse}). Each event carries the stamp of the body read that delivered its last
 * byte ({@link StampedBody}), not the moment the parser got to it. Comments and blank keep-alives never reach the
 * handler (the parser drops them).
 *
 * <p>Stateless; thread-safe.
 */
final class SseEvents {
    /** The UTF-8 encoding of U+FEFF. */
    private static final okio.ByteString UTF8_BOM = okio.ByteString.decodeHex("efbbbf");

    private SseEvents() {
    }

    /** The body ended (cleanly or not) in the middle of an SSE event: a cut stream, whatever the connection did. */
    static final class CutInsideEvent extends IOException {
        CutInsideEvent(String message) {
            super(message);
        }
    }

    /** Receives events; returns false to stop reading (after an error was recorded). */
    interface Handler {
        /**
         * @param type         the {@code event:} field, or null
         * @param data         the joined {@code data:} lines
         * @param arrivalNanos when the event was delivered
         * @param cutAtEnd     true when the body ended inside this event (no blank line after it): the parser
         *                     delivers such a last event anyway; if its data is unusable the stream was cut
         * @return true to go on reading
         */
        boolean onEvent(String type, String data, long arrivalNanos, boolean cutAtEnd);
    }

    /**
     * Parses an event's data as a JSON object, reporting failures to the collector: data cut by the end of the
     * body is {@code truncated}, anything else that is not a JSON object is {@code protocol}.
     *
     * @param data      the event data
     * @param cut       whether the body ended inside this event
     * @param now       the event's arrival time
     * @param collector where failures go
     * @return the object, or null after a failure was recorded
     */
    static com.fasterxml.jackson.databind.JsonNode json(String data, boolean cut, long now,
                                                        ResponseCollector collector) {
        com.fasterxml.jackson.databind.JsonNode node = ProtocolAdapter.parseObject(data);
        if (node == null) {
            if (cut) {
                collector.fail(org.latencylab.engine.api.ErrorKind.TRUNCATED, "stream ended inside an event: "
                        + ProtocolAdapter.excerpt(data), now);
            } else {
                collector.fail(org.latencylab.engine.api.ErrorKind.PROTOCOL, "event data is not a JSON object: "
                        + ProtocolAdapter.excerpt(data), now);
            }
        }
        return node;
    }

    /**
     * Reads the whole stream.
     *
     * @param response a 2xx response whose body is {@code text/event-stream}
     * @param handler  receives each event
     * @throws StreamFormatException when the content type is not {@code text/event-stream}
     * @throws IOException           when reading failed (reset, timeout, cancel)
     */
    static void read(Response response, Handler handler) throws IOException {
        StampedBody body = StampedBody.of(response.body());
        okio.BufferedSource source = body.source();
        if (source.request(UTF8_BOM.size()) && source.rangeEquals(0, UTF8_BOM)) {
            // one leading byte-order mark is not part of the stream (WHATWG HTML, event stream interpretation:
            // UTF-8 decode strips it); left in, it prefixes the first field name and that whole event is dropped
            source.skip(UTF8_BOM.size());
        }
        final class Listener extends EventSourceListener {
            Throwable failure;
            boolean stopped;

            @Override
            public void onEvent(EventSource source, String id, String type, String data) {
                if (stopped) {
                    return;
                }
                if (!handler.onEvent(type, data, body.consumedStamp(), body.cutAtEnd())) {
                    stopped = true;
                    source.cancel();
                }
            }

            @Override
            public void onFailure(EventSource source, Throwable t, Response r) {
                if (!stopped) {
                    failure = t;
                }
            }
        }
        Listener listener = new Listener();
        EventSources.processResponse(response.newBuilder().body(body).build(), listener);
        Throwable t = listener.failure;
        if (t == null) {
            return;
        }
        if (t instanceof IOException io) {
            throw io;
        }
        if (body.cutAtEnd()) {
            // okhttp-sse fails on a body that ends in the middle of a line; that is a cut stream
            throw new CutInsideEvent("body ended inside an SSE event (" + t.getClass().getSimpleName() + ")");
        }
        okhttp3.MediaType type = response.body().contentType();
        if (t instanceof IllegalStateException && (type == null || !"event-stream".equals(type.subtype()))) {
            throw new StreamFormatException("expected a text/event-stream body, got content type "
                    + response.body().contentType());
        }
        throw new StreamFormatException("SSE stream could not be read: " + t);
    }
}
