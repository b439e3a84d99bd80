package org.latencylab.engine.server;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Test helper run as a JVM of its own by {@link ServerProcessShutdownTest}: starts a long-running server process
 * through {@link ServerProcess}, prints its pid, and waits to be terminated.
 */
public final class ShutdownHookMain {
    private ShutdownHookMain() {
    }

    /**
     * @param args the log file
     * @throws InterruptedException never in practice (waits until killed)
     */
    public static void main(String[] args) throws InterruptedException {
        ServerProcess p = ServerProcess.start("held", List.of("sleep", "120"), Map.of(), Path.of(args[0]));
        System.out.println("server pid " + p.pid());
        System.out.flush();
        Thread.sleep(120_000);
    }
}
