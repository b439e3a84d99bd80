package org.latencylab.app.cli;

import org.latencylab.engine.api.Nanos;
import org.latencylab.app.report.ConsoleReport;
import org.latencylab.app.report.Eta;
import org.latencylab.app.report.RunCharts;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.experiment.RunEngine;
import org.latencylab.engine.experiment.RunHandle;
import org.latencylab.engine.run.RunResult;
import org.latencylab.engine.run.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Runs a {@link RunSpec} headless: progress on stderr, the console table on stdout, charts into the run
 * directory, and an exit status. Ctrl-C (SIGINT) or SIGTERM cancels the run: finished requests stay in
 * {@code requests.jsonl}, the summary of what finished is printed and the charts are written, marked cancelled, before
 * the process ends with status 130 (SIGINT) or 143 (SIGTERM).
 * Not thread-safe (one per command invocation).
 */
final class RunExecution {
    /** How long a JVM shutdown waits for the run to complete its files (in-flight requests are cancelled at once). */
    private static final java.time.Duration CANCEL_WAIT = java.time.Duration.ofSeconds(10);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    private RunExecution() {
    }

    /**
     * @param spec   the run
     * @param outDir run directory, or null for {@code runs/<timestamp>-<name>} under the working directory
     * @param overwrite whether a run already in {@code outDir} is replaced (else the directory is refused)
     * @param charts whether to render PNG charts
     * @param out    standard output
     * @param err    standard error (progress)
     * @return exit status ({@link ExitCodes})
     * @throws InterruptedException when interrupted while waiting
     * @throws IllegalArgumentException when the run directory holds a run or cannot be written (exit status 2)
     */
    static int execute(RunSpec spec, Path outDir, boolean overwrite, boolean charts, PrintWriter out, PrintWriter err)
            throws InterruptedException {
        Path dir = outDir != null ? outDir : freshDefault(spec.name());
        RunEngine engine = StepCatalog.engine();
        ProgressPrinter progress = new ProgressPrinter(err, new Eta.Steps(spec));
        RunHandle handle = engine.start(spec, dir, progress, overwrite);
        // Ctrl-C (SIGINT) and SIGTERM cancel the run rather than end the JVM: the run winds down, this thread prints
        // the summary of what finished and writes the charts (the JavaFX toolkit could not start, or would be
        // disposed by its own hook, once the JVM shuts down), and the command returns 130 or 143. A second signal
        // ends the process at once.
        StopSignals signals = StopSignals.install(() -> {
            err.println();
            err.println("latencylab: cancelling; finished requests are kept in " + org.latencylab.engine.results.RunLayout.requests(dir)
                    + "; the summary of what finished follows (press Ctrl-C again to quit at once)");
            err.flush();
            handle.cancel();
        });
        // any other way the JVM ends (SIGHUP, System.exit elsewhere) still lets the run complete its files
        Thread hook = new Thread(() -> {
            if (!handle.isDone()) {
                handle.cancel();
                try {
                    handle.await(CANCEL_WAIT);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "latencylab-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        RunResult result;
        try {
            result = handle.await();
        } finally {
            signals.restore();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is exiting: the hook completes the run's files
            }
        }
        progress.done();
        List<Path> images = List.of();
        if (charts && result.status() != RunResult.Status.FAILED) {
            try {
                images = RunCharts.renderAll(result);
            } catch (RuntimeException e) {
                err.println("latencylab: charts could not be rendered: " + e.getMessage());
            }
        }
        ConsoleReport.print(result, images, false, out); // its notices went to stderr as they were raised
        out.flush();
        err.flush();
        if (ConsoleReport.noRequestSucceeded(result)) {
            err.println("latencylab: " + ConsoleReport.noRequestSucceededMessage(result));
        }
        if (result.status() == RunResult.Status.CANCELLED) { // stopped here: the signal says how, not the outcome
            return signals.received() == null ? ExitCodes.INTERRUPTED : 128 + signals.received().number();
        }
        return ExitCodes.of(result); // as summarize of this run directory
    }

    /** {@code runs/<timestamp>-<name>}, with {@code -2}, {@code -3}... when runs of that name started in the same second. */
    private static Path freshDefault(String name) {
        String base = STAMP.format(LocalDateTime.now()) + "-" + safe(name);
        Path dir = Path.of("runs", base);
        for (int i = 2; java.nio.file.Files.exists(dir); i++) {
            dir = Path.of("runs", base + "-" + i);
        }
        return dir;
    }

    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]+", "-");
    }

    /**
     * Prints one progress line, rewritten in place when stderr is a terminal, with an ETA once the run's first step
     * has gone on for 3 s (the setup before it is not counted, see {@link Eta}). Called on the engine's snapshot
     * thread only.
     */
    static final class ProgressPrinter implements RunListener {
        private static final long ETA_AFTER_NANOS = 3_000_000_000L;
        private final PrintWriter err;
        private final boolean tty;
        private final Eta.Steps eta;
        private long lastPrintNanos;
        private int width;

        /**
         * @param err where the lines go
         * @param eta the run's time left, step by step
         */
        ProgressPrinter(PrintWriter err, Eta.Steps eta) {
            this(err, eta, System.console() != null);
        }

        /**
         * @param err where the lines go
         * @param eta the run's time left, step by step
         * @param tty true to rewrite one line in place ({@code \r}), false for a line every 2 s (logs)
         */
        ProgressPrinter(PrintWriter err, Eta.Steps eta, boolean tty) {
            this.err = err;
            this.eta = eta;
            this.tty = tty;
        }

        @Override
        public void onSnapshot(IntervalSnapshot s) {
            long now = System.nanoTime();
            double left = eta.secondsLeft(s); // every snapshot, so that it sees each step start
            if (!s.finished() && !tty && now - lastPrintNanos < 2_000_000_000L) {
                return; // in logs, one line every 2 s is plenty
            }
            lastPrintNanos = now;
            String planned = s.planned() > 0 ? "/" + s.planned() : "";
            // an ETA once the run has gone on for a few seconds (before, the rate it rests on is noise)
            String etaText = s.finished() || s.measuringNanos() < ETA_AFTER_NANOS ? ""
                    : Eta.label(left, eta.overrun());
            String etaCell = etaText.isEmpty() ? "" : "  " + etaText;
            String line = String.format(Locale.ROOT, "%-14s run %6d%s done  %5d ok  %4d failed  %3d in flight  %6.1f s%s",
                    label(s), s.completed(), planned, s.succeeded(), s.failed(),
                    s.inFlight(), Nanos.toSeconds(s.elapsedNanos()), etaCell);
            if (tty) {
                if (line.length() < width) {
                    line = line + " ".repeat(width - line.length()); // wipe a longer previous line
                }
                width = line.length();
            }
            synchronized (err) {
                err.print(tty ? "\r" + line : line + "\n");
                err.flush();
            }
        }

        /**
         * @return the step running now; {@code total} on the run's last line (its counts are the whole run's, as on
         *         every line); {@code starting} before the first step
         */
        static String label(IntervalSnapshot s) {
            if (s.finished()) {
                return "total";
            }
            return s.step().isEmpty() ? "starting" : s.step();
        }

        @Override
        public void onNotice(String message) {
            synchronized (err) {
                err.println((tty ? "\n" : "") + "note: " + message);
                err.flush();
            }
        }

        void done() {
            if (tty) {
                err.println();
            }
            err.flush();
        }
    }
}
