package org.latencylab.engine.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@DisabledOnOs(OS.WINDOWS)
class ServerProcessShutdownTest {
    @TempDir
    Path dir;

    @Test
    void serversDieWithTheJvmThatStartedThemOnSigterm() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ShutdownHookMain.class.getName(), dir.resolve("held.log").toString()).redirectErrorStream(true).start();
        long pid;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(line).as("the helper's first line").startsWith("server pid ");
            pid = Long.parseLong(line.substring("server pid ".length()).strip());
        }
        ProcessHandle server = ProcessHandle.of(pid).orElseThrow();
        assertThat(server.isAlive()).isTrue();
        jvm.destroy(); // SIGTERM, as Ctrl-C or closing the app ends the JVM through its shutdown hooks
        assertThat(jvm.waitFor(20, TimeUnit.SECONDS)).isTrue();
        server.onExit().get(10, TimeUnit.SECONDS);
        assertThat(server.isAlive()).isFalse();
    }
}
