package org.latencylab.app.ui.experiment;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import org.latencylab.app.Defaults;
import org.latencylab.app.ui.settings.ExperimentDraft;
import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.experiment.ProbeSpec;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.run.StatsSettings;
import org.latencylab.engine.experiment.SweepSpec;
import org.latencylab.engine.run.TargetSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * State of the experiment form, as JavaFX properties (no nodes). Not thread-safe: use it on the UI thread.
 */
public final class ExperimentViewModel {
    /** The experiments the form offers. */
    public enum Kind {
        /** N requests at concurrency C. */
        PROBE,
        /** Fixed prompt lengths, then a power-law fit of TTFT against the length. */
        SWEEP,
        /** A load test: closed or open loop with a rate shape, for a duration. */
        LOAD,
        /** A grid of load steps (concurrency or rate × prompt length) summarised as a heatmap. */
        GRID,
        /** Transports × network profiles × warm/cold connections: first-screen latency per cell. */
        TRANSPORTS,
        /** GPU-server benchmark: server variants launched or attached, loaded, watched, compared on a Pareto front. */
        SERVER_BENCH;

        /** @return the lower-case id stored in the settings, e.g. {@code "load"} */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** @param id a stored id @return its kind; {@link #PROBE} for anything unknown */
        public static Kind fromId(String id) {
            for (Kind k : values()) {
                if (k.id().equals(id)) {
                    return k;
                }
            }
            return PROBE;
        }
    }

    /** Preset sweep lengths offered as check boxes, tokens. */
    public static final List<Integer> PRESET_LENGTHS = List.of(2048, 8192, 32768);
    /** Tokenizers offered (jtokkit encodings). */
    public static final List<String> TOKENIZERS = List.of("cl100k_base", "o200k_base", "p50k_base", "r50k_base");

    private final ObjectProperty<Kind> kind = new SimpleObjectProperty<>(Kind.PROBE);
    private final IntegerProperty requests = new SimpleIntegerProperty(Defaults.PROBE_REQUESTS);
    private final IntegerProperty concurrency = new SimpleIntegerProperty(Defaults.PROBE_CONCURRENCY);
    private final IntegerProperty promptTokens = new SimpleIntegerProperty(Defaults.PROBE_PROMPT_TOKENS);
    private final IntegerProperty maxOutputTokens = new SimpleIntegerProperty(Defaults.PROBE_MAX_OUTPUT_TOKENS);
    private final BooleanProperty stream = new SimpleBooleanProperty(true);
    private final List<BooleanProperty> presetChecked = List.of(new SimpleBooleanProperty(true),
            new SimpleBooleanProperty(true), new SimpleBooleanProperty(true));
    private final StringProperty customLengths = new SimpleStringProperty("");
    private final IntegerProperty requestsPerLength = new SimpleIntegerProperty(
            Defaults.SWEEP_REQUESTS_PER_LENGTH);
    private final BooleanProperty cold = new SimpleBooleanProperty(true);
    private final StringProperty tokenizer = new SimpleStringProperty("cl100k_base");
    private final LoadForm load = new LoadForm();
    private final GridForm grid = new GridForm();
    private final TransportsForm transports = new TransportsForm();
    private final ServerBenchForm serverBench = new ServerBenchForm();

    /** @return the Server benchmark form */
    public ServerBenchForm serverBench() {
        return serverBench;
    }

    /** @return the load-test form */
    public LoadForm load() {
        return load;
    }

    /** @return the grid form */
    public GridForm grid() {
        return grid;
    }

    /** @return the transports form */
    public TransportsForm transports() {
        return transports;
    }

    /** @return probe or sweep */
    public ObjectProperty<Kind> kindProperty() {
        return kind;
    }

    /** @return probe: number of requests (>= 1) */
    public IntegerProperty requestsProperty() {
        return requests;
    }

    /** @return requests in flight at once (>= 1), probe and sweep */
    public IntegerProperty concurrencyProperty() {
        return concurrency;
    }

    /** @return probe: prompt length, tokens */
    public IntegerProperty promptTokensProperty() {
        return promptTokens;
    }

    /** @return probe: tokens to generate per request */
    public IntegerProperty maxOutputTokensProperty() {
        return maxOutputTokens;
    }

    /** @return probe: streaming on */
    public BooleanProperty streamProperty() {
        return stream;
    }

    /** @param i index into {@link #PRESET_LENGTHS} @return whether that preset length is swept */
    public BooleanProperty presetCheckedProperty(int i) {
        return presetChecked.get(i);
    }

    /** @return sweep: extra lengths, tokens, separated by commas or blanks; {@code k} suffix = ×1024 */
    public StringProperty customLengthsProperty() {
        return customLengths;
    }

    /** @return sweep: requests per length (>= 1) */
    public IntegerProperty requestsPerLengthProperty() {
        return requestsPerLength;
    }

    /** @return unique prompt prefix per request (no prefix-cache help) */
    public BooleanProperty coldProperty() {
        return cold;
    }

    /** @return jtokkit encoding for prompts and token counts */
    public StringProperty tokenizerProperty() {
        return tokenizer;
    }

