package org.latencylab.engine.client;

import javax.net.SocketFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;

/**
 * Plain sockets with {@code TCP_NODELAY} on. Without it, Nagle's algorithm holds the last small segment of a
 * request body until the server acknowledges the previous one, and a server that delays its ACKs (Linux: up to
 * 40 ms) adds that delay to every measured TTFT — the client would measure its own TCP settings, not the server.
 * (RFC 896 Nagle, RFC 1122 §4.2.3.2 delayed ACK.) Thread-safe: stateless.
 */
final class NoDelaySocketFactory extends SocketFactory {
    private final SocketFactory delegate = SocketFactory.getDefault();

    private static Socket noDelay(Socket s) throws IOException {
        s.setTcpNoDelay(true);
        return s;
    }

    @Override
    public Socket createSocket() throws IOException {
        return noDelay(delegate.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return noDelay(delegate.createSocket(host, port, localHost, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return noDelay(delegate.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
            throws IOException {
        return noDelay(delegate.createSocket(address, port, localAddress, localPort));
    }
}
