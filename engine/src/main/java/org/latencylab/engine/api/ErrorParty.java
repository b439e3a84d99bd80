package org.latencylab.engine.api;

import java.util.Locale;

/**
 * Whose failure a failed request is, so that a summary never blames a server for the network or for the client
 * itself. Thread-safe (an enum).
 */
public enum ErrorParty {
    /** The server answered wrongly or not in time: an HTTP error status, a 429, an error event, an empty or cut
     * stream (a reset after the response began included), an unparseable answer, a first-byte, idle or total timeout. */
    SERVER("server", "the server's"),
    /** No connection could be made or kept: refused, unreachable, unknown host, reset before any answer on a new
     * connection, a connect timeout. */
    NETWORK("network", "the network's"),
    /** LatencyLab's own limits: its request could not be built, it ran out of local ports or file descriptors, or
     * its own processing failed. */
    CLIENT("client", "the client's");

    private final String id;
    private final String words;

    ErrorParty(String id, String words) {
        this.id = id;
        this.words = words;
    }

    /** @return the lower-case name used in files, e.g. {@code "network"} */
    public String id() {
        return id;
    }

    /** @return the possessive for a summary line, e.g. "the server's" */
    public String words() {
        return words;
    }

    /**
     * Whose failure a classified error is. The kind decides, except where one kind covers several parties: a
     * {@code timeout} is the network's when it fired while connecting, and a {@code connection} or {@code protocol}
     * error is the client's when the client's own resources or code failed. Those cases are told apart by the start
     * of the message LatencyLab's client writes for them ({@code "connect timeout"}, {@code "request for endpoint"},
     * {@code "response could not be processed"}) and by the operating system's words for exhausted local resources.
     *
     * @param kind    the error kind; not null
     * @param message the record's error message, or null
     * @return the party; never null
     */
    public static ErrorParty of(ErrorKind kind, String message) {
        String m = message == null ? "" : message.toLowerCase(Locale.ROOT);
        return switch (kind) {
            case TIMEOUT -> m.startsWith("connect timeout") ? NETWORK : SERVER;
            case CONNECTION -> m.contains("cannot assign requested address") || m.contains("too many open files")
                    || m.contains("client closed") ? CLIENT : NETWORK;
            case PROTOCOL -> m.startsWith("request for endpoint") || m.startsWith("response could not be processed")
                    ? CLIENT : SERVER;
            default -> SERVER;
        };
    }

    @Override
    public String toString() {
        return id;
    }
}
