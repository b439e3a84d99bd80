package org.latencylab.engine.load;

import org.latencylab.engine.api.ClientOptions;
import org.latencylab.engine.api.Endpoint;
import org.latencylab.engine.api.GenerationRequest;
import org.latencylab.engine.api.Protocol;
import org.latencylab.engine.api.RequestRecord;
import org.latencylab.engine.api.RequestTicket;
import org.latencylab.engine.step.StepContext;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** A step context for tests: sends through a given function, collects finished records, checks duplicates. */
final class TestContext implements StepContext {
    /** How the test sends one request. */
    @FunctionalInterface
    interface Sender {
        RequestRecord send(GenerationRequest request, RequestTicket ticket) throws InterruptedException;
    }

    /** How the test sends one request when the first-token callback must reach the client. */
    @FunctionalInterface
    interface SignallingSender {
        RequestRecord send(GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
                throws InterruptedException;
    }

    final ConcurrentLinkedQueue<RequestRecord> finished = new ConcurrentLinkedQueue<>();
    final Set<Long> finishedIds = ConcurrentHashMap.newKeySet();
    final AtomicInteger duplicates = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final ConcurrentLinkedQueue<String> notices = new ConcurrentLinkedQueue<>();
    final AtomicLong ids = new AtomicLong();
    volatile boolean cancelled;
    private final SignallingSender sender;
    private final Endpoint endpoint;
    private final Path dir;

    TestContext(Endpoint endpoint, Path dir, Sender sender) {
        this(endpoint, dir, (SignallingSender) (request, ticket, onFirstToken) -> sender.send(request, ticket));
    }

    TestContext(Endpoint endpoint, Path dir, SignallingSender sender) {
        this.endpoint = endpoint;
        this.dir = dir;
        this.sender = sender;
    }

    static Endpoint endpoint(String baseUrl) {
        return Endpoint.of("test", Protocol.OPENAI_CHAT, baseUrl, "m");
    }

    @Override
    public Endpoint endpoint() {
        return endpoint;
    }

    @Override
    public ClientOptions clientOptions() {
        return ClientOptions.DEFAULTS;
    }

    @Override
    public RequestRecord send(GenerationRequest request, RequestTicket ticket) throws InterruptedException {
        return sender.send(request, ticket, null);
    }

    @Override
    public RequestRecord send(GenerationRequest request, RequestTicket ticket, Runnable onFirstToken)
            throws InterruptedException {
        return sender.send(request, ticket, onFirstToken);
    }

    @Override
    public String prompt(int tokens, boolean cold) {
        return (cold ? ids.get() + " " : "") + "word ".repeat(tokens);
    }

    @Override
    public long nextRequestId() {
        return ids.getAndIncrement();
    }

    @Override
    public void finished(RequestRecord record) {
        if (!finishedIds.add(record.id())) {
            duplicates.incrementAndGet();
        }
        finished.add(record);
    }

    @Override
    public void inFlight(int inFlightDelta) {
        int now = inFlight.addAndGet(inFlightDelta);
        maxInFlight.accumulateAndGet(now, Math::max);
    }

    @Override
    public void targetRate(double targetRateRps) {
    }

    @Override
    public boolean cancelled() {
        return cancelled;
    }

    @Override
    public void notice(String message) {
        notices.add(message);
    }

    @Override
    public Path runDirectory() {
        return dir;
    }

    List<RequestRecord> records() {
        return List.copyOf(finished);
    }
}
