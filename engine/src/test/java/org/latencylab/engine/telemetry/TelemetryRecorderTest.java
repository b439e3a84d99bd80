package org.latencylab.engine.telemetry;

import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The recorder with a real {@code nvidia-smi} stand-in: a shell script run through {@link NvidiaSmi}, answering
 * with a recorded reading. Stopping the recorder while the script runs kills it; that is the normal end of
 * sampling, while a script that fails is still reported.
 */
class TelemetryRecorderTest {
    @TempDir
    Path dir;

    private NvidiaSmi script(String body) throws Exception {
        Files.writeString(dir.resolve("answer.csv"), NvidiaSmiTest.resource("nvidia-smi-one-gpu.csv"));
        Path exe = dir.resolve("nvidia-smi");
        Files.writeString(exe, "#!/bin/sh\n" + body.replace("$DIR", dir.toString()) + "\n");
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwx------"));
        return NvidiaSmi.at(exe);
    }

    private static void awaitFile(Path f) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Files.exists(f) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(f).as("the sampler started nvidia-smi").exists();
    }

    @Test
    void aGpuReadingCutOffByStopIsANormalEndNotAFailure() throws Exception {
        // the first run hangs (as nvidia-smi can on a busy driver) until the recorder is stopped; later runs answer
        NvidiaSmi smi = script("if [ ! -e $DIR/first ]; then touch $DIR/first; exec sleep 30; fi\ncat $DIR/answer.csv");
        OkHttpClient http = new OkHttpClient();
        TelemetryRecorder rec = TelemetryRecorder.start(http, null, smi, dir.resolve("m.csv"), dir.resolve("g.csv"),
                Duration.ofSeconds(60), null);
        awaitFile(dir.resolve("first"));
        TelemetrySummary s = rec.stop();
        assertThat(s.notes()).as("notes").noneMatch(n -> n.contains("failed"));
        // the last reading, taken by stop() itself, is there
        assertThat(s.gpuSamples()).isEqualTo(1);
        assertThat(s.peakGpuMemoryMiB()).isEqualTo(14542.0);
        List<String> csv = Files.readAllLines(dir.resolve("g.csv"));
        assertThat(csv).hasSize(2);
        assertThat(csv.get(1)).contains("\"NVIDIA A10G\",14542,23028");
    }

    @Test
    void aGpuReadingThatFailsIsStillReported() throws Exception {
        NvidiaSmi smi = script("touch $DIR/first\necho 'NVIDIA-SMI has failed because it could not communicate'\nexit 9");
        // every sample ends in a tick to the listener, a failed one too: the first tick means the first run is over
        CountDownLatch firstTick = new CountDownLatch(1);
        TelemetryRecorder rec = TelemetryRecorder.start(new OkHttpClient(), null, smi, dir.resolve("m.csv"),
                dir.resolve("g.csv"), Duration.ofSeconds(60), t -> firstTick.countDown());
        assertThat(firstTick.await(30, TimeUnit.SECONDS)).as("the first reading ended").isTrue();
        TelemetrySummary s = rec.stop();
        assertThat(s.gpuSamples()).isZero();
        assertThat(s.notes()).anyMatch(n -> n.contains("GPU reading(s)") && n.contains("failed")
                && n.contains("exited with 9"));
    }
}
