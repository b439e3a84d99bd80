package org.latencylab.engine.server;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LaunchTemplatesTest {
    @Test
    void splitsAtBlanksAndKeepsQuotedArguments() {
        assertThat(LaunchTemplates.split("docker run -e 'A=b c' \"x y\"  z"))
                .containsExactly("docker", "run", "-e", "A=b c", "x y", "z");
        assertThatThrownBy(() -> LaunchTemplates.split("a 'b")).hasMessageContaining("unclosed");
    }

    @Test
    void expandsPlaceholdersAndLatencylabIntoThisJvm() {
        List<String> cmd = LaunchTemplates.expand(List.of("{latencylab}", "sim", "--port", "{port}",
                "--max-num-seqs={max_num_seqs}"), Map.of("port", "8123", "max_num_seqs", "64"));
        assertThat(cmd.get(0)).endsWith("java");
        assertThat(cmd).contains("-cp");
        String cp = cmd.get(cmd.indexOf("-cp") + 1);
        for (String e : cp.split(File.pathSeparator)) {
            assertThat(Path.of(e).isAbsolute()).as(e).isTrue();
        }
        assertThat(cmd).endsWith("sim", "--port", "8123", "--max-num-seqs=64");
        assertThatThrownBy(() -> LaunchTemplates.expand(List.of("x", "{nope}"), Map.of()))
                .hasMessageContaining("{nope}");
    }

    @Test
    void builtInTemplatesUseTheServersRealFlags() {
        VariantSpec vllm = new VariantSpec("v", null, "vllm", null, Map.of("max_num_seqs", "128"), null, null, null,
                "meta-llama/Llama-2-7b-hf", null, null, null, null, null, null);
        List<String> cmd = LaunchTemplates.expand(vllm.commandTemplate(), Map.of("port", "9000", "host", "127.0.0.1",
                "model", "meta-llama/Llama-2-7b-hf", "max_num_seqs", "128", "max_batched_tokens", "8192"));
        assertThat(String.join(" ", cmd)).isEqualTo("vllm serve meta-llama/Llama-2-7b-hf --host 127.0.0.1 "
                + "--port 9000 --max-num-seqs 128 --max-num-batched-tokens 8192");
        assertThat(LaunchTemplates.BUILTIN.get("tgi").command()).contains("--max-batch-prefill-tokens");
        assertThat(LaunchTemplates.BUILTIN.get("sglang").command()).contains("--chunked-prefill-size");
        assertThat(LaunchTemplates.BUILTIN.get("llama.cpp").command()).contains("--parallel");
        VariantSpec ollama = new VariantSpec("o", null, "ollama", null, null, null, null, null, null, null, null,
                null, null, null, null);
        assertThat(ollama.envTemplate()).containsEntry("OLLAMA_HOST", "{host}:{port}");
        assertThat(ollama.readinessPaths()).containsExactly("/api/tags");
        assertThat(ollama.metricsPathOrDefault()).isEmpty();
        assertThat(ollama.protocolId()).isEqualTo("ollama-chat");
    }

    @Test
    void aTemplateWithAnUnknownPlaceholderNamesTheVariant() {
        assertThatThrownBy(() -> new VariantSpec("big-batch", List.of("srv --port {port} --batch {batch}"), null,
                null, null, null, null, null, null, null, null, null, null, null, null))
                .hasMessageContaining("variant 'big-batch'").hasMessageContaining("{batch}");
        assertThatThrownBy(() -> new VariantSpec("two", List.of("srv"), null, "http://x:1", null, null, null, null,
                null, null, null, null, null, null, null)).hasMessageContaining("exactly one of launch");
    }

    @Test
    void gridsExpandInOrderWithTheFirstParameterOutermost() {
        VariantSpec v = new VariantSpec("g", List.of("srv {port} {a} {c}"), null, null, Map.of("c", "x"),
                new java.util.LinkedHashMap<>(Map.of("a", List.of("1", "2"))), null, null, null, null, null, null,
                null, null, null);
        assertThat(v.combinations()).extracting(m -> m.get("a")).containsExactly("1", "2");
        assertThat(v.combinations()).extracting(m -> m.get("c")).containsExactly("x", "x");
        assertThatThrownBy(() -> new VariantSpec("g", List.of("srv {port} {a} {b}"), null, null, null,
                Map.of("a", List.of("1")), null, null, null, null, null, null, null, null, null))
                .hasMessageContaining("{b}");
    }

    @Test
    void secretsAreMaskedInCommandLinesAndEnvironments() {
        assertThat(SecretMask.display(List.of("srv", "--api-key", "sk-123", "--token=abc", "-e", "HF_TOKEN=hf_x",
                "--port", "80", "MODE=fast"))).isEqualTo("srv --api-key **** --token=**** -e HF_TOKEN=**** --port 80 "
                + "MODE=fast");
        assertThat(SecretMask.environment(Map.of("OLLAMA_HOST", "127.0.0.1:1"))).containsEntry("OLLAMA_HOST", "****");
    }
}
