package org.latencylab.engine.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

@DisabledOnOs(OS.WINDOWS)
class ServerProcessTest {
    @TempDir
    Path dir;

    private static void awaitTree(ServerProcess p, int size) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (p.tree().size() < size && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Test
    void stopEndsTheWholeProcessTree() throws Exception {
        ServerProcess p = ServerProcess.start("tree", List.of("sh", "-c", "sleep 60 & sleep 60 & wait"), Map.of(),
                dir.resolve("tree.log"));
        awaitTree(p, 3);
        List<ProcessHandle> tree = p.tree();
        assertThat(tree).hasSizeGreaterThanOrEqualTo(3);
        p.stop(Duration.ofSeconds(5));
        for (ProcessHandle h : tree) {
            assertThat(h.isAlive()).as("pid %d", h.pid()).isFalse();
        }
    }

    @Test
    void aProcessIgnoringSigtermIsKilledAfterTheGracePeriod() throws Exception {
        ServerProcess p = ServerProcess.start("stubborn", List.of("sh", "-c",
                "trap '' TERM; echo trapped; while true; do sleep 0.1; done"), Map.of(), dir.resolve("s.log"));
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!ServerProcess.tail(p.log(), 5).contains("trapped") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        List<ProcessHandle> tree = p.tree();
        long t0 = System.nanoTime();
        p.stop(Duration.ofMillis(700));
        double took = (System.nanoTime() - t0) / 1e9;
        assertThat(took).isGreaterThanOrEqualTo(0.6);
        for (ProcessHandle h : tree) {
            assertThat(h.isAlive()).isFalse();
        }
        assertThat(p.exitCode()).isNotNull();
    }

    @Test
    void theLogKeepsOutputAndTheMaskedCommand() throws Exception {
        ServerProcess p = ServerProcess.start("echo", List.of("sh", "-c", "echo CUDA out of memory; exit 1",
                "--api-key", "sk-live"), Map.of(), dir.resolve("e.log"));
        p.tree().get(0).onExit().get();
        p.stop(Duration.ofSeconds(1));
        String log = java.nio.file.Files.readString(p.log());
        assertThat(log).startsWith("# sh -c").contains("--api-key ****").doesNotContain("sk-live");
        assertThat(ServerProcess.outOfMemoryLine(p.log())).isEqualTo("CUDA out of memory");
        assertThat(p.exitCode()).isEqualTo(1);
    }
}
