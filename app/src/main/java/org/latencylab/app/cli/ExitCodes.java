package org.latencylab.app.cli;

import org.latencylab.app.report.ConsoleReport;
import org.latencylab.engine.run.RunResult;

/**
 * Exit statuses of the command line, and the one rule ({@link #of(RunResult)}) that turns a run's outcome into one,
 * so that {@code run} and {@code summarize} of the same run directory exit alike. Thread-safe (constants and a pure
 * function).
 */
public final class ExitCodes {
    /** Everything ran and every SLO passed. */
    public static final int OK = 0;
    /** The run completed but an SLO failed, or a conformance case failed. */
    public static final int SLO_FAILED = 1;
    /** Bad input: unknown command, malformed scenario or profile (the message names file and field). */
    public static final int BAD_INPUT = 2;
    /**
     * The run could not go on (e.g. the simulator could not start), or it ran to its end but no request succeeded
     * (e.g. nothing listens at the URL, or a drain timeout cancelled every request; {@code run.json} then says
     * {@code completed}, the console says no request succeeded).
     */
    public static final int RUN_FAILED = 3;
    /** Interrupted by the user (Ctrl-C, SIGINT); finished requests are kept, their summary printed. */
    public static final int INTERRUPTED = 130;
    /** Stopped with SIGTERM; finished requests are kept, their summary printed. */
    public static final int TERMINATED = 143;

    private ExitCodes() {
    }

    /**
     * The exit status a run's outcome calls for, whether the run just ended ({@code run}) or was read back from its
     * directory ({@code summarize}): {@link #RUN_FAILED} when the run failed, or completed without a successful
     * request ({@link ConsoleReport#noRequestSucceeded}); {@link #SLO_FAILED} when an SLO failed; else {@link #OK}. A
     * cancelled run and one rebuilt after its process died ({@code interrupted}) are judged on the requests that
     * finished, as their summaries are; a run still {@code running} (its statuses are not final) is
     * {@link #RUN_FAILED}. How a live run was stopped (Ctrl-C, SIGTERM: 130, 143) is not in its outcome: {@code run}
     * says that itself.
     *
     * @param r a finished run, or one read back from its directory; not null
     * @return {@link #OK}, {@link #SLO_FAILED} or {@link #RUN_FAILED}
     * @throws NullPointerException when {@code r} is null
     */
    public static int of(RunResult r) {
        if (ConsoleReport.noRequestSucceeded(r)) {
            return RUN_FAILED;
        }
        return switch (r.status()) {
            case FAILED, RUNNING -> RUN_FAILED;
            case COMPLETED, CANCELLED, INTERRUPTED -> r.slosPassed() ? OK : SLO_FAILED;
        };
    }
}
