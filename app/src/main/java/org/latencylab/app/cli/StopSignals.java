package org.latencylab.app.cli;

import sun.misc.Signal;
import sun.misc.SignalHandler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Turns Ctrl-C (SIGINT) and SIGTERM into a request to stop a run instead of an immediate JVM shutdown, so the
 * command can still print what finished and draw its charts, then exit with {@code 128 + signal number} (130 for
 * SIGINT, 143 for SIGTERM), as a shell expects. A second signal ends the process at once with that status.
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

    private final AtomicReference<Received> received = new AtomicReference<>();
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
            if (s.received.compareAndSet(null, new Received(sig.getName(), sig.getNumber()))) {
                onFirst.run();
            } else {
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
