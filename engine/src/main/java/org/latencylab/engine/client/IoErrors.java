package org.latencylab.engine.client;

import javax.net.ssl.SSLException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
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
     * @return one line in words: "connection refused: nothing listens at that host and port; ...", "the host name H
     * does not resolve; ...", "the server answered the TLS handshake without TLS ...", "no answer before the
     * timeout ran out", or the failure's own message; an exception's class name only when it has no message
     */
    static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (t instanceof ConnectException && m != null && m.toLowerCase(Locale.ROOT).contains("refused")) {
                return "connection refused: nothing listens at that host and port; check that the server is running"
                        + " and the URL's port";
            }
            if (t instanceof UnknownHostException) {
                return unknownHost(m);
            }
            if (t instanceof SSLException && notTls(m)) {
                return "the server answered the TLS handshake without TLS (it speaks plain HTTP on that port?);"
                        + " an http:// URL reaches a plain-HTTP server";
            }
        }
        if (e instanceof SocketTimeoutException || e instanceof InterruptedIOException
                && "timeout".equals(e.getMessage())) {
            // OkHttp's call timeout is an InterruptedIOException "timeout"; a socket read timeout "Read timed out"
            return "no answer before the timeout ran out";
        }
        String m = e.getMessage();
        return m == null || m.isBlank() ? "failed (" + e.getClass().getSimpleName() + ", no message)" : m;
    }

    /**
     * @param host the host name
     * @return the words for a TLS handshake that got no answer at all (a plain-HTTP server waits for a request line
     * and never answers a ClientHello), e.g. {@code the TLS handshake with 127.0.0.1:8000 got no TLS answer ...}
     */
    static String tlsNoAnswer(String hostAndPort) {
        return "the TLS handshake with " + hostAndPort + " got no TLS answer (does the server speak plain HTTP on"
                + " that port? an http:// URL reaches a plain-HTTP server)";
    }

    /** @return true when an SSLException's message says the peer's bytes were not a TLS record */
    static boolean notTls(String message) {
        String m = message == null ? "" : message.toLowerCase(Locale.ROOT);
        // JSSE: "Unsupported or unrecognized SSL message" (a plain-HTTP answer to the ClientHello)
        return m.contains("unrecognized ssl message") || m.contains("plaintext connection");
    }

    /** @return true when {@code e} or a cause of it is an {@link UnknownHostException} */
    static boolean unknownHost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    private static String unknownHost(String message) {
        // the JDK's message is "HOST: Name or service not known" (or just HOST)
        String host = message == null ? "" : message.contains(":") ? message.substring(0, message.indexOf(':'))
                : message;
        return "the host name " + (host.isBlank() ? "" : host.strip() + " ") + "does not resolve (unknown host);"
                + " check the URL's host name";
    }
}
