package org.latencylab.engine.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The latency model and behaviour of one simulated LLM server, as read from a profile file
 * ({@code sample-data/profiles/*.yaml}, packaged as built-ins).
 *
 * <h2>Model</h2>
 * <ul>
 *   <li><b>Prefill</b>: a prompt of {@code n} tokens (after prefix-cache hits) takes {@code t0 + k·n^α} seconds,
 *       the power law used for context sweeps in latency engineering (TTFT grows sub-linearly to linearly with
 *       context while attention is not yet dominant).</li>
 *   <li><b>Decode</b>: each token after the first takes {@code tpot · (1 + batchSlowdown · (running − 1))}
 *       seconds, where {@code running} is the number of sequences being served at that moment (a linear stand-in
 *       for the memory-bandwidth-bound decode step sharing the GPU with a larger batch).</li>
 *   <li><b>Admission</b>: at most {@code maxRunningSeqs} sequences run; later requests wait in a FIFO queue, and the
 *       wait adds to their TTFT (as in vLLM's {@code max_num_seqs}, default 256).</li>
 *   <li><b>Jitter</b>: prefill time and every token gap are multiplied by {@code exp(σ·Z)}, Z standard normal
 *       (lognormal, median 1).</li>
 *   <li><b>Prefix cache</b>: blocks of {@code blockTokens} prompt tokens are hashed in a chain, as vLLM's automatic
 *       prefix caching does; a prompt pays prefill only for the tokens after its longest cached block prefix.</li>
 * </ul>
 * Immutable and thread-safe.
 *
 * @param name           profile name, e.g. {@code llama-8b-class}; not blank
 * @param model          model name the server reports; not blank
 * @param source         free text: where the numbers come from; never null
 * @param prefill        prefill law
 * @param decode         decode law
 * @param maxRunningSeqs most sequences served at once, in [1, 1000000]
 * @param jitter         lognormal jitter
 * @param prefixCache    prefix cache settings
 * @param reasoning      how many leading output tokens are reasoning
 * @param faults         injected faults
 * @param engine         the inference-engine model (metric names, GPU memory, chunked prefill); {@link Engine#NONE}
 *                       when the profile has no {@code engine} section
 * @throws IllegalArgumentException when a value is out of range; the message names the field
 */
public record SimProfile(String name, String model, String source, Prefill prefill, Decode decode,
                         int maxRunningSeqs, Jitter jitter, PrefixCache prefixCache, Reasoning reasoning,
                         Faults faults, Engine engine) {

    /** Classpath folder (relative to this class) holding the built-in profiles. */
    static final String BUILTIN_DIR = "profiles/";

    public SimProfile {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("field 'name' must be a non-blank string, was " + name);
        }
        if (model == null || model.isBlank()) {
            throw new IllegalArgumentException("field 'model' must be a non-blank string, was " + model);
        }
        source = source == null ? "" : source.strip();
        Objects.requireNonNull(prefill, "field 'prefill' must be set");
        Objects.requireNonNull(decode, "field 'decode' must be set");
        ProfileCheck.integer("maxRunningSeqs", maxRunningSeqs, 1, 1_000_000);
        jitter = jitter == null ? Jitter.NONE : jitter;
        prefixCache = prefixCache == null ? PrefixCache.OFF : prefixCache;
        reasoning = reasoning == null ? Reasoning.NONE : reasoning;
        faults = faults == null ? Faults.NONE : faults;
        engine = engine == null ? Engine.NONE : engine;
    }

    /**
     * A profile without an engine section ({@link Engine#NONE}).
     *
     * @param name           profile name
     * @param model          model name
     * @param source         where the numbers come from
     * @param prefill        prefill law
     * @param decode         decode law
     * @param maxRunningSeqs most sequences served at once
     * @param jitter         jitter
     * @param prefixCache    prefix cache
     * @param reasoning      reasoning tokens
     * @param faults         faults
     * @throws IllegalArgumentException as the canonical constructor
     */
    public SimProfile(String name, String model, String source, Prefill prefill, Decode decode, int maxRunningSeqs,
                      Jitter jitter, PrefixCache prefixCache, Reasoning reasoning, Faults faults) {
        this(name, model, source, prefill, decode, maxRunningSeqs, jitter, prefixCache, reasoning, faults,
                Engine.NONE);
    }

    /**
     * How the simulated server behaves like a particular inference engine (vLLM, SGLang, TGI, Ollama): which metric
     * names its {@code /metrics} uses, how much memory the simulated GPU has and how it fills, and chunked prefill.
     *
     * <h2>Memory model</h2>
     * GPU memory used = {@code overheadGiB} (CUDA context, activations) + {@code weightsGiB} + KV cache, where the KV
     * cache is {@code kvBytesPerToken} × the tokens in flight (prompt plus generated tokens of every running
     * sequence) — or, when {@code reserveFullBatch} is set (as TGI does at warm-up), the whole batch reserved at
     * start: {@code kvBytesPerToken × maxRunningSeqs × maxBatchedTokens}. When the reserve does not fit in
     * {@code gpu.memoryGiB} the server fails at start with an out-of-memory error; when the tokens in flight do not
     * fit, the request that would overflow fails (and a server process started with {@code sim} exits with an
     * out-of-memory message, as a real engine would crash).
     *
     * <h2>Chunked prefill</h2>
     * A prompt of n tokens is prefilled in {@code ceil(n / maxBatchedTokens)} chunks; each chunk after the first
     * adds {@code chunkOverheadSeconds} (one more scheduler step) to the prefill law's time.
     *
     * <p>Both are stand-ins for the real mechanisms, chosen so that grids over batch size and prefill budget show
     * the shapes a real engine shows (more throughput with larger batches, an out-of-memory cell), not numbers of
     * any particular GPU.
     *
     * @param metrics              metric naming of {@code /metrics}: {@code vllm}, {@code sglang}, {@code tgi} or
     *                             {@code none} (no {@code /metrics}, as Ollama)
     * @param gpu                  the simulated GPU, or null for none (no memory model, no {@code /sim/gpu})
     * @param weightsGiB           model weights on the GPU, GiB (2^30 bytes), in [0, 10000]
     * @param overheadGiB          fixed overhead (CUDA context, activations), GiB, in [0, 10000]
     * @param kvBytesPerToken      KV-cache bytes per token, in [0, 10^9]; e.g. Llama-2-7B in 16 bit: 32 layers × 32
     *                             KV heads × 128 dims × 2 (K and V) × 2 bytes = 524288
     * @param maxBatchedTokens     prefill tokens per scheduler step (vLLM {@code --max-num-batched-tokens}, TGI
     *                             {@code --max-batch-prefill-tokens}), in [1, 10^7]
     * @param chunkOverheadSeconds extra prefill time per additional chunk, s, in [0, 60]
     * @param reserveFullBatch     whether the KV of the whole batch is reserved at start (TGI) rather than grown
     *                             with the tokens in flight (vLLM's paged cache)
     */
    public record Engine(String metrics, Gpu gpu, double weightsGiB, double overheadGiB, long kvBytesPerToken,
                         int maxBatchedTokens, double chunkOverheadSeconds, boolean reserveFullBatch) {
        /** Metric namings {@link #metrics} accepts. */
        public static final List<String> NAMINGS = List.of("vllm", "sglang", "tgi", "none");

        /** No engine model: vLLM metric names, no GPU. */
        public static final Engine NONE = new Engine("vllm", null, 0, 0, 0, 1_000_000, 0, false);

        public Engine {
            metrics = metrics == null ? "vllm" : metrics.strip().toLowerCase(java.util.Locale.ROOT);
            if (!NAMINGS.contains(metrics)) {
                throw new IllegalArgumentException("field 'engine.metrics' must be one of " + NAMINGS + ", was '"
                        + metrics + "'");
            }
            ProfileCheck.number("engine.weightsGiB", weightsGiB, 0, false, 10_000);
            ProfileCheck.number("engine.overheadGiB", overheadGiB, 0, false, 10_000);
            ProfileCheck.integer("engine.kvBytesPerToken", kvBytesPerToken, 0, 1_000_000_000);
            ProfileCheck.integer("engine.maxBatchedTokens", maxBatchedTokens, 1, 10_000_000);
            ProfileCheck.number("engine.chunkOverheadSeconds", chunkOverheadSeconds, 0, false, 60);
        }

        /** @param tokens prefill budget per step, in [1, 10^7] @return a copy with it */
        public Engine withMaxBatchedTokens(int tokens) {
            return new Engine(metrics, gpu, weightsGiB, overheadGiB, kvBytesPerToken, tokens, chunkOverheadSeconds,
                    reserveFullBatch);
        }

        /** @param memoryGiB GPU memory, GiB, &gt; 0 @return a copy with it (requires a GPU) */
        public Engine withGpuMemoryGiB(double memoryGiB) {
            if (gpu == null) {
                throw new IllegalArgumentException("the profile has no engine.gpu whose memory could be set");
            }
            return new Engine(metrics, new Gpu(gpu.name(), memoryGiB, gpu.idleWatts(), gpu.maxWatts(),
                    gpu.smClockMhz()), weightsGiB, overheadGiB, kvBytesPerToken, maxBatchedTokens,
                    chunkOverheadSeconds, reserveFullBatch);
        }
    }

    /**
     * The simulated GPU behind an {@link Engine}, reported on {@code /sim/gpu} in {@code nvidia-smi}'s CSV format.
     * Utilisation while sequences run is modelled as {@code 35 + 65 × running / maxRunningSeqs} %, power as
     * {@code idle + (max − idle) × utilisation}: stand-ins, not measurements.
     *
     * @param name        e.g. {@code NVIDIA A10G (simulated)}; not blank
     * @param memoryGiB   total memory, GiB, in (0, 10000]
     * @param idleWatts   power draw when idle, W, in [0, 5000]
     * @param maxWatts    power draw at full utilisation, W, in [idleWatts, 5000]
     * @param smClockMhz  SM clock while busy, MHz, in [1, 10000] (210 MHz when idle)
     */
    public record Gpu(String name, double memoryGiB, double idleWatts, double maxWatts, int smClockMhz) {
        public Gpu {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("field 'engine.gpu.name' must be a non-blank string");
            }
            ProfileCheck.number("engine.gpu.memoryGiB", memoryGiB, 0, true, 10_000);
            ProfileCheck.number("engine.gpu.idleWatts", idleWatts, 0, false, 5000);
            ProfileCheck.number("engine.gpu.maxWatts", maxWatts, idleWatts, false, 5000);
            ProfileCheck.integer("engine.gpu.smClockMhz", smClockMhz, 1, 10_000);
        }
    }

    /**
     * Prefill law {@code t0 + k·n^α} seconds for {@code n} prompt tokens.
     *
     * @param t0Seconds fixed cost per request [s], in [0, 600]
     * @param k         scale [s per token^α], in [0, 10]
     * @param alpha     exponent α, in (0, 3]
     */
    public record Prefill(double t0Seconds, double k, double alpha) {
        public Prefill {
            ProfileCheck.number("prefill.t0", t0Seconds, 0, false, 600);
            ProfileCheck.number("prefill.k", k, 0, false, 10);
            ProfileCheck.number("prefill.alpha", alpha, 0, true, 3);
        }
    }

    /**
     * Decode law: seconds per token {@code tpot · (1 + batchSlowdown · (running − 1))}.
     *
     * @param tpotSeconds   time per output token with one running sequence [s], in [0, 60]
     * @param batchSlowdown relative slowdown per additional running sequence, in [0, 100]
     */
    public record Decode(double tpotSeconds, double batchSlowdown) {
        public Decode {
            ProfileCheck.number("decode.tpot", tpotSeconds, 0, false, 60);
            ProfileCheck.number("decode.batchSlowdown", batchSlowdown, 0, false, 100);
        }
    }

    /**
     * Lognormal multiplicative jitter {@code exp(σ·Z)}, median 1.
     *
     * @param sigma σ of the underlying normal, in [0, 2]; 0 = no jitter
     */
    public record Jitter(double sigma) {
        /** No jitter. */
        public static final Jitter NONE = new Jitter(0);

        public Jitter {
            ProfileCheck.number("jitter.sigma", sigma, 0, false, 2);
        }
    }

    /**
     * Automatic prefix caching over chained block hashes, LRU-evicted.
     *
     * @param enabled        whether the cache is used
     * @param blockTokens    tokens per block, in [1, 4096] (vLLM's default block size is 16)
     * @param capacityTokens tokens the cache holds, in [0, 10^9]; at least one block when enabled
     */
    public record PrefixCache(boolean enabled, int blockTokens, long capacityTokens) {
        /** Cache off. */
        public static final PrefixCache OFF = new PrefixCache(false, 16, 0);

        public PrefixCache {
            ProfileCheck.integer("prefixCache.blockTokens", blockTokens, 1, 4096);
            ProfileCheck.integer("prefixCache.capacityTokens", capacityTokens, enabled ? blockTokens : 0,
                    1_000_000_000);
        }

        /** @return how many whole blocks fit, >= 0 */
        public long capacityBlocks() {
            return capacityTokens / blockTokens;
        }
    }

    /**
     * Reasoning output: the first {@code tokens} output tokens of each response are reasoning
     * ({@code reasoning_content} in OpenAI chat, {@code thinking_delta} in Anthropic, {@code thinking} in Ollama
     * chat); they count toward the response's output tokens and its {@code max_tokens}.
     *
     * @param tokens reasoning tokens per response, in [0, 1000000]
     */
    public record Reasoning(int tokens) {
        /** No reasoning. */
        public static final Reasoning NONE = new Reasoning(0);

        public Reasoning {
            ProfileCheck.integer("reasoning.tokens", tokens, 0, 1_000_000);
        }
    }

    /**
     * Faults injected with seeded randomness. Rates are probabilities per request, except {@link Stall#rate()}
     * which is per gap between two token events. A request is rate-limited with probability
     * {@code rateLimited.rate}, else fails with a 5xx with probability {@code serverError.rate} (so those two
     * rates add up to at most 1).
     *
     * @param rateLimited HTTP 429 answers
     * @param serverError HTTP 5xx answers
     * @param reset       connection closed mid-stream
     * @param stall       extra pauses between token events
     * @param slowHeaders delayed response headers
     * @throws IllegalArgumentException when the two error rates add up to more than 1
     */
    public record Faults(RateLimited rateLimited, ServerError serverError, Reset reset, Stall stall,
                         SlowHeaders slowHeaders) {
        /** No faults. */
        public static final Faults NONE = new Faults(null, null, null, null, null);

        public Faults {
            rateLimited = rateLimited == null ? new RateLimited(0, 1) : rateLimited;
            serverError = serverError == null ? new ServerError(0, 503) : serverError;
            reset = reset == null ? new Reset(0, 1) : reset;
            stall = stall == null ? new Stall(0, 1) : stall;
            slowHeaders = slowHeaders == null ? new SlowHeaders(0, 1) : slowHeaders;
            if (rateLimited.rate() + serverError.rate() > 1.0) {
                throw new IllegalArgumentException("fields 'faults.rateLimited.rate' + 'faults.serverError.rate' "
                        + "must add up to at most 1, were " + rateLimited.rate() + " + " + serverError.rate());
            }
        }

        /** @return whether any fault can happen */
        public boolean any() {
            return rateLimited.rate() > 0 || serverError.rate() > 0 || reset.rate() > 0 || stall.rate() > 0
                    || slowHeaders.rate() > 0;
        }
    }

    /**
     * HTTP 429 with {@code Retry-After} (seconds) and {@code retry-after-ms} headers.
     *
     * @param rate              probability per request, in [0, 1]
     * @param retryAfterSeconds value of {@code Retry-After} [s], in [0, 3600]
     */
    public record RateLimited(double rate, int retryAfterSeconds) {
        public RateLimited {
            ProfileCheck.number("faults.rateLimited.rate", rate, 0, false, 1);
            ProfileCheck.integer("faults.rateLimited.retryAfterSeconds", retryAfterSeconds, 0, 3600);
        }
    }

    /**
     * An HTTP 5xx error answer instead of a response.
     *
     * @param rate   probability per request, in [0, 1]
     * @param status HTTP status, in [500, 599]
     */
    public record ServerError(double rate, int status) {
        public ServerError {
            ProfileCheck.number("faults.serverError.rate", rate, 0, false, 1);
            ProfileCheck.integer("faults.serverError.status", status, 500, 599);
        }
    }

    /**
     * The connection is closed abruptly after {@code afterTokens} token events (no end marker, no terminating
     * chunk). When the response has fewer tokens, the close comes where the end marker would have been.
     *
     * @param rate        probability per request, in [0, 1]
     * @param afterTokens token events written before the close, in [0, 1000000]
     */
    public record Reset(double rate, int afterTokens) {
        public Reset {
            ProfileCheck.number("faults.reset.rate", rate, 0, false, 1);
            ProfileCheck.integer("faults.reset.afterTokens", afterTokens, 0, 1_000_000);
        }
    }

    /**
     * An extra pause inserted into a gap between two consecutive token events.
     *
     * @param rate    probability per gap, in [0, 1]
     * @param seconds pause length [s], in [0, 600]
     */
    public record Stall(double rate, double seconds) {
        public Stall {
            ProfileCheck.number("faults.stall.rate", rate, 0, false, 1);
            ProfileCheck.number("faults.stall.seconds", seconds, 0, false, 600);
        }
    }

    /**
     * Response headers held back before anything else happens; the whole response shifts by the delay.
     *
     * @param rate    probability per request, in [0, 1]
     * @param seconds delay [s], in [0, 600]
     */
    public record SlowHeaders(double rate, double seconds) {
        public SlowHeaders {
            ProfileCheck.number("faults.slowHeaders.rate", rate, 0, false, 1);
            ProfileCheck.number("faults.slowHeaders.seconds", seconds, 0, false, 600);
        }
    }

    // ---------------------------------------------------------------- latency model

    /**
     * Median prefill time (jitter excluded) for a number of uncached prompt tokens.
     *
     * @param promptTokens prompt tokens that must be computed, >= 0
     * @return {@code t0 + k·n^α} seconds as a duration
     * @throws IllegalArgumentException when {@code promptTokens < 0}
     */
    public Duration prefillTime(int promptTokens) {
        return Duration.ofNanos(prefillNanos(promptTokens));
    }

    /**
     * Median time between two token events (jitter and stalls excluded).
     *
     * @param runningSeqs sequences running at that moment, >= 1
     * @return {@code tpot · (1 + batchSlowdown · (running − 1))} seconds as a duration
     * @throws IllegalArgumentException when {@code runningSeqs < 1}
     */
    public Duration tokenGap(int runningSeqs) {
        return Duration.ofNanos(gapNanos(runningSeqs));
    }

    /** @see #prefillTime(int) */
    long prefillNanos(int promptTokens) {
        if (promptTokens < 0) {
            throw new IllegalArgumentException("promptTokens must be >= 0, was " + promptTokens);
        }
        double s = prefill.t0Seconds() + prefill.k() * Math.pow(promptTokens, prefill.alpha());
        long chunks = (promptTokens + (long) engine.maxBatchedTokens() - 1) / engine.maxBatchedTokens();
        s += engine.chunkOverheadSeconds() * Math.max(0, chunks - 1);
        return Math.round(s * 1e9);
    }

    /** @see #tokenGap(int) */
    long gapNanos(int runningSeqs) {
        if (runningSeqs < 1) {
            throw new IllegalArgumentException("runningSeqs must be >= 1, was " + runningSeqs);
        }
        double s = decode.tpotSeconds() * (1 + decode.batchSlowdown() * (runningSeqs - 1));
        return Math.round(s * 1e9);
    }

    // ---------------------------------------------------------------- copies

    /** @param newFaults faults (null = none) @return a copy with these faults */
    public SimProfile withFaults(Faults newFaults) {
        return new SimProfile(name, model, source, prefill, decode, maxRunningSeqs, jitter, prefixCache, reasoning,
                newFaults, engine);
    }

    /** @param seqs most running sequences, in [1, 1000000] @return a copy with that limit */
    public SimProfile withMaxRunningSeqs(int seqs) {
        return new SimProfile(name, model, source, prefill, decode, seqs, jitter, prefixCache, reasoning, faults, engine);
    }

    /** @param newEngine engine model (null = none) @return a copy with it */
    public SimProfile withEngine(Engine newEngine) {
        return new SimProfile(name, model, source, prefill, decode, maxRunningSeqs, jitter, prefixCache, reasoning,
                faults, newEngine);
    }

    /** @param newJitter jitter (null = none) @return a copy with that jitter */
    public SimProfile withJitter(Jitter newJitter) {
        return new SimProfile(name, model, source, prefill, decode, maxRunningSeqs, newJitter, prefixCache,
                reasoning, faults, engine);
    }

    /** @param cache prefix cache settings (null = off) @return a copy with them */
    public SimProfile withPrefixCache(PrefixCache cache) {
        return new SimProfile(name, model, source, prefill, decode, maxRunningSeqs, jitter, cache, reasoning,
                faults, engine);
    }

    /** @param newReasoning reasoning settings (null = none) @return a copy with them */
    public SimProfile withReasoning(Reasoning newReasoning) {
        return new SimProfile(name, model, source, prefill, decode, maxRunningSeqs, jitter, prefixCache,
                newReasoning, faults, engine);
    }

    // ---------------------------------------------------------------- loading

    /**
     * Reads a profile file. YAML unless the name ends in {@code .json}; the profile name defaults to the file
     * name without extension.
     *
     * @param file a profile file
     * @return the profile
     * @throws IllegalArgumentException when the file is malformed, has an unknown field or a value out of range;
     *                                  the message names the file, the field and the expected form
     * @throws UncheckedIOException     when the file cannot be read
     */
    public static SimProfile load(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read profile " + file + ": " + e.getMessage(), e);
        }
        String fileName = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        return ProfileReader.read(file.toString(), baseName(fileName), bytes,
                fileName.toLowerCase(java.util.Locale.ROOT).endsWith(".json"));
    }

    /**
     * Parses profile text (YAML, which includes JSON).
     *
     * @param origin      what to call the text in messages, e.g. a file name
     * @param defaultName profile name when the text has none
     * @param text        YAML or JSON text
     * @return the profile
     * @throws IllegalArgumentException as {@link #load(Path)}
     */
    public static SimProfile parse(String origin, String defaultName, String text) {
        return ProfileReader.read(origin, defaultName, text.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                false);
    }

    /**
     * Loads a profile that ships with LatencyLab.
     *
     * @param name a name from {@link #builtinNames()}, e.g. {@code llama-8b-class}
     * @return the profile
     * @throws IllegalArgumentException when there is no such built-in; the message lists the known names
     */
    public static SimProfile builtin(String name) {
        String resource = BUILTIN_DIR + name + ".yaml";
        try (InputStream in = name.contains("/") ? null : SimProfile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no built-in simulator profile '" + name + "', known: "
                        + String.join(", ", builtinNames()));
            }
            return ProfileReader.read("built-in " + resource, name, in.readAllBytes(), false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read built-in profile " + resource, e);
        }
    }

    /**
     * A profile named on a command line or in a scenario: a file when the text names one (it contains a path
     * separator or ends in {@code .yaml}, {@code .yml} or {@code .json}, or such a file exists), else a built-in.
     *
     * @param nameOrPath built-in profile name (e.g. {@code llama-8b-class}) or profile file
     * @return the profile
     * @throws IllegalArgumentException when the file does not exist or cannot be read, or it is malformed, or no
     *                                  built-in has that name; the message says which and lists the built-ins
     */
    public static SimProfile resolve(String nameOrPath) {
        if (nameOrPath == null || nameOrPath.isBlank()) {
            throw new IllegalArgumentException("a simulator profile name or file is needed; built-ins: " + builtinNames());
        }
        java.nio.file.Path p = java.nio.file.Path.of(nameOrPath);
        boolean looksLikeFile = nameOrPath.contains("/") || nameOrPath.contains(java.io.File.separator)
                || nameOrPath.endsWith(".yaml") || nameOrPath.endsWith(".yml") || nameOrPath.endsWith(".json");
        if (java.nio.file.Files.isRegularFile(p)) {
            try {
                return load(p);
            } catch (UncheckedIOException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        if (looksLikeFile) {
            throw new IllegalArgumentException("simulator profile file " + nameOrPath + " does not exist; built-ins: "
                    + builtinNames());
        }
        return builtin(nameOrPath);
    }

    /**
     * @return names of the built-in profiles, sorted; empty only when the jar was packaged without them
     * @throws UncheckedIOException when the classpath folder cannot be listed
     */
    public static List<String> builtinNames() {
        // Anchor on a profile that always ships, then list its folder (a directory or a jar entry).
        URL anchor = SimProfile.class.getResource(BUILTIN_DIR + "zero-latency.yaml");
        if (anchor == null) {
            return List.of();
        }
        try {
            URI uri = anchor.toURI();
            if ("jar".equals(uri.getScheme())) {
                FileSystem fs;
                boolean close = false;
                try {
                    fs = FileSystems.newFileSystem(uri, Map.of());
                    close = true;
                } catch (FileSystemAlreadyExistsException e) {
                    fs = FileSystems.getFileSystem(uri);
                }
                try {
                    return names(fs.provider().getPath(uri).getParent());
                } finally {
                    if (close) {
                        fs.close();
                    }
                }
            }
            return names(Path.of(uri).getParent());
        } catch (URISyntaxException | IOException e) {
            throw new UncheckedIOException(new IOException("cannot list built-in profiles at " + anchor, e));
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".yaml"))
                    .map(SimProfile::baseName)
                    .sorted()
                    .toList();
        }
    }

    private static String baseName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot > 0 ? fileName.substring(0, dot) : fileName;
    }
}
