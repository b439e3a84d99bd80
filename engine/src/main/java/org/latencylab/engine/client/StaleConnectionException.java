package org.latencylab.engine.client;

import org.latencylab.engine.api.Resend;

import java.io.IOException;

/**
 * A request's reused (pooled) connection failed before any byte of the response arrived: the server had closed the
 * connection while it idled in the pool (or closed it right after its previous response), so the request never
 * reached a server that would answer it. Thrown by the transports only when all of these hold: the connection came
 * from the pool, the exchange was not cancelled or timed out, no response byte was read, and the failure is a write
 * failure, an end of stream or a reset ({@link Resend}). The client sends such a request once more on a new
 * connection; anything else (a fresh connection's failure, a stream cut after its first byte) stays the error it is.
 */
final class StaleConnectionException extends IOException {
    private final Resend reason;

    /**
     * @param reason what failed; not {@link Resend#NONE}
     * @param cause  the transport's failure
     */
    StaleConnectionException(Resend reason, IOException cause) {
        super(reason.words(), cause);
        this.reason = reason;
    }

    /** @return what failed on the pooled connection */
    Resend reason() {
        return reason;
    }

    /**
     * Classifies a failure on a pooled connection before any response byte.
     *
     * @param e       the failure
     * @param writing true when it happened while the request was written
     * @return the re-send reason
     */
    static Resend reasonOf(IOException e, boolean writing) {
        if (writing) {
            return Resend.WRITE_FAILED;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.io.EOFException) {
                return Resend.CLOSED_BEFORE_RESPONSE;
            }
        }
        return Resend.RESET_BEFORE_RESPONSE;
    }

    /**
     * @param e a failure before any response byte
     * @return true when it can be a server's close of the connection: not a timeout, an interrupt, a cancellation
     *         (the client's own close) or an unparseable answer
     */
    static boolean closeLike(IOException e) {
        return !(e instanceof java.io.InterruptedIOException) // includes SocketTimeoutException
                && !(e instanceof java.nio.channels.ClosedByInterruptException)
                && !(e instanceof java.nio.channels.AsynchronousCloseException)
                && !(e instanceof java.net.ProtocolException)
                && !Thread.currentThread().isInterrupted();
    }
}
