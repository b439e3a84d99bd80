package org.latencylab.engine.telemetry;

import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * The simulated GPU of a LatencyLab simulator: {@code GET BASE/sim/gpu} answers in {@code nvidia-smi}'s CSV format
 * (memory from the simulator's engine model: weights + overhead + KV cache of the tokens in flight), parsed by
 * {@link NvidiaSmi#parse}. Thread-safe.
 */
public final class SimulatedGpu implements GpuSource {
    private final OkHttpClient http;
    private final String url;

    /**
     * @param http    HTTP client (shared; not closed here)
     * @param baseUrl the simulator's base URL, e.g. {@code http://127.0.0.1:8123}
     */
    public SimulatedGpu(OkHttpClient http, String baseUrl) {
        this.http = Objects.requireNonNull(http, "http");
        this.url = baseUrl.replaceAll("/+$", "") + "/sim/gpu";
    }

    /**
     * @param http    HTTP client
     * @param baseUrl a server's base URL
     * @return whether it answers {@code /sim/gpu} with a reading (i.e. it is a simulator with a GPU model)
     */
    public static boolean offeredBy(OkHttpClient http, String baseUrl) {
        try {
            return !new SimulatedGpu(http, baseUrl).read().isEmpty();
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public List<GpuReading> read() throws IOException {
        try (Response r = http.newCall(new Request.Builder().url(url).get().build()).execute()) {
            if (r.code() != 200) {
                throw new IOException("GET " + url + " answered " + r.code());
            }
            return NvidiaSmi.parse(r.body().string());
        }
    }

    @Override
    public String describe() {
        return "simulated GPU (" + url + ")";
    }
}
