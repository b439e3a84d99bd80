package org.latencylab.engine.client;

import okhttp3.Response;
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
         * @return true to go on reading
         */
        boolean onEvent(String type, String data, long arrivalNanos);
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
        final class Listener extends EventSourceListener {
            Throwable failure;
            boolean stopped;

            @Override
            public void onEvent(EventSource source, String id, String type, String data) {
                long now = System.nanoTime();
                if (stopped) {
                    return;
                }
                if (!handler.onEvent(type, data, now)) {
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
        EventSources.processResponse(response, listener);
        Throwable t = listener.failure;
        if (t == null) {
            return;
        }
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof IllegalStateException && String.valueOf(t.getMessage()).contains("content-type")) {
            throw new StreamFormatException("expected a text/event-stream body, got content type "
                    + response.body().contentType());
        }
        throw new StreamFormatException("SSE stream could not be read: " + t);
    }
}
