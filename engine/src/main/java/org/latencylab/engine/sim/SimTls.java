package org.latencylab.engine.sim;

import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;

import javax.net.ssl.SSLContext;
import java.net.InetAddress;

/**
 * The simulator's TLS identity: one self-signed ECDSA P-256 certificate for {@code localhost} and 127.0.0.1,
 * made with okhttp-tls when first needed and kept for the life of the JVM. Clients reach the TLS listeners with
 * certificate verification off ({@code verifyTls: false}), or trust {@link #certificatePem()}. Thread-safe.
 */
final class SimTls {
    private static volatile SimTls instance;

    private final HeldCertificate certificate;
    private final HandshakeCertificates server;

    private SimTls() {
        this.certificate = new HeldCertificate.Builder()
                .commonName("localhost")
                .addSubjectAlternativeName("localhost")
                .addSubjectAlternativeName(InetAddress.getLoopbackAddress().getHostAddress())
                .build();
        this.server = new HandshakeCertificates.Builder().heldCertificate(certificate).build();
    }

    /** @return the JVM's simulator identity (made on first use) */
    static SimTls get() {
        SimTls t = instance;
        if (t == null) {
            synchronized (SimTls.class) {
                t = instance;
                if (t == null) {
                    t = new SimTls();
                    instance = t;
                }
            }
        }
        return t;
    }

    /** @return the certificate in PEM form */
    String certificatePem() {
        return certificate.certificatePem();
    }

    /** @return the private key, PKCS#8 PEM */
    String privateKeyPem() {
        return certificate.privateKeyPkcs8Pem();
    }

    /** @return a server SSL context holding the certificate and its key */
    SSLContext sslContext() {
        return server.sslContext();
    }
}