    /**
     * @return the sweep lengths: checked presets plus parsed custom lengths, ascending, without duplicates
     * @throws IllegalArgumentException when a custom length is not a positive integer (the message quotes it)
     */
    public List<Integer> sweepLengths() {
        TreeSet<Integer> out = new TreeSet<>();
        for (int i = 0; i < PRESET_LENGTHS.size(); i++) {
            if (presetChecked.get(i).get()) {
                out.add(PRESET_LENGTHS.get(i));
            }
        }
        String text = customLengths.get() == null ? "" : customLengths.get().strip();
        if (!text.isEmpty()) {
            for (String part : text.split("[,;\\s]+")) {
                out.add(parseLength("custom length", part));
            }
        }
        return List.copyOf(out);
    }

    /**
     * @param field form field named in the error
     * @param part  a token count such as {@code 4096} or {@code 4k} (= 4096)
     * @return the count
     * @throws IllegalArgumentException when it is not a positive whole number
     */
    static int parseLength(String field, String part) {
        return org.latencylab.engine.tokens.TokenCounts.parse(field, part);
    }

    /** @return the experiment step the form describes @throws IllegalArgumentException on an invalid field */
    public ExperimentSpec experiment() {
        if (kind.get() == Kind.LOAD) {
            return load.spec();
        }
        if (kind.get() == Kind.GRID) {
            return grid.spec();
        }
        if (kind.get() == Kind.TRANSPORTS) {
            return transports.spec();
        }
        if (kind.get() == Kind.SERVER_BENCH) {
            return serverBench.spec();
        }
        if (kind.get() == Kind.PROBE) {
            return new ProbeSpec(requests.get(), concurrency.get(), promptTokens.get(), maxOutputTokens.get(),
                    stream.get(), cold.get(), null);
        }
        List<Integer> lengths = sweepLengths();
        if (lengths.isEmpty()) {
            throw new IllegalArgumentException("choose at least one context length for the sweep");
        }
        try {
            return new SweepSpec(lengths, requestsPerLength.get(), concurrency.get(), Defaults.SWEEP_MAX_OUTPUT_TOKENS,
                    cold.get(), null, null, null);
        } catch (org.latencylab.engine.api.InvalidFieldException e) {
            if ("contextTokens".equals(e.field())) { // the engine's words, with the form's name for the field
                throw new IllegalArgumentException(e.getMessage().replaceFirst("^contextTokens ", "context length "), e);
            }
            throw e;
        }
    }

    /**
     * @param name   run name
     * @param target what to measure
     * @param stats  tier table and SLOs
     * @return the run spec (seed from the clock)
     * @throws IllegalArgumentException when a field is invalid; the message names it
     */
    public RunSpec runSpec(String name, TargetSpec target, StatsSettings stats) {
        return new RunSpec(name, target, ClientOptions.DEFAULTS, stats, List.of(experiment()), tokenizer.get(), null,
                System.nanoTime());
    }

    /** @return a short name for the run, e.g. {@code probe-100x4} or {@code sweep-3-lengths} */
    public String suggestedName() {
        if (kind.get() == Kind.LOAD) {
            return load.suggestedName();
        }
        if (kind.get() == Kind.GRID) {
            return grid.suggestedName();
        }
        if (kind.get() == Kind.TRANSPORTS) {
            return transports.suggestedName();
        }
        if (kind.get() == Kind.SERVER_BENCH) {
            return serverBench.suggestedName();
        }
        if (kind.get() == Kind.PROBE) {
            return "probe-" + requests.get() + "x" + concurrency.get();
        }
        int n;
        try {
            n = sweepLengths().size();
        } catch (IllegalArgumentException e) {
            n = 0;
        }
        return "sweep-" + n + "-lengths";
    }

    /** @return the form as stored in the settings */
    public ExperimentDraft toDraft() {
        List<Integer> lengths = new ArrayList<>();
        try {
            lengths.addAll(sweepLengths());
        } catch (IllegalArgumentException ignored) {
            for (int i = 0; i < PRESET_LENGTHS.size(); i++) {
                if (presetChecked.get(i).get()) {
                    lengths.add(PRESET_LENGTHS.get(i));
                }
            }
        }
        return new ExperimentDraft(kind.get().id(), requests.get(), concurrency.get(),
                promptTokens.get(), maxOutputTokens.get(), stream.get(), lengths, requestsPerLength.get(), cold.get(),
                tokenizer.get(), load.toMap(), grid.toMap());
    }

    /** @param d a stored form; fills every property */
    public void fromDraft(ExperimentDraft d) {
        kind.set(Kind.fromId(d.kind()));
        load.fromMap(d.load());
        grid.fromMap(d.grid());
        requests.set(d.requests());
        concurrency.set(d.concurrency());
        promptTokens.set(d.promptTokens());
        maxOutputTokens.set(d.maxOutputTokens());
        stream.set(d.stream());
        List<String> custom = new ArrayList<>();
        for (int i = 0; i < PRESET_LENGTHS.size(); i++) {
            presetChecked.get(i).set(d.sweepLengths().contains(PRESET_LENGTHS.get(i)));
        }
        for (int n : d.sweepLengths()) {
            if (!PRESET_LENGTHS.contains(n)) {
                custom.add(Integer.toString(n));
            }
        }
        customLengths.set(String.join(", ", custom));
        requestsPerLength.set(d.requestsPerLength());
        cold.set(d.cold());
        tokenizer.set(d.tokenizer());
    }
}
