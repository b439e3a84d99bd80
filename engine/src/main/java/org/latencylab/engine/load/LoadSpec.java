package org.latencylab.engine.load;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import org.latencylab.engine.api.InvalidFieldException;
import org.latencylab.engine.run.ExperimentSpec;
import org.latencylab.engine.stats.Metric;
import org.latencylab.engine.stats.Slo;

import java.time.Duration;
import java.util.List;

/**
 * A load test step ({@code type: load}): closed loop or open loop, its rate shape, caps, bounds and what to judge.
 * Read by Jackson from a scenario file; durations are text such as {@code "500ms"}, {@code "30s"}, {@code "10m"}
 (the scenario reader's duration syntax). Absent fields take the defaults below. Immutable and thread-safe.
 *
 * <p>Open loop needs exactly one of {@code rate}, {@code ramp}, {@code burst}, {@code phases}; closed loop needs
 * {@code concurrency}. Every step needs {@code duration} or {@code requests} (it stops at whichever comes
 * first). The mode is inferred when {@code mode} is absent: {@code concurrency} means closed, a rate shape open.
 *
 * @param mode               {@code open} or {@code closed}; inferred when null
 * @param concurrency        closed loop: number of workers (requests in flight), &gt;= 1
 * @param thinkTime          closed loop: pause of a worker between the end of one request and its next; default 0
 * @param arrival            open loop: {@code constant}, {@code poisson} (default) or {@code gamma}
 * @param shape              gamma shape k &gt; 0 (coefficient of variation of the gaps = 1/√k); gamma only
 * @param rate               open loop: constant target rate, requests/s
 * @param ramp               open loop: linear ramp, then hold its end rate
 * @param burst              open loop: base rate, a step up to a peak for a while, back to base
 * @param phases             open loop: any sequence of constant pieces and ramps; the last rate holds after them
 * @param duration           how long the step schedules requests; null when bounded by {@code requests} only
 * @param requests           how many requests the step sends at most, &gt;= 1; null when bounded by time only
 * @param warmup             requests whose intended start falls in the first {@code warmup} are sent and written
 *                           but excluded from the step's statistics; their records have phase {@code warmup}
 * @param cooldown           same for the last {@code cooldown} of {@code duration} (needs {@code duration});
 *                           phase {@code cooldown}
 * @param maxInFlight        open loop: in-flight cap (null = none), &gt;= 1
 * @param maxRateRps         cap on the send rate, requests/s (null = none); closed loops always wait at it
 * @param atCap              open loop: {@code queue} (default; waiting counts in latency from the intended start)
 *                           or {@code drop} (not sent, counted as dropped)
 * @param firstTokenDeadline hard deadline for the first token, counted from the intended start (null = none): a
 *                           request without a first token by then is interrupted and ends as an error of kind
 *                           {@code timeout}; counted in {@code deadlineMisses}
 * @param contextTokens      prompt length in tokens, 1..{@link org.latencylab.engine.prompt.PromptBuilder#MAX_TOKENS}; default 128
 * @param coldPrompts        scenario field {@code cold} ({@code coldPrompts} accepted too): true gives a unique prompt
 *                           prefix per request (no prefix cache helps); default false, because building a cold
 *                           prompt costs the client CPU on every request at high rates
 * @param maxOutputTokens    {@code max_tokens} of every request, &gt;= 1; default 16
 * @param stream             streaming requests; default true
 * @param seed               seed of the arrival randomness; default 42 (the same seed repeats the schedule)
 * @param slos               SLOs of the step: judged on its measured requests next to the run-level SLOs (a
 *                           verdict each; a failed one fails the run), and per request thresholds a request must all
 *                           meet (and succeed) to count in goodput; default none (goodput = successful requests)
 * @param tierMetric         per-request metric id ({@link Metric}) whose P95 decides the tier each second and
 *                           overall; default {@code ttft_from_intended}
 * @param autoStop           optional early stop on error rate or saturation (see {@link AutoStop})
 * @param drainTimeout       how long in-flight requests may finish after scheduling stopped before they are
 *                           interrupted (and end cancelled); default 10 s
 * @throws IllegalArgumentException when the fields contradict or are out of range; the message names the field
 */
