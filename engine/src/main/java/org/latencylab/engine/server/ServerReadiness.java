package org.latencylab.engine.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import org.latencylab.engine.step.StepContext;
import org.latencylab.engine.telemetry.GpuSource;
import org.latencylab.engine.telemetry.NvidiaSmi;
import org.latencylab.engine.telemetry.SimulatedGpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;

/**
 * What {@link ServerBenchRunner} asks of a server it launched, and of the machine, around a variant: a free port, its
 * readiness (polling health paths while the process lives), the model it serves, and where GPU telemetry comes from.
 * Stateless; thread-safe.
 */
final class ServerReadiness {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ServerReadiness() {
    }

    /**
     * Polls the readiness paths every 200 ms.
     *
     * @return null when ready; else why not ({@code exited with status N before ...} or {@code not ready after ...})
     */
    static String awaitReady(OkHttpClient http, String url, List<String> paths, Duration timeout,
                                     ServerProcess proc, StepContext context) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!proc.isAlive()) {
                return "exited with status " + proc.exitCode() + " before it was ready";
            }
            if (context.cancelled()) {
                return "the run was cancelled while the server started";
            }
            for (String path : paths) {
                if (answers(http, url + path)) {
                    return null;
                }
            }
            Thread.sleep(200);
        }
        return "not ready after " + timeout.toSeconds() + " s (polled " + paths + " on " + url + ")";
    }

    static boolean answers(OkHttpClient http, String url) {
        try (Response r = http.newCall(new Request.Builder().url(url).get().build()).execute()) {
            return r.code() == 200;
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    static String firstModel(OkHttpClient http, String url) {
        try (Response r = http.newCall(new Request.Builder().url(url + "/v1/models").get().build()).execute()) {
            if (r.code() == 200) {
                JsonNode id = JSON.readTree(r.body().string()).path("data").path(0).path("id");
                if (id.isTextual()) {
                    return id.asText();
                }
            }
        } catch (IOException | RuntimeException e) {
            // no model list: fall back below
        }
        return "default";
    }

    static GpuSource gpuSource(String mode, OkHttpClient http, String url, List<String> notes) {
        if (mode.equals("off")) {
            return null;
        }
        if (!mode.equals("nvidia-smi") && SimulatedGpu.offeredBy(http, url)) {
            return new SimulatedGpu(http, url);
        }
        if (mode.equals("simulated")) {
            notes.add("gpuTelemetry: simulated, but " + url + "/sim/gpu gives no reading (a simulator profile "
                    + "without engine.gpu, or not a simulator): no GPU telemetry");
            return null;
        }
        var smi = NvidiaSmi.find();
        if (smi.isEmpty()) {
            notes.add("no GPU telemetry: nvidia-smi is not installed on this machine (no NVIDIA driver)");
            return null;
        }
        return smi.get();
    }

    static boolean portFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A port the OS reports free now (it may be taken before the server binds it; the server then fails). */
    static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port: " + e.getMessage(), e);
        }
    }
}
