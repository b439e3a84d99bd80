package org.latencylab.engine.analysis;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class AnalysisTest {
    private static final List<ParetoSet.Goal> TLM = List.of(ParetoSet.Goal.MAXIMIZE, ParetoSet.Goal.MINIMIZE,
            ParetoSet.Goal.MINIMIZE);

    @Test
    void theThreeEnginesOfTheSourceArticleAreAllParetoOptimal() {
        // the engine comparison of the article LatencyLab started from: vLLM 124.6 tok/s / 321 ms / 14.2 GiB,
        // TGI 98.3 / 287 / 18.5, Ollama 41.7 / 892 / 10.1
        boolean[] o = ParetoSet.optimal(List.of(new double[] {124.6, 321, 14.2}, new double[] {98.3, 287, 18.5},
                new double[] {41.7, 892, 10.1}), TLM);
        assertThat(o).containsExactly(true, true, true);
    }

    @Test
    void aDominatedVariantIsNotOptimalAndTiesStay() {
        boolean[] o = ParetoSet.optimal(List.of(new double[] {100, 300, 14}, new double[] {90, 320, 15},
                new double[] {100, 300, 14}, new double[] {100, 300, 15}), TLM);
        assertThat(o).containsExactly(true, false, true, false);
        assertThatThrownBy(() -> ParetoSet.optimal(List.<double[]>of(new double[] {1, Double.NaN, 1}), TLM))
                .hasMessageContaining("finite");
    }

    @Test
    void decodeBoundIsWeightsPlusKvOverBandwidth() {
        Roofline.Model m = Roofline.model("llama-2-7b");
        assertThat(m.kvBytesPerToken()).isEqualTo(524288.0);
        Roofline.Gpu a10 = Roofline.gpu("a10");
        // 6.74e9 parameters x 2 bytes / 600 GB/s = 22.47 ms with one short sequence
        assertThat(Roofline.tpotBoundMs(a10, m, 1, 1, 0)).isCloseTo(22.467, within(0.001));
        // 8 sequences of 1000 tokens add 8 x 1000 x 524288 bytes = 4.19 GB, 6.99 ms more
        assertThat(Roofline.tpotBoundMs(a10, m, 1, 8, 1000)).isCloseTo(22.467 + 6.990, within(0.001));
        // tensor parallel over 2 GPUs halves it
        assertThat(Roofline.tpotBoundMs(a10, m, 2, 1, 0)).isCloseTo(11.233, within(0.001));
        assertThat(Roofline.tpotBoundMs(Roofline.gpu("H100-SXM"), m.withBytesPerParam(1), 1, 1, 0))
                .isCloseTo(6.74e9 / 3350e9 * 1e3, within(1e-9));
        // prefill: 2 x 6.74e9 x 2048 FLOPs / 125 TFLOP/s = 220.9 ms
        assertThat(Roofline.prefillBoundMs(a10, m, 1, 2048)).isCloseTo(220.86, within(0.01));
        assertThatThrownBy(() -> Roofline.gpu("B999")).hasMessageContaining("H200");
    }

    @Test
    void aHuggingFaceConfigGivesTheModelsSize() throws Exception {
        Path f = Path.of(AnalysisTest.class.getResource("/telemetry/llama-2-7b-config.json").toURI());
        Roofline.Model m = Roofline.fromHuggingFaceConfig(f);
        assertThat(m.layers()).isEqualTo(32);
        assertThat(m.kvHeads()).isEqualTo(32);
        assertThat(m.headDim()).isEqualTo(128);
        assertThat(m.bytesPerParam()).isEqualTo(2);
        assertThat(m.parameters()).isCloseTo(6.74e9, within(0.01e9));
        assertThatThrownBy(() -> Roofline.fromHuggingFaceConfig(f.resolveSibling("nvidia-smi-one-gpu.csv")))
                .hasMessageContaining("nvidia-smi-one-gpu.csv");
    }

    @Test
    void costPerMillionTokensIsPriceOverTokensPerHour() {
        // $1.01 per hour at 117.5 tokens/s: 423,000 tokens per hour -> $2.388 per million
        assertThat(Cost.perMillionOutputTokens(1.01, 1, 117.5)).isCloseTo(2.3877, within(1e-4));
        assertThat(Cost.perMillionOutputTokens(2.0, 4, 1000)).isCloseTo(2.2222, within(1e-4));
        assertThat(Cost.perMillionOutputTokens(1, 1, 0)).isNaN();
        assertThatThrownBy(() -> Cost.perMillionOutputTokens(-1, 1, 10)).hasMessageContaining("pricePerGpuHour");
    }
}
