package org.latencylab.engine.client;

import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * I/O failures in words, for request records and command-line messages: the common connection failures say what
 * they mean and what to check; others keep the exception's simple name and message, which is what a user can search
 * for. Stateless, thread-safe.
 */
final class IoErrors {
    private IoErrors() {
    }

    /**
     * @param e a failure; its causes are searched too (OkHttp wraps a refused connection in a
     *          {@code ConnectException} "Failed to connect to /HOST:PORT" whose cause says "Connection refused")
     * @return one line: "connection refused: nothing listens at that host and port; ...", "unknown host H; ...", or
     * {@code SimpleName: message}
     */
    static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (t instanceof ConnectException && m != null && m.toLowerCase(Locale.ROOT).contains("refused")) {
                return "connection refused: nothing listens at that host and port; check that the server is running"
                        + " and the URL's port";
            }
            if (t instanceof UnknownHostException) {
                return "unknown host" + (m == null || m.isBlank() ? "" : " " + m) + "; check the URL's host name";
            }
        }
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }
}