@JsonIgnoreProperties(value = "type", allowGetters = true)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LoadSpec(
        LoadMode mode,
        Integer concurrency,
        Duration thinkTime,
        ArrivalProcess arrival,
        Double shape,
        Double rate,
        Ramp ramp,
        Burst burst,
        List<Phase> phases,
        Duration duration,
        Long requests,
        Duration warmup,
        Duration cooldown,
        Integer maxInFlight,
        Double maxRateRps,
        CapPolicy atCap,
        Duration firstTokenDeadline,
        Integer contextTokens,
        @JsonProperty("cold") @JsonAlias("coldPrompts") Boolean coldPrompts,
        Integer maxOutputTokens,
        Boolean stream,
        Long seed,
        List<Slo> slos,
        String tierMetric,
        AutoStop autoStop,
        Duration drainTimeout) implements ExperimentSpec {

    /** Scenario type name of this spec. */
    public static final String TYPE = "load";

    public LoadSpec {
        boolean hasShape = rate != null || ramp != null || burst != null || phases != null;
        if (mode == null) {
            if (concurrency != null && !hasShape) {
                mode = LoadMode.CLOSED;
            } else if (hasShape && concurrency == null) {
                mode = LoadMode.OPEN;
            } else if (hasShape) {
                throw new IllegalArgumentException("load: give either concurrency (closed loop) or a rate shape "
                        + "(rate, ramp, burst, phases: open loop), not both, or set mode");
            } else {
                throw new IllegalArgumentException("load: give concurrency (closed loop) or one of rate, ramp, "
                        + "burst, phases (open loop)");
            }
        }
        if (mode == LoadMode.CLOSED) {
            if (concurrency == null || concurrency < 1) {
                throw new InvalidFieldException("concurrency", "load: closed loop needs concurrency >= 1, was "
                        + concurrency);
            }
            if (hasShape || arrival != null || shape != null) {
                throw new IllegalArgumentException("load: rate, ramp, burst, phases, arrival and shape are open-loop "
                        + "fields; remove them or set mode: open");
            }
            if (maxInFlight != null) {
                throw new IllegalArgumentException("load: maxInFlight is an open-loop cap; a closed loop has "
                        + "exactly concurrency requests in flight");
            }
            if (atCap == CapPolicy.DROP) {
                throw new IllegalArgumentException("load: atCap: drop is for open loops; a closed-loop worker "
                        + "waits at the rate cap");
            }
        } else {
            int shapes = (rate != null ? 1 : 0) + (ramp != null ? 1 : 0) + (burst != null ? 1 : 0)
                    + (phases != null ? 1 : 0);
            if (shapes != 1) {
                throw new IllegalArgumentException("load: open loop needs exactly one of rate, ramp, burst, phases; "
                        + "got " + shapes);
            }
            if (concurrency != null || thinkTime != null) {
                throw new IllegalArgumentException("load: concurrency and thinkTime are closed-loop fields; an "
                        + "open loop limits in-flight requests with maxInFlight");
            }
            if (rate != null && !(rate > 0 && !rate.isInfinite())) {
                throw new InvalidFieldException("rate", "load: rate must be > 0 req/s, was " + rate);
            }
            if (phases != null && phases.isEmpty()) {
                throw new InvalidFieldException("phases", "load: phases must not be empty");
            }
            arrival = arrival == null ? ArrivalProcess.POISSON : arrival;
            if (arrival == ArrivalProcess.GAMMA) {
                if (shape == null || !(shape > 0) || shape.isInfinite()) {
                    throw new InvalidFieldException("shape", "load: arrival gamma needs shape > 0 (CV = 1/sqrt(shape)),"
                            + " was " + shape);
                }
            } else if (shape != null) {
                throw new IllegalArgumentException("load: shape is only used with arrival: gamma");
            }
            if (maxInFlight != null && maxInFlight < 1) {
                throw new InvalidFieldException("maxInFlight", "load: maxInFlight must be >= 1, was " + maxInFlight);
            }
        }
        thinkTime = mode == LoadMode.CLOSED && thinkTime == null ? Duration.ZERO : thinkTime;
        if (duration == null && requests == null) {
            throw new IllegalArgumentException("load: bound the step with duration (e.g. \"30s\") or requests");
        }
        if (duration != null && duration.isZero()) {
            throw new InvalidFieldException("duration", "load: duration must be > 0");
        }
        if (requests != null && requests < 1) {
            throw new InvalidFieldException("requests", "load: requests must be >= 1, was " + requests);
        }
        warmup = warmup == null ? Duration.ZERO : warmup;
        cooldown = cooldown == null ? Duration.ZERO : cooldown;
        if (!cooldown.isZero() && duration == null) {
            throw new IllegalArgumentException("load: cooldown needs duration (it is the last part of it)");
        }
        if (duration != null && warmup.plus(cooldown).compareTo(duration) >= 0) {
            throw new IllegalArgumentException("load: warmup + cooldown (" + warmup.plus(cooldown).toMillis() + " ms"
                    + ") must be shorter than duration (" + duration.toMillis() + " ms" + ")");
        }
        if (maxRateRps != null && !(maxRateRps > 0 && !maxRateRps.isInfinite())) {
            throw new InvalidFieldException("maxRateRps", "load: maxRateRps must be > 0 req/s, was " + maxRateRps);
        }
        atCap = atCap == null ? CapPolicy.QUEUE : atCap;
        if (firstTokenDeadline != null && firstTokenDeadline.isZero()) {
            throw new InvalidFieldException("firstTokenDeadline", "load: firstTokenDeadline must be > 0 (leave it out"
                    + " for none)");
        }
        contextTokens = contextTokens == null ? 128 : contextTokens;
        if (contextTokens < 1) {
            throw new InvalidFieldException("contextTokens", "load: contextTokens must be >= 1, was " + contextTokens);
        }
        if (contextTokens > org.latencylab.engine.prompt.PromptBuilder.MAX_TOKENS) {
            throw new InvalidFieldException("contextTokens", "load: contextTokens must be at most "
                    + org.latencylab.engine.prompt.PromptBuilder.MAX_TOKENS + " tokens (the longest prompt LatencyLab builds), was " + contextTokens);
        }
        coldPrompts = coldPrompts != null && coldPrompts;
        maxOutputTokens = maxOutputTokens == null ? 16 : maxOutputTokens;
        if (maxOutputTokens < 1) {
            throw new InvalidFieldException("maxOutputTokens", "load: maxOutputTokens must be >= 1, was "
                    + maxOutputTokens);
        }
        stream = stream == null || stream;
        seed = seed == null ? 42L : seed;
        slos = slos == null ? List.of() : List.copyOf(slos);
        tierMetric = tierMetric == null ? Metric.TTFT_FROM_INTENDED.id() : perRequestMetric("tierMetric", tierMetric).id();
        drainTimeout = drainTimeout == null ? Duration.ofSeconds(10) : drainTimeout;
    }

    /** @return the step's {@code slos} (goodput thresholds) */
    @Override
    public List<Slo> stepSlos() {
        return slos;
    }

    /** @return the step's {@code slos}: judged on the step's measured requests as well as counted in goodput */
    @Override
    public List<Slo> judgedSlos() {
        return slos;
    }

    /** @return {@value #TYPE} */
    @Override
    @JsonProperty("type")
    public String type() {
        return TYPE;
    }

    /** @return {@code requests} when set, else -1 (bounded by time) */
    @Override
    public long plannedRequests() {
        return requests == null ? -1 : requests;
    }

    @Override
    public boolean streaming() {
        return stream == null || stream;
    }

    /**
     * The target rate over time of an open loop.
     *
     * @return the profile
     * @throws IllegalStateException for a closed loop
     */
    public RateProfile rateProfile() {
        if (mode != LoadMode.OPEN) {
            throw new IllegalStateException("a closed loop has no rate profile");
        }
        if (rate != null) {
            return RateProfile.constant(rate);
        }
        RateProfile.Builder b = RateProfile.builder();
        if (ramp != null) {
            b.ramp(ramp.over().toNanos(), ramp.from(), ramp.to());
        } else if (burst != null) {
            if (!burst.at().isZero()) {
                b.hold(burst.at().toNanos(), burst.base());
            }
            b.hold(burst.length().toNanos(), burst.peak()).hold(1_000_000_000L, burst.base());
        } else {
            for (Phase p : phases) {
                if (p.rate() != null) {
                    b.hold(p.length().toNanos(), p.rate());
                } else {
                    b.ramp(p.length().toNanos(), p.from(), p.to());
                }
            }
        }
        return b.build();
    }

    /** @return a builder of a spec, for code (scenario files are read by Jackson) */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder holding this spec's fields */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.mode = mode; b.concurrency = concurrency; b.thinkTime = thinkTime; b.arrival = arrival; b.shape = shape;
        b.rate = rate; b.ramp = ramp; b.burst = burst; b.phases = phases; b.duration = duration;
        b.requests = requests; b.warmup = warmup; b.cooldown = cooldown; b.maxInFlight = maxInFlight;
        b.maxRateRps = maxRateRps; b.atCap = atCap; b.firstTokenDeadline = firstTokenDeadline;
        b.contextTokens = contextTokens; b.coldPrompts = coldPrompts; b.maxOutputTokens = maxOutputTokens;
        b.stream = stream; b.seed = seed; b.slos = slos; b.tierMetric = tierMetric; b.autoStop = autoStop;
        b.drainTimeout = drainTimeout;
        return b;
    }

    /**
     * Linear ramp of the target rate.
     *
     * @param from start rate, requests/s, &gt;= 0
     * @param to   end rate, requests/s, &gt;= 0
     * @param over ramp length, &gt; 0
     * @throws IllegalArgumentException on a missing or out-of-range field
     */
    public record Ramp(double from, double to,  Duration over) {
        public Ramp {
            if (!(from >= 0) || !(to >= 0) || from + to <= 0) {
                throw new InvalidFieldException(!(from >= 0) || to >= 0 && from + to <= 0 ? "from" : "to",
                        "ramp: from and to must be >= 0 req/s, not both 0; was " + from + " -> " + to);
            }
            if (over == null || over.isZero()) {
                throw new InvalidFieldException("over", "ramp: over must be a duration > 0, e.g. \"60s\"");
            }
        }
    }

    /**
     * A step burst: {@code base} until {@code at}, {@code peak} for {@code for}, then {@code base} again.
     *
     * @param base   rate before and after, requests/s, &gt;= 0
     * @param peak   rate during the burst, requests/s, &gt;= 0
     * @param at     offset of the burst's start from the step's start, &gt;= 0
     * @param length burst length ({@code for} in YAML), &gt; 0
     * @throws IllegalArgumentException on a missing or out-of-range field
     */
    public record Burst(double base, double peak,  Duration at,
                        @JsonProperty("for")  Duration length) {
        public Burst {
            if (!(base >= 0) || !(peak >= 0) || base + peak <= 0) {
                throw new InvalidFieldException(!(base >= 0) || peak >= 0 && base + peak <= 0 ? "base" : "peak",
                        "burst: base and peak must be >= 0 req/s, not both 0; was " + base + " / " + peak);
            }
            if (at == null) {
                throw new InvalidFieldException("at", "burst: at must be set, e.g. \"20s\"");
            }
            if (length == null || length.isZero()) {
                throw new InvalidFieldException("for", "burst: for must be a duration > 0, e.g. \"30s\"");
            }
        }
    }

    /**
     * One piece of a {@code phases} list: either {@code rate} (constant) or {@code from}/{@code to} (ramp).
     *
     * @param rate   constant rate, requests/s, or null for a ramp
     * @param from   ramp start rate, requests/s, or null
     * @param to     ramp end rate, requests/s, or null
     * @param length how long ({@code for} in YAML), &gt; 0
     * @throws IllegalArgumentException when neither or both forms are given, or a value is out of range
     */
    public record Phase(Double rate, Double from, Double to,
                        @JsonProperty("for")  Duration length) {
        public Phase {
            boolean constant = rate != null;
            boolean ramped = from != null || to != null;
            if (constant == ramped || ramped && (from == null || to == null)) {
                throw new IllegalArgumentException("phase: give either rate or both from and to");
            }
            if (constant && !(rate >= 0) || ramped && (!(from >= 0) || !(to >= 0))) {
                throw new InvalidFieldException(constant ? "rate" : !(from >= 0) ? "from" : "to",
                        "phase: rates must be >= 0 req/s, was " + (constant ? rate : from + " -> " + to));
            }
            if (length == null || length.isZero()) {
                throw new InvalidFieldException("for", "phase: for must be a duration > 0, e.g. \"30s\"");
            }
        }
    }

    private static Metric perRequestMetric(String field, String id) {
        return Metric.requirePerRequest("load: " + field, id);
    }

    /** @return {@link #tierMetric()} as an enum */
    public Metric tierMetricKind() {
        return Metric.fromId(tierMetric);
    }

    /**
     * Early stop. Rule, checked once a second over the last {@code window} (whole seconds, ending now):
     * <ul>
     *   <li><b>error rate</b>: when at least {@code minSamples} requests ended in the window and the fraction
     *       that failed exceeds {@code maxErrorRate}, the step stops;</li>
     *   <li><b>saturation</b> (when {@code saturation} is true): comparing the window with the window just
     *       before it, each with at least {@code minSamples} ended requests, when the P95 of the tier metric grew
     *       by more than the factor {@code latencyRise} while throughput (ended requests/s) grew by less than the
     *       fraction {@code minThroughputGain}, the step stops (latency rising while throughput stopped rising:
     *       the server is past its knee).</li>
     * </ul>
     *
     * @param maxErrorRate      fraction in (0, 1], or null for no error-rate stop
     * @param window            window length, whole seconds &gt;= 1; default 5 s
     * @param saturation        whether to stop on saturation; default false
     * @param latencyRise       P95 growth factor &gt; 1 that counts as rising; default 1.5
     * @param minThroughputGain throughput growth fraction &gt;= 0 that still counts as rising; default 0.05
     * @param minSamples        requests needed in a window before it is judged, &gt;= 1; default 20
     * @throws IllegalArgumentException on out-of-range values
     */
    public record AutoStop(Double maxErrorRate,  Duration window,
                           Boolean saturation, Double latencyRise, Double minThroughputGain, Integer minSamples) {
        public AutoStop {
            if (maxErrorRate != null && !(maxErrorRate > 0 && maxErrorRate <= 1)) {
                throw new InvalidFieldException("maxErrorRate", "autoStop: maxErrorRate must be in (0, 1], was "
                        + maxErrorRate);
            }
            window = window == null ? Duration.ofSeconds(5) : window;
            if (window.toSeconds() < 1) {
                throw new InvalidFieldException("window", "autoStop: window must be >= 1s, was " + window.toMillis()
                        + " ms");
            }
            saturation = saturation != null && saturation;
            latencyRise = latencyRise == null ? 1.5 : latencyRise;
            if (!(latencyRise > 1)) {
                throw new InvalidFieldException("latencyRise", "autoStop: latencyRise must be > 1, was " + latencyRise);
            }
            minThroughputGain = minThroughputGain == null ? 0.05 : minThroughputGain;
            if (!(minThroughputGain >= 0)) {
                throw new InvalidFieldException("minThroughputGain", "autoStop: minThroughputGain must be >= 0, was "
                        + minThroughputGain);
            }
            minSamples = minSamples == null ? 20 : minSamples;
            if (minSamples < 1) {
                throw new InvalidFieldException("minSamples", "autoStop: minSamples must be >= 1, was " + minSamples);
            }
        }
    }

    /** Fluent builder mirroring the record's fields; {@link #build()} applies the same checks. Not thread-safe. */
    public static final class Builder {
        private LoadMode mode;
        private Integer concurrency;
        private Duration thinkTime;
        private ArrivalProcess arrival;
        private Double shape;
        private Double rate;
        private Ramp ramp;
        private Burst burst;
        private List<Phase> phases;
        private Duration duration;
        private Long requests;
        private Duration warmup;
        private Duration cooldown;
        private Integer maxInFlight;
        private Double maxRateRps;
        private CapPolicy atCap;
        private Duration firstTokenDeadline;
        private Integer contextTokens;
        private Boolean coldPrompts;
        private Integer maxOutputTokens;
        private Boolean stream;
        private Long seed;
        private List<Slo> slos;
        private String tierMetric;
        private AutoStop autoStop;
        private Duration drainTimeout;

        private Builder() {
        }

        /** @param v mode @return this */ public Builder mode(LoadMode v) { mode = v; return this; }
        /** @param v workers @return this */ public Builder concurrency(Integer v) { concurrency = v; return this; }
        /** @param v think time @return this */ public Builder thinkTime(Duration v) { thinkTime = v; return this; }
        /** @param v arrival process @return this */ public Builder arrival(ArrivalProcess v) { arrival = v; return this; }
        /** @param v gamma shape @return this */ public Builder shape(Double v) { shape = v; return this; }
        /** @param v constant rate, req/s @return this */ public Builder rate(Double v) { rate = v; return this; }
        /** @param v ramp @return this */ public Builder ramp(Ramp v) { ramp = v; return this; }
        /** @param v burst @return this */ public Builder burst(Burst v) { burst = v; return this; }
        /** @param v phases @return this */ public Builder phases(List<Phase> v) { phases = v; return this; }
        /** @param v duration @return this */ public Builder duration(Duration v) { duration = v; return this; }
        /** @param v request bound @return this */ public Builder requests(Long v) { requests = v; return this; }
        /** @param v warmup @return this */ public Builder warmup(Duration v) { warmup = v; return this; }
        /** @param v cooldown @return this */ public Builder cooldown(Duration v) { cooldown = v; return this; }
        /** @param v in-flight cap @return this */ public Builder maxInFlight(Integer v) { maxInFlight = v; return this; }
        /** @param v rate cap, req/s @return this */ public Builder maxRateRps(Double v) { maxRateRps = v; return this; }
        /** @param v cap policy @return this */ public Builder atCap(CapPolicy v) { atCap = v; return this; }
        /** @param v deadline @return this */ public Builder firstTokenDeadline(Duration v) { firstTokenDeadline = v; return this; }
        /** @param v prompt tokens @return this */ public Builder contextTokens(Integer v) { contextTokens = v; return this; }
        /** @param v cold prompts @return this */ public Builder coldPrompts(Boolean v) { coldPrompts = v; return this; }
        /** @param v max tokens @return this */ public Builder maxOutputTokens(Integer v) { maxOutputTokens = v; return this; }
        /** @param v streaming @return this */ public Builder stream(Boolean v) { stream = v; return this; }
        /** @param v seed @return this */ public Builder seed(Long v) { seed = v; return this; }
        /** @param v goodput SLOs @return this */ public Builder slos(List<Slo> v) { slos = v; return this; }
        /** @param v tier metric @return this */ public Builder tierMetric(String v) { tierMetric = v; return this; }
        /** @param v auto-stop @return this */ public Builder autoStop(AutoStop v) { autoStop = v; return this; }
        /** @param v drain timeout @return this */ public Builder drainTimeout(Duration v) { drainTimeout = v; return this; }

        /** @return the spec @throws IllegalArgumentException as the record's constructor */
        public LoadSpec build() {
            return new LoadSpec(mode, concurrency, thinkTime, arrival, shape, rate, ramp, burst, phases, duration,
                    requests, warmup, cooldown, maxInFlight, maxRateRps, atCap, firstTokenDeadline, contextTokens,
                    coldPrompts, maxOutputTokens, stream, seed, slos, tierMetric, autoStop, drainTimeout);
        }
    }
}
