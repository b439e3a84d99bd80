package org.latencylab.engine.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Lower bounds on decode and prefill latency from hardware and model size (the "roofline" argument):
 * <ul>
 *   <li><b>decode</b> is memory-bandwidth bound: every step reads all weights and the KV cache of every sequence in
 *       the batch, so {@code TPOT ≥ (weight bytes + batch × context × KV bytes per token) ÷ memory bandwidth};</li>
 *   <li><b>prefill</b> is compute bound: a forward pass costs about {@code 2 × parameters} FLOPs per token, so
 *       {@code TTFT ≥ 2 × parameters × prompt tokens ÷ peak FLOP/s} (attention's quadratic term left out).</li>
 * </ul>
 * Both follow Kaplan et al. 2020 ("Scaling Laws for Neural Language Models", §2.1: 2N FLOPs per token forward) and
 * the roofline model (Williams, Waterman, Patterson 2009). Real servers reach a fraction of these bounds; the ratio
 * measured ÷ bound says how far a configuration is from the hardware's limit. Stateless; thread-safe.
 */
public final class Roofline {
    private Roofline() {
    }

    /**
     * A GPU as its datasheet gives it.
     *
     * @param id             catalogue id, e.g. {@code H100-SXM}
     * @param name           product name
     * @param memoryGB       memory, GB (10^9 bytes, as datasheets state)
     * @param bandwidthGBps  memory bandwidth, GB/s (10^9 bytes/s)
     * @param fp16Tflops     dense FP16/BF16 tensor throughput, TFLOP/s (without sparsity)
     * @param source         the datasheet
     */
    public record Gpu(String id, String name, double memoryGB, double bandwidthGBps, double fp16Tflops,
                      String source) {
    }

    /**
     * A decoder-only transformer's size.
     *
     * @param id             catalogue id or file name
     * @param parameters     parameters, count
     * @param layers         transformer layers
     * @param kvHeads        key/value heads (fewer than query heads with grouped-query attention)
     * @param headDim        dimension per head
     * @param bytesPerParam  bytes per weight (2 for FP16/BF16, 1 for FP8/INT8, 0.5 for 4-bit)
     * @param source         where the numbers come from
     */
    public record Model(String id, double parameters, int layers, int kvHeads, int headDim, double bytesPerParam,
                        String source) {
        /** @return weight bytes: parameters × bytes per parameter */
        public double weightBytes() {
            return parameters * bytesPerParam;
        }

        /**
         * @return KV-cache bytes per token: 2 (K and V) × layers × KV heads × head dim × bytes per value (the KV
         *         cache kept at the weights' precision, at least 1 byte)
         */
        public double kvBytesPerToken() {
            return 2.0 * layers * kvHeads * headDim * Math.max(1, bytesPerParam);
        }

        /** @param bytes bytes per weight, &gt; 0 @return this model at another precision */
        public Model withBytesPerParam(double bytes) {
            return new Model(id, parameters, layers, kvHeads, headDim, bytes, source);
        }
    }

    /** GPUs of the catalogue by id. */
    public static final Map<String, Gpu> GPUS = catalogue(
            new Gpu("A10", "NVIDIA A10", 24, 600, 125, "NVIDIA A10 Tensor Core GPU datasheet"),
            new Gpu("L4", "NVIDIA L4", 24, 300, 121, "NVIDIA L4 Tensor Core GPU datasheet (242 TFLOPS with sparsity)"),
            new Gpu("L40S", "NVIDIA L40S", 48, 864, 362, "NVIDIA L40S datasheet (733 TFLOPS with sparsity)"),
            new Gpu("A100-40GB", "NVIDIA A100 40GB SXM", 40, 1555, 312, "NVIDIA A100 Tensor Core GPU datasheet"),
            new Gpu("A100-80GB", "NVIDIA A100 80GB SXM", 80, 2039, 312, "NVIDIA A100 Tensor Core GPU datasheet"),
            new Gpu("H100-SXM", "NVIDIA H100 SXM", 80, 3350, 989,
                    "NVIDIA H100 Tensor Core GPU datasheet (1,979 TFLOPS with sparsity)"),
            new Gpu("H100-PCIe", "NVIDIA H100 PCIe", 80, 2000, 756,
                    "NVIDIA H100 Tensor Core GPU datasheet (1,513 TFLOPS with sparsity)"),
            new Gpu("H200", "NVIDIA H200 SXM", 141, 4800, 989, "NVIDIA H200 Tensor Core GPU datasheet"));

    /** Models of the catalogue by id, 16-bit weights. */
    public static final Map<String, Model> MODELS = catalogue(
            new Model("llama-2-7b", 6.74e9, 32, 32, 128, 2, "meta-llama/Llama-2-7b-hf config.json; 6.74B parameters"),
            new Model("llama-3-8b", 8.03e9, 32, 8, 128, 2, "meta-llama/Meta-Llama-3-8B config.json; 8.03B parameters"),
            new Model("llama-3-70b", 70.6e9, 80, 8, 128, 2,
                    "meta-llama/Meta-Llama-3-70B config.json; 70.6B parameters"),
            new Model("mistral-7b", 7.24e9, 32, 8, 128, 2, "mistralai/Mistral-7B-v0.1 config.json; 7.24B parameters"),
            new Model("qwen2.5-7b", 7.62e9, 28, 4, 128, 2, "Qwen/Qwen2.5-7B config.json; 7.62B parameters"));

    @SafeVarargs
    private static <T extends Record> Map<String, T> catalogue(T... items) {
        Map<String, T> m = new LinkedHashMap<>();
        for (T t : items) {
            String id = t instanceof Gpu g ? g.id() : ((Model) t).id();
            m.put(id.toLowerCase(Locale.ROOT), t);
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * @param id a catalogue id, case-insensitive
     * @return the GPU
     * @throws IllegalArgumentException when unknown; the message lists the catalogue
     */
    public static Gpu gpu(String id) {
        Gpu g = id == null ? null : GPUS.get(id.toLowerCase(Locale.ROOT));
        if (g == null) {
            throw new IllegalArgumentException("unknown GPU '" + id + "'; known: "
                    + GPUS.values().stream().map(Gpu::id).toList());
        }
        return g;
    }

    /**
     * @param id a catalogue id, case-insensitive
     * @return the model
     * @throws IllegalArgumentException when unknown; the message lists the catalogue
     */
    public static Model model(String id) {
        Model m = id == null ? null : MODELS.get(id.toLowerCase(Locale.ROOT));
        if (m == null) {
            throw new IllegalArgumentException("unknown model '" + id + "'; known: "
                    + MODELS.values().stream().map(Model::id).toList() + ", or give modelConfig: a Hugging Face "
                    + "config.json");
        }
        return m;
    }

    /**
     * Reads a model's size from a Hugging Face {@code config.json}: {@code num_hidden_layers},
     * {@code num_attention_heads}, {@code num_key_value_heads} (default: attention heads), {@code hidden_size},
     * {@code head_dim} (default: hidden size ÷ attention heads), {@code intermediate_size}, {@code vocab_size},
     * {@code tie_word_embeddings} and {@code torch_dtype}. The parameter count is estimated for a Llama-style
     * decoder: embeddings (and an untied output layer) + per layer the Q, K, V and O projections and a gated MLP of
     * three matrices; norms are left out (&lt; 0.01 %).
     *
     * @param file the config.json
     * @return the model (16-bit unless {@code torch_dtype} says otherwise)
     * @throws IllegalArgumentException when the file is unreadable or a required field is missing; the message
     *                                  names the file and field
     */
    public static Model fromHuggingFaceConfig(Path file) {
        JsonNode c;
        try {
            c = new ObjectMapper().readTree(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read a Hugging Face config.json: " + e.getMessage(), e);
        }
        int layers = field(c, file, "num_hidden_layers");
        int heads = field(c, file, "num_attention_heads");
        int hidden = field(c, file, "hidden_size");
        int kvHeads = c.has("num_key_value_heads") ? field(c, file, "num_key_value_heads") : heads;
        int headDim = c.has("head_dim") ? field(c, file, "head_dim") : hidden / heads;
        int inter = field(c, file, "intermediate_size");
        int vocab = field(c, file, "vocab_size");
        boolean tied = c.path("tie_word_embeddings").asBoolean(false);
        double perLayer = (double) hidden * heads * headDim * 2 + 2.0 * hidden * kvHeads * headDim
                + 3.0 * hidden * inter;
        double params = (double) vocab * hidden * (tied ? 1 : 2) + layers * perLayer;
        String dtype = c.path("torch_dtype").asText("bfloat16").toLowerCase(Locale.ROOT);
        double bytes = dtype.contains("32") ? 4 : dtype.contains("8") ? 1 : 2;
        return new Model(file.getFileName().toString(), params, layers, kvHeads, headDim, bytes,
                "Hugging Face config " + file.getFileName() + " (parameters estimated)");
    }

    private static int field(JsonNode c, Path file, String name) {
        JsonNode n = c.get(name);
        if (n == null || !n.canConvertToInt() || n.asInt() < 1) {
            throw new IllegalArgumentException(file + ": field '" + name + "' must be a positive integer, was " + n);
        }
        return n.asInt();
    }

    /**
     * The decode bound: {@code (weight bytes + batch × context × KV bytes per token) ÷ bandwidth}.
     *
     * @param gpu           the GPU (its bandwidth in GB/s)
     * @param model         the model
     * @param gpus          GPUs the model is split over (tensor parallel; bandwidths add), &gt;= 1
     * @param batch         sequences decoded together, &gt;= 1
     * @param contextTokens tokens in each sequence's KV cache (prompt plus generated so far), &gt;= 0
     * @return the least time per output token the hardware allows, ms
     * @throws IllegalArgumentException when gpus or batch &lt; 1 or contextTokens &lt; 0
     */
    public static double tpotBoundMs(Gpu gpu, Model model, int gpus, double batch, double contextTokens) {
        if (gpus < 1 || !(batch >= 1) || !(contextTokens >= 0)) {
            throw new IllegalArgumentException("gpus and batch must be >= 1 and contextTokens >= 0, were " + gpus
                    + ", " + batch + ", " + contextTokens);
        }
        double bytes = model.weightBytes() + batch * contextTokens * model.kvBytesPerToken();
        return bytes / (gpu.bandwidthGBps() * 1e9 * gpus) * 1e3;
    }

    /**
     * The prefill bound: {@code 2 × parameters × prompt tokens ÷ (peak FLOP/s)}.
     *
     * @param gpu          the GPU (its dense FP16 TFLOP/s)
     * @param model        the model
     * @param gpus         GPUs (tensor parallel), &gt;= 1
     * @param promptTokens prompt tokens, &gt;= 0
     * @return the least prefill time the hardware allows, ms
     */
    public static double prefillBoundMs(Gpu gpu, Model model, int gpus, double promptTokens) {
        return 2 * model.parameters() * promptTokens / (gpu.fp16Tflops() * 1e12 * Math.max(1, gpus)) * 1e3;
    }
}
