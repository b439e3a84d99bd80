package org.latencylab.engine.server;

import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.client.LlmClient;
import org.latencylab.engine.step.StepContext;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;

/**
 * The run's {@link StepContext} pointed at one server variant: requests go to the variant's endpoint through a client
 * of the variant's own (same client options as the run), everything else — prompts, request ids, the request log,
 * notices, cancellation (plus an abort when the variant's server died) — is the run's. Also counts the output tokens of successful requests per label, for the
 * variant's throughput. Thread-safe.
 */
final class VariantContext implements StepContext {
    private final StepContext run;
    private final Endpoint endpoint;
    private final LlmClient client;
    private final Map<String, LongAdder> outputTokens = new ConcurrentHashMap<>();
    private final BooleanSupplier abort;

    /**
     * @param run      the run's context
     * @param endpoint the variant's endpoint
     * @param client   the client to send with (owned by the caller)
     * @param abort    true once the variant's load must stop (e.g. its server exited)
     */
    VariantContext(StepContext run, Endpoint endpoint, LlmClient client, BooleanSupplier abort) {
        this.abort = abort;
        this.run = run;
        this.endpoint = endpoint;
        this.client = client;
    }

    /** @param label a request label @return output tokens of its successful requests so far */
    long outputTokens(String label) {
        LongAdder a = outputTokens.get(label);
        return a == null ? 0 : a.sum();
    }

    /** Token arrivals of one label in 50 ms buckets, and its first and last send. */
    private static final class Window {
        final LongAccumulator firstSend = new LongAccumulator(Math::min, Long.MAX_VALUE);
        final LongAccumulator lastSend = new LongAccumulator(Math::max, Long.MIN_VALUE);
        final Map<Long, LongAdder> buckets = new ConcurrentHashMap<>();
    }

    private static final long BUCKET_NANOS = 50_000_000L;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    /**
     * Steady-state output throughput of a label: the tokens whose events arrived between the first and the last send
     * of its measured requests, divided by that time (50 ms resolution), counting the tokens of its warmup and
     * cooldown requests ({@code label#warmup}) that arrived in that window too, since they share the server. The
     * drain after the last send, when fewer requests are in flight, is left out.
     *
     * @param label a request label
     * @return tokens/s, or NaN when fewer than two sends or less than 0.5 s lie between them
     */
    double windowTokensPerSecond(String label) {
        Window w = windows.get(label);
        if (w == null) {
            return Double.NaN;
        }
        long first = w.firstSend.get() / BUCKET_NANOS;
        long last = w.lastSend.get() / BUCKET_NANOS;
        if (last - first < 10) {
            return Double.NaN;
        }
        long tokens = 0;
        for (Map.Entry<Long, LongAdder> e : w.buckets.entrySet()) {
            if (e.getKey() >= first && e.getKey() < last) {
                tokens += e.getValue().sum();
            }
        }
        return tokens / ((last - first) * BUCKET_NANOS / 1e9);
    }

    @Override
    public Endpoint endpoint() {
        return endpoint;
    }

    @Override
    public ClientOptions clientOptions() {
        return run.clientOptions();
    }

    @Override
    public RequestRecord send(GenerationRequest request, RequestTicket ticket) throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("run cancelled");
        }
        return client.execute(endpoint, request, ticket);
    }

    @Override
    public RequestRecord send(GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
            throws InterruptedException {
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("run cancelled");
        }
        return client.execute(endpoint, request, ticket, onFirstToken);
    }

    @Override
    public void openConnections(int inFlight, boolean stream) throws InterruptedException {
        if (!run.clientOptions().coldConnections() && inFlight >= 1) {
            int failed = client.openConnections(endpoint, inFlight, stream);
            if (failed > 0) {
                notice(failed + " of the requests that open connections to " + endpoint.baseUrl() + " failed;"
                        + " measured requests open the connections they need");
            }
        }
    }

    @Override
    public void beforeClock() {
        run.beforeClock(); // the run's context collects the heap and marks the step's clock start for its trust check
    }

    @Override
    public void warmConnection(boolean stream, int connections) {
        if (!run.clientOptions().coldConnections()) {
            client.warmConnection(endpoint, stream, connections);
        }
    }

    @Override
    public org.latencylab.engine.stats.TierTable tierTable() {
        return run.tierTable();
    }

    @Override
    public void progress(org.latencylab.engine.step.StepProgress progress) {
        run.progress(progress);
    }

    @Override
    public String prompt(int tokens, boolean cold) {
        return run.prompt(tokens, cold);
    }

    @Override
    public long nextRequestId() {
        return run.nextRequestId();
    }

    @Override
    public void finished(RequestRecord record) {
        if (record.succeeded()) {
            outputTokens.computeIfAbsent(record.label(), l -> new LongAdder()).add(record.outputTokens());
        }
        if (record.sendNanos() != RequestRecord.UNSET) {
            // tokens of the level's warmup and cooldown requests count too (they share the server during the
            // window); the window itself is spanned by the measured requests' sends
            int hash = record.label().indexOf('#');
            String level = hash < 0 ? record.label() : record.label().substring(0, hash);
            Window w = windows.computeIfAbsent(level, l -> new Window());
            if (hash < 0) {
                w.firstSend.accumulate(record.firstSendNanos());
                w.lastSend.accumulate(record.sendNanos());
            }
            if (record.succeeded()) {
                for (int i = 0; i < record.tokens().size(); i++) {
                    w.buckets.computeIfAbsent(record.tokens().arrivalNanos(i) / BUCKET_NANOS, k -> new LongAdder())
                            .add(record.tokens().tokens(i));
                }
            }
        }
        run.finished(record);
    }

    @Override
    public void inFlight(int inFlightDelta) {
        run.inFlight(inFlightDelta);
    }

    @Override
    public void targetRate(double targetRateRps) {
        run.targetRate(targetRateRps);
    }

    @Override
    public boolean cancelled() {
        return run.cancelled() || abort.getAsBoolean();
    }

    @Override
    public void notice(String message) {
        run.notice(message);
    }

    @Override
    public Path runDirectory() {
        return run.runDirectory();
    }
}
