package org.latencylab.engine.load;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** Load steps against a real HTTP server on loopback ({@link LoopbackServer}), sent with the JDK HTTP client. */
abstract class LoopbackLoadTest {
    @TempDir
    Path dir;
    LoopbackServer server;
    TestContext ctx;

    @BeforeEach
    void start() throws Exception {
        server = new LoopbackServer();
        ctx = new TestContext(TestContext.endpoint(server.baseUrl()), dir, server::send);
    }

    @AfterEach
    void stop() {
        server.close();
    }
}
