package org.latencylab.engine.sim;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http.spi.JettyHttpServer;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The simulator's listeners beyond its HTTP/1.1 server, started on demand: the KServe gRPC service (plaintext and
 * TLS, grpc-java on Netty) and the HTTP routes over HTTP/2 (Jetty: h2c and h2 over TLS). All bind the simulator's
 * host at ephemeral ports. Thread-safe (every method synchronised); {@link #close()} stops what was started.
 */
final class AdditionalFronts implements AutoCloseable {
    private final SimProfile profile;
    private final SimHandler handler;
    private final ExecutorService executor;
    private final Server[] grpc = new Server[2];
    private org.eclipse.jetty.server.Server jetty;
    private ServerConnector h2c;
    private ServerConnector h2;

    AdditionalFronts(SimProfile profile, SimHandler handler, ExecutorService executor) {
        this.profile = profile;
        this.handler = handler;
        this.executor = executor;
    }

    synchronized String grpc(boolean tls, String host) {
        int i = tls ? 1 : 0;
        if (grpc[i] == null) {
            ServerCredentials creds;
            if (tls) {
                SimTls id = SimTls.get();
                try {
                    creds = TlsServerCredentials.create(
                            new ByteArrayInputStream(id.certificatePem().getBytes(StandardCharsets.US_ASCII)),
                            new ByteArrayInputStream(id.privateKeyPem().getBytes(StandardCharsets.US_ASCII)));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot load the simulator's TLS certificate", e);
                }
            } else {
                creds = InsecureServerCredentials.create();
            }
            try {
                grpc[i] = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getByName(host), 0), creds)
                        .addService(org.latencylab.engine.kserve.InferenceService.bind(new KserveService(handler, profile)))
                        .executor(executor)
                        .build().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the simulator's gRPC service on " + host + ": "
                        + e.getMessage(), e);
            }
        }
        return (tls ? "https://" : "http://") + hostPart(host) + ":" + grpc[i].getPort();
    }

    synchronized String http2(boolean tls, String host) {
        if (jetty == null) {
            startJetty(host);
        }
        return (tls ? "https://" : "http://") + hostPart(host) + ":" + (tls ? h2 : h2c).getLocalPort();
    }

    private void startJetty(String host) {
        QueuedThreadPool pool = new QueuedThreadPool();
        pool.setName("sim-jetty");
        pool.setDaemon(true);
        pool.setVirtualThreadsExecutor(Executors.newVirtualThreadPerTaskExecutor());
        org.eclipse.jetty.server.Server server = new org.eclipse.jetty.server.Server(pool);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendDateHeader(false);
        // plaintext: HTTP/1.1, and HTTP/2 by prior knowledge (h2c)
        ServerConnector plain = new ServerConnector(server, new HttpConnectionFactory(config),
                new HTTP2CServerConnectionFactory(config));
        plain.setHost(host);
        plain.setPort(0);
        // TLS with ALPN: h2 preferred, http/1.1 as the fallback
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setSslContext(SimTls.get().sslContext());
        HttpConfiguration tlsConfig = new HttpConfiguration(config);
        tlsConfig.addCustomizer(new org.eclipse.jetty.server.SecureRequestCustomizer(false));
        HTTP2ServerConnectionFactory h2Factory = new HTTP2ServerConnectionFactory(tlsConfig);
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2", "http/1.1");
        alpn.setDefaultProtocol("http/1.1");
        ServerConnector secure = new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                h2Factory, new HttpConnectionFactory(tlsConfig));
        secure.setHost(host);
        secure.setPort(0);
        server.addConnector(plain);
        server.addConnector(secure);
        server.setHandler(new ContextHandlerCollection());
        try {
            JettyHttpServer spi = new JettyHttpServer(server, true);
            spi.createContext("/", handler);
            server.start();
        } catch (Exception e) {
            try {
                server.stop();
            } catch (Exception ignored) {
                // already failing
            }
            throw new UncheckedIOException("cannot start the simulator's HTTP/2 listeners: " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
        jetty = server;
        h2c = plain;
        h2 = secure;
    }

    private static String hostPart(String host) {
        return host.contains(":") ? "[" + host + "]" : host;
    }

    @Override
    public synchronized void close() {
        for (Server s : grpc) {
            if (s != null) {
                s.shutdownNow();
            }
        }
        for (Server s : grpc) {
            if (s != null) {
                try {
                    s.awaitTermination(2, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (jetty != null) {
            try {
                jetty.stop();
            } catch (Exception e) {
                // stopping anyway
            }
        }
    }
}
