package org.latencylab.app.cli;

/** Exit statuses of the command line. */
public final class ExitCodes {
    /** Everything ran and every SLO passed. */
    public static final int OK = 0;
    /** The run completed but an SLO failed, or a conformance case failed. */
    public static final int SLO_FAILED = 1;
    /** Bad input: unknown command, malformed scenario or profile (the message names file and field). */
    public static final int BAD_INPUT = 2;
    /**
     * The run could not go on (e.g. the simulator could not start), or it ran to its end but no request succeeded
     * (e.g. nothing listens at the URL; {@code run.json} then says {@code completed}, the console says every request
     * failed).
     */
    public static final int RUN_FAILED = 3;
    /** Interrupted by the user (Ctrl-C, SIGINT); finished requests are kept, their summary printed. */
    public static final int INTERRUPTED = 130;
    /** Stopped with SIGTERM; finished requests are kept, their summary printed. */
    public static final int TERMINATED = 143;

    private ExitCodes() {
    }
}
