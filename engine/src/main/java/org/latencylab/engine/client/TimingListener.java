package org.latencylab.engine.client;

import okhttp3.Call;
import okhttp3.EventListener;
import okhttp3.Handshake;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.List;

import static org.latencylab.engine.api.RequestRecord.UNSET;

/**
 * Records the connection and exchange milestones of one attempt as {@link System#nanoTime()} readings.
 *
 * <p>One instance per attempt, attached to the request as a tag and returned by the client's
 * {@link EventListener.Factory}. Following OkHttp's rules for listeners, every method only stores a timestamp:
 * fast, no locks, never throws. Fields are volatile because OkHttp may call the listener from another thread
 * than the one that reads the record (HTTP/2 readers); a field keeps the first value written for start events
 * and the last for end events.
 */
final class TimingListener extends EventListener {
    volatile long dnsStart = UNSET;
    volatile long dnsEnd = UNSET;
    volatile long connectStart = UNSET;
    volatile long connectEnd = UNSET;
    volatile long tlsStart = UNSET;
    volatile long tlsEnd = UNSET;
    volatile long requestSent = UNSET;
    volatile long responseHeaders = UNSET;
    volatile long firstByte = UNSET;
    /** When a pooled connection was acquired without a connect (OkHttp's path), else UNSET. */
    volatile long pooledAt = UNSET;
    /** The connection the call acquired (OkHttp's path), or null. */
    volatile okhttp3.Connection connection;
    /** Where the client keeps when each OkHttp connection was last released, or null (not recorded). */
    ConnectionLedger ledger;
    /** Whether the call streams (for {@link #ledger}). */
    boolean streams;

    @Override
    public void dnsStart(Call call, String domainName) {
        if (dnsStart == UNSET) {
            dnsStart = System.nanoTime();
        }
    }

    @Override
    public void dnsEnd(Call call, String domainName, List<InetAddress> addresses) {
        dnsEnd = System.nanoTime();
    }

    @Override
    public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
        if (connectStart == UNSET) {
            connectStart = System.nanoTime();
        }
    }

    @Override
    public void secureConnectStart(Call call) {
        if (tlsStart == UNSET) {
            tlsStart = System.nanoTime();
        }
    }

    @Override
    public void secureConnectEnd(Call call, Handshake handshake) {
        tlsEnd = System.nanoTime();
    }

    @Override
    public void connectEnd(Call call, InetSocketAddress address, Proxy proxy, Protocol protocol) {
        connectEnd = System.nanoTime();
    }

    @Override
    public void requestHeadersEnd(Call call, Request request) {
        if (request.body() == null) {
            requestSent = System.nanoTime();
        }
    }

    @Override
    public void requestBodyEnd(Call call, long byteCount) {
        requestSent = System.nanoTime();
    }

    @Override
    public void responseHeadersEnd(Call call, Response response) {
        responseHeaders = System.nanoTime();
    }

    @Override
    public void connectionAcquired(Call call, okhttp3.Connection connection) {
        this.connection = connection;
        if (connectStart == UNSET && pooledAt == UNSET) {
            pooledAt = System.nanoTime();
        }
    }

    /** A call that ended well gave its connection back to the pool (OkHttp fires connectionReleased more often). */
    @Override
    public void callEnd(Call call) {
        ConnectionLedger l = ledger;
        okhttp3.Connection c = connection;
        if (l != null && c != null) {
            l.released(c, streams);
        }
    }

    /** @return true when the call ran on a connection taken from the pool (no connect of its own) */
    boolean pooled() {
        return pooledAt != UNSET && connectStart == UNSET;
    }

    @Override
    public void requestFailed(Call call, IOException ioe) {
        // nothing to record: the failure is classified by the caller
    }

    /** @return true while a TCP/TLS connect has started but not finished (a timeout then is a connect timeout) */
    boolean connecting() {
        return connectStart != UNSET && connectEnd == UNSET;
    }

    /**
     * @return true when no request byte was written yet: a timeout then happened while connecting (DNS, TCP, TLS or
     *         waiting for a connection), never while the server was working
     */
    boolean beforeRequestSent() {
        return requestSent == UNSET && connectStart != UNSET && connectEnd == UNSET
                || requestSent == UNSET && connectStart == UNSET && dnsStart != UNSET && dnsEnd == UNSET;
    }

    /** @return true once response headers have arrived */
    boolean headersReceived() {
        return responseHeaders != UNSET;
    }
}
