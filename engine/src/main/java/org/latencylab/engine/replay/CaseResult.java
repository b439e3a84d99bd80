package org.latencylab.engine.replay;

import java.util.List;
import java.util.Objects;

/**
 * The verdict on one conformance case. Immutable and thread-safe.
 *
 * @param name       the case name
 * @param status     passed, failed or skipped
 * @param mismatches one line per failed expectation, e.g. {@code "ttft_ms: expected 400..440, measured 12.3"};
 *                   for SERVER_LATE one line per timing expectation not judged; empty unless FAILED or SERVER_LATE
 * @param skipReason why the case was skipped (e.g. the protocol has no adapter), else null
 * @throws IllegalArgumentException when a FAILED result has no mismatch or a SKIPPED one no reason
 */
public record CaseResult(String name, Status status, List<String> mismatches, String skipReason) {

    /** How a case ended. */
    public enum Status {
        /** Every expectation held. */
        PASSED,
        /** At least one expectation did not hold (or the case could not be run). */
        FAILED,
        /** The case could not be checked by this version (e.g. an unknown protocol). */
        SKIPPED,
        /**
         * Every expectation the client could be judged on held, but the replay server wrote a part late enough to
         * explain a timing miss every time the case was run: not judged on timing. Not a pass, not a client failure.
         */
        SERVER_LATE
    }

    public CaseResult {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(status, "status");
        mismatches = List.copyOf(mismatches == null ? List.of() : mismatches);
        if ((status == Status.FAILED || status == Status.SERVER_LATE) && mismatches.isEmpty()) {
            throw new IllegalArgumentException("case " + name + ": a " + status + " result needs at least one mismatch");
        }
        if (status == Status.SKIPPED && (skipReason == null || skipReason.isBlank())) {
            throw new IllegalArgumentException("case " + name + ": a SKIPPED result needs a reason");
        }
    }

    /**
     * @return one line: {@code PASS name}, {@code FAIL name: m1; m2}, {@code SKIP name: reason} or
     * {@code LATE name: m1} (the server was late, the case not judged on timing)
     */
    public String line() {
        return switch (status) {
            case PASSED -> "PASS " + name;
            case FAILED -> "FAIL " + name + ": " + String.join("; ", mismatches);
            case SKIPPED -> "SKIP " + name + ": " + skipReason;
            case SERVER_LATE -> "LATE " + name + ": " + String.join("; ", mismatches);
        };
    }
}
