package org.latencylab.app.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into a request to stop a run instead of an immediate JVM shutdown, so the
 * command can still print what finished and draw its charts, then exit with {@code 128 + signal number} (130 for
 * SIGINT, 143 for SIGTERM), as a shell expects. A second signal ends the process at once with that status, unless it
 * is the same signal within {@link #SAME_PRESS_NANOS} of the first: one Ctrl-C can arrive twice, when the terminal
 * sends it to the whole process group and the {@code java -jar} launcher ({@code MeasuringJvm}) passes its own copy
 * on to this process a few milliseconds later; quitting at once then lost the summary of what finished.
 *
 * <p>Uses {@code sun.misc.Signal} (module {@code jdk.unsupported}, in every JDK and in the app image): the JDK has
 * no supported API for handling a signal without starting the shutdown sequence. Where a signal cannot be
 * handled (an OS without it), the JVM's default behaviour stays. Thread-safe.
 */
final class StopSignals {
    /**
     * A signal received.
     *
     * @param name   e.g. {@code INT}
     * @param number e.g. 2
     */
    record Received(String name, int number) {
    }

    /** A repeat of the first signal sooner than this after it is the same key press delivered twice, ns (1 s). */
    static final long SAME_PRESS_NANOS = 1_000_000_000L;

    private final AtomicReference<Received> received = new AtomicReference<>();
    private volatile long firstNanos;
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private StopSignals() {
    }

    /**
     * @param onFirst run once, on the signal's thread, when the first INT or TERM arrives (must not block long)
     * @return the installed handlers; call {@link #restore()} when the run is over
     */
    static StopSignals install(Runnable onFirst) {
        StopSignals s = new StopSignals();
        SignalHandler h = sig -> {
            long now = System.nanoTime();
            if (s.received.compareAndSet(null, new Received(sig.getName(), sig.getNumber()))) {
                s.firstNanos = now;
                onFirst.run();
            } else if (!s.samePress(sig.getName(), now)) {
                Runtime.getRuntime().halt(128 + sig.getNumber());
            }
        };
        for (String name : List.of("INT", "TERM")) {
            try {
                Signal sig = new Signal(name);
                s.previous.add(Signal.handle(sig, h));
                s.signals.add(sig);
            } catch (IllegalArgumentException unsupported) {
                // this OS or JVM cannot hand the signal over: its default (shutdown) applies
            }
        }
        return s;
    }

    /**
     * @param name     a signal's name, e.g. {@code INT}
     * @param nowNanos when it arrived, {@link System#nanoTime()}
     * @return true when it repeats the first signal within {@link #SAME_PRESS_NANOS} (the same press, delivered
     *         twice), so it must not end the process
     */
    boolean samePress(String name, long nowNanos) {
        Received first = received.get();
        return first != null && first.name().equals(name) && nowNanos - firstNanos < SAME_PRESS_NANOS;
    }

    /** @return the first signal received, or null */
    Received received() {
        return received.get();
    }

    /** Puts the previous handlers back. Idempotent. */
    void restore() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
        signals.clear();
        previous.clear();
    }
}
