package org.latencylab.engine.client;

import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;
import okio.ForwardingSource;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;

import java.io.IOException;

/**
 * Reads a Server-Sent Events body on the calling thread with okhttp-sse's parser
 * ({@link EventSources#processResponse}), stamping each event with {@link System#nanoTime()} when the parser
 * delivers it. Comments and blank keep-alives never reach the handler (the parser drops them).
 *
 * <p>Stateless; thread-safe.
 */
final class SseEvents {
    private SseEvents() {
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
        TailTracker tail = new TailTracker(response.body());
        final class Listener extends EventSourceListener {
            Throwable failure;
            boolean stopped;

            @Override
            public void onEvent(EventSource source, String id, String type, String data) {
                long now = System.nanoTime();
                if (stopped) {
                    return;
                }
                if (!handler.onEvent(type, data, now, tail.cutAtEnd())) {
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
        EventSources.processResponse(response.newBuilder().body(tail).build(), listener);
        Throwable t = listener.failure;
        if (t == null) {
            return;
        }
        if (t instanceof IOException io) {
            throw io;
        }
        if (tail.cutAtEnd()) {
            // okhttp-sse fails on a body that ends in the middle of a line; that is a cut stream
            throw new IOException("body ended inside an SSE event (" + t.getClass().getSimpleName() + ")");
        }
        okhttp3.MediaType type = response.body().contentType();
        if (t instanceof IllegalStateException && (type == null || !"event-stream".equals(type.subtype()))) {
            throw new StreamFormatException("expected a text/event-stream body, got content type "
                    + response.body().contentType());
        }
        throw new StreamFormatException("SSE stream could not be read: " + t);
    }

    /**
     * Remembers the last bytes of the body and whether it is exhausted, so an event delivered at the end of
     * the body can be recognised as unterminated (SSE requires a blank line after each event).
     */
    private static final class TailTracker extends FilteredBody {
        private final TailSource tail;

        TailTracker(ResponseBody delegate) {
            this(delegate, new TailSource(delegate.source()));
        }

        private TailTracker(ResponseBody delegate, TailSource tail) {
            super(delegate, tail);
            this.tail = tail;
        }

        boolean cutAtEnd() {
            return tail.exhausted && !tail.endsWithBlankLine();
        }
    }

    /** The bytes of the body, with the last four remembered. */
    private static final class TailSource extends ForwardingSource {
        private final byte[] last = new byte[4];
        private int lastCount;
        private boolean exhausted;
        private boolean lfAppended;

        TailSource(okio.Source delegate) {
            super(delegate);
        }

        @Override
        public long read(Buffer sink, long byteCount) throws IOException {
            long n = super.read(sink, byteCount);
            if (n < 0) {
                exhausted = true;
                if (lastCount > 0 && last[3] == '\r' && !lfAppended) {
                    // okhttp-sse 5.5.1 spins forever on a body that ends in a lone CR: okio's select()
                    // cannot decide between "\r\n" and "\r" at the end and consumes nothing. A CR is
                    // already a complete line end, so adding the LF of a CRLF keeps the line structure.
                    lfAppended = true;
                    sink.writeByte('\n');
                    shift((byte) '\n');
                    return 1;
                }
            } else {
                for (long i = Math.max(0, n - 4); i < n; i++) {
                    shift(sink.getByte(sink.size() - n + i));
                }
            }
            return n;
        }

        private void shift(byte b) {
            System.arraycopy(last, 1, last, 0, 3);
            last[3] = b;
            lastCount = Math.min(4, lastCount + 1);
        }

        private boolean endsWithBlankLine() {
            if (lastCount < 2) {
                return false;
            }
            byte a = last[2];
            byte b = last[3];
            // "\n\n", "\r\r", or "...\r\n" preceded by another line end ("\n\r\n", "\r\r\n")
            if (b == '\n' && a == '\n' || b == '\r' && a == '\r') {
                return true;
            }
            return b == '\n' && a == '\r' && lastCount >= 3 && (last[1] == '\n' || last[1] == '\r');
        }
    }
}
