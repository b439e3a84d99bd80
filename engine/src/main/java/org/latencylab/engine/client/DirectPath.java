package org.latencylab.engine.client;

import okhttp3.Response;
import org.latencylab.engine.api.ErrorKind;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.Resend;

import java.io.IOException;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * {@link LlmClient}'s own plain-HTTP/1.1 transport: one attempt over {@link DirectHttp1}, on a pooled connection
 * checked before the clock starts, with one re-send on a new connection when the server had closed the pooled one.
 * Thread-safe.
 */
final class DirectPath {
    private final DirectHttp1 direct;
    private final StallWatchdog watchdog;
    private final AttemptReader reader;

    /**
     * @param direct   the HTTP/1.1 exchange and its pool; not null
     * @param watchdog enforces first-byte and idle limits; not null
     * @param reader   reads responses into records; not null
     */
    DirectPath(DirectHttp1 direct, StallWatchdog watchdog, AttemptReader reader) {
        this.direct = direct;
        this.watchdog = watchdog;
        this.reader = reader;
    }

    AttemptResult attempt(PreparedRequests.Built built, ProtocolAdapter adapter, boolean stream, long deadline, long total,
                                        RequestRecord.Builder b, Runnable onFirstToken) {
        RequestThreads.behindReaders(direct.readsAhead()); // parse behind the reader threads that stamp
        Integer opening = ConnectionWarmer.opening();
        long until = deadline;
        for (boolean resending = false; ; resending = true) {
            TimingListener timing = new TimingListener();
            DirectHttp1.Exchange exchange;
            try {
                // a pooled connection, checked before the clock starts; a new one for a request that opens
                // connections, and for the re-send of one whose pooled connection the server had closed
                exchange = direct.exchange(built.http().url(),
                        resending ? Integer.MAX_VALUE : opening == null ? 0 : opening);
                exchange.eager(onFirstToken != null); // a callback while it streams: woken by every read
                exchange.streams(stream);
            } catch (IOException e) {
                RequestThreads.endFirstSend(); // no connection takes a first send's turn over: the other workers go on
                b.error(ErrorKind.CONNECTION, "no response: " + AttemptReader.describe(e));
                return AttemptResult.FINAL;
            }
            if (resending) {
                AttemptReader.resend(b, timing);
            } else if (b.sendNanos == UNSET) {
                b.sendNanos = System.nanoTime();
                until = total > 0 ? b.sendNanos + total : UNSET;
            } else if (deadline != UNSET && deadline - System.nanoTime() <= 0) {
                b.error(ErrorKind.TIMEOUT, reader.totalTimeoutMessage());
                return AttemptResult.FINAL;
            }
            try (StallWatchdog.Watch watch = watchdog.watch(exchange, timing, until)) {
                Response response;
                try {
                    response = exchange.execute(built.http(), built.wire(), timing);
                } catch (StaleConnectionException e) {
                    if (b.resend == Resend.NONE && watch.expired() == null) {
                        b.resend = e.reason();
                        continue; // once, on a new connection: see Resend for why this is safe
                    }
                    AttemptReader.copyTimings(b, timing);
                    b.httpStatus = 0;
                    return reader.failedBeforeResponse((IOException) e.getCause(), timing, watch, b);
                } catch (IOException e) {
                    AttemptReader.copyTimings(b, timing);
                    b.httpStatus = 0;
                    return reader.failedBeforeResponse(e, timing, watch, b);
                }
                return reader.received(response, timing, watch, adapter, stream, b, onFirstToken);
            }
        }
    }
}
