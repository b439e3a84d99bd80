package org.latencylab.app.cli;

import org.latencylab.app.report.ConsoleReport;
import org.latencylab.app.report.RunCharts;
import org.latencylab.engine.api.IntervalSnapshot;
import org.latencylab.engine.api.RunListener;
import org.latencylab.engine.experiment.RunEngine;
import org.latencylab.engine.experiment.RunHandle;
import org.latencylab.engine.experiment.RunResult;
import org.latencylab.engine.experiment.RunSpec;
import org.latencylab.engine.scenario.StepCatalog;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Runs a {@link RunSpec} headless: progress on stderr, the console table on stdout, charts into the run
 * directory, and an exit status. Ctrl-C cancels the run; finished requests stay in {@code requests.jsonl}.
 * Not thread-safe (one per command invocation).
 */
final class RunExecution {
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
        ProgressPrinter progress = new ProgressPrinter(err);
        RunHandle handle = engine.start(spec, dir, progress, overwrite);
        Thread hook = new Thread(() -> {
            if (!handle.isDone()) {
                err.println();
                err.println("latencylab: cancelling; finished requests are kept in " + dir.resolve("requests.jsonl"));
                err.flush();
                handle.cancel();
                try {
                    handle.await(java.time.Duration.ofSeconds(10));
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "latencylab-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        RunResult result = handle.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the JVM is already exiting because of Ctrl-C: the hook above finishes the run
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
        ConsoleReport.print(result, images, out);
        out.flush();
        if (result.status() == RunResult.Status.COMPLETED && result.overall() != null
                && result.overall().sent() > 0 && result.overall().succeeded() == 0) {
            err.println("latencylab: no request succeeded (" + result.overall().errorsByKind() + "); see "
                    + dir.resolve("requests.jsonl") + " for each error");
            return ExitCodes.RUN_FAILED;
        }
        return switch (result.status()) {
            case FAILED -> ExitCodes.RUN_FAILED;
            case CANCELLED -> ExitCodes.INTERRUPTED;
            case COMPLETED -> result.slosPassed() ? ExitCodes.OK : ExitCodes.SLO_FAILED;
        };
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

    /** Prints one progress line, rewritten in place when stderr is a terminal. */
    private static final class ProgressPrinter implements RunListener {
        private final PrintWriter err;
        private final boolean tty = System.console() != null;
        private long lastPrintNanos;

        ProgressPrinter(PrintWriter err) {
            this.err = err;
        }

        @Override
        public void onSnapshot(IntervalSnapshot s) {
            long now = System.nanoTime();
            if (!s.finished() && !tty && now - lastPrintNanos < 2_000_000_000L) {
                return; // in logs, one line every 2 s is plenty
            }
            lastPrintNanos = now;
            String planned = s.planned() > 0 ? "/" + s.planned() : "";
            String line = String.format(Locale.ROOT, "%-14s %6d%s done  %5d ok  %4d failed  %3d in flight  %6.1f s",
                    s.step().isEmpty() ? "-" : s.step(), s.completed(), planned, s.succeeded(), s.failed(),
                    s.inFlight(), s.elapsedNanos() / 1e9);
            synchronized (err) {
                err.print(tty ? "\r" + line : line + "\n");
                err.flush();
            }
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
