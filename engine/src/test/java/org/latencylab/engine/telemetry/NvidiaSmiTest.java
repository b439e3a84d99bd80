package org.latencylab.engine.telemetry;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class NvidiaSmiTest {
    static String resource(String name) throws IOException {
        try (InputStream in = NvidiaSmiTest.class.getResourceAsStream("/telemetry/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsOneGpuWithHeaderAndUnits() throws IOException {
        List<GpuReading> g = NvidiaSmi.parse(resource("nvidia-smi-one-gpu.csv"));
        assertThat(g).hasSize(1);
        GpuReading a = g.get(0);
        assertThat(a.index()).isZero();
        assertThat(a.name()).isEqualTo("NVIDIA A10G");
        assertThat(a.memoryUsedMiB()).isEqualTo(14542);
        assertThat(a.memoryTotalMiB()).isEqualTo(23028);
        assertThat(a.utilizationPct()).isEqualTo(87);
        assertThat(a.powerWatts()).isCloseTo(141.25, within(1e-9));
        assertThat(a.smClockMhz()).isEqualTo(1710);
    }

    @Test
    void readsFourGpusAndTurnsNotAvailableIntoNaN() throws IOException {
        List<GpuReading> g = NvidiaSmi.parse(resource("nvidia-smi-four-gpus.csv"));
        assertThat(g).extracting(GpuReading::index).containsExactly(0, 1, 2, 3);
        assertThat(g).extracting(GpuReading::memoryUsedMiB).containsExactly(71234.0, 70988.0, 4.0, 71102.0);
        assertThat(g.get(2).utilizationPct()).isZero();
        assertThat(g.get(3).powerWatts()).isNaN();
        assertThat(g.get(3).smClockMhz()).isEqualTo(1980);
    }

    @Test
    void readsTheNoHeaderNoUnitsForm() throws IOException {
        List<GpuReading> g = NvidiaSmi.parse(resource("nvidia-smi-two-gpus-noheader-nounits.csv"));
        assertThat(g).hasSize(2);
        assertThat(g.get(0).name()).isEqualTo("NVIDIA L4");
        assertThat(g.get(0).memoryUsedMiB()).isEqualTo(20211);
        assertThat(g.get(0).powerWatts()).isCloseTo(71.84, within(1e-9));
        assertThat(g.get(1).powerWatts()).isNaN();
        assertThat(g.get(1).utilizationPct()).isEqualTo(92);
    }

    @Test
    void aMalformedNumberNamesRowAndColumn() {
        assertThatThrownBy(() -> NvidiaSmi.parse("""
                index, name, memory.used [MiB], memory.total [MiB], utilization.gpu [%], power.draw [W], clocks.sm [MHz]
                0, NVIDIA A10G, lots MiB, 23028 MiB, 87 %, 141.25 W, 1710 MHz
                """)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("row 1").hasMessageContaining("memory.used").hasMessageContaining("lots");
    }

    @Test
    void theRealCommandReadsEveryGpuWhereADriverIsInstalled() throws IOException {
        // skipped on machines without an NVIDIA driver (no nvidia-smi): the benchmark then notes it has no GPU data
        var smi = NvidiaSmi.find();
        org.junit.jupiter.api.Assumptions.assumeTrue(smi.isPresent(), "nvidia-smi is not installed here");
        List<GpuReading> g = smi.get().read();
        assertThat(g).isNotEmpty();
        assertThat(g.get(0).memoryTotalMiB()).isPositive();
    }
}
